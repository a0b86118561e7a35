package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// TestGoldenCommands pins the replies to commands in every language: /help
// in a group and in private, the game pickers (/newgame with an unknown
// word, /rules without a game), the /lang choice, /newgame while a lobby
// is open, and the hints (go test ./bot -run Golden -update).
func TestGoldenCommands(t *testing.T) {
	b := goldenResultsBot(t)
	group, private := "-100123", "42"
	lobby := &record.Table{ID: group, ChatID: -100123, Title: "Друзья", Phase: record.PhaseLobby, GameNo: 3, Creator: 1,
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}}}
	games := testGames()
	var sb strings.Builder
	show := func(lang, what string, m adapter.Message) {
		fmt.Fprintf(&sb, "════ %s: %s\n%s\n", lang, what, fixtures.Show(m))
	}
	for _, lang := range b.tr.Langs() {
		l := b.loc(lang)
		show(lang, "/help in a group", b.helpMessage(l, group, true))
		show(lang, "/help in private", b.helpMessage(l, private, false))
		show(lang, "/newgame with an unknown word", b.newGamePicker(l, group))
		show(lang, "/rules without a game", b.rulesPage(l, group, nil, 0))
		show(lang, "/lang", b.langChoice(l, group))
		lobby.Lang, lobby.GameID = lang, games[0].ID()
		show(lang, "/newgame while a lobby is open", b.lobbyOpenReply(l, lobby, nil, ""))
		show(lang, "/newgame <another game> while a lobby is open", b.lobbyOpenReply(l, lobby, games[1], ""))
		show(lang, "/newgame <a word naming no game> while a lobby is open", b.lobbyOpenReply(l, lobby, nil, "покер"))
		lobby.GameID = ""
		show(lang, "/newgame <game> while a lobby without a game is open", b.lobbyOpenReply(l, lobby, games[1], ""))
		for _, key := range []string{"lang.set", "lang.not_allowed", "command.unknown", "command.hint_private"} {
			show(lang, key, adapter.Message{Text: l.T(key)})
		}
		show(lang, "/start, seated at a lobby", adapter.Message{Text: l.T("start.joined", "Title", "Друзья")})
	}
	fixtures.Check(t, "commands", sb.String())
}
