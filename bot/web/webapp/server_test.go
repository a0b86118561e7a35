package webapp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// table is a Трик-н-Шеф game of three people in a group, with the page's
// server in front of the bot that runs it.
type table struct {
	h   *bottest.Test
	web *httptest.Server
	srv *webapp.Server
	// id is the table's token: what the page's links and API name it by.
	id     string
	group  *telegramtest.Chat
	people []*telegramtest.User
	game   adapter.Game
	// lastSent is when move sent the request that made its move, and
	// lastVersion the table's version right after it.
	lastSent    time.Time
	lastVersion int64
}

func newTable(t *testing.T, cfg webapp.Config) *table {
	t.Helper()
	return newGame(t, trickchef.Game(), []string{"Аня", "Борис", "Вера"}, cfg)
}

// newTableOf is a Трик-н-Шеф table of these people.
func newTableOf(t *testing.T, names []string) *table {
	t.Helper()
	return newGame(t, trickchef.Game(), names, webapp.Config{})
}

// newGame starts game g for people of these names, with the page's server
// in front of the bot.
func newGame(t *testing.T, g adapter.Game, names []string, cfg webapp.Config) *table {
	t.Helper()
	return newGameWith(t, g, names, cfg, nil)
}

// newGameWith is newGame whose lobby is set up by beforeStart (pressed
// by its creator) before the game starts.
func newGameWith(t *testing.T, g adapter.Game, names []string, cfg webapp.Config, beforeStart func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message)) *table {
	t.Helper()
	h := bottest.NewTest(t, []adapter.Game{g}, time.Minute)
	var people []*telegramtest.User
	for _, name := range names {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Стол", people...)
	lobby, err := h.LobbyFor(g.ID(), group, people[0], people[1:], 0)
	if err != nil {
		t.Fatal(err)
	}
	if beforeStart != nil {
		beforeStart(h, group, people[0], lobby)
	}
	h.MustStartGame(people[0], lobby)
	srv, web := serve(t, h, cfg)
	token, err := h.Bot.Web.Token(context.Background(), strconv.FormatInt(group.ID(), 10))
	if err != nil {
		t.Fatal(err)
	}
	return &table{h: h, web: web, id: token, srv: srv, group: group, people: people, game: g}
}

// serve puts the page's server, configured by cfg, in front of h's bot.
func serve(t *testing.T, h *bottest.Test, cfg webapp.Config) (*webapp.Server, *httptest.Server) {
	t.Helper()
	cfg.Token = bottest.Token
	if cfg.ReadsPerSecond == 0 {
		// The tests read every player's state for every move they make:
		// far above a page's rate, which the bounds tests set themselves.
		cfg.ReadsPerSecond, cfg.ReadBurst = 1000, 1000
	}
	if cfg.ReplaysPerSecond == 0 {
		cfg.ReplaysPerSecond, cfg.ReplayBurst = 1000, 1000
	}
	srv := webapp.New(cfg, h.Bot.Web, h.Redis, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(web.Close)
	return srv, web
}

// initData is what Telegram would give u's page now.
func initData(u *telegramtest.User) string {
	return initdata.SignUser(bottest.Token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now(), "")
}

func (x *table) request(t *testing.T, method, path, auth string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, x.web.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "tma "+auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func (x *table) state(t *testing.T, u *telegramtest.User) web.State {
	t.Helper()
	code, body := x.request(t, "GET", "/api/state?table="+url.QueryEscape(x.id), initData(u), nil)
	if code != http.StatusOK {
		t.Fatalf("state for %s: %d %s", u.User().FirstName, code, body)
	}
	var ws web.State
	if err := json.Unmarshal(body, &ws); err != nil {
		t.Fatal(err)
	}
	return ws
}

func (x *table) act(t *testing.T, u *telegramtest.User, data, key string) (int, web.Reply) {
	t.Helper()
	code, body := x.request(t, "POST", "/api/act", initData(u), map[string]string{"table": x.id, "act": data, "key": key})
	var r web.Reply
	_ = json.Unmarshal(body, &r)
	return code, r
}

func (x *table) version(t *testing.T) int64 { return x.h.Version(x.group) }

// over reports whether the table's game is over.
func (x *table) over(t *testing.T) bool {
	t.Helper()
	tab, _ := x.h.Table(x.group)
	st, err := bot.State(tab, x.game)
	if err != nil {
		t.Fatal(err)
	}
	return st.Over()
}

// again starts the next game from the first player's page.
func (x *table) again(t *testing.T) {
	t.Helper()
	ws := x.state(t, x.people[0])
	if code, r := x.act(t, x.people[0], ws.Again, fmt.Sprintf("again-%d", ws.Version)); code != http.StatusOK || !r.OK {
		t.Fatalf("again: %d %+v", code, r)
	}
	// The lobby seats the same players; its creator starts it.
	lobby, err := x.group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(x.h.T("lobby.start_button"))
		return ok
	})
	if err != nil {
		t.Fatal(err)
	}
	x.h.MustStartGame(x.people[0], lobby)
}

// toAct reports whether seat has to act now.
func (x *table) toAct(t *testing.T, seat int) bool {
	t.Helper()
	tab, _ := x.h.Table(x.group)
	st, err := bot.State(tab, x.game)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Contains(st.ToAct(), game.Seat(seat))
}

// acts lists the presses a viewer's scene offers: cards first.
func acts(ws web.State) []string {
	var out []string
	if ws.Scene == nil {
		return nil
	}
	for _, c := range ws.Scene.Hand {
		if c.Act != "" && !c.Dim {
			out = append(out, c.Act)
		}
	}
	for _, c := range ws.Scene.Choices {
		out = append(out, c.Act)
	}
	return out
}

// move makes one move of whoever is to act through the page, and returns
// who moved. In a real-time game there are moments when only the dealer
// can act (no one has a press until it deals after the quiet pause), so it
// waits for a press to appear, up to a deadline.
func (x *table) move(t *testing.T) *telegramtest.User {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if u, tried := x.tryMove(t); u != nil {
			return u
		} else if time.Now().After(deadline) {
			t.Fatalf("%s: nobody could move through the page (version %d); tried %q", x.game.ID(), x.version(t), tried)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tryMove makes the first move a page offers any player, or returns nil
// and what it tried.
func (x *table) tryMove(t *testing.T) (*telegramtest.User, []string) {
	t.Helper()
	before := x.version(t)
	var tried []string
	for _, u := range x.people {
		for _, a := range acts(x.state(t, u)) {
			p, err := adapter.ParseButton(a)
			if err != nil || p.Op != 'a' {
				continue
			}
			sent := time.Now()
			code, r := x.act(t, u, a, fmt.Sprintf("move-%d-%d", before, u.ID()))
			if code == http.StatusOK && r.OK {
				x.lastSent, x.lastVersion = sent, x.version(t)
				return u, nil
			}
			tried = append(tried, fmt.Sprintf("%s %s: %d %+v", u.User().FirstName, a, code, r))
		}
	}
	return nil, tried
}

// TestForgedInitDataIsRefused: every request whose initData Telegram did not
// sign for this bot, or signed too long ago, gets 401 with a text, and
// nothing changes.
func TestForgedInitDataIsRefused(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	u := x.people[0]
	good := initData(u)
	user := initdata.User{ID: u.ID(), FirstName: u.User().FirstName}
	tampered := strings.Replace(good, "auth_date=", "auth_date=1", 1)
	cases := map[string]string{
		"missing":       "",
		"another bot":   initdata.SignUser("654321:another-bot-token", user, time.Now(), ""),
		"expired":       initdata.SignUser(bottest.Token, user, time.Now().Add(-25*time.Hour), ""),
		"tampered":      tampered,
		"no hash":       "auth_date=1&user=%7B%22id%22%3A1%7D",
		"no user":       initdata.Sign(bottest.Token, url.Values{"auth_date": {strconv.FormatInt(time.Now().Unix(), 10)}}),
		"someone else":  strings.Replace(good, strconv.FormatInt(u.ID(), 10), strconv.FormatInt(x.people[1].ID(), 10), 1),
		"not urlencode": "%%%",
	}
	ws := x.state(t, u)
	before := x.version(t)
	for name, auth := range cases {
		for _, r := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/api/state?table=" + x.id, nil},
			{"GET", "/api/events?table=" + x.id, nil},
			{"POST", "/api/act", map[string]string{"table": x.id, "act": acts(ws)[0], "key": "k"}},
			{"POST", "/api/seen", map[string]any{"table": x.id, "visible": true}},
			{"GET", "/api/replay?step=0&table=" + x.id, nil},
		} {
			code, body := x.request(t, r.method, r.path, auth, r.body)
			var e struct{ Error, Text string }
			if code != http.StatusUnauthorized || json.Unmarshal(body, &e) != nil || e.Error != "auth" || e.Text == "" {
				t.Errorf("%s: %s %s: %d %s, want 401 with a text", name, r.method, r.path, code, body)
			}
		}
	}
	if v := x.version(t); v != before {
		t.Errorf("refused requests changed the table: version %d → %d", before, v)
	}
}

// TestAnotherSeatsHand: a player's page shows their own hand only; a
// spectator's (a member of the group who does not play) shows none;
// pressing another seat's card is refused with 403 and changes nothing.
func TestAnotherSeatsHand(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	stranger := x.h.Srv.NewUser("Гость")
	x.group.AddMember(stranger)
	spect := x.state(t, stranger)
	if spect.Seat != adapter.Spectator || spect.Scene == nil || len(spect.Scene.Hand) > 0 || len(spect.Scene.Choices) > 0 {
		t.Fatalf("a spectator's scene offers a hand or choices: %+v", spect.Scene)
	}
	for i, u := range x.people {
		ws := x.state(t, u)
		if ws.Seat != i || !ws.Scene.Seats[i].You {
			t.Fatalf("%s sees seat %d", u.User().FirstName, ws.Seat)
		}
		for _, a := range acts(ws) {
			p, err := adapter.ParseButton(a)
			if err != nil {
				t.Fatalf("%s's scene offers %q: %v", u.User().FirstName, a, err)
			}
			if p.Args[0] != i {
				t.Fatalf("%s's scene offers seat %d's button %q", u.User().FirstName, p.Args[0], a)
			}
		}
	}
	before := x.version(t)
	mine := acts(x.state(t, x.people[0]))
	for _, u := range append([]*telegramtest.User{stranger}, x.people[1:]...) {
		for _, a := range mine {
			code, r := x.act(t, u, a, "foreign-"+a)
			if code != http.StatusForbidden || r.OK || r.Refused != web.RefusedForeign || r.Text == "" {
				t.Errorf("%s pressing Аня's %q: %d %+v, want 403 not_yours", u.User().FirstName, a, code, r)
			}
		}
	}
	if v := x.version(t); v != before {
		t.Errorf("refused presses changed the table: version %d → %d", before, v)
	}
}

// TestRetriedActionIsANoOp: the same key twice applies once.
func TestRetriedActionIsANoOp(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	for _, u := range x.people {
		for _, a := range acts(x.state(t, u)) {
			if p, _ := adapter.ParseButton(a); p.Op != 'a' {
				continue
			}
			code, r := x.act(t, u, a, "once")
			if code != http.StatusOK || !r.OK {
				continue // not this card, or not this seat's turn
			}
			after := x.version(t)
			code, r = x.act(t, u, a, "once")
			if code != http.StatusOK || !r.OK {
				t.Fatalf("the retried request: %d %+v, want 200 ok", code, r)
			}
			if v := x.version(t); v != after {
				t.Fatalf("the retried request changed the table again: version %d → %d", after, v)
			}
			// The same card under a new key is judged anew: stale now.
			code, r = x.act(t, u, a, "twice")
			if code == http.StatusOK || r.OK || r.Text == "" {
				t.Fatalf("the same press under a new key: %d %+v, want a refusal", code, r)
			}
			return
		}
	}
	t.Fatal("nobody could move")
}

// TestIllegalCardExplained: a card the rules forbid now is refused with
// 422 and the chat's reason, and nothing changes.
func TestIllegalCardExplained(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	for i := 0; i < 40; i++ {
		for _, u := range x.people {
			ws := x.state(t, u)
			for _, c := range ws.Scene.Hand {
				if !c.Dim || c.Act == "" {
					continue
				}
				before := x.version(t)
				code, r := x.act(t, u, c.Act, "dim")
				if code != http.StatusUnprocessableEntity || r.Refused != web.RefusedRule || r.Text == "" {
					t.Fatalf("a dim card: %d %+v, want 422 with the reason", code, r)
				}
				if v := x.version(t); v != before {
					t.Fatalf("a refused card changed the table")
				}
				return
			}
		}
		x.move(t)
	}
	t.Fatal("no unplayable card came up in 40 moves")
}

// TestGarbageChangesNothing sends a thousand malformed requests, signed
// and not: each gets a 4xx, and the table stays as it was.
func TestGarbageChangesNothing(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{ActionsPerSecond: 1e6, ActionBurst: 1e6})
	rng := rand.New(rand.NewPCG(1, 2))
	good := initData(x.people[0])
	valid := acts(x.state(t, x.people[0]))
	before := x.version(t)
	junk := func() string {
		const chars = "aAzZ09:-_!%{}[]\"\\/ \x00é🃏"
		rs := []rune(chars)
		n := rng.IntN(40)
		var b strings.Builder
		for range n {
			b.WriteRune(rs[rng.IntN(len(rs))])
		}
		return b.String()
	}
	for i := 0; i < 1000; i++ {
		auth := good
		if rng.IntN(4) == 0 {
			auth = url.QueryEscape(junk()) // a header must stay sendable
		}
		var method, path string
		var body io.Reader
		switch rng.IntN(7) {
		case 0:
			method, path = "GET", "/api/state?table="+url.QueryEscape(junk())
		case 6:
			// A replay of a game that is not over, of no table, or of a
			// step that is no number.
			table, step := x.id, junk()
			if rng.IntN(2) == 0 {
				table, step = junk(), strconv.Itoa(rng.IntN(5))
			}
			method, path = "GET", "/api/replay?table="+url.QueryEscape(table)+"&step="+url.QueryEscape(step)
		case 1:
			method, path = "POST", "/api/act"
			act := junk()
			if len(valid) > 0 && rng.IntN(2) == 0 {
				// A real button with a digit changed or a table swapped.
				act = strings.Replace(valid[rng.IntN(len(valid))], ":", ":9", 1)
			}
			raw, _ := json.Marshal(map[string]any{"table": x.id, "act": act, "key": junk()})
			body = bytes.NewReader(raw)
		case 2:
			method, path = "POST", "/api/act"
			body = strings.NewReader(junk())
		case 3:
			method, path = "POST", "/api/seen"
			body = strings.NewReader(`{"table":"` + url.QueryEscape(junk()) + `","visible":true,"x":1}`)
		case 4:
			method, path = []string{"PUT", "DELETE", "PATCH", "GET"}[rng.IntN(4)], "/api/"+url.PathEscape(junk())
		case 5:
			method, path = "POST", "/api/act"
			body = bytes.NewReader(bytes.Repeat([]byte("{"), 5<<10))
		}
		req, err := http.NewRequest(method, x.web.URL+path, body)
		if err != nil {
			continue
		}
		req.Header.Set("Authorization", "tma "+auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Fatalf("%s %s: %d, want a 4xx", method, path, resp.StatusCode)
		}
	}
	if v := x.version(t); v != before {
		t.Fatalf("garbage changed the table: version %d → %d", before, v)
	}
}

// TestActionsAreRateLimited: a page sending faster than fingers is told to
// slow down, in words.
func TestActionsAreRateLimited(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{ActionsPerSecond: 1, ActionBurst: 3})
	u := x.people[2]
	limited := 0
	for i := 0; i < 10; i++ {
		code, body := x.request(t, "POST", "/api/act", initData(u), map[string]string{"table": x.id, "act": "junk", "key": strconv.Itoa(i)})
		if code == http.StatusTooManyRequests {
			var e struct{ Error, Text string }
			if json.Unmarshal(body, &e) != nil || e.Error != "rate" || e.Text == "" {
				t.Fatalf("429 without a text: %s", body)
			}
			limited++
		}
	}
	if limited < 5 {
		t.Fatalf("%d of 10 fast requests limited, want most", limited)
	}
}

// TestSecurityHeaders: the page and the API carry a strict CSP.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	for _, path := range []string{"/", "/api/state?table=" + x.id} {
		resp, err := http.Get(x.web.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: CSP %q, nosniff %q", path, csp, resp.Header.Get("X-Content-Type-Options"))
		}
	}
}

// stream reads a page's event stream.
type stream struct {
	resp   *http.Response
	events chan web.State
}

func (x *table) stream(t *testing.T, u *telegramtest.User, last int64) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", x.web.URL+"/api/events?table="+x.id, nil)
	req.Header.Set("Authorization", "tma "+initData(u))
	if last > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(last, 10))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &stream{resp: resp, events: make(chan web.State, 64)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var ws web.State
				if json.Unmarshal([]byte(data), &ws) == nil {
					s.events <- ws
				}
			}
		}
	}()
	return s
}

func (s *stream) next(t *testing.T, within time.Duration) (web.State, bool) {
	t.Helper()
	select {
	case ws, ok := <-s.events:
		return ws, ok
	case <-time.After(within):
		return web.State{}, false
	}
}

// TestEventsFollowMoves: an open stream gets the state at once, then a
// newer one after every move, whether it was made in the page or in the
// chat; a stream resumed at the version shown sends nothing until the
// next change.
func TestEventsFollowMoves(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	watcher := x.people[0]
	s := x.stream(t, watcher, 0)
	first, ok := s.next(t, 10*time.Second)
	if !ok || first.Version == 0 || first.Texts["loading"] == "" || first.Rules == "" {
		t.Fatalf("no first state (or no texts): %+v", first)
	}
	shown := first.Version
	for i := 0; i < 3; i++ {
		x.move(t)
		want := x.version(t)
		for shown < want {
			ws, ok := s.next(t, 10*time.Second)
			if !ok {
				t.Fatalf("no event after move %d (shown %d, table at %d)", i, shown, want)
			}
			if ws.Version <= shown {
				t.Fatalf("an event went back: %d after %d", ws.Version, shown)
			}
			if ws.Texts != nil || ws.Rules != "" {
				t.Fatal("a later event carries the page's words or the guide again")
			}
			shown = ws.Version
		}
	}
	resumed := x.stream(t, watcher, shown)
	if ws, ok := resumed.next(t, 300*time.Millisecond); ok {
		t.Fatalf("a stream resumed at the version shown sent %d at once", ws.Version)
	}
	x.move(t)
	if ws, ok := resumed.next(t, 10*time.Second); !ok || ws.Version <= shown {
		t.Fatalf("the resumed stream missed the next move")
	}
}

// callsTo counts the sends and edits to a chat since call n.
func callsTo(x *table, chat int64, n int) int {
	c := 0
	for _, call := range x.h.Srv.CallsSince(n) {
		if call.ChatID == chat && call.OK && call.Method != "answerCallbackQuery" {
			c++
		}
	}
	return c
}

// TestVisiblePageSparesTheHand: while a player's page is open and visible,
// their hand in the chat is not redrawn, not even for their turn; when the
// page hides, the hand comes back in the chat and it pings on their turn.
func TestVisiblePageSparesTheHand(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	u := x.people[0]
	seen := func(visible bool) {
		t.Helper()
		code, body := x.request(t, "POST", "/api/seen", initData(u), map[string]any{"table": x.id, "visible": visible})
		if code != http.StatusNoContent {
			t.Fatalf("seen: %d %s", code, body)
		}
	}
	// Let the player's first hand arrive (the hand the bot recorded is in
	// their chat: its send is over), then open the page. Their chat's
	// first message is the greeting: a hand sent late, on a loaded
	// machine, would count as a call made with the page visible.
	tab, _ := x.h.Table(x.group)
	hand := view.Hand(tab.GameNo, tab.SeatOf(u.ID()))
	arrived := func() bool {
		recs, err := x.h.Redis.Messages(context.Background(), strconv.FormatInt(x.group.ID(), 10))
		r := view.ParseMessageRecord(recs[hand])
		return err == nil && r.ID != 0 && u.PrivateChat().Message(r.ID) != nil
	}
	for deadline := time.Now().Add(30 * time.Second); !arrived(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the player's first hand did not arrive")
		}
	}
	seen(true)
	time.Sleep(300 * time.Millisecond) // the commit's own redraw
	mark := len(x.h.Srv.CallsSince(0))
	moves, mine := 0, 0
	for moves < 8 {
		if x.move(t) == u {
			mine++
		}
		moves++
	}
	time.Sleep(time.Second) // deliveries of the last move
	// The group's table is edited through its chat's spacing: on a loaded
	// machine its first edit may come after the second above.
	if err := x.h.Srv.WaitFor(30*time.Second, func() bool { return callsTo(x, x.group.ID(), mark) > 0 }); err != nil {
		t.Fatal("the group table was not kept up to date")
	}
	if n := callsTo(x, u.ID(), mark); n != 0 || mine == 0 {
		t.Fatalf("with the page visible, %d calls went to the player's chat over %d moves (%d of them theirs)", n, moves, mine)
	}
	// Hidden: a waiting hand stays as it is (as in the chat alone), and
	// the player's turn brings a fresh one.
	mark = len(x.h.Srv.CallsSince(0))
	seen(false)
	for i := 0; i < 8 && callsTo(x, u.ID(), mark) == 0; i++ {
		deadline := time.Now().Add(2 * time.Second)
		for callsTo(x, u.ID(), mark) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if callsTo(x, u.ID(), mark) == 0 {
			x.move(t)
		}
	}
	if err := x.h.Srv.WaitFor(30*time.Second, func() bool { return callsTo(x, u.ID(), mark) > 0 }); err != nil {
		t.Fatal("the hand did not come back in the chat when the page hid")
	}
}

// replica is a second bot process over the same store, serving pages
// only: it applies nothing from Telegram and draws no chat message.
func (x *table) replica(t *testing.T) *httptest.Server {
	t.Helper()
	tg, err := tgbot.New(bottest.Token, tgbot.WithServerURL(x.h.Srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	other := bot.New(bot.Params{Config: x.h.Cfg, Store: x.h.Redis, Telegram: tg, Translator: bottest.Catalog(t), Games: []adapter.Game{x.game}})
	srv := webapp.New(webapp.Config{Token: bottest.Token}, other.Web, x.h.Redis, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(web.Close)
	return web
}

// TestPagesOnAnotherReplica: pages connected to one replica see the moves
// another replica applies, through the store's change notices.
func TestPagesOnAnotherReplica(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	other := x.replica(t)
	var streams []*stream
	for _, u := range x.people {
		onOther := *x
		onOther.web = other
		streams = append(streams, onOther.stream(t, u, 0))
	}
	shown := make([]int64, len(streams))
	for i := 0; i < 5; i++ {
		x.move(t) // applied through the first replica's page server
		want := x.version(t)
		for j, s := range streams {
			for shown[j] < want {
				ws, ok := s.next(t, 10*time.Second)
				if !ok {
					t.Fatalf("page %d on the other replica missed move %d (shown %d, table at %d)", j, i, shown[j], want)
				}
				shown[j] = ws.Version
			}
		}
	}
}

// TestButtonsOpenThePage: with the page configured, each hand carries a
// web_app button to its table, and the group's table a direct link to
// the Mini App with the table as its start parameter, both naming the
// table by its token (never the chat id) (web_app buttons are
// for private chats only: the fake refuses them elsewhere, as Telegram does).
func TestButtonsOpenThePage(t *testing.T) {
	t.Parallel()
	h := bottest.NewTest(t, []adapter.Game{trickchef.Game()}, time.Minute)
	h.Stop()
	h.Cfg.WebAppURL = "https://example.org/table/"
	h.Cfg.WebAppShortName = "table"
	h.MustStart()
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Стол", people...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	h.MustStartGame(people[0], lobby)
	id := strconv.FormatInt(group.ID(), 10)
	token, err := h.Bot.Web.Token(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if token == id || strings.Contains(token, strconv.FormatInt(-group.ID(), 10)) {
		t.Fatalf("the table's token %q is its chat id", token)
	}
	for _, u := range people {
		m, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
			_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return b.WebApp != "" })
			return ok
		})
		if err != nil {
			t.Fatalf("%s's hand has no web_app button: %v", u.User().FirstName, err)
		}
		b, _ := m.ButtonFunc(func(b telegramtest.Button) bool { return b.WebApp != "" })
		if b.WebApp != "https://example.org/table/?table="+url.QueryEscape(token) {
			t.Fatalf("the hand's page button opens %q", b.WebApp)
		}
	}
	m, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return strings.Contains(b.URL, "startapp=") })
		return ok
	})
	if err != nil {
		t.Fatalf("the group's table has no link to the page: %v", err)
	}
	b, _ := m.ButtonFunc(func(b telegramtest.Button) bool { return strings.Contains(b.URL, "startapp=") })
	if !strings.HasSuffix(b.URL, "/table?startapp="+url.QueryEscape(token)) || !strings.HasPrefix(b.URL, "https://t.me/") {
		t.Fatalf("the group's link is %q", b.URL)
	}
}

// TestClosedPageLeaseRunsOut: a page that stops saying it is visible (closed
// without a word) frees its hand when its lease runs out: the player's turn
// is then prompted in the chat.
func TestClosedPageLeaseRunsOut(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	x.h.Stop()
	const lease = 4 * time.Second
	x.h.Cfg.WebLease = lease
	x.h.MustStart()
	srv := webapp.New(webapp.Config{Token: bottest.Token}, x.h.Bot.Web, x.h.Redis, zerolog.Nop())
	x.web = httptest.NewServer(srv.Handler()) // in front of the restarted bot
	t.Cleanup(x.web.Close)
	u := x.people[0]
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, func(*telegramtest.Message) bool { return true }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	// The page says it is visible once, then nothing more. The others play
	// until it is the player's turn: the chat stays quiet meanwhile.
	code, body := x.request(t, "POST", "/api/seen", initData(u), map[string]any{"table": x.id, "visible": true})
	if code != http.StatusNoContent {
		t.Fatalf("seen: %d %s", code, body)
	}
	seen := time.Now()
	mark := len(x.h.Srv.CallsSince(0))
	for i := 0; i < 6 && !x.toAct(t, 0); i++ {
		x.move(t)
	}
	if !x.toAct(t, 0) {
		t.Fatal("the player's turn never came")
	}
	if n := callsTo(x, u.ID(), mark); n != 0 && time.Since(seen) < lease*3/4 {
		t.Fatalf("%d calls to the player's chat while the page counted as visible", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for callsTo(x, u.ID(), mark) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if callsTo(x, u.ID(), mark) == 0 {
		t.Fatal("the lease ran out and the hand never came back in the chat")
	}
}

// TestHintOnThePage: with hints on, the seat to act finds «💡 Подсказка»
// among its choices; taken from the page it shows the advice's line and
// marks exactly one of the seat's moves — a legal one — and the seat is
// recorded as hinted.
func TestHintOnThePage(t *testing.T) {
	x := newGameWith(t, trickchef.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{},
		func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message) {
			tb, _ := h.Table(group)
			if _, err := creator.PressData(lobby, bot.LobbyPayload(tb, "hints")); err != nil {
				t.Fatalf("hints on: %v", err)
			}
			if tb, _ = h.Table(group); !tb.Hints {
				t.Fatal("the lobby's hints are not on")
			}
		})
	var who *telegramtest.User
	var hint string
	for _, u := range x.people {
		for _, c := range x.state(t, u).Scene.Choices {
			if strings.HasPrefix(c.Act, "h:") {
				who, hint = u, c.Act
			}
		}
	}
	if who == nil {
		t.Fatal("nobody's page offers a hint")
	}
	if code, r := x.act(t, who, hint, "hint-1"); code != http.StatusOK || !r.OK {
		t.Fatalf("hint from the page: %d %+v", code, r)
	}
	ws := x.state(t, who)
	if ws.Scene.Hint == "" {
		t.Fatal("the page shows no advice after the hint was taken")
	}
	marked := 0
	for _, c := range ws.Scene.Hand {
		if c.Hinted {
			marked++
			if c.Act == "" || c.Dim {
				t.Errorf("the advised card %q cannot be played", c.Name)
			}
		}
	}
	for _, c := range ws.Scene.Choices {
		if c.Hinted {
			marked++
		}
		if strings.HasPrefix(c.Act, "h:") {
			t.Error("«💡 Подсказка» is still offered with the advice in force")
		}
	}
	if marked != 1 {
		t.Fatalf("%d moves marked as advised, want 1", marked)
	}
	tb, _ := x.h.Table(x.group)
	if s := tb.Seats[tb.SeatOf(who.ID())]; !s.Hinted {
		t.Error("the seat that took a hint is not recorded as hinted")
	}
}

// menuCase is a game of the menu and the people who play it in the
// browser's tests.
type menuCase struct {
	game  adapter.Game
	names []string
}

// menuCases are the games the bot offers (cmd/games), in menu order, each
// with four people, or three at a game played at once (its buttons live).
func menuCases() []menuCase {
	var cs []menuCase
	for _, g := range games.All() {
		names := []string{"Аня", "Борис", "Вера", "Глеб"}
		if adapter.LiveButtons(g) {
			names = names[:3]
		}
		cs = append(cs, menuCase{g, names})
	}
	return cs
}
