package locales

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Card names decline: after «тянет», «Вы вытянули», «играет» … a card is the
// verb's object and takes the accusative («тянет 🥗 Диету», «вытянули 👨‍🍳
// Шефа»); after «без», «для», «у», «из», «от», «до» it takes the genitive. The
// catalog keeps each name's nominative (chef.card.<id>) and accusative
// (chef.card_acc.<id>); the adapter picks the form for each template. This
// test reads what players read — every Russian catalog text and the golden
// files, which hold the adapters' rendered messages — and fails on a card
// name in the nominative where the governing word wants another case.

// accusativeWords govern the accusative of their object.
var accusativeWords = []string{
	"тянет", "тянуть", "тяните", "вытянули", "вытянуть", "вытянув", "вытяните", "вытягивает",
	"сбрасывает", "сбросить", "сбросьте", "сбросили",
	"берёт", "взять", "возьмите", "взяли", "забирает", "забрать", "заберите",
	"играет", "сыграть", "сыграйте", "сыграли", "разыгрывает",
	"получает", "получить", "получили", "крадёт", "украсть",
	"кладёт", "положить", "положите", "выкладывает", "открывает", "открыть", "теряет", "потерять",
	"выбирает", "выберите",
}

// genitiveWords are prepositions that govern the genitive. Every card name
// of the catalog differs between the nominative and the genitive, so a
// nominative after one of them is always wrong.
var genitiveWords = []string{"без", "для", "у", "из", "от", "до", "кроме", "вместо"}

// cardName is one card name in the forms the catalog gives it.
type cardName struct {
	key      string
	nom, acc string
}

// chefCardNames returns every Меню шефа card name with its accusative, and
// fails unless each chef.card.<id> has its chef.card_acc.<id>.
func chefCardNames(t *testing.T, c *Catalog) []cardName {
	t.Helper()
	var names []cardName
	for _, key := range c.Keys() {
		id, ok := strings.CutPrefix(key, "chef.card.")
		if !ok {
			continue
		}
		acc := "chef.card_acc." + id
		if !c.Has(acc) {
			t.Errorf("%s has no accusative %s", key, acc)
			continue
		}
		names = append(names, cardName{key: key, nom: c.T(Russian, key), acc: c.T(Russian, acc)})
	}
	if len(names) == 0 {
		t.Fatal("no chef.card.* names in the catalog")
	}
	return names
}

// caseChecker finds card names in the wrong case in a text.
type caseChecker struct {
	re    *regexp.Regexp
	byNom map[string]cardName
}

func newCaseChecker(names []cardName) *caseChecker {
	ch := &caseChecker{byNom: make(map[string]cardName)}
	var noms []string
	for _, n := range names {
		ch.byNom[strings.ToLower(n.nom)] = n
		noms = append(noms, regexp.QuoteMeta(n.nom))
	}
	// Longest first, so «Пустое меню» wins over a shorter name it starts with.
	slices.SortFunc(noms, func(a, b string) int { return len(b) - len(a) })
	words := append(slices.Clone(accusativeWords), genitiveWords...)
	// A governing word, then optionally «из сброса» or «из колоды» and an
	// emoji (any run of non-letters), then a nominative card name; Go's \b
	// knows only ASCII, so word edges are spelled out.
	ch.re = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(` + strings.Join(words, "|") + `)\s+` +
		`(?:из\s+\p{L}+\s+)?(?:[^\p{L}\s]+\s+)?(` + strings.Join(noms, "|") + `)(?:$|[^\p{L}])`)
	return ch
}

// problems lists each wrong form in s as «governing word … name → right form».
func (ch *caseChecker) problems(s string) []string {
	var out []string
	for _, m := range ch.re.FindAllStringSubmatch(s, -1) {
		word, name := strings.ToLower(m[1]), ch.byNom[strings.ToLower(m[2])]
		switch {
		case slices.Contains(genitiveWords, word):
			out = append(out, m[0]+" → genitive of "+name.key)
		case name.acc != name.nom:
			out = append(out, m[0]+" → "+name.acc)
		}
	}
	return out
}

func TestCardCases(t *testing.T) {
	c := newCatalog(t)
	ch := newCaseChecker(chefCardNames(t, c))
	for _, key := range c.Keys() {
		for form, src := range forms(c.byLang[Russian].messages[key]) {
			for _, p := range ch.problems(src) {
				t.Errorf("ru/%s (%s): card name in the wrong case: %q", key, form, p)
			}
		}
	}
	golden, err := filepath.Glob("../bot/testdata/golden/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	games, err := filepath.Glob("../bot/*/testdata/golden/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	golden = append(golden, games...)
	if len(games) == 0 {
		t.Fatal("no golden files of the games found under ../bot/*/testdata/golden")
	}
	for _, path := range golden {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, p := range ch.problems(line) {
				t.Errorf("%s:%d: card name in the wrong case: %q", path, i+1, p)
			}
		}
	}
}

// TestCaseCheckerCatches feeds the checker the mistakes players quoted, and
// their corrections, so the check cannot silently go blind.
func TestCaseCheckerCatches(t *testing.T) {
	c := newCatalog(t)
	ch := newCaseChecker(chefCardNames(t, c))
	for _, bad := range []string{
		"Робот 1 тянет 👨‍🍳 Шеф",
		"<b>Вы вытянули 🥗 Диета.</b>",
		"Оля тянет 🍽 Пустая тарелка, сбрасывает 🍝",
		"Маша → играет 🥗 Диета → Оля",
		"берёт из сброса 👨‍🍳 Шеф",
		"Счёт без Шеф не взять",
	} {
		if len(ch.problems(bad)) == 0 {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{
		"Робот 1 тянет 👨‍🍳 Шефа",
		"<b>Вы вытянули 🥗 Диету.</b>",
		"Оля тянет 🍽 Пустую тарелку, сбрасывает 🍝",
		"Оля тянет 🥴 Похмелье → Артём",
		"Сверху сброса: 🥗 Диета",
		"Дима → 👨‍🍳 Шеф → Катя: забирает 🍅",
		"Маша получает Шефа 🟥",
		"тянет 📄 Пустое меню",
	} {
		if p := ch.problems(good); len(p) != 0 {
			t.Errorf("false alarm on %q: %q", good, p)
		}
	}
}
