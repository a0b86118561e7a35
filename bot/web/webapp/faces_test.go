package webapp_test

import (
	"encoding/binary"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/trickchef/trickchef/bot/web/webapp"
)

// The page draws card faces with the emoji of static/faces.ttf, a subset
// of Noto Color Emoji (SIL Open Font License) holding every emoji the
// games' adapters and cards, the texts and the page use, so a face never
// depends on the device having a colour-emoji font (and the page's other
// emoji fall back to it where the device has none). Regenerate it after adding an emoji (needs
// Debian's fonts-noto-color-emoji and python3-fonttools, run by /usr/bin/python3):
//
//	go test ./bot/web/webapp -run TestFacesFont -faces.regenerate

var regenerateFaces = flag.Bool("faces.regenerate", false, "rewrite static/faces.ttf from Noto Color Emoji with every emoji the games use")

const notoEmoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

// gameEmoji lists every emoji sequence in the games' adapters and card
// definitions (their non-test Go files), in the texts and in the page:
// what a face, or the page, can show.
func gameEmoji(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../../*/*.go", "../../../game/*/*.go", "../../../locales/*.toml", "static/app.js"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	seen := map[string]bool{}
	for _, f := range files {
		// The page's own files are scanned as static/app.js; the tables'
		// controls (a rules page's ◀ ▶) are the chat's, never the page's.
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "../../web/") || strings.HasPrefix(f, "../../tables/") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var run []rune
		flush := func() {
			if len(run) > 0 {
				seen[string(run)] = true
				run = run[:0]
			}
		}
		for _, r := range string(src) {
			switch {
			case isEmoji(r):
				run = append(run, r)
			case (r == 0x200d || r == 0xfe0f) && len(run) > 0:
				run = append(run, r)
			default:
				flush()
			}
		}
		flush()
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// isEmoji reports a rune of the emoji blocks the games draw from. Playing
// card symbols (but 🃏), ★ and ✕ are text, drawn by the page's text fonts.
func isEmoji(r rune) bool {
	if r >= 0x1f0a0 && r <= 0x1f0ff && r != 0x1f0cf || r == 0x2605 || r == 0x2715 {
		return false
	}
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2600 && r <= 0x27bf || r >= 0x2b00 && r <= 0x2bff ||
		r == 0x2139 || r >= 0x2194 && r <= 0x21aa || r >= 0x231a && r <= 0x23ff || r == 0x25aa || r == 0x25ab ||
		r == 0x25b6 || r == 0x25c0 || r >= 0x25fb && r <= 0x25fe
}

// TestFacesFont checks that static/faces.ttf has a glyph for every code
// point of every emoji the games use.
func TestFacesFont(t *testing.T) {
	emoji := gameEmoji(t)
	if len(emoji) < 20 {
		t.Fatalf("found only %d emoji in the games' sources: the scan is broken", len(emoji))
	}
	if *regenerateFaces {
		args := []string{"-m", "fontTools.subset", notoEmoji, "--text=" + strings.Join(emoji, ""), "--layout-features=*",
			"--output-file=static/faces.ttf", "--no-hinting", "--desubroutinize"}
		if out, err := exec.Command("/usr/bin/python3", args...).CombinedOutput(); err != nil {
			t.Fatalf("fontTools.subset: %v\n%s", err, out)
		}
	}
	font, err := fs.ReadFile(webapp.Static(), "faces.ttf")
	if *regenerateFaces {
		font, err = os.ReadFile("static/faces.ttf")
	}
	if err != nil {
		t.Fatal(err)
	}
	covered, err := cmapCoverage(font)
	if err != nil {
		t.Fatalf("faces.ttf: %v", err)
	}
	for _, e := range emoji {
		for _, r := range e {
			if r == 0x200d || r == 0xfe0f || unicode.IsSpace(r) {
				continue
			}
			if !covered[r] {
				t.Errorf("faces.ttf has no glyph for %q (U+%04X): regenerate it (see the comment above)", e, r)
			}
		}
	}
	t.Logf("faces.ttf: %d bytes, %d emoji", len(font), len(emoji))
}

// cmapCoverage reads the code points a TrueType font maps (its format 12
// or format 4 cmap subtable).
func cmapCoverage(font []byte) (map[rune]bool, error) {
	u16 := func(b []byte, i int) int { return int(binary.BigEndian.Uint16(b[i:])) }
	u32 := func(b []byte, i int) int { return int(binary.BigEndian.Uint32(b[i:])) }
	if len(font) < 12 {
		return nil, errors.New("too short")
	}
	var cmap []byte
	for i, n := 0, u16(font, 4); i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(font) {
			return nil, errors.New("truncated table directory")
		}
		if string(font[rec:rec+4]) == "cmap" {
			off, length := u32(font, rec+8), u32(font, rec+12)
			if off+length > len(font) {
				return nil, errors.New("truncated cmap")
			}
			cmap = font[off : off+length]
		}
	}
	if cmap == nil {
		return nil, errors.New("no cmap table")
	}
	out := map[rune]bool{}
	for i, n := 0, u16(cmap, 2); i < n; i++ {
		sub := cmap[u32(cmap, 4+8*i+4):]
		switch u16(sub, 0) {
		case 12:
			for g := 0; g < u32(sub, 12); g++ {
				start, end := u32(sub, 16+12*g), u32(sub, 16+12*g+4)
				for r := start; r <= end; r++ {
					out[rune(r)] = true
				}
			}
		case 4:
			segs := u16(sub, 6) / 2
			for s := 0; s < segs; s++ {
				end, start := u16(sub, 14+2*s), u16(sub, 16+2*segs+2*s)
				for r := start; r <= end && r != 0xffff; r++ {
					out[rune(r)] = true
				}
			}
		}
	}
	return out, nil
}
