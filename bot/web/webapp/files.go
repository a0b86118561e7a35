package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// The page's files are served from memory, prepared once: each with a
// strong ETag (its content's hash) and a gzip copy. index.html names its
// script and style with their hash (app.js?v=…), so those are cached for a
// year and a new build is fetched at once; index.html itself is
// revalidated on every open (a 304 when unchanged).

// file is one prepared static file.
type file struct {
	body, gz []byte
	ctype    string
	etag     string
	// cache is its Cache-Control.
	cache string
}

// files are the page's files by URL path ("/" is index.html).
type files map[string]*file

// assetCache is how long a hashed file is kept: it never changes under
// its name.
const assetCache = "public, max-age=31536000, immutable"

// prepareFiles reads the embedded files, names the hashed ones in the
// style sheets (url("…")) and then in index.html, and compresses
// everything.
func prepareFiles(src fs.FS) files {
	out := files{}
	hashes := map[string]string{}
	var sheets []string
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "index.html" {
			return err
		}
		if path.Ext(p) == ".css" {
			sheets = append(sheets, p) // after the files they name
			return nil
		}
		body, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		f := newFile(p, body, assetCache)
		hashes[p] = f.etag[1:9]
		out["/"+p] = f
		return nil
	})
	if err != nil {
		panic(err) // the embedded tree is readable: cannot fail
	}
	named := maps.Clone(hashes)
	for _, p := range sheets {
		body, err := fs.ReadFile(src, p)
		if err != nil {
			panic(err)
		}
		for name, h := range named {
			body = bytes.ReplaceAll(body, []byte(`url("`+name+`")`), []byte(`url("`+name+"?v="+h+`")`))
		}
		f := newFile(p, body, assetCache)
		hashes[p] = f.etag[1:9]
		out["/"+p] = f
	}
	index, err := fs.ReadFile(src, "index.html")
	if err != nil {
		panic(err)
	}
	for name, h := range hashes {
		for _, attr := range []string{`src="`, `href="`} {
			index = bytes.ReplaceAll(index, []byte(attr+name+`"`), []byte(attr+name+"?v="+h+`"`))
		}
	}
	page := newFile("index.html", index, "no-cache")
	out["/"], out["/index.html"] = page, page
	// Browsers ask for /favicon.ico whatever the page says.
	if ico, ok := out["/favicon.svg"]; ok {
		out["/favicon.ico"] = ico
	}
	return out
}

func newFile(name string, body []byte, cache string) *file {
	sum := sha256.Sum256(body)
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = w.Write(body)
	_ = w.Close()
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = http.DetectContentType(body)
	}
	f := &file{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:16]) + `"`, cache: cache}
	if gz.Len() < len(body) {
		f.gz = gz.Bytes()
	}
	return f
}

// serve answers GET and HEAD of a file: 304 when the page has it, gzip
// when the page takes it.
func (fs files) serve(w http.ResponseWriter, r *http.Request) {
	f, ok := fs[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", f.cache)
	h.Set("Vary", "Accept-Encoding")
	body, etag := f.body, f.etag
	if f.gz != nil && acceptsGzip(r) {
		body, etag = f.gz, strings.TrimSuffix(f.etag, `"`)+`-gz"`
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && (match == etag || match == "*" || strings.Contains(match, etag)) {
		h.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// acceptsGzip reports whether the request takes a gzip body.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
