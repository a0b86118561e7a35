package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// WebState is what the «Стол» page shows of a table to one viewer: the
// table's scene as that viewer may see it, and the page's own words in the
// table's language. Version is the table record's version: the page asks
// again after every change it hears of and ignores an older answer.
type WebState struct {
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
	// Standings are a finished game's places, best first, as the chat's
	// results rank them.
	Standings []WebStanding `json:"standings,omitempty"`
	// Rules is the game's guide as plain text, pages joined.
	Rules string `json:"rules,omitempty"`
	// Now is the server's clock (Unix ms), so countdowns do not depend on
	// the phone's.
	Now int64 `json:"now"`
	// Texts are the page's own words (catalog keys "web.<key>", by key).
	Texts map[string]string `json:"texts"`
}

// WebStanding is one line of a finished game's standings on the page.
type WebStanding struct {
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

// webRatings keeps a recorded result's rating changes for the page, by
// player id (nil when they are not known: a retried recording).
func webRatings(e *resultEntry, changes []ratingChange) map[string][2]float64 {
	if len(changes) == 0 {
		return nil
	}
	out := map[string][2]float64{}
	for i, s := range e.Seats {
		if i < len(changes) && !s.Unrated && s.Player != "" {
			out[s.Player] = [2]float64{changes[i].Before, changes[i].After}
		}
	}
	return out
}

// seatPlayer is a seat's results player id: the person (or the one who
// left it), or the robot's level.
func seatPlayer(s record.Seat) string {
	switch {
	case s.Leaver != nil:
		return humanPlayer(s.Leaver.UserID)
	case !s.Human():
		return robotPlayer(s.AI)
	}
	return humanPlayer(s.UserID)
}

// WebReply answers an action from the page: OK when it was applied (or
// was applied before: a retried request), and the toast to show, which is
// the chat's toast for the same press (the reason when refused).
type WebReply struct {
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
	// ErrWebBadRequest is a request that makes no sense: no such table
	// id, an action that is no button of this table's.
	ErrWebBadRequest = errors.New("web: bad request")
	// ErrWebNotFound is a table the bot has never seen.
	ErrWebNotFound = errors.New("web: no such table")
)

// Refusal kinds of a WebReply: why an action changed nothing.
const (
	RefusedBad     = "bad"       // not a button of this viewer's (400)
	RefusedForeign = "not_yours" // another seat's button (403)
	RefusedStale   = "stale"     // drawn before a later change (409)
	RefusedRule    = "rule"      // the game's rules forbid it now (422)
	RefusedBusy    = "busy"      // the table stayed too busy (503)
)

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
func (b *Bot) Text(lang, key string, args ...any) string { return b.loc(lang).T(key, args...) }

// WebState is the table a page's token names as user sees it: their
// seat's scene when they play in its current game, the public one
// otherwise. ErrWebNotFound when the token names no table the user may
// see. It changes nothing.
func (b *Bot) WebState(ctx context.Context, token string, user int64) (WebState, error) {
	v, err := b.WebView(ctx, token)
	if err != nil {
		return WebState{}, err
	}
	ok, err := v.Allowed(ctx, user)
	if err != nil {
		return WebState{}, err
	}
	if !ok {
		return WebState{}, ErrWebNotFound
	}
	return v.State(v.Kind(user))
}

// WebView is a table read once for all its viewers on the page: every
// viewer of one kind (a seat, or the spectators) sees the same state, so
// a change costs one read and one drawing per kind, however many pages
// are open. A WebView is not safe for concurrent use.
type WebView struct {
	b       *Bot
	t       *record.Table
	version int64
	g       adapter.Game
	st      game.State
	decoded bool
}

// WebView reads the table a page's token names; ErrWebNotFound when it
// names none. Who may see it is Allowed's question.
func (b *Bot) WebView(ctx context.Context, token string) (*WebView, error) {
	id, err := b.webTableID(ctx, token)
	if err != nil {
		return nil, err
	}
	t, version, err := b.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if version == 0 || t.WebToken != token {
		return nil, ErrWebNotFound
	}
	return &WebView{b: b, t: t, version: version}, nil
}

// ID is the table's id (the store's key: never shown to the page).
func (v *WebView) ID() string { return v.t.ID }

// Version is the table record's version the view was read at.
func (v *WebView) Version() int64 { return v.version }

// Kind is what user sees of the table: their seat, or Spectator.
func (v *WebView) Kind(user int64) int { return v.t.SeatOf(user) }

// Allowed reports whether user may see the table: its players always,
// anyone else when Telegram says they are in its group (cached).
func (v *WebView) Allowed(ctx context.Context, user int64) (bool, error) {
	return v.b.webAllowed(ctx, v.t, user)
}

// State is the table as viewers of a kind (Kind) see it.
func (v *WebView) State(kind int) (WebState, error) {
	b, t := v.b, v.t
	l := b.loc(t.Lang)
	ws := WebState{Table: t.WebToken, Version: v.version, Chat: t.Title, Lang: t.Lang, Phase: t.Phase, Seat: adapter.Spectator, Now: b.now().UnixMilli()}
	g, ok := b.games.get(t.GameID)
	if !ok {
		return ws, nil
	}
	ws.Game, ws.Title = g.ID(), adapter.Title(l, g)
	ws.Rules = adapter.PlainText(strings.ReplaceAll(rulesText(l, g, b.turnTime(t)), rulesPageBreak, "\n\n"))
	if lg, ok := g.(adapter.LiveGame); ok && lg.LiveButtons() {
		ws.Live = true
	}
	if t.Phase == record.PhaseLobby || t.State == nil {
		ws.Scene = b.lobbyScene(l, t)
		return ws, nil
	}
	if !v.decoded {
		g, st, err := b.decode(t)
		if err != nil {
			return WebState{}, err
		}
		v.g, v.st, v.decoded = g, st, true
	}
	if kind < adapter.Spectator || kind >= len(t.Seats) {
		kind = adapter.Spectator
	}
	ws.Seat = kind
	sc := b.scene(l, t, v.g, v.st, kind)
	ws.Scene = &sc
	ws.Over = v.st.Over()
	if ws.Over {
		recorded := t.ResultsSent == resultID(t)
		for _, st := range adapter.Standings(v.st.Result()) {
			if i := int(st.Seat); i >= 0 && i < len(sc.Seats) {
				line := WebStanding{Place: st.Place, Name: sc.Seats[i].Name, Score: st.Score, Detail: sc.Seats[i].Stats, You: i == kind}
				if r, ok := t.WebRatings[seatPlayer(t.Seats[i])]; ok && recorded {
					line.Rating = adapter.PlainText(l.T("private.rating", "Rating", decimal(l, r[1]), "Change", signed(l, r[1]-r[0])))
				}
				ws.Standings = append(ws.Standings, line)
			}
		}
	}
	if ws.Over && t.Phase == record.PhaseIdle && kind >= 0 {
		ws.Again = againButton(l, t).Data
	}
	return ws, nil
}

// scene is the game's Scene with the platform's marks on the seats and,
// for a seat the bot plays for, the «I'm back» choice. A game without
// WebGame gets its chat messages as text and its buttons as choices.
func (b *Bot) scene(l adapter.Loc, t *record.Table, g adapter.Game, st game.State, seat int) adapter.Scene {
	v := b.adapterView(t)
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
		back := callback.Data{Op: 'b', Table: t.ID, GameNo: t.GameNo, Args: []int{seat}}.String()
		sc.Prompt = adapter.PlainText(l.T("auto.notice"))
		hand := make([]adapter.Card, len(sc.Hand))
		for i, c := range sc.Hand {
			c.Act, c.Dim, c.Selected = "", false, false
			hand[i] = c
		}
		sc.Hand, sc.Choices = hand, []adapter.Choice{{Text: l.T("auto.back_button"), Act: back}}
	}
	if playing && seat >= 0 && !t.Seats[seat].Auto() {
		b.webHint(l, t, g, st, seat, &sc)
	}
	return sc
}

// webHint shows the hints on the page as in the chat (addHint): the
// advice in force with the advised card or choice marked, or «💡
// Подсказка» among the choices while the seat may act and has none.
func (b *Bot) webHint(l adapter.Loc, t *record.Table, g adapter.Game, st game.State, seat int, sc *adapter.Scene) {
	if _, ok := hintGame(g); !ok || !t.Hints {
		return
	}
	if h := t.Seats[seat].Hint; h != nil && h.At == len(t.Log) {
		advised := func(act string) bool {
			p, err := callback.Parse(act)
			return err == nil && p.Op == 'a' && p.Args[0] == seat && game.Action(p.Args[2]) == h.Action
		}
		for i := range sc.Hand {
			sc.Hand[i].Hinted = advised(sc.Hand[i].Act)
		}
		for i := range sc.Choices {
			sc.Choices[i].Hinted = advised(sc.Choices[i].Act)
		}
		sc.Hint = adapter.PlainText(h.Why)
		return
	}
	if slices.Contains(st.ToAct(), game.Seat(seat)) && len(st.Legal(game.Seat(seat))) > 0 {
		row := 0
		for _, c := range sc.Choices {
			row = max(row, c.Row+1)
		}
		sc.Choices = append(sc.Choices, adapter.Choice{Text: l.T("hints.button"), Act: hintPayload(t, seat), Row: row})
	}
}

// lobbyScene shows who sits at a table being gathered.
func (b *Bot) lobbyScene(l adapter.Loc, t *record.Table) *adapter.Scene {
	sc := &adapter.Scene{Status: l.T("web.lobby")}
	for _, s := range t.Seats {
		sc.Seats = append(sc.Seats, adapter.SceneSeat{Name: s.Name, Robot: !s.Human()})
	}
	return sc
}

// WebAct applies an action the page sent for user: the data of one of the
// buttons its scene offered, judged exactly as the same press in the chat
// (the seat's checks, the staleness check, the engine's rules) and
// committed with the idempotency key, so a retried request is a no-op.
// A refused action changes nothing and says why in the reply.
func (b *Bot) WebAct(ctx context.Context, token string, user models.User, data, key string) (WebReply, error) {
	t0, _, err := b.webLoad(ctx, token, user.ID)
	if err != nil {
		return WebReply{}, err
	}
	id := t0.ID
	p, err := callback.Parse(data)
	if err != nil || p.Table != id || key == "" || len(key) > 64 {
		return WebReply{}, ErrWebBadRequest
	}
	switch p.Op {
	case 'a', 'm', 'b', 'n', 'i', 'h':
	default:
		return WebReply{}, ErrWebBadRequest // lobby, menus and questions stay in the chat
	}
	if p.Op == 'i' {
		return b.webInfo(ctx, p, user.ID)
	}
	t, ch, err := b.transact(ctx, id, webUpdateID(user.ID, key), func(t *record.Table, ch *change) error {
		switch p.Op {
		case 'a':
			return b.onAction(t, ch, p, user.ID)
		case 'm':
			return b.onDraft(t, ch, p, user.ID)
		case 'b':
			return b.onBack(t, ch, p, user.ID)
		case 'h':
			return b.onHint(t, ch, p, user.ID)
		}
		if t.SeatOf(user.ID) < 0 {
			// «Once more» from the page is for those who played: anyone
			// may open a table's page, only the group sees its lobby.
			return refuse("error.not_yours")
		}
		return b.onAgain(ctx, t, ch, p, &user)
	})
	a, ok := judgePress(b.tableLoc(t), ch, err)
	if !ok {
		return WebReply{}, err
	}
	return webReply(a), nil
}

// webInfo is a seat's private information (InfoGame), as an alert.
func (b *Bot) webInfo(ctx context.Context, p callback.Data, user int64) (WebReply, error) {
	t, version, err := b.load(ctx, p.Table)
	if err != nil {
		return WebReply{}, err
	}
	if version == 0 {
		return WebReply{}, ErrWebNotFound
	}
	text, err := b.seatInfo(t, p, user)
	if err != nil {
		a, ok := judgePress(b.loc(t.Lang), nil, err)
		if !ok {
			return WebReply{}, err
		}
		return webReply(a), nil
	}
	return WebReply{OK: true, Text: text, Alert: true}, nil
}

// webReply is a press's answer (judgePress) as the page is told it.
func webReply(a pressAnswer) WebReply {
	switch {
	case a.refusal != nil:
		return WebReply{Text: a.text, Refused: refusedKind(a.refusal.key)}
	case a.busy:
		return WebReply{Text: a.text, Refused: RefusedBusy}
	}
	return WebReply{OK: true, Text: a.text}
}

// refusedKind sorts a refusal's catalog key into a WebReply kind.
func refusedKind(key string) string {
	switch {
	case key == "error.not_yours":
		return RefusedForeign
	case key == "error.bad_button" || key == "error.bad_choice":
		return RefusedBad
	case strings.HasPrefix(key, "error.stale"):
		return RefusedStale
	}
	return RefusedRule
}

// WebSeen records whether user's page of table id is open and visible:
// while it is, their hand in the chat is not redrawn (the page shows it,
// and the calls go to those who need them); when it is hidden, or its
// lease runs out unrenewed, the hand is drawn again, and it pings when it
// is their turn. A spectator's page changes nothing.
func (b *Bot) WebSeen(ctx context.Context, token string, user int64, visible bool) error {
	t0, _, err := b.webLoad(ctx, token, user)
	if err != nil {
		return err
	}
	if t0.SeatOf(user) < 0 {
		return nil // a spectator's page changes nothing
	}
	_, _, err = b.transact(ctx, t0.ID, 0, func(t *record.Table, ch *change) error {
		seat := t.SeatOf(user)
		if t.Phase != record.PhasePlaying || seat < 0 {
			return errNoChange
		}
		s := &t.Seats[seat]
		now := b.now()
		switch {
		case visible && s.Web.Sub(now) > b.cfg.WebLease*2/3:
			// Renewed when a third of the lease is used: an open page
			// (saying so every 25 s) costs a commit every half minute or
			// so, and one closed without a word frees its hand within
			// the lease.
			return errNoChange
		case visible:
			s.Web = now.Add(b.cfg.WebLease)
		case s.Web.IsZero():
			return errNoChange
		default:
			s.Web = time.Time{}
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

// webShown reports whether the seat's page is open and visible now.
func (b *Bot) webShown(t *record.Table, seat int) bool {
	s := t.Seats[seat]
	return t.Phase == record.PhasePlaying && s.Leaver == nil && s.Web.After(b.now())
}

// webExpiry is the earliest lease of an open page, zero when none.
func webExpiry(t *record.Table) time.Time {
	var at time.Time
	for _, s := range t.Seats {
		if !s.Web.IsZero() && (at.IsZero() || s.Web.Before(at)) {
			at = s.Web
		}
	}
	return at
}

// expireWeb ends the leases that ran out, so those hands are drawn again.
func (b *Bot) expireWeb(ctx context.Context, id string) error {
	_, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		now, changed := b.now(), false
		for i := range t.Seats {
			if s := &t.Seats[i]; !s.Web.IsZero() && !now.Before(s.Web) {
				s.Web, changed = time.Time{}, true
			}
		}
		if !changed {
			return errNoChange
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

// webAppButton opens the page from a seat's private message (Telegram
// allows web_app buttons in private chats only); none when no page is
// served, or the table has no token yet.
func (b *Bot) webAppButton(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if b.cfg.WebAppURL == "" || t.WebToken == "" {
		return adapter.Button{}, false
	}
	return adapter.Button{Text: l.T("web.button"), WebApp: b.cfg.WebAppURL + "?table=" + url.QueryEscape(t.WebToken)}, true
}

// webAppLink opens the page from the group: a direct link to the Mini App
// by its short name, the table in its start parameter.
func (b *Bot) webAppLink(l adapter.Loc, t *record.Table) (adapter.Button, bool) {
	if b.cfg.WebAppURL == "" || b.cfg.WebAppShortName == "" || b.cfg.Username == "" || t.WebToken == "" {
		return adapter.Button{}, false
	}
	return adapter.Button{Text: l.T("web.button"), URL: "https://t.me/" + b.cfg.Username + "/" + b.cfg.WebAppShortName + "?startapp=" + url.QueryEscape(t.WebToken)}, true
}
