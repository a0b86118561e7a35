package chekharda

import (
	"html"
	"regexp"

	"github.com/trickchef/trickchef/bot"
)

// Test hooks for the external tests of Чехарда (package chekharda_test).

// SeatText is seat's private message of the table's game as a chat shows
// it (cut as the platform cuts it, tags stripped, entities decoded): how a
// measurement recognises which state a message in a private chat shows.
func SeatText(tr bot.Translator, t *bot.Table, seat int) (string, error) {
	g := Game()
	st, err := g.Decode(t.Game)
	if err != nil {
		return "", err
	}
	m := g.RenderSeat(bot.NewLoc(tr, t.Lang), t.View(), st, seat)
	tags := regexp.MustCompile(`<[^>]*>`)
	return html.UnescapeString(tags.ReplaceAllString(bot.Clip(m.Text), "")), nil
}
