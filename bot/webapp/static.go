package webapp

import (
	"embed"
	"io/fs"
)

//go:embed static
var files embed.FS

// Static is the page's files.
func Static() fs.FS { s, _ := fs.Sub(files, "static"); return s }

// TextKeys are the page's words.
func TextKeys() []string { return []string{"loading"} }
