// Package view is what the roles of the runtime say alike: the names of
// the messages the bot keeps up to date (a group's table, a seat's hand),
// and the platform's own renderings of them — the lobby, the game's table
// and hand with the platform's additions (deadlines, hints, tips, «leave»,
// «Стол»), and the platform's states in place of a hand (the bot plays
// for you, confirm leaving, you left). The tables render their replies
// with it, delivery redraws views with it, the web page marks its scenes
// with it. It reads records and changes nothing.
package view

import (
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Config is what the renderings depend on besides the table.
type Config struct {
	// Username is the bot's @username without '@', for deep links.
	Username string
	// TurnTimeout is a person's time for a move until a group picks its own.
	TurnTimeout time.Duration
	// DefaultLang speaks where no table names a language.
	DefaultLang string
	// WebAppURL is the «Стол» page's address ("" when not served);
	// WebAppShortName the Mini App's short name for the group's link.
	WebAppURL       string
	WebAppShortName string
	// GroupHands reports whether «🖐 Мои карты» may be offered: the Bot
	// API server knows ephemeral messages (ephemeral.Available.On). nil:
	// never (the hands stay in private chats).
	GroupHands func() bool
	// MaxTables is a group's table limit (record.Limit): a game past it,
	// opened before it was lowered, offers no «play again» (Againable).
	MaxTables int
}

// Renderer draws the platform's views. Build it with New.
type Renderer struct {
	cfg   Config
	games Games
	tr    adapter.Translator
	now   func() time.Time
	log   zerolog.Logger
}

// New is a Renderer for the games, speaking through tr, drawing at now.
func New(cfg Config, games Games, tr adapter.Translator, now func() time.Time, log zerolog.Logger) *Renderer {
	return &Renderer{cfg: cfg, games: games, tr: tr, now: now, log: log}
}

// SetUsername records the bot's username once getMe told it (before any
// rendering).
func (r *Renderer) SetUsername(u string) { r.cfg.Username = u }

// Username is the bot's username without '@'.
func (r *Renderer) Username() string { return r.cfg.Username }

// Games are the games offered, in menu order.
func (r *Renderer) Games() Games { return r.games }

// Loc is the catalog in lang.
func (r *Renderer) Loc(lang string) adapter.Loc { return adapter.NewLoc(r.tr, lang) }

// TableLoc speaks the table's language, or the default when a press or a
// request names no table the bot still has.
func (r *Renderer) TableLoc(t *record.Table) adapter.Loc {
	if t == nil {
		return r.Loc(r.cfg.DefaultLang)
	}
	return r.Loc(t.Lang)
}

// Langs are the catalog's languages.
func (r *Renderer) Langs() []string { return r.tr.Langs() }

// AdapterView is what a game's adapter sees of t at the bot's clock.
func (r *Renderer) AdapterView(t *record.Table) adapter.TableView { return adapter.ViewAt(t, r.now()) }

// Decode is the table's game and its decoded state.
func (r *Renderer) Decode(t *record.Table) (adapter.Game, game.State, error) {
	return Decode(r.games, t)
}

// Decode is the table's game among games and its decoded state.
func Decode(games Games, t *record.Table) (adapter.Game, game.State, error) {
	g, ok := games.Get(t.GameID)
	if !ok {
		return nil, nil, ErrUnknownGame(t)
	}
	st, err := g.Decode(t.State)
	return g, st, err
}

// Group is the group message of the table as the platform shows it now:
// the lobby, the game's table with the platform's notices (who cannot be
// written to) and the deal's commitment, or how it ended, with the deal's
// reveal (deal.go).
func (r *Renderer) Group(t *record.Table) adapter.Message {
	m := r.group(t)
	m.Text = Named(r.Loc(t.Lang), t, m.Text) // «Стол 2» (tables.go)
	return m
}

// group is Group without the table's name.
func (r *Renderer) group(t *record.Table) adapter.Message {
	if t.Board != nil {
		return BoardMessage(t.Board) // a cup's message (bot/cups)
	}
	l := r.Loc(t.Lang)
	if t.State != nil {
		g, st, err := r.Decode(t)
		if err == nil {
			m := g.RenderTable(l, r.AdapterView(t), st)
			if line := hintedLine(l, t); line != "" {
				m.Text += "\n\n" + line
			}
			if line := r.longLine(l, t); line != "" {
				m.Text += "\n\n" + line
			}
			addDeal(l, t, &m)
			if t.Phase == record.PhasePlaying {
				r.addUnreachable(l, t, &m)
				if bt, ok := r.myHandButton(l, t); ok {
					m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{bt})
				}
				if link, ok := r.webAppLink(l, t); ok {
					m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{link})
				}
			}
			return m
		}
		r.log.Error().Err(err).Str("table", t.ID).Msg("decode game for rendering")
	}
	if t.Phase == record.PhaseLobby {
		m := r.lobby(l, t)
		addDeal(l, t, &m) // a v2 deal's commitment, before anyone presses
		return m
	}
	text := l.T("lobby.closed")
	if t.Event != nil {
		text = adapter.EventLine(l, r.AdapterView(t))
	}
	m := adapter.Message{Text: text}
	addDeal(l, t, &m) // a game set aside as broken reveals its deal too
	return m
}

// Seat is seat's private message as the platform shows it now: the game's
// RenderSeat with the platform's additions — how long the player has to
// move, hints, tips, the «leave the game» and «Стол» buttons — or, in its
// place, one of the platform's own states: the bot plays for you, confirm
// leaving, you left.
func (r *Renderer) Seat(t *record.Table, seat int) (adapter.Message, error) {
	if seat >= 0 && seat < len(t.Seats) && t.Seats[seat].Leaver != nil {
		return r.left(t), nil
	}
	g, st, err := r.Decode(t)
	if err != nil {
		return adapter.Message{}, err
	}
	v := r.AdapterView(t)
	l := r.Loc(t.Lang)
	m := g.RenderSeat(l, v, st, seat)
	s := t.Seats[seat]
	switch {
	case !PlatformState(t, seat):
	case s.LeaveAsked:
		return r.leaveConfirm(t, g, seat, m.Ping), nil
	default:
		return r.auto(t, g, seat), nil
	}
	if t.Phase != record.PhasePlaying || !s.Human() {
		return m, nil
	}
	if mv := MovedNote(&t.Seats[seat]); mv != nil && m.Lazy {
		// The player waits after their move: the message that asked
		// for it says it counted, and offers nothing to press.
		return movedMessage(l, v, st, seat, mv, m), nil
	}
	if d := adapter.DeadlineText(l, v, game.Seat(seat)); d != "" && !m.Lazy {
		// A hand that asks for a move says how long the player has,
		// every game alike.
		m.Text += "\n\n" + strings.TrimPrefix(d, " ")
	}
	addHint(l, t, g, st, seat, &m)
	addTip(l, t, g, seat, &m)
	if CanLeave(g) {
		m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{LeaveButton(t, seat, callback.LeaveAsk, l.T("leave.button"))})
	}
	if web, ok := r.webAppButton(l, t); ok {
		m.Keyboard = append(slices.Clone(m.Keyboard), []adapter.Button{web})
	}
	return m, nil
}

// PlatformState reports whether seat's private message shows one of the
// platform's own states in place of the game's: confirm leaving, or the bot
// plays for you.
func PlatformState(t *record.Table, seat int) bool {
	if seat < 0 || seat >= len(t.Seats) {
		return false
	}
	s := t.Seats[seat]
	return t.Phase == record.PhasePlaying && s.Human() && s.Leaver == nil && (s.LeaveAsked || s.Auto())
}
