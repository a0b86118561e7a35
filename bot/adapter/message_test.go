package adapter

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	short := []string{"", "hi", "<b>Трик-н-Шеф</b>", strings.Repeat("ж", maxMessageUnits), strings.Repeat("a", maxMessageUnits)}
	for _, s := range short {
		if got := Clip(s); got != s {
			t.Errorf("clip changed a text of %d runes", utf8.RuneCountInString(s))
		}
	}
	for _, n := range []int{maxMessageUnits + 1, maxMessageUnits + 100, 3 * maxMessageUnits} {
		for _, unit := range []string{"a", "ж", "♠"} {
			s := strings.Repeat(unit, n)
			got := Clip(s)
			if !utf8.ValidString(got) {
				t.Fatalf("Clip(%d × %q) split a rune", n, unit)
			}
			body, ok := strings.CutSuffix(got, "…")
			if !ok {
				t.Errorf("Clip(%d × %q) does not end with an ellipsis", n, unit)
			}
			if c := utf8.RuneCountInString(body); c != maxMessageUnits {
				t.Errorf("Clip(%d × %q) kept %d runes, want %d", n, unit, c, maxMessageUnits)
			}
			if !strings.HasPrefix(s, body) {
				t.Errorf("Clip(%d × %q) is not a prefix of the text", n, unit)
			}
			if c := utf8.RuneCountInString(got); c > maxMessageUnits+1 {
				t.Errorf("Clip(%d × %q) has %d runes", n, unit, c)
			}
			if again := Clip(got); again != got {
				t.Errorf("clip is not idempotent on %d × %q", n, unit)
			}
		}
	}
}

// TestClipUTF16 checks the limit the way Telegram counts it: 4096 UTF-16
// code units, where a character outside the BMP (most emoji) takes two.
func TestClipUTF16(t *testing.T) {
	for _, n := range []int{2100, maxMessageUnits, 5000} {
		got := Clip(strings.Repeat("😀", n))
		if units := len(utf16.Encode([]rune(got))); units > 4096 {
			t.Errorf("Clip(%d emoji) is %d UTF-16 units, Telegram allows 4096", n, units)
		}
	}
}

// TestClipKeepsHTML: a text cut at the limit is still HTML Telegram
// accepts — never cut inside a tag or a character reference, the tags left
// open closed — and the limit counts what Telegram shows (tags count
// nothing, «&amp;» one character).
func TestClipKeepsHTML(t *testing.T) {
	for shift := 0; shift < 12; shift++ {
		pad := strings.Repeat("a", maxMessageUnits-6+shift)
		s := "<b>" + pad + `&amp;<a href="https://t.me/x">ссылка</a> и <i>ещё</i></b>` + strings.Repeat("z", 50)
		got := Clip(s)
		if strings.Count(got, "<b>") != strings.Count(got, "</b>") || strings.Count(got, "<a ") != strings.Count(got, "</a>") ||
			strings.Count(got, "<i>") != strings.Count(got, "</i>") {
			t.Errorf("shift %d: tags left open: %q", shift, got[len(got)-min(len(got), 80):])
		}
		for i := 0; i < len(got); i++ {
			if got[i] == '&' && !strings.HasPrefix(got[i:], "&amp;") {
				t.Errorf("shift %d: a character reference cut: %q", shift, got[i:min(len(got), i+8)])
			}
			if got[i] == '<' && !strings.Contains(got[i:], ">") {
				t.Errorf("shift %d: a tag cut: %q", shift, got[i:])
			}
		}
		shown := 0
		for i := 0; i < len(got); {
			switch got[i] {
			case '<':
				i += strings.IndexByte(got[i:], '>') + 1
			case '&':
				i += strings.IndexByte(got[i:], ';') + 1
				shown++
			default:
				r, n := utf8.DecodeRuneInString(got[i:])
				shown += utf16.RuneLen(r)
				i += n
			}
		}
		if shown > maxMessageUnits+1 {
			t.Errorf("shift %d: %d units shown", shift, shown)
		}
	}
	if got := Clip("<b>" + strings.Repeat("a", maxMessageUnits) + "</b>"); got != "<b>"+strings.Repeat("a", maxMessageUnits)+"</b>" {
		t.Error("a text whose tags take it past the limit, but not what it shows, was cut")
	}
}

func TestUpperFirst(t *testing.T) {
	for in, want := range map[string]string{"": "", "ноябрь 2026": "Ноябрь 2026", "November": "November", "ёж": "Ёж"} {
		if got := UpperFirst(in); got != want {
			t.Errorf("UpperFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
