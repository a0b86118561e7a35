package tables

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
)

// TestGoldenCommands pins the replies to commands in every language: /help
// in a group and in private (their command lines made from the declared
// commands), the game pickers (/newgame with an unknown word, /rules
// without a game), the /lang choice, /newgame while a lobby is open, the
// hints, and every game's last page of /rules, the deal's (go test
// ./bot/... -run Golden -update).
func TestGoldenCommands(t *testing.T) {
	tb := goldenTables(t)
	group, private := "-100123", "42"
	lobby := &record.Table{ID: group, ChatID: -100123, Title: "Друзья", Phase: record.PhaseLobby, GameNo: 3, Creator: 1,
		Seats: []record.Seat{{UserID: 1, Name: "Оля"}}}
	games := testGames()
	var sb strings.Builder
	show := func(lang, what string, m adapter.Message) {
		fmt.Fprintf(&sb, "════ %s: %s\n%s\n", lang, what, golden.Show(m))
	}
	for _, lang := range tb.views.Langs() {
		l := tb.views.Loc(lang)
		show(lang, "/help in a group", tb.menus.HelpGroup(l, group, tb.commands.groupHelpLines(l)))
		here, inGroups := tb.commands.privateHelpLines(l)
		show(lang, "/help in private", tb.menus.HelpPrivate(l, private, here, inGroups))
		show(lang, "/start in private, the greeting", tb.menus.Greeting(l, private))
		show(lang, "/newgame with an unknown word", tb.menus.NewGamePicker(l, group))
		show(lang, "/rules without a game", tb.menus.RulesPage(l, group, nil, 0))
		show(lang, "/lang", tb.menus.LangChoice(l, group))
		lobby.Lang, lobby.GameID = lang, games[0].ID()
		show(lang, "/newgame while a lobby is open", tb.menus.LobbyOpenReply(l, lobby, nil, ""))
		show(lang, "/newgame <another game> while a lobby is open", tb.menus.LobbyOpenReply(l, lobby, games[1], ""))
		show(lang, "/newgame <a word naming no game> while a lobby is open", tb.menus.LobbyOpenReply(l, lobby, nil, "покер"))
		lobby.GameID = ""
		show(lang, "/newgame <game> while a lobby without a game is open", tb.menus.LobbyOpenReply(l, lobby, games[1], ""))
		for _, key := range []string{"lang.set", "lang.not_allowed", "command.unknown", "command.hint_private"} {
			show(lang, key, adapter.Message{Text: l.T(key)})
		}
		show(lang, "/start, seated at a lobby", adapter.Message{Text: l.T("start.joined", "Title", "Друзья")})
		for _, g := range games {
			// Every game's guide ends with the same page: how to check the
			// deal.
			show(lang, "/rules "+g.ID()+", the last page", tb.menus.RulesPage(l, group, g, 1<<10))
		}
	}
	// On a server that offers the hand in the group, /help and the guides
	// tell of «🖐 Мои карты»; elsewhere (above) they do not.
	hands := newTablesWith(t, nil, clockAt(golden.Clock), func() bool { return true })
	for _, lang := range hands.views.Langs() {
		l := hands.views.Loc(lang)
		show(lang, "/help in a group, the hand in the group offered", hands.menus.HelpGroup(l, group, hands.commands.groupHelpLines(l)))
		g := games[0]
		for n := 0; ; n++ {
			page := hands.menus.RulesPage(l, group, g, n)
			if strings.Contains(page.Text, l.T("grouphand.button")) {
				show(lang, fmt.Sprintf("/rules %s, page %d, the hand in the group offered", g.ID(), n+1), page)
				break
			}
			if n > 20 {
				t.Fatalf("%s: no page of the %s guide tells of the hand in the group", lang, g.ID())
			}
		}
	}
	golden.Check(t, "commands", sb.String())
}
