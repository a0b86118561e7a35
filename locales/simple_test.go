package locales

import (
	"testing"
)

// Substitution must say exactly what go-i18n says, for every message of the
// catalog, every plural form and the values the bot passes (strings, ints).
func TestSimpleMatchesLocalizer(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	counts := []int{0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112, 1000, 1001, -1, -3}
	checked := 0
	for _, lang := range c.Langs() {
		lc := c.byLang[lang]
		for key, sm := range lc.simple {
			msg := lc.messages[key]
			fields := map[string]bool{}
			for _, text := range sm {
				for _, p := range text {
					if p.field != "" && p.field != CountArg {
						fields[p.field] = true
					}
				}
			}
			for _, n := range counts {
				args := []any{CountArg, n}
				i := 0
				for f := range fields {
					i++
					if i%2 == 0 {
						args = append(args, f, i*7)
					} else {
						args = append(args, f, "‹"+f+"›")
					}
				}
				got, gotErr := c.Render(lang, key, args...)
				want, wantErr := c.localize(lc, lang, key, msg, args)
				if got != want || (gotErr == nil) != (wantErr == nil) {
					t.Errorf("%s/%s with %v: %q (%v), go-i18n says %q (%v)", lang, key, args, got, gotErr, want, wantErr)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no message is rendered by substitution")
	}
}

func TestSimpleMissingArgumentFails(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for key, sm := range c.byLang[Russian].simple {
		for _, text := range sm {
			for _, p := range text {
				if p.field != "" && p.field != CountArg {
					if s, err := c.Render(Russian, key, CountArg, 1); err == nil {
						t.Errorf("%s without %s rendered %q", key, p.field, s)
					}
					return
				}
			}
		}
	}
	t.Fatal("no message with a placeholder")
}

func TestParseSimple(t *testing.T) {
	for src, simple := range map[string]bool{
		"plain":                      true,
		"{{.Name}} and {{ .Count }}": true,
		"{{if .X}}a{{end}}":          false,
		"{{.A.B}}":                   false,
		"{{- .A}}":                   false,
		"{{.A | printf \"%d\"}}":     false,
		"{{.A":                       false,
		"}} alone":                   true,
	} {
		if _, ok := parseSimple(src); ok != simple {
			t.Errorf("parseSimple(%q) = %v", src, ok)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	c, err := New()
	if err != nil {
		b.Fatal(err)
	}
	var key string
	for k, sm := range c.byLang[Russian].simple {
		if len(sm) > 1 {
			key = k
			break
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		c.T(Russian, key, CountArg, 5, "Name", "Аня", "Card", "🥗")
	}
}
