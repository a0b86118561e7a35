package bot

import (
	"context"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// Practice tables. A person's private chat has a table record too
// (tableID(user, 0)): /newgame there opens a lobby for them and robots
// with the group's settings, and the game is played in that one chat. The
// table and the hand are composed into one message (practiceHand), so a
// move costs one edit of the chat, within its about one message a second.
// Presses name their table, so a person who plays in groups meanwhile
// reaches each table with its own buttons. Results are recorded under the
// private chat like a group of one: never in a group's rating, /top or
// /history; /stats in private shows them on their own line.

// onPracticeCommand runs /newgame, /stop and /table in a private chat
// against the chat's practice table.
func (b *Bot) onPracticeCommand(ctx context.Context, updateID int64, m *models.Message, cmd command) error {
	id := record.ID(m.Chat.ID, 0)
	l := b.loc(b.userLang(m.From))
	_, _, err := b.transact(ctx, id, updateID, func(t *record.Table, ch *change) error {
		if t.Phase == record.PhaseIdle {
			t.Lang = l.Lang()
		}
		t.Title = b.loc(t.Lang).T("practice.title")
		n := len(ch.outbox)
		var err error
		switch cmd.name {
		case "newgame":
			opened := t.Phase == record.PhaseIdle
			err = b.newGame(ctx, t, ch, m, cmd)
			if err == nil && opened && t.Phase == record.PhaseLobby {
				b.openPractice(t, m.From)
			}
		case "stop":
			err = b.askStop(t, ch, m.From.ID, false)
		case "table":
			if t.Phase == record.PhaseIdle {
				ch.post(t, adapter.Message{Text: b.loc(t.Lang).T("practice.none")})
				break
			}
			view := tableView(t.GameNo)
			if t.Phase == record.PhasePlaying {
				view = handView(t.GameNo, t.SeatOf(m.From.ID))
			}
			t.Repost(view)
		}
		for i := n; i < len(ch.outbox); i++ {
			ch.outbox[i].Reply = true
		}
		return err
	})
	return b.settle(err)
}

// fillPractice seats robots up to the game's least number of players in a
// new practice lobby, so «Начать» works at once, and turns hints on:
// practice is for learning, and no group's rating is at stake.
func (b *Bot) fillPractice(t *record.Table) {
	t.Hints = true
	g, ok := b.games.get(t.GameID)
	if !ok || len(adapter.Levels(g)) == 0 {
		return
	}
	lo, _ := g.SeatRange()
	l := b.loc(t.Lang)
	for len(t.Seats) < lo {
		t.Seats = append(t.Seats, record.Seat{Name: b.aiName(l, t), AI: aiLevel(g, t.AILevel)})
	}
}

// relevelPractice gives every robot of a practice lobby the lobby's level:
// there the level is the table's, not the next robot's.
func relevelPractice(t *record.Table, g adapter.Game) {
	for i := range t.Seats {
		if !t.Seats[i].Human() {
			t.Seats[i].AI = aiLevel(g, t.AILevel)
		}
	}
}

// practiceHand composes a practice table's one message while the game
// runs: the table, then the person's hand with its buttons. It is redrawn
// after every move (never lazy): the table part is what the person follows.
func (b *Bot) practiceHand(t *record.Table, hand adapter.Message) adapter.Message {
	table := b.GroupMessage(t)
	if t.Phase != record.PhasePlaying {
		return table // over or stopped: the table says it all
	}
	m := hand
	m.Text = table.Text + "\n\n" + hand.Text
	m.Lazy = false
	return m
}

// practiceTable is what a practice table's own message (its lobby) shows
// once the game is dealt: a pointer to the composed message below, which
// never changes and so costs no calls.
func (b *Bot) practiceTable(t *record.Table) adapter.Message {
	l := b.loc(t.Lang)
	g, _ := b.games.get(t.GameID)
	title := ""
	if g != nil {
		title = adapter.Title(l, g)
	}
	return adapter.Message{Text: l.T("practice.playing", "Game", title)}
}

// practiceChat reports whether a chat of recorded results is a practice
// table's: a person's private chat, not a group.
func practiceChat(chat int64) bool { return chat > 0 }

// practiceLine is /stats's line for practice games, or "" when none.
func (res *results) practiceLine(l adapter.Loc, stats map[string]store.PlayerStats) string {
	var parts []string
	for _, id := range res.gameOrder(stats) {
		s := stats[id]
		if s.Games == 0 {
			continue
		}
		parts = append(parts, l.T("practice.stats_game", "Game", res.gameTitle(l, id),
			"Games", l.T("count.games", "Count", s.Games), "Wins", l.T("count.wins", "Count", s.Wins)))
	}
	if len(parts) == 0 {
		return ""
	}
	return l.T("practice.stats", "Games", strings.Join(parts, "; "))
}

// practiceLobby is a practice table's lobby: the group's settings (robots
// and their level, the game's options, hints) without what only a group
// needs (joining, opening the private chat). text holds the seats and the
// options' lines.
func (b *Bot) practiceLobby(l adapter.Loc, t *record.Table, g adapter.Game, text string, optionRows [][]adapter.Button) adapter.Message {
	lobbyBtn := func(label string, args ...int) adapter.Button {
		return adapter.Button{Text: label, Data: callback.Data{Op: 'l', Table: t.ID, GameNo: t.GameNo, Args: args}.String()}
	}
	var kb [][]adapter.Button
	if len(adapter.Levels(g)) > 0 {
		kb = append(kb,
			[]adapter.Button{lobbyBtn(l.T("lobby.ai_button"), lobbyAddAI), lobbyBtn(l.T("lobby.kick_button"), lobbyKick)},
			[]adapter.Button{lobbyBtn(l.T("practice.level_button", "Level", levelLabel(l, g, aiLevel(g, t.AILevel))), lobbyLevel)})
	}
	kb = append(kb, optionRows...)
	kb = append(kb, []adapter.Button{lobbyBtn(l.T("lobby.start_button"), lobbyStart), lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
	kb = append(kb, []adapter.Button{b.rulesLink(l.T("lobby.rules_button"), g)})
	return adapter.Message{Text: text + "\n" + l.T("practice.lobby_hint"), Keyboard: kb}
}

// practiceButton opens a practice lobby of g in the private chat whose
// table is tableID («🎓 Потренироваться» under the rules and in /help).
func practiceButton(l adapter.Loc, tableID string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: l.T("practice.button"), Data: callback.Data{Op: 'o', Table: tableID, Word: g.ID()}.String()}
}

// pressedInOwn reports whether a press came from the private chat of the
// practice table id, by that chat's person: the only one whose menu
// buttons may open a lobby there.
func pressedInOwn(q *models.CallbackQuery, id string) bool {
	chat, _, err := record.ParseID(id)
	return err == nil && practiceChat(chat) && q.Message.Message != nil && q.Message.Message.Chat.ID == chat && q.From.ID == chat
}

// openPractice makes a lobby just opened in a private chat a practice one:
// its title, the person's language, robots to the game's least number.
func (b *Bot) openPractice(t *record.Table, who *models.User) {
	t.Lang = b.userLang(who)
	t.Title = b.loc(t.Lang).T("practice.title")
	b.fillPractice(t)
}
