package chekharda

import (
	"html"
	"regexp"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// Test hooks for the external tests of Чехарда (package chekharda_test).

// SeatText is seat's private message of the table's game as a chat shows
// it (cut as the platform cuts it, tags stripped, entities decoded): how a
// measurement recognises which state a message in a private chat shows.
func SeatText(tr adapter.Translator, t *record.Table, seat int) (string, error) {
	g := Game()
	st, err := g.Decode(t.State)
	if err != nil {
		return "", err
	}
	m := g.RenderSeat(adapter.NewLoc(tr, t.Lang), adapter.View(t), st, seat)
	tags := regexp.MustCompile(`<[^>]*>`)
	return html.UnescapeString(tags.ReplaceAllString(adapter.Clip(m.Text), "")), nil
}
