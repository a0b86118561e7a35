package view

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// The platform's own states of a seat's private message, and the notices
// it adds to the game's views.

// ErrUnknownGame is the error of a table whose game the bot does not offer.
func ErrUnknownGame(t *record.Table) error {
	return fmt.Errorf("table %s plays unknown game %q", t.ID, t.GameID)
}

// LevelLabel is the lobby's name of a robot level.
func LevelLabel(l adapter.Loc, g adapter.Game, level string) string {
	return l.T(g.ID() + ".level." + level)
}

// AILevel is the lobby's robot level, the game's easiest by default.
func AILevel(g adapter.Game, level string) string {
	ls := adapter.Levels(g)
	if slices.Contains(ls, level) || len(ls) == 0 {
		return level
	}
	return ls[0]
}

// CanLeave reports whether a game lets people leave: a robot must be able
// to take the seat.
func CanLeave(g adapter.Game) bool { return len(adapter.Levels(g)) > 0 }

// LeaveButton is the row offering to leave (or, with step LeaveYes and
// LeaveNo, to confirm). It carries no nonce: it stays valid while the
// player plays this game.
func LeaveButton(t *record.Table, seat, step int, text string) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: callback.Leave, Table: t.ID, GameNo: t.GameNo, Args: []int{seat, step}}.String()}
}

// left is the leaver's private message from then on.
func (r *Renderer) left(t *record.Table) adapter.Message {
	return adapter.Message{Text: r.Loc(t.Lang).T("leave.left")}
}

// leaveConfirm is the player's private message while it asks to confirm
// leaving. ping keeps what the message under it was, so asking is an edit.
func (r *Renderer) leaveConfirm(t *record.Table, g adapter.Game, seat int, ping bool) adapter.Message {
	l := r.Loc(t.Lang)
	return adapter.Message{
		Text: l.T("leave.confirm", "Level", LevelLabel(l, g, AILevel(g, t.AILevel))),
		Keyboard: [][]adapter.Button{{
			LeaveButton(t, seat, callback.LeaveYes, l.T("leave.yes")),
			LeaveButton(t, seat, callback.LeaveNo, l.T("leave.no")),
		}},
		Ping: ping,
	}
}

// auto is a player's message while the bot plays for them (after two
// timeouts in a row): that, and the buttons to take over again or to
// leave — no hand and no «your turn», which the bot answers anyway. It
// stays the same move after move, so it costs no calls.
func (r *Renderer) auto(t *record.Table, g adapter.Game, seat int) adapter.Message {
	l := r.Loc(t.Lang)
	kb := [][]adapter.Button{{{Text: l.T("auto.back_button"),
		Data: callback.Data{Op: callback.Back, Table: t.ID, GameNo: t.GameNo, Args: []int{seat}}.String()}}}
	if CanLeave(g) {
		kb = append(kb, []adapter.Button{LeaveButton(t, seat, callback.LeaveAsk, l.T("leave.button"))})
	}
	if web, ok := r.webAppButton(l, t); ok {
		kb = append(kb, []adapter.Button{web})
	}
	return adapter.Message{Text: l.T("auto.notice"), Keyboard: kb}
}

// addUnreachable names the players the bot cannot write to and offers the
// deep link that lets them open the private chat and get their cards.
func (r *Renderer) addUnreachable(l adapter.Loc, t *record.Table, m *adapter.Message) {
	var who []string
	for _, s := range t.Seats {
		if s.Human() && s.Unreachable && !s.Group { // Group: they play from the group
			who = append(who, adapter.Esc(s.Name))
		}
	}
	if len(who) == 0 {
		return
	}
	key := "table.unreachable"
	if r.HandInGroup().GroupHands(t) {
		key = "table.unreachable_group" // they may play from the group instead
	}
	m.Text += "\n\n" + l.T(key, "Names", strings.Join(who, ", "))
	m.Keyboard = append(m.Keyboard, []adapter.Button{{Text: l.T("lobby.open_chat_button"), URL: r.DeepLink(JoinPrefix + t.Token)}})
}

// webAppButton opens the page from a seat's private message (Telegram
// allows web_app buttons in private chats only); none when no page is
// served, or the table has no token yet.
func (r *Renderer) webAppButton(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if r.cfg.WebAppURL == "" || t.Token == "" {
		return adapter.Button{}, false
	}
	return adapter.Button{Text: l.T("web.button"), WebApp: r.cfg.WebAppURL + "?table=" + url.QueryEscape(t.Token)}, true
}

// webAppLink opens the page from the group: a direct link to the Mini App
// by its short name, the table in its start parameter.
func (r *Renderer) webAppLink(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if r.cfg.WebAppURL == "" || r.cfg.WebAppShortName == "" || r.cfg.Username == "" || t.Token == "" {
		return adapter.Button{}, false
	}
	return adapter.Button{Text: l.T("web.button"), URL: "https://t.me/" + r.cfg.Username + "/" + r.cfg.WebAppShortName + "?startapp=" + url.QueryEscape(t.Token)}, true
}

// WebShown reports whether the seat's page is open and visible now: its
// hand in the chat then waits.
func (r *Renderer) WebShown(t *record.Table, seat int) bool {
	s := t.Seats[seat]
	return t.Phase == record.PhasePlaying && s.Leaver == nil && s.Web.After(r.now())
}

// WebExpiry is the earliest lease of an open page, zero when none.
func WebExpiry(t *record.Table) time.Time {
	var at time.Time
	for _, s := range t.Seats {
		if !s.Web.IsZero() && (at.IsZero() || s.Web.Before(at)) {
			at = s.Web
		}
	}
	return at
}

// A person's move is confirmed where it was made: the toast of the press
// names it, and their private message, which asked for it, turns into
// what happened and who moves next, without buttons. The message is then
// a waiting hand (Lazy): it is edited once, when it stops asking, and not
// again until the next prompt replaces it — so a prompt due anyway takes
// the edit's place.

// MoveName is the game's name of seat's action a in the state before it,
// or "" when the game names no moves (MoveGame).
func MoveName(l adapter.Loc, v adapter.TableView, g adapter.Game, before game.State, seat game.Seat, a game.Action) string {
	if n, ok := g.(adapter.MoveGame); ok {
		return n.MoveName(l, v, before, seat, a)
	}
	return ""
}

// MoveToast confirms a person's press: «Ход принят: карта 🟨9».
func MoveToast(l adapter.Loc, m *record.SeatMove) string {
	if m == nil || m.Name == "" {
		return l.T("move.toast_plain")
	}
	return l.T("move.toast", "Move", m.Name)
}

// MovedNote is the seat's last move while it still holds (the seat has
// not acted since), or nil.
func MovedNote(s *record.Seat) *record.SeatMove {
	if s.Moved == nil || s.Moved.Nonce != s.Nonce {
		return nil
	}
	return s.Moved
}

// movedMessage is a waiting hand after the person's move: what they (or
// the bot for them) played and who moves now, above the game's own
// waiting text, with no buttons — nothing on it asks for a move.
func movedMessage(l adapter.Loc, v adapter.TableView, st game.State, seat int, mv *record.SeatMove, hand adapter.Message) adapter.Message {
	var line string
	switch {
	case mv.Auto && mv.Name != "":
		line = l.T("move.done_auto", "Move", adapter.Esc(mv.Name))
	case mv.Auto:
		line = l.T("move.done_auto_plain")
	case mv.Name != "":
		line = l.T("move.done", "Move", adapter.Esc(mv.Name))
	default:
		line = l.T("move.done_plain")
	}
	if next := nextLine(l, v, st, seat); next != "" {
		line += "\n" + next
	}
	if hand.Text != "" {
		line += "\n\n" + hand.Text
	}
	return adapter.Message{Text: line, Lazy: true}
}

// nextLine names who is to move now, the seat itself and the system
// aside: «Теперь ходит Оля.», or "" when nobody is.
func nextLine(l adapter.Loc, v adapter.TableView, st game.State, seat int) string {
	var next []game.Seat
	for _, s := range st.ToAct() {
		if s != game.System && int(s) != seat && !slices.Contains(next, s) {
			next = append(next, s)
		}
	}
	switch len(next) {
	case 0:
		return ""
	case 1:
		return l.T("move.next_one", "Name", adapter.SeatName(v, next[0]))
	}
	return l.T("move.next_many", "Names", adapter.SeatNames(v, next))
}
