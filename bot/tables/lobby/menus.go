package lobby

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
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
)

// Menus answer commands with buttons instead of text to copy: /help, the
// game pickers (/rules, an unknown /newgame word), /lang, the reply to
// /newgame while a lobby is open, and the rules pages. Their lists of games
// come from the registered games: titles from the catalog, player counts
// from SeatRange.
type Menus struct {
	games  view.Games
	views  *view.Renderer
	tx     *txn.Txn
	answer Answer
}

// Answer answers a press: a toast (or an alert), or a link to open.
type Answer func(ctx context.Context, q *models.CallbackQuery, text string, alert bool, url string)

// NewMenus builds the menus; answer answers a rules page's press.
func NewMenus(views *view.Renderer, tx *txn.Txn, answer Answer) *Menus {
	return &Menus{games: views.Games(), views: views, tx: tx, answer: answer}
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

// HelpGroup is /help in a group: each game's row starts it or links to its
// rules in private; lines are the declared commands.
func (mn *Menus) HelpGroup(l adapter.Loc, tableID, lines string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{playButton(l, tableID, g), mn.views.RulesLink(l.T("games.rules_short"), g)})
	}
	hand := ""
	if mn.views.HandInGroup().Offered() {
		hand = " " + l.T("help.group_hand")
	}
	return adapter.Message{Text: l.T("help.group", "Games", mn.views.GameLines(l), "Commands", lines, "GroupHand", hand), Keyboard: kb}
}

// HelpPrivate is /help in private: each game's row opens a practice table
// of it, named, and its rules, and a button adds the bot to a group; here
// and inGroups are the declared commands' lines.
func (mn *Menus) HelpPrivate(l adapter.Loc, tableID, here, inGroups string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{view.PracticeButton(l.T("practice.game_button", "Game", adapter.Title(l, g)), tableID, g), rulesButton(l.T("games.rules_short"), tableID, g)})
	}
	kb = append(kb, []adapter.Button{{Text: l.T("help.add_button"), URL: mn.views.AddToGroupLink()}})
	return adapter.Message{Text: l.T("help.private", "Games", mn.views.GameLines(l), "Here", here, "InGroups", inGroups), Keyboard: kb}
}

// rulesPicker asks which game's rules to show.
func (mn *Menus) rulesPicker(l adapter.Loc, tableID string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{rulesButton(l.T("games.rules_button", "Game", adapter.Title(l, g)), tableID, g)})
	}
	return adapter.Message{Text: l.T("rules.choose", "Games", mn.views.GameLines(l)), Keyboard: kb}
}

// NewGamePicker answers /newgame with a word naming no game: the games,
// each a button that opens its lobby.
func (mn *Menus) NewGamePicker(l adapter.Loc, tableID string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range mn.games {
		kb = append(kb, []adapter.Button{playButton(l, tableID, g)})
	}
	return adapter.Message{Text: l.T("newgame.unknown", "Games", mn.views.GameLines(l)), Keyboard: kb}
}

// LobbyOpenReply answers /newgame while a lobby is open: what is open, a
// button to join it, and, when the command named another game, a button
// that lets the creator switch the lobby to it; a word naming no game
// (unknown) is said to be unknown. The open lobby is not posted again, so
// no older copy of it is left behind. The text stays true once the game is
// chosen.
func (mn *Menus) LobbyOpenReply(l adapter.Loc, t *record.Table, wanted adapter.Game, unknown string) adapter.Message {
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

// LangChoice offers the catalog's languages, each named in itself.
func (mn *Menus) LangChoice(l adapter.Loc, tableID string) adapter.Message {
	var row []adapter.Button
	for _, lang := range mn.views.Langs() {
		row = append(row, adapter.Button{Text: mn.views.Loc(lang).T("lang.name"), Data: callback.Data{Op: callback.Lang, Table: tableID, Word: lang}.String()})
	}
	return adapter.Message{Text: l.T("lang.choose"), Keyboard: [][]adapter.Button{row}}
}

// LangNamed is the catalog's language that args name (a code, a Telegram
// language_code or the language's own name); ok=false when they name none.
func (mn *Menus) LangNamed(args []string) (string, bool) {
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

// MayChangeLang says who may change a group's language: its admins and
// the creator of its table.
func MayChangeLang(t *record.Table, user int64, admin bool) bool {
	return admin || (t.Creator != 0 && t.Creator == user)
}

// LangRefusal is who may change the language, as the refusal says it: a
// group that never had a table has no creator to name.
func LangRefusal(t *record.Table) string {
	if t.Creator == 0 {
		return "lang.not_allowed_admin"
	}
	return "lang.not_allowed"
}

// OnLang sets the group's language from the /lang choice. It runs inside
// the transaction's closure.
func (mn *Menus) OnLang(t *record.Table, ch *txn.Change, p callback.Data, who int64, admin bool) error {
	if !slices.Contains(mn.views.Langs(), p.Word) {
		return refusal.New("error.bad_button")
	}
	if !MayChangeLang(t, who, admin) {
		return refusal.New(LangRefusal(t))
	}
	if t.Lang == p.Word {
		return refusal.New("lang.set") // nothing to change: says the language it is
	}
	t.Lang = p.Word
	ch.Answer = mn.views.Loc(t.Lang).T("lang.set")
	return nil
}

// Greeting answers /start in private when there is nothing else to say:
// what the bot is, with private /help's buttons — practice each game right
// here (tableID is the chat's practice table), its rules, add to a group.
func (mn *Menus) Greeting(l adapter.Loc, tableID string) adapter.Message {
	return adapter.Message{Text: l.T("start.greeting"), Keyboard: mn.HelpPrivate(l, tableID, "", "").Keyboard}
}

// A game's player guide is the locale message "<id>.rules". A long guide is
// split into pages at lines holding only "---", shown one at a time in one
// message with ◀/▶ buttons that edit it in place: a group pays for the
// pages someone actually turns, not for the whole guide at once.

// RulesGame picks the game whose rules to show: the one named after
// /rules, else the table's game; nil means the list of games.
func (mn *Menus) RulesGame(t *record.Table, args []string) adapter.Game {
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

// RulesPage renders page n of g's guide for a chat (tableID names it in
// the buttons) at the bot's time for a move; a nil game gives the list of
// games to choose from.
func (mn *Menus) RulesPage(l adapter.Loc, tableID string, g adapter.Game, n int) adapter.Message {
	return mn.RulesPageAt(l, tableID, g, n, mn.views.DefaultTurnTime())
}

// RulesPageAt is rulesPage for a table whose time for a move is turn.
func (mn *Menus) RulesPageAt(l adapter.Loc, tableID string, g adapter.Game, n int, turn time.Duration) adapter.Message {
	if g == nil {
		return mn.rulesPicker(l, tableID)
	}
	pages := strings.Split(view.RulesText(l, g, turn, mn.views.HandInGroup().Offered()), view.RulesPageBreak)
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

// OnRulesPage turns a page of the rules message the button sits on.
func (mn *Menus) OnRulesPage(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	lang, turn := mn.tx.UserLang(&q.From), mn.views.DefaultTurnTime()
	if chat, _, err := record.ParseID(p.Table); err == nil && chat < 0 {
		if t, _, err := mn.tx.Load(ctx, p.Table); err == nil {
			lang, turn = t.Lang, mn.views.TurnTime(t)
		}
	}
	l := mn.views.Loc(lang)
	g, ok := mn.games.Get(p.Word)
	msg := q.Message.Message
	if !ok || msg == nil {
		mn.answer(ctx, q, l.T("error.bad_button"), false, "")
		return nil
	}
	mn.answer(ctx, q, "", false, "")
	// The page turns through the outbox of the chat it is in, as a reply
	// (a group's reader is not kept behind the table's edits).
	page := outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Message: mn.RulesPageAt(l, p.Table, g, p.Args[0], turn), Reply: true}
	return mn.tx.Queue(ctx, TableIn(p.Table, msg.Chat.ID), updateID, page)
}
