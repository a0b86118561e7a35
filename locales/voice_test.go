package locales

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The habits of one voice that are not a list of words (those are the
// glossary's, TestGlossary): no gendered form addressing a player, a
// number with its noun, a move named as a noun phrase, English quotes.
// They are checked in the catalog and in the golden files, which hold the
// adapters' rendered messages: what players read.

// goldenLines returns every line of the golden files, as «path:line» →
// text.
func goldenLines(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../bot/testdata/golden/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	games, err := filepath.Glob("../bot/*/testdata/golden/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 || len(games) == 0 {
		t.Fatal("no golden files under ../bot")
	}
	out := map[string]string{}
	for _, p := range append(paths, games...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			out[p+":"+strconv.Itoa(i+1)] = line
		}
	}
	return out
}

// russianTexts is every Russian text players read: the catalog's forms
// (with their keys) and the golden lines.
func russianTexts(t *testing.T, c *Catalog) map[string]string {
	t.Helper()
	out := goldenLines(t)
	for _, key := range c.Keys() {
		for form, text := range forms(c.byLang[Russian].messages[key]) {
			out["ru/"+key+" ("+form+")"] = text
		}
	}
	return out
}

// Gendered forms. A player's gender is unknown, so a sentence that
// addresses them («вы», «ваш…») must not use a singular short adjective
// or past tense («вы сам» is wrong, «вы сами» right), and a button, which
// speaks for the player, must not use one at all («🙋 Я снова в игре», not
// «играю сам»). Third persons («претендент сам выбирает») and the bot
// itself («я сделал ход») are not addressed and not checked.

// genderedForms are singular forms that show a gender. Past tenses the
// bot says of itself («сделал», «ходил») are left out on purpose.
var genderedForms = []string{
	"сам", "сама", "готов", "готова", "уверен", "уверена", "должен", "должна",
	"согласен", "согласна", "рад", "рада", "занят", "занята", "свободен", "свободна",
	"вернулся", "вернулась", "вышел", "вышла", "выбыл", "выбыла", "взял", "взяла",
	"брал", "брала", "смог", "смогла", "успел", "успела", "опоздал", "опоздала",
	"забыл", "забыла", "выиграл", "выиграла", "проиграл", "проиграла", "победил", "победила",
	"пропустил", "пропустила", "сыграл", "сыграла", "ушёл", "ушла",
}

var (
	genderedRE  = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(` + strings.Join(genderedForms, "|") + `)(?:$|[^\p{L}])`)
	addressedRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(вы|вас|вам|вами|ваш\p{L}*)(?:$|[^\p{L}])`)
	sentenceRE  = regexp.MustCompile(`[^.!?…\n]+`)
)

// isButtonKey reports whether a catalog key is a button's label.
func isButtonKey(key string) bool {
	return strings.HasSuffix(strings.Fields(key)[0], "button") || strings.Contains(key, ".btn.") ||
		slices.Contains([]string{"stop.yes", "stop.no", "leave.yes", "leave.no", "forget.yes", "forget.no"}, strings.Fields(key)[0][3:])
}

// genderedProblems lists the sentences of text that address a player with
// a gendered form; a button's every sentence speaks for the player.
func genderedProblems(text string, button bool) []string {
	var out []string
	for _, s := range sentenceRE.FindAllString(text, -1) {
		if genderedRE.MatchString(s) && (button || addressedRE.MatchString(s)) {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

func TestNoGenderedAddress(t *testing.T) {
	c := newCatalog(t)
	for where, text := range russianTexts(t, c) {
		button := strings.HasPrefix(where, "ru/") && isButtonKey(where)
		if strings.Contains(where, "golden") && strings.HasPrefix(text, "[") {
			button = true // a golden file's keyboard row: [label] [label]
		}
		for _, p := range genderedProblems(text, button) {
			t.Errorf("%s: a gendered form addresses the player: %q", where, p)
		}
	}
}

func TestGenderedCheckCatches(t *testing.T) {
	for _, bad := range []struct {
		text   string
		button bool
	}{
		{"Вы и так играете сам.", false},
		{"Вы готов начать?", false},
		{"Если вы вернулся, нажмите кнопку.", false},
		{"🙋 Я снова здесь — играю сам", true},
		{"Ваш ход пропустил бот, а вы уверена?", false},
	} {
		if len(genderedProblems(bad.text, bad.button)) == 0 {
			t.Errorf("not caught: %q", bad.text)
		}
	}
	for _, good := range []struct {
		text   string
		button bool
	}{
		{"Вы и так играете сами.", false},
		{"🙋 Я снова в игре", true},
		{"Претендент сам выбирает, какую карту потерять.", false},
		{"⏰ Время вышло, и я сделал ход за вас.", false},
		{"Наткнулся на свой сапог — выбирает сам. Ваш ход!", false},
	} {
		if p := genderedProblems(good.text, good.button); len(p) != 0 {
			t.Errorf("false alarm on %q: %q", good.text, p)
		}
	}
}

// Numbers with their nouns. A count is shown as «в стопке 2 карты», «1
// успех из 2», never «взяток 1», «в стопке 1», «успехов 0 из 2». The
// check has three parts: a noun in the genitive plural before its number
// (catalog and golden files); a place («в стопке», «на столе» …) followed
// by a bare number (golden files, where numbers are rendered); and
// {{.Count}} in a message with no plural forms, other than after a label's
// colon («Игроки: 3»).

var (
	nounBeforeNumberRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(взяток|карт|успехов|очков|монет|шефов|игроков|сетов|раундов|ходов|секунд|минут)\s+(\d|\{\{\s*\.(?:Count|N|Wins|Stack|Owned|Tricks|Coins|Cards|Total|Points|Score|Hand|Sets|Bid|Done|Target|Pile|Discard|Reserve)\b)`)
	placeNumberRE      = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(в стопке|на столе|в руке|на руке|в колоде|в резерве|в сбросе)\s+(\d+)([^\n]*)`)
	followedByNounRE   = regexp.MustCompile(`^(?:\s+из\s+\d+)?\s+\p{L}`)
	countRE            = regexp.MustCompile(`\{\{\s*\.Count\s*\}\}`)
	labelCountRE       = regexp.MustCompile(`:\s*\{\{\s*\.Count\s*\}\}`)
)

// numberProblems lists the numbers of text shown without their noun.
func numberProblems(text string) []string {
	var out []string
	for _, m := range nounBeforeNumberRE.FindAllString(text, -1) {
		out = append(out, strings.TrimSpace(m))
	}
	for _, m := range placeNumberRE.FindAllStringSubmatch(text, -1) {
		if !followedByNounRE.MatchString(m[3]) {
			out = append(out, m[1]+" "+m[2])
		}
	}
	return out
}

func TestNumbersWithNouns(t *testing.T) {
	c := newCatalog(t)
	for where, text := range russianTexts(t, c) {
		for _, p := range numberProblems(text) {
			t.Errorf("%s: a number without its noun: %q", where, p)
		}
	}
	for _, key := range c.Keys() {
		m := c.byLang[Russian].messages[key]
		if isPlural(m) {
			continue
		}
		if n, labelled := len(countRE.FindAllString(m.Other, -1)), len(labelCountRE.FindAllString(m.Other, -1)); n > labelled {
			t.Errorf("ru/%s: {{.Count}} in a message with no plural forms: make it plural, so the noun agrees: %q", key, m.Other)
		}
	}
}

func TestNumberCheckCatches(t *testing.T) {
	for _, bad := range []string{
		"Оля — 🃏1 · взяток 1 · 🪙2",
		"Оля — успехов 0 из 2 · в стопке 1 · всего карт 4",
		"Поднимите (до 6) или спасуйте: на столе 4.",
		"в руке 3",
	} {
		if len(numberProblems(bad)) == 0 {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{
		"Оля — 0 успехов из 2 · в стопке 1 карта · всего 4 карты",
		"🂠 В колоде 51 карта · раздача после 3 секунд тишины",
		"На столе: Серёжа 🟦4, Маша 🟩9",
		"Шефы в центре: 🟥1 🟦2 · в резерве 17 монет",
		"<b>На столе</b> · в колоде 12 карт:",
	} {
		if p := numberProblems(good); len(p) != 0 {
			t.Errorf("false alarm on %q: %q", good, p)
		}
	}
}

// Moves as noun phrases. Once a move is made, it is named as a thing that
// happened — «ставка 3», «карта 🂠 2», «🌭 в стопку» — not by the button that
// made it («Положить 🌭»), a bare number or a verb. The catalog's move names
// (<game>.move.*) are checked, and so are the golden files' lines that
// name a move: the toast and the confirmation («Ход принят: …»), the
// timeout («…ход за вас: …») and a hint («… подсказывает: … — …»).

var (
	movedLineRE = regexp.MustCompile(`(?:Ход принят: |ход за вас: |подсказывает: )(.+)`)
	// A verb's infinitive or imperative: «положить», «взять», «тянуть»,
	// «сбросьте», «возьмите».
	verbRE = regexp.MustCompile(`(?i)^(?:\P{L}*)(\p{L}+(?:ть|ться|чь|йте|ите|ьте))(?:$|[^\p{L}])`)
	bareRE = regexp.MustCompile(`^[\d\s🂠]*$`)
)

// moveNameProblem says why a move's name is not a noun phrase, or "".
func moveNameProblem(name string) string {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "empty"
	case bareRE.MatchString(name):
		return "a bare number"
	}
	if m := verbRE.FindStringSubmatch(name); m != nil {
		return "starts with the verb «" + m[1] + "»"
	}
	return ""
}

func TestMovesAreNounPhrases(t *testing.T) {
	c := newCatalog(t)
	n := 0
	for _, key := range c.Keys() {
		if !regexp.MustCompile(`^[a-z0-9_]+\.move\.`).MatchString(key) {
			continue
		}
		n++
		for _, lang := range c.Langs() {
			if p := moveNameProblem(c.T(lang, key, "Card", "🌭", "N", "3", "Name", "Оля", "Suit", "🟥",
				"Coins", "1", "Delta", "+2", "Value", "11", "Lost", "−🍝", "Direction", "↻", "Dish", "🍅",
				"Set", "🐷×3", "Victim", "Оля", "Emoji", "🐷")); p != "" && lang == Russian {
				t.Errorf("%s/%s: a move's name %s", lang, key, p)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d move names (<game>.move.*) in the catalog", n)
	}
	for where, line := range goldenLines(t) {
		m := movedLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name, _, _ := strings.Cut(m[1], " — ")
		name = strings.TrimSuffix(strings.TrimSuffix(name, `")`), ".")
		if strings.HasPrefix(m[0], "подсказывает: ") && strings.HasPrefix(name, "подождите") {
			continue // «wait» is advice, not a move
		}
		if strings.HasPrefix(name, "лучший ход сейчас") {
			continue
		}
		if p := moveNameProblem(name); p != "" {
			t.Errorf("%s: a move named %q: %s", where, name, p)
		}
	}
}

func TestMoveNameCheckCatches(t *testing.T) {
	for _, bad := range []string{"Положить 🌭", "3", "🂠 2", "♻️ Взять 🍅 из сброса", "сбросьте 🍝"} {
		if moveNameProblem(bad) == "" {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{"ставка 3", "карта 🂠 2", "🌭 в стопку", "🥗 Диета → Катя: −🍝", "Шеф 🟥", "карта из колоды", "⚡ кража 🐷×3 ← Оля"} {
		if p := moveNameProblem(good); p != "" {
			t.Errorf("false alarm on %q: %s", good, p)
		}
	}
}
