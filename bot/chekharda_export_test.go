package bot

import (
	"html"
	"regexp"
)

// Test hooks for the external tests of Чехарда (package bot_test).

// ChekhardaSeatText is seat's private message of the table's game as a
// chat shows it (tags stripped, entities decoded): how a measurement
// recognises which state a message in a private chat shows.
func ChekhardaSeatText(tr Translator, t *Table, seat int) (string, error) {
	g := Chekharda()
	st, err := g.Decode(t.Game)
	if err != nil {
		return "", err
	}
	m := g.RenderSeat(Loc{tr: tr, lang: t.Lang}, t, st, seat)
	tags := regexp.MustCompile(`<[^>]*>`)
	return html.UnescapeString(tags.ReplaceAllString(clip(m.Text), "")), nil
}
