package webapp_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/locales"
)

func readStatic(t *testing.T, name string) string {
	t.Helper()
	data, err := fs.ReadFile(webapp.Static(), name)
	if err != nil {
		t.Fatalf("Static: %v", err)
	}
	return string(data)
}

// TestStaticFiles checks the page is embedded at the root of Static and
// keeps to the Content-Security-Policy the server sends (script-src and
// style-src 'self'): no inline script, style or handler.
func TestStaticFiles(t *testing.T) {
	index := readStatic(t, "index.html")
	readStatic(t, "app.js")
	readStatic(t, "app.css")
	for _, want := range []string{`<script src="app.js" defer>`, `<link rel="stylesheet" href="app.css">`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(index, -1) {
		if !strings.Contains(tag, " src=") {
			t.Errorf("index.html: inline script %s", tag)
		}
	}
	if regexp.MustCompile(`(?i)<style|\sstyle=|\son[a-z]+=|javascript:`).MatchString(index) {
		t.Error("index.html: inline style or handler")
	}
	if regexp.MustCompile(`https?://`).MatchString(strings.ReplaceAll(readStatic(t, "app.css"), "http://www.w3.org", "")) {
		t.Error("app.css loads something from another origin")
	}
}

// TestScriptIsSafe keeps app.js from the ways untrusted text could become
// markup or code, and from styles the CSP would block.
func TestScriptIsSafe(t *testing.T) {
	js := readStatic(t, "app.js")
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
		"new Function", "setAttribute('style'", "cssText", "<script"} {
		if strings.Contains(js, bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
	if strings.Count(js, "app.texts[") != 1 {
		t.Error("app.js must read its words only through t('key')")
	}
}

// TestTextKeys checks that every word the page shows is in both catalogs
// as plain text without placeholders (the server copies them as they
// are), and that app.js asks for exactly the keys TextKeys lists.
func TestTextKeys(t *testing.T) {
	c, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	keys := webapp.TextKeys()
	sorted := slices.Sorted(slices.Values(keys))
	if len(slices.Compact(sorted)) != len(keys) {
		t.Errorf("TextKeys has duplicates: %v", keys)
	}
	for _, k := range append(slices.Clone(keys), "button", "auth", "not_found", "bad_request", "rate_limited", "no_replay") {
		for _, lang := range c.Langs() {
			s, err := c.Render(lang, "web."+k)
			if err != nil {
				t.Errorf("%s/web.%s: %v", lang, k, err)
				continue
			}
			if strings.ContainsAny(s, "<>&{}") {
				t.Errorf("%s/web.%s is not plain text: %q", lang, k, s)
			}
		}
	}
	used := map[string]bool{}
	code := regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAllString(readStatic(t, "app.js"), "")
	code = strings.Replace(code, "function t(key)", "", 1)
	for _, m := range regexp.MustCompile(`\bt\(([^)]*)\)`).FindAllStringSubmatch(code, -1) {
		arg := m[1]
		k, ok := strings.CutPrefix(arg, "'")
		k, ok2 := strings.CutSuffix(k, "'")
		if !ok || !ok2 || strings.ContainsAny(k, "' ") {
			t.Errorf("app.js: t(%s): the key must be a string literal", arg)
			continue
		}
		used[k] = true
	}
	for k := range used {
		if !slices.Contains(keys, k) {
			t.Errorf("app.js uses t('%s'), missing from TextKeys", k)
		}
	}
	for _, k := range keys {
		if !used[k] {
			t.Errorf("TextKeys lists %q, which app.js does not use", k)
		}
	}
}

// TestFixtures checks the dev server's canned states (testdata/*.json)
// still match web.State, field for field.
func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var st web.State
		if err := dec.Decode(&st); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
