package webapp_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

// openEvents opens an event stream of the table with this initData; the
// caller closes the body (the test's end does).
func (x *table) openEvents(t *testing.T, base, auth string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events?table="+url.QueryEscape(x.id), nil)
	req.Header.Set("Authorization", "tma "+auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// ended waits until a stream's body ends (the server closed it).
func ended(body io.Reader, within time.Duration) bool {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, body)
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(within):
		return false
	}
}

func memberCalls(x *table, since int) int {
	n := 0
	for _, c := range x.h.Srv.CallsSince(since) {
		if c.Method == "getChatMember" {
			n++
		}
	}
	return n
}

// TestStrangerSeesNoTable: a user who neither plays at the table nor is in
// its group gets, for the table's real token, exactly the answer of a token
// that does not exist, on every endpoint; so does the chat id that used to
// name the table. A member of the group sees it as a spectator, asked of
// Telegram once (then cached); so is a player, asked too: a seat is no
// pass for someone who left the group.
func TestStrangerSeesNoTable(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	stranger := x.h.Srv.NewUser("Чужой")
	member := x.h.Srv.NewUser("Сосед")
	x.group.AddMember(member)
	before := x.version(t)
	chatID := strconv.FormatInt(x.group.ID(), 10)
	answer := func(u *telegramtest.User, token, method, path string) (int, string) {
		var body any
		switch path {
		case "/api/act":
			body = map[string]string{"table": token, "act": "a:" + chatID + ":1:0:0:0", "key": "k1"}
		case "/api/seen":
			body = map[string]any{"table": token, "visible": true}
		case "/api/replay":
			path += "?step=0&table=" + url.QueryEscape(token)
		default:
			path += "?table=" + url.QueryEscape(token)
		}
		code, out := x.request(t, method, path, initData(u), body)
		return code, string(out)
	}
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/state"}, {"GET", "/api/events"}, {"POST", "/api/act"}, {"POST", "/api/seen"}, {"GET", "/api/replay"},
	} {
		code, body := answer(stranger, x.id, r.method, r.path)
		for _, other := range []string{"AAAAAAAAAAAAAAAAAAAAAA", chatID} {
			c2, b2 := answer(stranger, other, r.method, r.path)
			if code != http.StatusNotFound || c2 != code || b2 != body {
				t.Errorf("%s %s: the real table answers a stranger %d %s; %q answers %d %s; want the same 404",
					r.method, r.path, code, body, other, c2, b2)
			}
		}
	}
	if v := x.version(t); v != before {
		t.Errorf("a stranger's requests changed the table: version %d → %d", before, v)
	}
	mark := len(x.h.Srv.CallsSince(0))
	for range 3 {
		if ws := x.state(t, member); ws.Seat != adapter.Spectator || ws.Scene == nil || len(ws.Scene.Hand) > 0 {
			t.Fatalf("a member of the group sees %+v", ws)
		}
	}
	if n := memberCalls(x, mark); n != 1 {
		t.Errorf("three reads by a member asked Telegram %d times, want once (cached)", n)
	}
	mark = len(x.h.Srv.CallsSince(0))
	for range 3 {
		for _, u := range x.people {
			x.state(t, u)
		}
	}
	if n := memberCalls(x, mark); n > len(x.people) {
		t.Errorf("three reads by each of %d players asked Telegram %d times, want once each at most (cached)", len(x.people), n)
	}
}

// TestStreamsAreBounded: one user's new stream closes their oldest past
// the cap; past the process's cap a stream is refused with 503 and
// Retry-After; reads past the user's rate get 429.
func TestStreamsAreBounded(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{StreamsPerUser: 2, MaxStreams: 3, ReadsPerSecond: 0.001, ReadBurst: 6})
	a, b, c := x.people[0], x.people[1], x.people[2]
	first := x.openEvents(t, x.web.URL, initData(a))
	second := x.openEvents(t, x.web.URL, initData(a))
	third := x.openEvents(t, x.web.URL, initData(a))
	for i, r := range []*http.Response{first, second, third} {
		if r.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i, r.StatusCode)
		}
	}
	if !ended(first.Body, 10*time.Second) {
		t.Fatal("a user's third stream left their first open (cap 2)")
	}
	if x.openEvents(t, x.web.URL, initData(b)).StatusCode != http.StatusOK {
		t.Fatal("the process's third stream refused (cap 3)")
	}
	full := x.openEvents(t, x.web.URL, initData(c))
	if full.StatusCode != http.StatusServiceUnavailable || full.Header.Get("Retry-After") == "" {
		t.Fatalf("a stream past the process's cap: %d, Retry-After %q; want 503 with it", full.StatusCode, full.Header.Get("Retry-After"))
	}
	// a has used 3 of their 6 reads (the streams): 3 more, then 429.
	for i := range 4 {
		code, _ := x.request(t, "GET", "/api/state?table="+x.id, initData(a), nil)
		if want := http.StatusOK; i == 3 {
			if code != http.StatusTooManyRequests {
				t.Fatalf("read %d past the burst: %d, want 429", i+4, code)
			}
		} else if code != want {
			t.Fatalf("read %d: %d", i+4, code)
		}
	}
}

// TestStreamEndsWithItsInitData: a stream is closed when its initData
// expires, and reopening it with the same initData is refused.
func TestStreamEndsWithItsInitData(t *testing.T) {
	t.Parallel()
	const maxAge = time.Hour
	x := newTable(t, webapp.Config{MaxAge: maxAge})
	u := x.people[0]
	old := initdata.SignUser(bottest.Token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now().Add(-maxAge+2*time.Second), "")
	r := x.openEvents(t, x.web.URL, old)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("stream: %d", r.StatusCode)
	}
	if !ended(r.Body, 30*time.Second) {
		t.Fatal("the stream outlived its initData")
	}
	if again := x.openEvents(t, x.web.URL, old); again.StatusCode != http.StatusUnauthorized {
		t.Fatalf("reopened with expired initData: %d, want 401", again.StatusCode)
	}
}

// TestStopEndsStreams: when the server's Run context ends, every open
// stream ends at once, so the listener's Shutdown does not wait for them.
func TestStopEndsStreams(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	srv := webapp.New(webapp.Config{Token: bottest.Token, StreamsPerUser: 100, ReadBurst: 1000}, x.h.Bot.Web, x.h.Redis, zerolog.Nop())
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close) // after the streams' own cleanups end them
	var bodies []io.Reader
	for i := range 100 {
		r := x.openEvents(t, hs.URL, initData(x.people[i%len(x.people)]))
		if r.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i, r.StatusCode)
		}
		bodies = append(bodies, r.Body)
	}
	if n := srv.Streams(); n != 100 {
		t.Fatalf("%d streams open, want 100", n)
	}
	stop()
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := hs.Config.Shutdown(sctx); err != nil {
		t.Fatalf("shutdown with 100 streams: %v", err)
	}
	for i, b := range bodies {
		if !ended(b, 5*time.Second) {
			t.Fatalf("stream %d still open after the stop", i)
		}
	}
}

// countingWeb is the real web role, counting the table reads of the
// streams.
type countingWeb struct {
	*web.Web
	views atomic.Int64
}

func (c *countingWeb) View(ctx context.Context, token string) (*web.View, error) {
	c.views.Add(1)
	return c.Web.View(ctx, token)
}

// TestStreamsShareOneRead: after a move, ten open streams of one table
// (spectators and players) are served by one read of the table, not one
// each.
func TestStreamsShareOneRead(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	ct := &countingWeb{Web: x.h.Bot.Web}
	srv := webapp.New(webapp.Config{Token: bottest.Token}, ct, x.h.Redis, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close) // after the streams' own cleanups end them
	var viewers []*telegramtest.User
	for i := range 7 {
		u := x.h.Srv.NewUser("Зритель " + strconv.Itoa(i))
		x.group.AddMember(u)
		viewers = append(viewers, u)
	}
	viewers = append(viewers, x.people...)
	versions := make([]chan int64, len(viewers))
	for i, u := range viewers {
		r := x.openEvents(t, hs.URL, initData(u))
		if r.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i, r.StatusCode)
		}
		versions[i] = make(chan int64, 64)
		go func(body io.Reader, out chan<- int64) {
			sc := bufio.NewScanner(body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
					v, _ := strconv.ParseInt(id, 10, 64)
					out <- v
				}
			}
		}(r.Body, versions[i])
	}
	for i := range versions {
		if _, ok := recv(versions[i], 10*time.Second); !ok {
			t.Fatalf("stream %d got no first event", i)
		}
	}
	// Each new stream reads once more after subscribing (a change may have
	// slipped in between): let those reads finish before counting.
	reads := ct.views.Load()
	for i := 0; i < 50; i++ {
		time.Sleep(100 * time.Millisecond)
		if n := ct.views.Load(); n != reads {
			reads = n
			continue
		}
		break
	}
	x.move(t)
	target := x.version(t)
	var wg sync.WaitGroup
	errs := make(chan error, len(versions))
	for i := range versions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				v, ok := recv(versions[i], 10*time.Second)
				if !ok {
					errs <- errors.New("stream " + strconv.Itoa(i) + " never saw the move")
					return
				}
				if v >= target {
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// One commit is one read; a second notice racing the first (the
	// page's delivery) may cost one more, never one per stream.
	if n := ct.views.Load() - reads; n < 1 || n > 3 {
		t.Fatalf("one move cost %d reads of the table for %d streams, want 1 (at most 3)", n, len(versions))
	}
}

func recv(c <-chan int64, within time.Duration) (int64, bool) {
	select {
	case v := <-c:
		return v, true
	case <-time.After(within):
		return 0, false
	}
}

// TestStaticFilesAreCached: the page names its script and style by their
// hash and they are cached for a year; index.html is revalidated (ETag,
// 304); everything is gzipped for a page that takes it; a favicon exists.
func TestStaticFilesAreCached(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	get := func(path string, header map[string]string) *http.Response {
		req, _ := http.NewRequest("GET", x.web.URL+path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	index := get("/", nil)
	page, _ := io.ReadAll(index.Body)
	etag := index.Header.Get("ETag")
	if index.StatusCode != http.StatusOK || etag == "" || index.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("/: %d, ETag %q, Cache-Control %q", index.StatusCode, etag, index.Header.Get("Cache-Control"))
	}
	if r := get("/", map[string]string{"If-None-Match": etag}); r.StatusCode != http.StatusNotModified {
		t.Fatalf("/ with its ETag: %d, want 304", r.StatusCode)
	}
	for _, name := range []string{"app.js", "app.css", "favicon.svg"} {
		i := strings.Index(string(page), name+"?v=")
		if i < 0 {
			t.Fatalf("index.html does not name %s by its hash", name)
		}
		path := "/" + string(page[i:i+len(name)+4+8])
		r := get(path, map[string]string{"Accept-Encoding": "gzip, br"})
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Header.Get("Cache-Control"), "max-age=31536000") ||
			r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("ETag") == "" {
			t.Fatalf("%s: %d, Cache-Control %q, Content-Encoding %q", path, r.StatusCode, r.Header.Get("Cache-Control"), r.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if body, err := io.ReadAll(zr); err != nil || len(body) < 100 {
			t.Fatalf("%s: %d bytes, %v", path, len(body), err)
		}
	}
	if r := get("/favicon.ico", nil); r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("/favicon.ico: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
}

// TestAwaySeatKeepsItsHand: a player the bot plays for (two turns let run
// out) gets «🃏 Стол» on the chat's 💤 message, and the page shows their
// hand (not playable) with the one choice that takes the seat back.
func TestAwaySeatKeepsItsHand(t *testing.T) {
	t.Parallel()
	h := bottest.NewTest(t, []adapter.Game{trickchef.Game()}, 400*time.Millisecond)
	h.Stop()
	h.Cfg.WebAppURL = "https://example.org/table/"
	h.MustStart()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	away := h.MustBegin(h.Srv.NewUser("Соня"))
	group := h.Srv.NewGroup("Автопилот", a, away)
	h.MustStartGame(a, h.MustLobby(group, a, []*telegramtest.User{away}, 1))
	done := make(chan struct{})
	wait := h.Player(a, done, nil)
	defer func() { close(done); wait() }()
	back := h.T("auto.back_button")
	m, err := away.PrivateChat().WaitMessage(30*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(back)
		return ok
	})
	if err != nil {
		t.Fatalf("no 💤 message: %v", err)
	}
	if _, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return b.WebApp != "" }); !ok {
		t.Fatal("the 💤 message has no «🃏 Стол» button")
	}
	token, err := h.Bot.Web.Token(context.Background(), strconv.FormatInt(group.ID(), 10))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := h.Bot.Web.State(context.Background(), token, away.ID())
	if err != nil {
		t.Fatal(err)
	}
	if ws.Seat < 0 || ws.Scene == nil || !ws.Scene.Seats[ws.Seat].Away || len(ws.Scene.Hand) == 0 {
		t.Fatalf("the away seat's page: seat %d, scene %+v", ws.Seat, ws.Scene)
	}
	for _, c := range ws.Scene.Hand {
		if c.Act != "" {
			t.Fatalf("the away seat's hand can be played: %+v", c)
		}
	}
	if len(ws.Scene.Choices) != 1 || ws.Scene.Choices[0].Text != back {
		t.Fatalf("the away seat's choices: %+v, want only %q", ws.Scene.Choices, back)
	}
}

// TestStreamFlood: 1,000 stream attempts from one initData (reads not
// limited, so the stream caps alone are tested) leave that user 4 streams
// open; 1,000 more from 100 members of the group fill the process's cap and
// are refused past it with 503 and Retry-After.
func TestStreamFlood(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{StreamsPerUser: 4, MaxStreams: 50, ReadsPerSecond: 1e6, ReadBurst: 1e6})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // before the server's Close: the streams end first
	open := func(u *telegramtest.User) int {
		req, _ := http.NewRequestWithContext(ctx, "GET", x.web.URL+"/api/events?table="+url.QueryEscape(x.id), nil)
		req.Header.Set("Authorization", "tma "+initData(u))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
			t.Fatal("503 without Retry-After")
		}
		go func() {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
		return resp.StatusCode
	}
	for i := range 1000 {
		if code := open(x.people[0]); code != http.StatusOK {
			t.Fatalf("attempt %d of one user: %d", i, code)
		}
	}
	if n := x.srv.Streams(); n != 4 {
		t.Fatalf("after 1,000 streams of one user, %d open; want 4", n)
	}
	var members []*telegramtest.User
	for i := range 100 {
		u := x.h.Srv.NewUser("Гость " + strconv.Itoa(i))
		x.group.AddMember(u)
		members = append(members, u)
	}
	codes := map[int]int{}
	for i := range 1000 {
		codes[open(members[i%len(members)])]++
	}
	if n := x.srv.Streams(); n != 50 || codes[http.StatusServiceUnavailable] == 0 || codes[http.StatusOK]+codes[http.StatusServiceUnavailable] != 1000 {
		t.Fatalf("1,000 streams of 100 members: %v, %d open; want 503s past the cap of 50", codes, n)
	}
}

// TestStandingsShowRatings: once a finished game is recorded, the page's
// standings give every player's rating and its change, as the private
// results do.
func TestStandingsShowRatings(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	for i := 0; i < 400 && !x.over(t); i++ {
		x.move(t)
	}
	if !x.over(t) {
		t.Fatal("the game did not end")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		ws := x.state(t, x.people[0])
		rated := 0
		for _, s := range ws.Standings {
			if s.Rating != "" {
				rated++
			}
		}
		if rated == len(x.people) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("standings without ratings after the game was recorded: %+v", ws.Standings)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
