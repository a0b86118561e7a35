package locales

import (
	"regexp"
	"testing"
)

// TestRussianQuotes: Russian quotes are «ёлочки» (docs/glossary.md),
// nested ones too, never „лапки“, “English quotes” or "straight" ones
// (tags, whose attributes are quoted, are left out). An apostrophe
// belongs to an English word written in a Russian text («Choose the
// group's language» beside its Russian, in /lang), not to a quote.
func TestRussianQuotes(t *testing.T) {
	c := newCatalog(t)
	for _, key := range c.Keys() {
		for form, text := range forms(c.byLang[Russian].messages[key]) {
			if q := foreignQuotes(text); q != "" {
				t.Errorf("ru/%s (%s): %s in Russian, write «ёлочки»: %q", key, form, q, text)
			}
		}
	}
}

var (
	quoteMarksRE = regexp.MustCompile(`[„“”‟"‚‘’‛]`)
	apostropheRE = regexp.MustCompile(`\p{Latin}['’]\p{Latin}`)
)

// foreignQuotes names the first quote mark of text that is not a
// «ёлочка», or "".
func foreignQuotes(text string) string {
	text = tagRE.ReplaceAllString(text, "")
	text = apostropheRE.ReplaceAllString(text, "aa")
	if m := quoteMarksRE.FindString(text); m != "" {
		return "the quote mark " + m
	}
	if regexp.MustCompile(`'`).MatchString(text) {
		return "the quote mark '"
	}
	return ""
}

// TestEnglishQuotes: English quotes are “double curly” ones, as in every
// English text (docs/glossary.md): never ‘single’ ones, «ёлочки» or
// "straight" ones. An apostrophe (“can’t”, “players’ sets”) is no quote.
func TestEnglishQuotes(t *testing.T) {
	c := newCatalog(t)
	for _, key := range c.Keys() {
		for form, text := range forms(c.byLang[English].messages[key]) {
			if q := foreignEnglishQuotes(text); q != "" {
				t.Errorf("en/%s (%s): %s in English, write “double” quotes: %q", key, form, q, text)
			}
		}
	}
}

// englishForeignRE matches a quote mark English texts do not use: an
// opening single quote, low or reversed ones, «ёлочки», a straight double
// quote.
var englishForeignRE = regexp.MustCompile(`[„‟‚‘‛«»"]`)

// foreignEnglishQuotes names the first quote mark of text that is not an
// English “double” quote or an apostrophe, or "".
func foreignEnglishQuotes(text string) string {
	text = tagRE.ReplaceAllString(text, "")
	if m := englishForeignRE.FindString(text); m != "" {
		return "the quote mark " + m
	}
	return ""
}

func TestEnglishQuoteCheckCatches(t *testing.T) {
	for _, bad := range []string{`Switch to ‘Sausages’`, `Press «Start»`, `Press "Start"`} {
		if foreignEnglishQuotes(bad) == "" {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{`Switch to “Sausages”`, `You can’t move`, `other players’ sets`, `<a href="https://t.me/x">link</a>`, `Pro's hint`} {
		if q := foreignEnglishQuotes(good); q != "" {
			t.Errorf("false alarm on %q: %s", good, q)
		}
	}
}

func TestRussianQuoteCheckCatches(t *testing.T) {
	for _, bad := range []string{`Нажмите „Начать“`, `Нажмите “Начать”`, `Нажмите "Начать"`, `Нажмите 'Начать'`} {
		if foreignQuotes(bad) == "" {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{`Нажмите «Начать»`, `<a href="https://t.me/x">ссылка</a>`, `Choose the group's language`, `«Игра «Чехарда» окончена»`} {
		if q := foreignQuotes(good); q != "" {
			t.Errorf("false alarm on %q: %s", good, q)
		}
	}
}

// A quote that ends in «!» or «?» ends the sentence too: no period after
// it («Вы уже сказали «Счёт, пожалуйста!»», never «…!».»), in Russian and
// in English alike. A period after «…».» or an ellipsis is another matter.
var exclaimedQuoteRE = regexp.MustCompile(`[!?][»”]\.`)

// TestNoPeriodAfterExclaimedQuote reads every text of both languages (and
// the Russian of the golden files) for a period after a quote ending in
// «!» or «?».
func TestNoPeriodAfterExclaimedQuote(t *testing.T) {
	c := newCatalog(t)
	for where, text := range russianTexts(t, c) {
		if exclaimedQuoteRE.MatchString(text) {
			t.Errorf("%s: a period after a quote ending in ! or ?: %q", where, excerpt(exclaimedQuoteRE, text))
		}
	}
	for _, key := range c.Keys() {
		for form, text := range forms(c.byLang[English].messages[key]) {
			if exclaimedQuoteRE.MatchString(text) {
				t.Errorf("en/%s (%s): a period after a quote ending in ! or ?: %q", key, form, excerpt(exclaimedQuoteRE, text))
			}
		}
	}
}

func TestExclaimedQuoteCheckCatches(t *testing.T) {
	for text, want := range map[string]bool{
		"Вы уже сказали «Счёт, пожалуйста!».": true,
		"You called “Bill, please!”.":         true,
		"Кто его положил? «Катя?».":           true,
		"Вы уже сказали «Счёт, пожалуйста!»":  false,
		"Кнопка «Начать».":                    false,
		"«ЧЕХАРДА!» — рука пуста.":            false,
	} {
		if got := exclaimedQuoteRE.MatchString(text); got != want {
			t.Errorf("%q: flagged %v, want %v", text, got, want)
		}
	}
}
