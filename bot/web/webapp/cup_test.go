package webapp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/store"
)

// cupGroup is a running cup of six people in a group: two tables of three
// in its first of two rounds, with the page's server in front of the bot.
type cupGroup struct {
	*table
	// host is the id of the record that holds the cup; ids are its
	// round's tables and tokens their pages' tokens, in the same order.
	host   string
	ids    []string
	tokens []string
}

// newCup opens /cup trickchef 2 in a group of six, starts it and waits
// until both tables of its first round are dealt and carry a token.
func newCup(t *testing.T) *cupGroup {
	t.Helper()
	h := bottest.NewTest(t, []adapter.Game{trickchef.Game()}, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Клуб по четвергам", people...)
	people[0].Send(group, "/cup@"+h.Srv.Bot().Username+" trickchef 2")
	lobby, err := group.WaitMessage(10*time.Second, bottest.HasButton(h.T("cup.join_button")))
	if err != nil {
		h.DumpGroup(group)
		t.Fatal("no cup lobby: ", err)
	}
	for _, u := range people[1:] {
		if ans, err := u.Press(lobby, h.T("cup.join_button")); err != nil || ans.Text != h.T("cup.joined") {
			t.Fatalf("%s joining the cup: %v %+v", u.User().FirstName, err, ans)
		}
	}
	if ans, err := people[0].Press(lobby, h.T("cup.start_button")); err != nil || ans.Text != h.T("cup.started_toast") {
		t.Fatalf("starting the cup: %v %+v", err, ans)
	}
	x := &cupGroup{host: record.TableID(group.ID(), 0, record.CupHost)}
	if err := h.Srv.WaitFor(20*time.Second, func() bool {
		tab, _ := loadRecord(t, h, x.host)
		s, err := cups.Decode(tab.Cup)
		if err != nil || s.Cup == nil || s.Phase != cups.Playing || len(s.Tables) != 2 {
			return false
		}
		x.ids, x.tokens = s.Tables, nil
		for _, id := range s.Tables {
			tab, _ := loadRecord(t, h, id)
			if tab.Token == "" || tab.CupOf == nil || tab.Phase != record.PhasePlaying {
				return false
			}
			x.tokens = append(x.tokens, tab.Token)
		}
		return true
	}); err != nil {
		h.DumpGroup(group)
		t.Fatal("the cup's first round did not start: ", err)
	}
	srv, ws := serve(t, h, webapp.Config{})
	x.table = &table{h: h, web: ws, srv: srv, id: x.tokens[0], group: group, people: people, game: trickchef.Game()}
	return x
}

// loadRecord is the table stored under id and its version (0: none).
func loadRecord(t *testing.T, h *bottest.Test, id string) (*record.Table, int64) {
	t.Helper()
	rec, err := h.Redis.Load(context.Background(), id)
	if errors.Is(err, store.ErrNotFound) {
		return &record.Table{}, 0
	}
	if err != nil {
		t.Fatal(err)
	}
	if rec.Version == 0 {
		return &record.Table{}, 0
	}
	tab, err := record.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return tab, rec.Version
}

// versions are the versions of the records under ids.
func versions(t *testing.T, h *bottest.Test, ids ...string) []int64 {
	t.Helper()
	var out []int64
	for _, id := range ids {
		_, v := loadRecord(t, h, id)
		out = append(out, v)
	}
	return out
}

// cup asks api/cup of table token with initData auth.
func (x *table) cup(t *testing.T, token, auth string) (int, web.Cup, string) {
	t.Helper()
	code, body := x.request(t, "GET", "/api/cup?table="+url.QueryEscape(token), auth, nil)
	var c web.Cup
	if code == http.StatusOK {
		if err := json.Unmarshal(body, &c); err != nil {
			t.Fatalf("api/cup: %v in %s", err, body)
		}
	}
	return code, c, string(body)
}

// TestCupAPI: for a member of the group, api/cup of either of the cup's
// tables answers its round (1 of 2), both tables with their three seats
// (each with its page's token, the asked one marked here) and the
// standings of all six; a member who does not play sees the same. A
// stranger, forged or expired initData, a garbage or missing table, and a
// group with no cup each get a clear 4xx, and no record changes.
func TestCupAPI(t *testing.T) {
	t.Parallel()
	x := newCup(t)
	h := x.h
	names := map[string]bool{}
	for _, u := range x.people {
		names[u.User().FirstName] = true
	}

	// A group with no cup: an ordinary game's table.
	plain := h.Srv.NewGroup("Без кубка", x.people[:3]...)
	lobby, err := h.LobbyFor(trickchef.Game().ID(), plain, x.people[0], x.people[1:3], 0)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(x.people[0], lobby)
	plainID := strconv.FormatInt(plain.ID(), 10)
	plainToken, err := h.Bot.Web.Token(context.Background(), plainID)
	if err != nil {
		t.Fatal(err)
	}
	watched := append([]string{x.host, plainID}, x.ids...)
	before := versions(t, h, watched...)

	check := func(who string, c web.Cup, asked int) {
		t.Helper()
		if want := h.Bot.Web.Text(c.Lang, "web.cup_round", "Round", 1, "Rounds", 2); c.Round != want || c.Phase != string(cups.Playing) || c.Title == "" {
			t.Errorf("%s: round %q phase %q title %q, want %q playing", who, c.Round, c.Phase, c.Title, want)
		}
		if len(c.Tables) != 2 {
			t.Fatalf("%s: %d tables, want 2: %+v", who, len(c.Tables), c.Tables)
		}
		seated := map[string]bool{}
		for i, ct := range c.Tables {
			if ct.Token != x.tokens[i] || ct.Here != (i == asked) || !ct.Playing || len(ct.Seats) != 3 {
				t.Errorf("%s: table %d is %+v, want token %s, here %v, playing, 3 seats", who, i, ct, x.tokens[i], i == asked)
			}
			for _, s := range ct.Seats {
				if !names[s.Name] || seated[s.Name] {
					t.Errorf("%s: table %d seats %q", who, i, s.Name)
				}
				seated[s.Name] = true
			}
		}
		if len(c.Standings) != len(x.people) {
			t.Fatalf("%s: %d standings, want %d: %+v", who, len(c.Standings), len(x.people), c.Standings)
		}
		for _, st := range c.Standings {
			if !names[st.Name] || st.Place < 1 || st.Games != 0 || st.Points == "" || st.Winner {
				t.Errorf("%s: standing %+v", who, st)
			}
		}
	}
	for i, tok := range x.tokens {
		code, c, body := x.cup(t, tok, initData(x.people[0]))
		if code != http.StatusOK {
			t.Fatalf("a player, at table %d: %d %s", i+1, code, body)
		}
		check("a player at table "+strconv.Itoa(i+1), c, i)
		you := 0
		for _, ct := range c.Tables {
			for _, s := range ct.Seats {
				if s.You {
					you++
					if s.Name != "Аня" || !ct.You {
						t.Errorf("a player: «you» marks %q at %+v", s.Name, ct)
					}
				}
			}
		}
		if you != 1 {
			t.Errorf("a player is marked at %d seats, want 1", you)
		}
	}
	member := h.Srv.NewUser("Сосед")
	x.group.AddMember(member)
	code, c, body := x.cup(t, x.tokens[1], initData(member))
	if code != http.StatusOK {
		t.Fatalf("a member who does not play: %d %s", code, body)
	}
	check("a member who does not play", c, 1)

	u := x.people[0]
	user := initdata.User{ID: u.ID(), FirstName: u.User().FirstName}
	stranger := h.Srv.NewUser("Чужой")
	_, _, unknown := x.cup(t, "AAAAAAAAAAAAAAAAAAAAAA", initData(u))
	for _, r := range []struct {
		name, path, auth string
		code             int
		error            string
	}{
		{"a stranger", "/api/cup?table=" + x.tokens[0], initData(stranger), http.StatusNotFound, "not_found"},
		{"forged initData", "/api/cup?table=" + x.tokens[0], initdata.SignUser("654321:another-bot-token", user, time.Now(), ""), http.StatusUnauthorized, "auth"},
		{"tampered initData", "/api/cup?table=" + x.tokens[0], strings.Replace(initData(u), "auth_date=", "auth_date=1", 1), http.StatusUnauthorized, "auth"},
		{"expired initData", "/api/cup?table=" + x.tokens[0], initdata.SignUser(bottest.Token, user, time.Now().Add(-25*time.Hour), ""), http.StatusUnauthorized, "auth"},
		{"no initData", "/api/cup?table=" + x.tokens[0], "", http.StatusUnauthorized, "auth"},
		{"an unknown table", "/api/cup?table=AAAAAAAAAAAAAAAAAAAAAA", initData(u), http.StatusNotFound, "not_found"},
		{"a garbage table", "/api/cup?table=" + url.QueryEscape("../<script>\x00"), initData(u), http.StatusNotFound, "not_found"},
		{"the chat id", "/api/cup?table=" + x.host, initData(u), http.StatusNotFound, "not_found"},
		{"no table", "/api/cup", initData(u), http.StatusNotFound, "no_table"},
		{"two tables", "/api/cup?table=" + x.tokens[0] + "&table=" + x.tokens[1], initData(u), http.StatusNotFound, "no_table"},
		{"a group with no cup", "/api/cup?table=" + plainToken, initData(u), http.StatusNotFound, "no_cup"},
		{"a POST", "/api/cup?table=" + x.tokens[0], initData(u), 0, ""},
	} {
		method := "GET"
		if r.name == "a POST" {
			method = "POST"
		}
		code, body := x.request(t, method, r.path, r.auth, nil)
		var e struct{ Error, Text string }
		_ = json.Unmarshal(body, &e)
		if r.code == 0 && (code < 400 || code > 499) || r.code != 0 && code != r.code || r.error != "" && (e.Error != r.error || e.Text == "") {
			t.Errorf("%s: %d %s, want %d %s with a text", r.name, code, body, r.code, r.error)
		}
		if r.name == "a stranger" && string(body) != unknown {
			t.Errorf("a stranger is answered %s, an unknown table %s: want the same", body, unknown)
		}
	}
	if after := versions(t, h, watched...); !slices.Equal(before, after) {
		t.Errorf("api/cup changed the store: versions of %q %v → %v", watched, before, after)
	}
}

// cupPage is what the cup's page shows: its round, its tables with their
// seats and links, its standings' rows, and any box wider than the screen.
const cupPage = `(() => {
  const W = window.innerWidth;
  const wide = [];
  for (const e of document.querySelectorAll('#app *')) if (e.getBoundingClientRect().right > W + 0.5) wide.push(e.className || e.tagName);
  return {
    round: (document.querySelector('#app[data-cup] .status-text') || {}).textContent || '',
    tables: [...document.querySelectorAll('.cup-table')].map((b) => ({
      name: b.querySelector('.cup-table-name').textContent,
      seats: [...b.querySelectorAll('.cup-seat-name')].map((s) => s.textContent),
      href: b.getAttribute('href') || '',
      here: b.classList.contains('here'),
    })),
    rows: [...document.querySelectorAll('.cup-row:not(.cup-row-head) .cup-name')].map((s) => s.textContent),
    wide,
  };
})()`

type cupShown struct {
	Round  string `json:"round"`
	Tables []struct {
		Name  string   `json:"name"`
		Seats []string `json:"seats"`
		Href  string   `json:"href"`
		Here  bool     `json:"here"`
	} `json:"tables"`
	Rows []string `json:"rows"`
	Wide []string `json:"wide"`
}

// TestBrowserCup: at 390×844 and 320×568 a player's page of a cup's table
// offers the cup; opened, it shows the round, both tables with every
// seat, the standings of all six, and nothing wider than the screen.
// Pressing the other table opens that table's page. With -screenshots it
// writes cup.png (390×844).
func TestBrowserCup(t *testing.T) {
	x := newCup(t)
	b := newBrowser(t)
	code, c, body := x.cup(t, x.tokens[0], initData(x.people[0]))
	if code != http.StatusOK || len(c.Tables) != 2 {
		t.Fatalf("api/cup: %d %s", code, body)
	}
	// The page opens at the viewer's own table; the other is a link.
	mine := 0
	if c.Tables[1].You {
		mine = 1
	}
	other := 1 - mine
	for _, ph := range phones {
		what := "the cup at " + ph.name
		p := b.phonePage(t, x.web.URL, x.tokens[mine], x.people[0], ph.w, ph.h)
		wait, cancel := context.WithTimeout(p, 15*time.Second)
		err := chromedp.Do(wait, chromedp.WaitVisible(`.cup-open`))
		cancel()
		if err != nil {
			t.Fatalf("%s: the table's page offers no cup: %v", what, err)
		}
		if _, err := chromedp.Run(p, chromedp.Evaluate[bool](`(document.querySelector('.cup-open').click(), true)`)); err != nil {
			t.Fatal(err)
		}
		wait, cancel = context.WithTimeout(p, 15*time.Second)
		err = chromedp.Do(wait, chromedp.WaitVisible(`#app[data-cup] .cup-board`))
		cancel()
		if err != nil {
			t.Fatalf("%s: the cup does not open: %v", what, err)
		}
		got, err := chromedp.Run(p, chromedp.Evaluate[cupShown](cupPage))
		if err != nil {
			t.Fatal(err)
		}
		if got.Round != c.Round || len(got.Tables) != len(c.Tables) || len(got.Rows) != len(c.Standings) {
			t.Errorf("%s: shows round %q, %d tables, %d standings; want %q, %d, %d", what, got.Round, len(got.Tables), len(got.Rows), c.Round, len(c.Tables), len(c.Standings))
		}
		for i, ct := range got.Tables {
			if i >= len(c.Tables) {
				break
			}
			var want []string
			for _, s := range c.Tables[i].Seats {
				want = append(want, s.Name)
			}
			if ct.Name != c.Tables[i].Name || !slices.Equal(ct.Seats, want) || ct.Here != (i == mine) || (i == other) != strings.Contains(ct.Href, url.QueryEscape(x.tokens[i])) {
				t.Errorf("%s: table %d shown as %+v, want %s seating %q", what, i+1, ct, c.Tables[i].Name, want)
			}
		}
		for i, st := range c.Standings {
			if i < len(got.Rows) && got.Rows[i] != st.Name {
				t.Errorf("%s: standings row %d is %q, want %q", what, i+1, got.Rows[i], st.Name)
			}
		}
		if len(got.Wide) > 0 {
			t.Errorf("%s: wider than the screen: %q", what, got.Wide)
		}
		checkFit(t, p, what, false)
		if *screenshots != "" && ph.w == 390 {
			time.Sleep(300 * time.Millisecond)
			shoot(t, p, "cup.png", true)
		}

		// The other table opens its own page.
		if _, err := chromedp.Run(p, chromedp.Evaluate[bool](`(document.querySelector('a.cup-table').click(), true)`)); err != nil {
			t.Fatal(err)
		}
		opened := `(() => { const a = document.getElementById('app'); return new URLSearchParams(location.search).get('table') === ` + strconv.Quote(x.tokens[other]) + ` && !!a && !!a.dataset.version && !a.dataset.cup && !!document.querySelector('.cup-open'); })()`
		deadline := time.Now().Add(15 * time.Second)
		for {
			ok, _ := chromedp.Run(p, chromedp.Evaluate[bool](opened))
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: pressing %s did not open its page", what, c.Tables[other].Name)
			}
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond) // the cards' entrance, as phonePage waits
		text, err := chromedp.Run(p, chromedp.Evaluate[string](`document.getElementById('app').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Tables[other].Seats {
			if !strings.Contains(text, s.Name) {
				t.Errorf("%s: %s's page does not name its player %q", what, c.Tables[other].Name, s.Name)
			}
		}
		checkFit(t, p, what+", "+c.Tables[other].Name, false)
	}
}

// TestCupAPIStopped: once its creator stops the cup, its tables' pages
// show it stopped: the note says so, the round and standings stay, and
// no table of it is said to be playing.
func TestCupAPIStopped(t *testing.T) {
	t.Parallel()
	x := newCup(t)
	h, u := x.h, x.people[0]
	u.Send(x.group, "/stop@"+h.Srv.Bot().Username)
	q, err := x.group.WaitMessage(10*time.Second, bottest.Contains(h.Shown("cup.stop_confirm")))
	if err != nil {
		t.Fatal("/stop does not ask about the cup: ", err)
	}
	if ans, err := u.Press(q, h.T("stop.yes")); err != nil || ans.Text != h.T("cup.stop_done") {
		t.Fatalf("confirming: %v %+v", err, ans)
	}
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tab, _ := loadRecord(t, h, x.host)
		s, err := cups.Decode(tab.Cup)
		return err == nil && s.Phase == cups.Stopped
	}); err != nil {
		t.Fatal("the cup did not stop")
	}
	for i, tok := range x.tokens {
		code, c, body := x.cup(t, tok, initData(u))
		if code != http.StatusOK || c.Phase != string(cups.Stopped) || c.Note != h.Bot.Web.Text(c.Lang, "web.cup_stopped") || len(c.Tables) != 2 || len(c.Standings) != 6 {
			t.Errorf("table %d after the stop: %d %s", i+1, code, body)
		}
		for _, ct := range c.Tables {
			if ct.Playing {
				t.Errorf("table %d after the stop: %s is said to be playing", i+1, ct.Name)
			}
		}
	}
}
