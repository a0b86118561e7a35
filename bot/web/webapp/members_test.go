package webapp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

// Who may watch is asked again while a page is open: a viewer who left
// the group sees the page close within a minute, and a move wants initData
// signed within the hour.

// event is one server-sent event: its name ("" for a state) and data.
type event struct{ name, data string }

// events reads a stream's events until it ends (then the channel closes).
func events(body io.Reader) <-chan event {
	out := make(chan event, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.data != "" {
					out <- ev
				}
				ev = event{}
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return out
}

// closedWith waits for a stream's «closed» event and then its end, and
// gives the words it carried; false when the stream went on (or ended
// without one) within the time.
func closedWith(t *testing.T, evs <-chan event, within time.Duration) (string, bool) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case ev, ok := <-evs:
			if !ok {
				return "", false
			}
			if ev.name != "closed" {
				continue
			}
			var body struct{ Error, Text string }
			if err := json.Unmarshal([]byte(ev.data), &body); err != nil || body.Error != "left" {
				t.Fatalf("closed event %q: %v", ev.data, err)
			}
			select {
			case _, more := <-evs:
				if more {
					t.Fatal("the stream went on after «closed»")
				}
			case <-deadline:
				t.Fatal("the stream did not end after «closed»")
			}
			return body.Text, true
		case <-deadline:
			return "", false
		}
	}
}

// openWatching opens u's stream at base and waits for its first state.
func (x *table) openWatching(t *testing.T, base string, u *telegramtest.User) <-chan event {
	t.Helper()
	r := x.openEvents(t, base, initData(u))
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s's stream: %d", u.User().FirstName, r.StatusCode)
	}
	evs := events(r.Body)
	select {
	case ev := <-evs:
		if ev.name != "state" {
			t.Fatalf("%s's stream began with %q", u.User().FirstName, ev.name)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s's stream sent no state", u.User().FirstName)
	}
	return evs
}

// TestStreamClosesWhenTheViewerLeavesTheGroup: a spectator and a player
// leave the group while their pages are open; the bot hears of it (the
// left_chat_member service message), and each page is told it is closed,
// with the words to show, and its stream ends; opened again, it is the
// stranger's 404. The player's seat went to a robot.
func TestStreamClosesWhenTheViewerLeavesTheGroup(t *testing.T) {
	t.Parallel()
	cfg := webapp.Config{}
	cfg.Recheck = 50 * time.Millisecond
	x := newTable(t, cfg)
	m := x.h.MustBegin(x.h.Srv.NewUser("Соседка"))
	x.group.AddMember(m)
	p := x.people[2]
	watching := map[*telegramtest.User]<-chan event{m: x.openWatching(t, x.web.URL, m), p: x.openWatching(t, x.web.URL, p)}
	m.Leave(x.group)
	p.Leave(x.group)
	for u, evs := range watching {
		text, ok := closedWith(t, evs, 15*time.Second)
		if !ok {
			t.Fatalf("%s left the group and the page was not closed", u.User().FirstName)
		}
		if want := x.h.T("web.left_group"); text != want {
			t.Errorf("%s's page was told %q, want %q", u.User().FirstName, text, want)
		}
		if r := x.openEvents(t, x.web.URL, initData(u)); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s reopened the stream: %d, want 404", u.User().FirstName, r.StatusCode)
		}
	}
	if tab, _ := x.h.Table(x.group); tab.SeatOf(p.ID()) >= 0 || tab.Seats[2].Leaver == nil || tab.Seats[2].Leaver.UserID != p.ID() {
		t.Errorf("Вера left the group and still plays: %+v", tab.Seats[2])
	}
}

// clock is a bot's clock a test moves on.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestStreamClosesWithinTheCacheTTL: a replica that never hears that a
// spectator left (another one reads Telegram's updates, or Telegram said
// nothing: a bot that is no administrator of a supergroup that hides
// joined/left messages) keeps its cached yes only until members.MemberTTL;
// the stream's next check after it closes the page. The replica's clock is
// moved on instead of waiting.
func TestStreamClosesWithinTheCacheTTL(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	now := &clock{now: time.Now()}
	tg, err := tgbot.New(bottest.Token, tgbot.WithServerURL(x.h.Srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	other := bot.New(bot.Params{Config: x.h.Cfg, Store: x.h.Redis, Telegram: tg, Translator: bottest.Catalog(t), Games: []adapter.Game{x.game}, Now: now.Now})
	cfg := webapp.Config{Token: bottest.Token}
	cfg.Recheck = 50 * time.Millisecond
	srv := webapp.New(cfg, other.Web, x.h.Redis, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(web.Close)

	n := x.h.Srv.NewUser("Сосед")
	x.group.AddMember(n)
	evs := x.openWatching(t, web.URL, n)
	n.Leave(x.group)
	now.Advance(members.MemberTTL)
	text, ok := closedWith(t, evs, 15*time.Second)
	if !ok || text != x.h.T("web.left_group") {
		t.Fatalf("past MemberTTL the page of one who left: closed %v with %q", ok, text)
	}
}

// TestActWantsFreshInitData: a move from the page with initData signed
// over an hour ago is refused with 401 «reopen» and changes nothing; a
// read with initData signed 20 hours ago still works, and the same move
// with fresh initData is taken.
func TestActWantsFreshInitData(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	signedAgo := func(u *telegramtest.User, d time.Duration) string {
		return initdata.SignUser(bottest.Token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now().Add(-d), "")
	}
	for _, u := range x.people {
		code, body := x.request(t, "GET", "/api/state?table="+url.QueryEscape(x.id), signedAgo(u, 20*time.Hour), nil)
		if code != http.StatusOK {
			t.Fatalf("a read with 20-hour-old initData: %d %s", code, body)
		}
		for i, a := range acts(x.state(t, u)) {
			if p, err := adapter.ParseButton(a); err != nil || p.Op != 'a' {
				continue
			}
			before := x.version(t)
			req := map[string]string{"table": x.id, "act": a, "key": fmt.Sprintf("old-%d", i)}
			code, body := x.request(t, "POST", "/api/act", signedAgo(u, time.Hour+time.Minute), req)
			var e struct{ Error, Text string }
			_ = json.Unmarshal(body, &e)
			if code != http.StatusUnauthorized || e.Error != "reopen" || e.Text != x.h.T("web.reopen") {
				t.Fatalf("a move with initData of 61 minutes ago: %d %s, want 401 reopen", code, body)
			}
			if v := x.version(t); v != before {
				t.Fatalf("the refused move changed the table: version %d → %d", before, v)
			}
			if code, r := x.act(t, u, a, fmt.Sprintf("fresh-%d", i)); code != http.StatusOK || !r.OK {
				t.Fatalf("the same move with fresh initData: %d %+v", code, r)
			}
			return
		}
	}
	t.Fatal("no page offered a move")
}
