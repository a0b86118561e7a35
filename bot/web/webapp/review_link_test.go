package webapp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

// TestReviewOpensTheReplay: with «Стол» served, the «🔍 Разбор» a person
// gets in private has a web_app button for each of its moments, «▶️ Ход N»
// with the N of the moment's «Ход N», opening the page at that step of
// that game (?table=<token>&step=N&game=<key>); the page's replay there is
// labelled «Ход N из M» and shows the person's reviewed move. Once the
// table holds the next game, the same review comes without the buttons.
func TestReviewOpensTheReplay(t *testing.T) {
	t.Parallel()
	h := bottest.NewTest(t, []adapter.Game{sausages.Game()}, time.Minute)
	h.Stop()
	const page = "https://example.org/table/"
	h.Cfg.WebAppURL = page
	h.Cfg.ReviewShare = 1
	h.MustStart()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Разбор", a, b)
	lobby, err := h.LobbyFor("sausages", group, a, []*telegramtest.User{b}, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	if _, err := h.PlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	played, _ := h.Table(group)

	srv := webapp.New(webapp.Config{Token: bottest.Token}, h.Bot.Web, h.Redis, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	x := &table{h: h, web: httptest.NewServer(srv.Handler()), group: group}
	t.Cleanup(x.web.Close)

	header := h.Shown("review.header", "Title", h.T("sausages.title"))
	ask := func() *telegramtest.Message {
		t.Helper()
		chat := a.PrivateChat()
		mine, err := chat.WaitMessage(20*time.Second, func(m *telegramtest.Message) bool {
			_, ok := m.Button(h.T("review.button"))
			return ok
		})
		if err != nil {
			t.Fatalf("no review button: %v", err)
		}
		last := chat.Last().ID
		if _, err := a.Press(mine, h.T("review.button")); err != nil {
			t.Fatal(err)
		}
		// A review of Сосиски plays every legal move out: under -race on
		// a busy machine it takes a minute or more (bot's review tests
		// wait as long).
		got, err := chat.WaitMessage(3*time.Minute, func(m *telegramtest.Message) bool {
			return m.ID > last && m.FromBot && strings.HasPrefix(m.Text, header)
		})
		if err != nil {
			t.Fatalf("no review: %v", err)
		}
		return got
	}
	msg := ask()
	var moments [][]string
	for _, m := range regexp.MustCompile(`(\d+)\. Ход (\d+)(?: · [^\n]+)?\n`).FindAllStringSubmatch(msg.Text, -1) {
		moments = append(moments, m)
	}
	if len(moments) == 0 {
		t.Skipf("the review found no costly move to link:\n%s", msg.Text)
	}
	var links []telegramtest.Button
	for _, bt := range msg.Buttons() {
		if bt.WebApp != "" {
			links = append(links, bt)
		}
	}
	if len(links) != len(moments) {
		t.Fatalf("%d moments, %d buttons to the replay: %+v\n%s", len(moments), len(links), msg.Buttons(), msg.Text)
	}
	for k, bt := range links {
		n, _ := strconv.Atoi(moments[k][2])
		if want := h.T("review.replay_button", "Step", n); bt.Text != want {
			t.Errorf("moment %d («Ход %d»)'s button reads %q, want %q", k+1, n, bt.Text, want)
		}
		u, err := url.Parse(bt.WebApp)
		if err != nil || u.Scheme+"://"+u.Host+u.Path != page {
			t.Fatalf("the button opens %q", bt.WebApp)
		}
		q := u.Query()
		if q.Get("table") != played.Token || q.Get("step") != strconv.Itoa(n) || q.Get("game") != review.GameKey(played) {
			t.Fatalf("moment %d («Ход %d») opens %q", k+1, n, bt.WebApp)
		}
		// What the page asks when opened there.
		code, body := x.request(t, "GET", "/api/replay?"+url.Values{"table": {q.Get("table")}, "step": {q.Get("step")}, "game": {q.Get("game")}}.Encode(), initData(a), nil)
		var r web.Replay
		if code != http.StatusOK || json.Unmarshal(body, &r) != nil {
			t.Fatalf("the replay at moment %d: %d %s", k+1, code, body)
		}
		if want := h.T("review.replay_move", "N", n, "Total", r.Moves); r.Label != want || r.Move == nil || r.Move.Seat != played.PlayedBy(a.ID()) || r.Yours == "" {
			t.Fatalf("moment %d («Ход %d») shows %q (%+v), want %q with Аня's reviewed move", k+1, n, r.Label, r.Move, want)
		}
	}
	// The next lobby replaces the finished game: the kept review, asked
	// again, links to no replay.
	if _, err := h.LobbyFor("sausages", group, a, []*telegramtest.User{b}, 1); err != nil {
		t.Fatal(err)
	}
	again := ask()
	if again.Text != msg.Text {
		t.Fatalf("the kept review reads otherwise:\n%s\n---\n%s", again.Text, msg.Text)
	}
	for _, bt := range again.Buttons() {
		if bt.WebApp != "" {
			t.Fatalf("a review of a game the table no longer holds links to the replay: %+v", bt)
		}
	}
}
