package web

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// State is what the «Стол» page shows of a table to one viewer: the
// table's scene as that viewer may see it, and the page's own words in the
// table's language. Version is the table record's version: the page asks
// again after every change it hears of and ignores an older answer.
type State struct {
	Table   string `json:"table"`
	Version int64  `json:"version"`
	// Game is the game's id ("" before the first game) and Title its name.
	Game  string `json:"game,omitempty"`
	Title string `json:"title,omitempty"`
	// Chat is the group's title.
	Chat string `json:"chat,omitempty"`
	Lang string `json:"lang"`
	// Phase is "idle" (no game yet, or it ended: Scene shows the last
	// one), "lobby" or "playing".
	Phase record.Phase `json:"phase"`
	// Seat is the viewer's seat, Spectator when they play none.
	Seat int `json:"seat"`
	// Live says everyone acts at once (a LiveGame): the page speaks of
	// no one's turn.
	Live  bool           `json:"live,omitempty"`
	Scene *adapter.Scene `json:"scene,omitempty"`
	// Over reports that the scene shows a finished game; Again is then
	// the data of «Ещё партию» for the viewer, when they may start one.
	Over  bool   `json:"over,omitempty"`
	Again string `json:"again,omitempty"`
	// Replay is the label of «▶️ Повтор» when the finished game can be
	// replayed (api/replay); "" otherwise, and always while a game runs.
	Replay string `json:"replay,omitempty"`
	// Standings are a finished game's places, best first, as the chat's
	// results rank them.
	Standings []Standing `json:"standings,omitempty"`
	// Rules is the game's guide as plain text, pages joined.
	Rules string `json:"rules,omitempty"`
	// Now is the server's clock (Unix ms), so countdowns do not depend on
	// the phone's.
	Now int64 `json:"now"`
	// Texts are the page's own words (catalog keys "web.<key>", by key).
	Texts map[string]string `json:"texts"`
}

// Standing is one line of a finished game's standings on the page.
type Standing struct {
	Place int    `json:"place"`
	Name  string `json:"name"`
	Score int    `json:"score"`
	// Detail is the seat's marks at the end: where a game keeps a
	// breakdown by round («13 + 9 + 11 = 33 очка»), it is here.
	Detail []string `json:"detail,omitempty"`
	// Rating is the player's rating and its change by this game, once
	// recorded («Рейтинг: 14,3 (+1,8)»); empty before, or when not rated.
	Rating string `json:"rating,omitempty"`
	You    bool   `json:"you,omitempty"`
}

// Reply answers an action from the page: OK when it was applied (or
// was applied before: a retried request), and the toast to show, which is
// the chat's toast for the same press (the reason when refused).
type Reply struct {
	OK   bool   `json:"ok"`
	Text string `json:"text,omitempty"`
	// Alert asks for a dialog instead of a toast (private information).
	Alert bool `json:"alert,omitempty"`
	// Refused says why nothing changed (Refused* kinds); "" when OK.
	Refused string `json:"refused,omitempty"`
}

// The web table's errors: the server answers them with a 4xx, and nothing
// changed.
var (
	// ErrBadRequest is a request that makes no sense: no such table
	// id, an action that is no button of this table's.
	ErrBadRequest = errors.New("web: bad request")
	// ErrNotFound is a table the bot has never seen.
	ErrNotFound = errors.New("web: no such table")
)

// Refusal kinds of a Reply: why an action changed nothing.
const (
	RefusedBad     = "bad"       // not a button of this viewer's (400)
	RefusedForeign = "not_yours" // another seat's button (403)
	RefusedStale   = "stale"     // drawn before a later change (409)
	RefusedRule    = "rule"      // the game's rules forbid it now (422)
	RefusedBusy    = "busy"      // the table stayed too busy (503)
	RefusedBroken  = "broken"    // the game broke and cannot go on (410)
)

// Web is the role behind the «Стол» page (bot/web/webapp serves it over
// HTTP): who may see a table (access.go), what each viewer sees of it
// (View: the game's Scene with the platform's marks), and the page's
// presses, which are the chat's presses applied by the tables. It keeps
// nothing of its own: tokens are store pointers, a page's being open is in
// the table record.
type Web struct {
	store   Store
	members *members.Cache
	views   *view.Renderer
	games   view.Games
	now     func() time.Time
	log     zerolog.Logger
	tables  Tables
	// reviews, when set, mark the viewer's reviewed moves in a replay.
	reviews Reviews
}

// Store is the part of the store the page reads itself: the tokens.
type Store interface {
	Pointer(ctx context.Context, key string) (string, error)
}

// Tables is what the page asks of the tables: a record, and the changes a
// page causes, each the same change the chat makes.
type Tables interface {
	// Load is the table as last committed (version 0: none).
	Load(ctx context.Context, id string) (*record.Table, int64, error)
	// SeatInfo is a seat's private information for the person who asked,
	// or the refusal why not.
	SeatInfo(t *record.Table, p callback.Data, who int64) (string, error)
	// PagePress applies a press the page sent for user, committed under
	// updateID: the press's answer, or why it was refused.
	PagePress(ctx context.Context, id string, updateID int64, user models.User, p callback.Data) (*record.Table, string, error)
	// PageSeen records whether user's page of table id is open and visible.
	PageSeen(ctx context.Context, id string, user int64, visible bool) error
	// GiveToken mints table id's web token when it has none.
	GiveToken(ctx context.Context, id string) (string, error)
}

// Params are what the web role is built from.
type Params struct {
	Store Store
	// Reviews, when not nil, are the stored «🔍 Разбор» reports a replay
	// marks the viewer's moves with.
	Reviews Reviews
	// Members answers whether a viewer who is not seated is in the
	// table's group (shared with the tables' join links).
	Members *members.Cache
	Views   *view.Renderer
	Tables  Tables
	Now     func() time.Time
	Log     zerolog.Logger
}

// New builds the web role.
func New(p Params) *Web {
	return &Web{store: p.Store, reviews: p.Reviews, members: p.Members, views: p.Views, games: p.Views.Games(),
		now: p.Now, log: p.Log, tables: p.Tables}
}

// loc is the catalog in lang.
func (w *Web) loc(lang string) adapter.Loc { return w.views.Loc(lang) }

// webKeyBase marks an update id made from a web action's idempotency key:
// Telegram's update ids stay far below it, so the two never collide, and a
// retried request is refused by the store as a duplicate in the very
// commit that would apply it again.
const webKeyBase = int64(1) << 62

// webUpdateID is the store's update id for a user's idempotency key.
func webUpdateID(user int64, key string) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d:%s", user, key)
	return webKeyBase | int64(h.Sum64()&uint64(webKeyBase-1))
}

// Text is a catalog text in a language (the web page's own words).
func (w *Web) Text(lang, key string, args ...any) string { return w.loc(lang).T(key, args...) }

// State is the table a page's token names as user sees it: their seat's
// scene when they play in its current game, the public one otherwise.
// ErrNotFound when the token names no table the user may see. It changes
// nothing.
func (w *Web) State(ctx context.Context, token string, user int64) (State, error) {
	v, err := w.View(ctx, token)
	if err != nil {
		return State{}, err
	}
	ok, err := v.Allowed(ctx, user)
	if err != nil {
		return State{}, err
	}
	if !ok {
		return State{}, ErrNotFound
	}
	return v.State(v.Kind(user))
}

// View is a table read once for all its viewers on the page: every
// viewer of one kind (a seat, or the spectators) sees the same state, so
// a change costs one read and one drawing per kind, however many pages
// are open. A View is not safe for concurrent use.
type View struct {
	w       *Web
	t       *record.Table
	version int64
	g       adapter.Game
	st      game.State
	decoded bool
}

// View reads the table a page's token names; ErrNotFound when it names
// none. Who may see it is Allowed's question.
func (w *Web) View(ctx context.Context, token string) (*View, error) {
	id, err := w.webTableID(ctx, token)
	if err != nil {
		return nil, err
	}
	t, version, err := w.tables.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if version == 0 || t.Token != token {
		return nil, ErrNotFound
	}
	return &View{w: w, t: t, version: version}, nil
}

// ID is the table's id (the store's key: never shown to the page).
func (v *View) ID() string { return v.t.ID }

// Version is the table record's version the view was read at.
func (v *View) Version() int64 { return v.version }

// Kind is what user sees of the table: their seat, or Spectator.
func (v *View) Kind(user int64) int { return v.t.SeatOf(user) }

// Allowed reports whether user may see the table: when Telegram says they
// are in its group (cached briefly; a practice table: its person). A page's
// stream asks it again for every state it pushes and every little while.
func (v *View) Allowed(ctx context.Context, user int64) (bool, error) {
	return v.w.webAllowed(ctx, v.t, user)
}

// State is the table as viewers of a kind (Kind) see it.
func (v *View) State(kind int) (State, error) {
	w, t := v.w, v.t
	l := w.loc(t.Lang)
	ws := State{Table: t.Token, Version: v.version, Chat: t.Title, Lang: t.Lang, Phase: t.Phase, Seat: adapter.Spectator, Now: w.now().UnixMilli()}
	g, ok := w.games.Get(t.GameID)
	if !ok {
		return ws, nil
	}
	ws.Game, ws.Title = g.ID(), adapter.Title(l, g)
	ws.Rules = adapter.PlainText(strings.ReplaceAll(view.RulesText(l, g, w.views.TurnTime(t), w.views.HandInGroup().Offered()), view.RulesPageBreak, "\n\n"))
	if lg, ok := g.(adapter.LiveGame); ok && lg.LiveButtons() {
		ws.Live = true
	}
	if t.Phase == record.PhaseLobby || t.State == nil {
		ws.Scene = w.lobbyScene(l, t)
		return ws, nil
	}
	if !v.decoded {
		g, st, err := w.views.Decode(t)
		if err != nil {
			return State{}, err
		}
		v.g, v.st, v.decoded = g, st, true
	}
	if kind < adapter.Spectator || kind >= len(t.Seats) {
		kind = adapter.Spectator
	}
	ws.Seat = kind
	sc := w.scene(l, t, v.g, v.st, kind)
	ws.Scene = &sc
	ws.Over = v.st.Over()
	if ws.Over {
		recorded := t.ResultsSent == record.ResultID(t)
		for _, st := range adapter.Standings(v.st.Result()) {
			if i := int(st.Seat); i >= 0 && i < len(sc.Seats) {
				line := Standing{Place: st.Place, Name: sc.Seats[i].Name, Score: st.Score, Detail: sc.Seats[i].Stats, You: i == kind}
				if r, ok := t.WebRatings[record.SeatPlayer(t.Seats[i])]; ok && recorded {
					line.Rating = adapter.PlainText(view.RatingText(l, r[0], r[1]))
				}
				ws.Standings = append(ws.Standings, line)
			}
		}
	}
	if replayable(t, v.g, v.st) {
		ws.Replay = l.T("review.replay")
	}
	if ws.Over && t.Phase == record.PhaseIdle && kind >= 0 && w.views.Againable(t) {
		ws.Again = view.AgainButton(l, t, t.GameNo, t.GameID).Data
	}
	return ws, nil
}

// scene is the game's Scene with the platform's marks on the seats and,
// for a seat the bot plays for, the «I'm back» choice. A game without
// WebGame gets its chat messages as text and its buttons as choices.
func (w *Web) scene(l adapter.Loc, t *record.Table, g adapter.Game, st game.State, seat int) adapter.Scene {
	v := adapter.ViewAt(t, w.now())
	var sc adapter.Scene
	if wg, ok := g.(adapter.WebGame); ok {
		sc = wg.Scene(l, v, st, seat)
	} else {
		sc.Status = adapter.PlainText(g.RenderTable(l, v, st).Text)
		if seat >= 0 {
			m := g.RenderSeat(l, v, st, seat)
			sc.Prompt = adapter.PlainText(m.Text)
			sc.Choices = adapter.ChoicesFrom(m.Keyboard)
		}
	}
	if len(sc.Seats) != len(t.Seats) {
		sc.Seats = make([]adapter.SceneSeat, len(t.Seats))
	}
	playing := t.Phase == record.PhasePlaying
	for i, s := range t.Seats {
		ss := &sc.Seats[i]
		if ss.Name == "" {
			ss.Name = s.Name
		}
		ss.You = i == seat
		ss.Robot = !s.Human()
		ss.Away = playing && s.Human() && s.Auto()
		if playing && s.Human() && !s.Auto() && !s.Due.IsZero() {
			ss.Deadline = s.Due.UnixMilli()
		}
	}
	if playing && seat >= 0 && t.Seats[seat].Auto() {
		// The bot plays for the seat: its hand stays in sight (not to
		// be pressed), with the one button that takes it back.
		back := callback.Data{Op: callback.Back, Table: t.ID, GameNo: t.GameNo, Args: []int{seat}}.String()
		sc.Prompt = adapter.PlainText(l.T("auto.notice"))
		hand := make([]adapter.Card, len(sc.Hand))
		for i, c := range sc.Hand {
			c.Act, c.Dim, c.Selected = "", false, false
			hand[i] = c
		}
		sc.Hand, sc.Choices = hand, []adapter.Choice{{Text: l.T("auto.back_button"), Act: back}}
	}
	if playing && seat >= 0 && !t.Seats[seat].Auto() {
		w.webHint(l, t, g, st, seat, &sc)
	}
	return sc
}

// webHint shows the hints on the page as in the chat (addHint): the
// advice in force with the advised card or choice marked, or «💡
// Подсказка» among the choices while the seat may act and has none.
func (w *Web) webHint(l adapter.Loc, t *record.Table, g adapter.Game, st game.State, seat int, sc *adapter.Scene) {
	if _, ok := view.HintGame(g); !ok || !t.Hints {
		return
	}
	if h := view.HintInForce(t, seat); h != nil {
		for i := range sc.Hand {
			sc.Hand[i].Hinted = view.Advised(sc.Hand[i].Act, t.ID, seat, h.Action)
		}
		for i := range sc.Choices {
			sc.Choices[i].Hinted = view.Advised(sc.Choices[i].Act, t.ID, seat, h.Action)
		}
		sc.Hint = adapter.PlainText(h.Why)
		return
	}
	if view.MayAsk(st, seat) {
		row := 0
		for _, c := range sc.Choices {
			row = max(row, c.Row+1)
		}
		sc.Choices = append(sc.Choices, adapter.Choice{Text: l.T("hints.button"), Act: view.HintPayload(t, seat), Row: row})
	}
}

// lobbyScene shows who sits at a table being gathered.
func (w *Web) lobbyScene(l adapter.Loc, t *record.Table) *adapter.Scene {
	sc := &adapter.Scene{Status: l.T("web.lobby")}
	for _, s := range t.Seats {
		sc.Seats = append(sc.Seats, adapter.SceneSeat{Name: s.Name, Robot: !s.Human()})
	}
	return sc
}

// Act applies an action the page sent for user: the data of one of the
// buttons its scene offered, judged exactly as the same press in the chat
// (the seat's checks, the staleness check, the engine's rules) and
// committed with the idempotency key, so a retried request is a no-op.
// A refused action changes nothing and says why in the reply.
func (w *Web) Act(ctx context.Context, token string, user models.User, data, key string) (Reply, error) {
	t0, _, err := w.webLoad(ctx, token, user.ID)
	if err != nil {
		return Reply{}, err
	}
	id := t0.ID
	p, err := callback.Parse(data)
	if err != nil || p.Table != id || key == "" || len(key) > 64 {
		return Reply{}, ErrBadRequest
	}
	switch p.Op {
	case callback.Action, callback.Draft, callback.Back, callback.Again, callback.Info, callback.Hint:
	default:
		return Reply{}, ErrBadRequest // lobby, menus and questions stay in the chat
	}
	if p.Op == callback.Info {
		return w.webInfo(ctx, p, user.ID)
	}
	t, answer, err := w.tables.PagePress(ctx, id, webUpdateID(user.ID, key), user, p)
	a, ok := refusal.Judge(w.views.TableLoc(t), answer, err)
	if !ok {
		return Reply{}, err
	}
	return webReply(a), nil
}

// webInfo is a seat's private information (InfoGame), as an alert.
func (w *Web) webInfo(ctx context.Context, p callback.Data, user int64) (Reply, error) {
	t, version, err := w.tables.Load(ctx, p.Table)
	if err != nil {
		return Reply{}, err
	}
	if version == 0 {
		return Reply{}, ErrNotFound
	}
	text, err := w.tables.SeatInfo(t, p, user)
	if err != nil {
		a, ok := refusal.Judge(w.loc(t.Lang), "", err)
		if !ok {
			return Reply{}, err
		}
		return webReply(a), nil
	}
	return Reply{OK: true, Text: text, Alert: true}, nil
}

// webReply is a press's answer (refusal.Judge) as the page is told it.
func webReply(a refusal.Answer) Reply {
	switch {
	case a.Refusal != nil:
		return Reply{Text: a.Text, Refused: refusedKind(a.Refusal.Key)}
	case a.Busy:
		return Reply{Text: a.Text, Refused: RefusedBusy}
	}
	return Reply{OK: true, Text: a.Text}
}

// refusedKind sorts a refusal's catalog key into a Reply kind.
func refusedKind(key string) string {
	switch {
	case key == "error.not_yours":
		return RefusedForeign
	case key == "error.broken":
		return RefusedBroken
	case key == "error.bad_button" || key == "error.bad_choice":
		return RefusedBad
	case strings.HasPrefix(key, "error.stale"):
		return RefusedStale
	}
	return RefusedRule
}

// Seen records whether user's page of a table is open and visible: while
// it is, their hand in the chat is not redrawn (the page shows it, and the
// calls go to those who need them); when it is hidden, or its lease runs
// out unrenewed, the hand is drawn again, and it pings when it is their
// turn. A spectator's page changes nothing.
func (w *Web) Seen(ctx context.Context, token string, user int64, visible bool) error {
	t0, _, err := w.webLoad(ctx, token, user)
	if err != nil {
		return err
	}
	if t0.SeatOf(user) < 0 {
		return nil // a spectator's page changes nothing
	}
	return w.tables.PageSeen(ctx, t0.ID, user, visible)
}
