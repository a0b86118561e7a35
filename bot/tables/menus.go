package tables

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
)

// menus answer commands with buttons instead of text to copy: /help, the
// game pickers (/rules, an unknown /newgame word), /lang, the reply to
// /newgame while a lobby is open, and the rules pages. Their lists of games
// come from the registered games: titles from the catalog, player counts
// from SeatRange.
type menus struct {
	*core
}

// playButton opens a lobby of g in the group of tableID.
func playButton(l adapter.Loc, tableID string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: l.T("games.play_button", "Game", adapter.Title(l, g)), Data: callback.Data{Op: callback.Open, Table: tableID, Word: g.ID()}.String()}
}

// rulesButton turns the message it sits on into the first page of g's
// guide.
func rulesButton(text, tableID string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: callback.Rules, Table: tableID, Word: g.ID(), Args: []int{0}}.String()}
}

// helpGroup is /help in a group: each game's row starts it or links to its
// rules in private; lines are the declared commands.
func (mn *menus) helpGroup(l adapter.Loc, tableID, lines string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{playButton(l, tableID, g), mn.views.RulesLink(l.T("games.rules_short"), g)})
	}
	return adapter.Message{Text: l.T("help.group", "Games", mn.views.GameLines(l), "Commands", lines), Keyboard: kb}
}

// helpPrivate is /help in private: each game's row opens a practice table
// of it, named, and its rules, and a button adds the bot to a group; here
// and inGroups are the declared commands' lines.
func (mn *menus) helpPrivate(l adapter.Loc, tableID, here, inGroups string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{view.PracticeButton(l.T("practice.game_button", "Game", adapter.Title(l, g)), tableID, g), rulesButton(l.T("games.rules_short"), tableID, g)})
	}
	kb = append(kb, []adapter.Button{{Text: l.T("help.add_button"), URL: mn.views.AddToGroupLink()}})
	return adapter.Message{Text: l.T("help.private", "Games", mn.views.GameLines(l), "Here", here, "InGroups", inGroups), Keyboard: kb}
}

// rulesPicker asks which game's rules to show.
func (mn *menus) rulesPicker(l adapter.Loc, tableID string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{rulesButton(l.T("games.rules_button", "Game", adapter.Title(l, g)), tableID, g)})
	}
	return adapter.Message{Text: l.T("rules.choose", "Games", mn.views.GameLines(l)), Keyboard: kb}
}

// newGamePicker answers /newgame with a word naming no game: the games,
// each a button that opens its lobby.
func (mn *menus) newGamePicker(l adapter.Loc, tableID string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{playButton(l, tableID, g)})
	}
	return adapter.Message{Text: l.T("newgame.unknown", "Games", mn.views.GameLines(l)), Keyboard: kb}
}

// lobbyOpenReply answers /newgame while a lobby is open: what is open, a
// button to join it, and, when the command named another game, a button
// that lets the creator switch the lobby to it; a word naming no game
// (unknown) is said to be unknown. The open lobby is not posted again, so
// no older copy of it is left behind. The text stays true once the game is
// chosen.
func (mn *menus) lobbyOpenReply(l adapter.Loc, t *record.Table, wanted adapter.Game, unknown string) adapter.Message {
	text := l.T("newgame.lobby_open_choosing")
	if g, ok := mn.games.Get(t.GameID); ok {
		text = l.T("newgame.lobby_open", "Game", adapter.Title(l, g))
	}
	if unknown != "" {
		text = l.T("newgame.unknown_word", "Word", adapter.Esc(unknown)) + "\n" + text
	}
	kb := [][]adapter.Button{{{Text: l.T("lobby.join_button"), Data: callback.Data{Op: callback.Lobby, Table: t.ID, GameNo: t.GameNo, Args: []int{callback.LobbyJoin}}.String()}}}
	if wanted != nil && wanted.ID() != t.GameID {
		hint, button := "newgame.switch_hint", "newgame.switch_button"
		if t.GameID == "" {
			hint, button = "newgame.choose_hint", "newgame.choose_button"
		}
		text += "\n" + l.T(hint, "Game", adapter.Title(l, wanted))
		kb = append(kb, []adapter.Button{{Text: l.T(button, "Game", adapter.Title(l, wanted)),
			Data: callback.Data{Op: callback.Choose, Table: t.ID, GameNo: t.GameNo, Word: wanted.ID()}.String()}})
	}
	return adapter.Message{Text: text, Keyboard: kb}
}

// langChoice offers the catalog's languages, each named in itself.
func (mn *menus) langChoice(l adapter.Loc, tableID string) adapter.Message {
	var row []adapter.Button
	for _, lang := range mn.views.Langs() {
		row = append(row, adapter.Button{Text: mn.loc(lang).T("lang.name"), Data: callback.Data{Op: callback.Lang, Table: tableID, Word: lang}.String()})
	}
	return adapter.Message{Text: l.T("lang.choose"), Keyboard: [][]adapter.Button{row}}
}

// langNamed is the catalog's language that args name (a code, a Telegram
// language_code or the language's own name); ok=false when they name none.
func (mn *menus) langNamed(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	w := strings.ToLower(args[0])
	if i := strings.IndexAny(w, "-_"); i > 0 {
		w = w[:i] // a Telegram language_code: "en-GB"
	}
	switch w {
	case "рус", "русский":
		w = locales.Russian
	case "eng", "english":
		w = locales.English
	}
	return w, slices.Contains(mn.views.Langs(), w)
}

// mayChangeLang says who may change a group's language: its admins and
// the creator of its table.
func mayChangeLang(t *record.Table, user int64, admin bool) bool {
	return admin || (t.Creator != 0 && t.Creator == user)
}

// langRefusal is who may change the language, as the refusal says it: a
// group that never had a table has no creator to name.
func langRefusal(t *record.Table) string {
	if t.Creator == 0 {
		return "lang.not_allowed_admin"
	}
	return "lang.not_allowed"
}

// onLang sets the group's language from the /lang choice. It runs inside
// the transaction's closure.
func (mn *menus) onLang(t *record.Table, ch *change, p callback.Data, who int64, admin bool) error {
	if !slices.Contains(mn.views.Langs(), p.Word) {
		return refusal.New("error.bad_button")
	}
	if !mayChangeLang(t, who, admin) {
		return refusal.New(langRefusal(t))
	}
	if t.Lang == p.Word {
		return refusal.New("lang.set") // nothing to change: says the language it is
	}
	t.Lang = p.Word
	ch.answer = mn.loc(t.Lang).T("lang.set")
	return nil
}

// greeting answers /start in private when there is nothing else to say:
// what the bot is, with private /help's buttons — practice each game right
// here (tableID is the chat's practice table), its rules, add to a group.
func (mn *menus) greeting(l adapter.Loc, tableID string) adapter.Message {
	return adapter.Message{Text: l.T("start.greeting"), Keyboard: mn.helpPrivate(l, tableID, "", "").Keyboard}
}

// A game's player guide is the locale message "<id>.rules". A long guide is
// split into pages at lines holding only "---", shown one at a time in one
// message with ◀/▶ buttons that edit it in place: a group pays for the
// pages someone actually turns, not for the whole guide at once.

// rulesGame picks the game whose rules to show: the one named after
// /rules, else the table's game; nil means the list of games.
func (mn *menus) rulesGame(t *record.Table, args []string) adapter.Game {
	if len(args) > 0 {
		if g, ok := mn.games.Find(strings.Join(args, " ")); ok {
			return g
		}
		return nil
	}
	if t != nil {
		if g, ok := mn.games.Get(t.GameID); ok {
			return g
		}
	}
	if len(mn.games) == 1 {
		return mn.games[0]
	}
	return nil
}

// rulesPage renders page n of g's guide for a chat (tableID names it in
// the buttons) at the bot's time for a move; a nil game gives the list of
// games to choose from.
func (mn *menus) rulesPage(l adapter.Loc, tableID string, g adapter.Game, n int) adapter.Message {
	return mn.rulesPageAt(l, tableID, g, n, mn.views.DefaultTurnTime())
}

// rulesPageAt is rulesPage for a table whose time for a move is turn.
func (mn *menus) rulesPageAt(l adapter.Loc, tableID string, g adapter.Game, n int, turn time.Duration) adapter.Message {
	if g == nil {
		return mn.rulesPicker(l, tableID)
	}
	pages := strings.Split(view.RulesText(l, g, turn), view.RulesPageBreak)
	n = max(0, min(n, len(pages)-1))
	text := pages[n]
	var practice [][]adapter.Button
	if chat, _, err := record.ParseID(tableID); err == nil && view.PracticeChat(chat) && len(adapter.Levels(g)) > 0 {
		practice = [][]adapter.Button{{view.PracticeButton(l.T("practice.button"), tableID, g)}}
	}
	if len(pages) == 1 {
		return adapter.Message{Text: text, Keyboard: practice}
	}
	text += "\n\n" + l.T("rules.page", "Page", n+1, "Pages", len(pages))
	btn := func(label string, page int) adapter.Button {
		return adapter.Button{Text: label, Data: callback.Data{Op: callback.Rules, Table: tableID, Word: g.ID(), Args: []int{page}}.String()}
	}
	var row []adapter.Button
	if n > 0 {
		row = append(row, btn("◀", n-1))
	}
	if n < len(pages)-1 {
		row = append(row, btn("▶", n+1))
	}
	return adapter.Message{Text: text, Keyboard: append([][]adapter.Button{row}, practice...)}
}

// onRulesPage turns a page of the rules message the button sits on.
func (mn *menus) onRulesPage(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	lang, turn := mn.userLang(&q.From), mn.views.DefaultTurnTime()
	if chat, _, err := record.ParseID(p.Table); err == nil && chat < 0 {
		if t, _, err := mn.load(ctx, p.Table); err == nil {
			lang, turn = t.Lang, mn.views.TurnTime(t)
		}
	}
	l := mn.loc(lang)
	g, ok := mn.games.Get(p.Word)
	msg := q.Message.Message
	if !ok || msg == nil {
		mn.answer(ctx, q, l.T("error.bad_button"), false, "")
		return nil
	}
	mn.answer(ctx, q, "", false, "")
	// The page turns through the outbox of the chat it is in, as a reply
	// (a group's reader is not kept behind the table's edits).
	page := outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Message: mn.rulesPageAt(l, p.Table, g, p.Args[0], turn), Reply: true}
	return mn.queue(ctx, tableIn(p.Table, msg.Chat.ID), updateID, page)
}
