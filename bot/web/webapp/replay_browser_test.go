package webapp_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/games"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// waitFor polls a page until the JavaScript expression is true.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 20 s (%s)", what, expr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// click presses the first element sel matches on the page.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); if (!e || e.disabled) return false; e.click(); return true; })()`))
	if err != nil || !ok {
		at, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('app').dataset.replay || 'no replay'`))
		t.Fatalf("no %s to press (%v; the page at step %s)", sel, err, at)
	}
}

// atStep is the expression «the page shows replay step k».
func atStep(k int) string {
	return `document.getElementById('app').dataset.replay === '` + strconv.Itoa(k) + `'`
}

// replayView is what a page's replay shows: the table's text, the number
// of cards face up and face down at the seats, and the bottom bar's lines.
type replayView struct {
	Table string `json:"table"`
	Up    int    `json:"up"`
	Down  int    `json:"down"`
	Hand  int    `json:"hand"`
	Label string `json:"label"`
	Move  string `json:"move"`
	Yours string `json:"yours"`
	Marks int    `json:"marks"`
	// Costly is how many marks are the review's costliest, Here the
	// number on the mark of this step ("" when none), Mistake whether
	// «⏭ next mistake» is there.
	Costly  int    `json:"costly"`
	Here    string `json:"here"`
	Mistake bool   `json:"mistake"`
}

const readReplay = `(() => {
  const q = (s) => document.querySelector(s);
  return {
    table: [...document.querySelectorAll('.table .seat, .table .center, .replay-hand')].map((e) => e.textContent + [...e.querySelectorAll('.card')].map((c) => c.title).join(',')).join('|'),
    up: document.querySelectorAll('.table .card:not(.back), .replay-hands .card:not(.back)').length,
    down: document.querySelectorAll('.table .card.back, .replay-hands .card.back').length,
    hand: document.querySelectorAll('.hand .card, .hand-area button.choice').length,
    label: q('.replay-label') ? q('.replay-label').textContent : '',
    move: q('.replay-move') ? q('.replay-move').textContent : '',
    yours: q('.replay-yours') ? q('.replay-yours').textContent : '',
    marks: document.querySelectorAll('.replay-mark').length,
    costly: document.querySelectorAll('.replay-mark.costly').length,
    here: q('.replay-mark.costly.here') ? q('.replay-mark.costly.here').textContent : '',
    mistake: !!q('.replay-mistake'),
  };
})()`

func readView(t *testing.T, ctx context.Context) replayView {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[replayView](readReplay))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// withRobots seats robots beside the people (they play at once: the
// game ends sooner).
func withRobots(n int) func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message) {
	return func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message) {
		for range n {
			if _, err := creator.Press(lobby, h.T("lobby.ai_button")); err != nil {
				h.TB.Fatal(err)
			}
		}
	}
}

// TestBrowserReplay: in each game, once it is over, the page offers
// «▶️ Повтор»; pressed, it shows the deal with every seat's cards face up
// and nothing to press, the open hands right above the controls (none of
// them under the sticky bar) at 390×844 and 320×568, and nothing scrolls
// sideways. The viewer's reviewed moves are marked from a review the
// review code made (a real one, at reviewPlayouts), the three costliest
// numbered apart as the review numbers them; a mark goes to its move,
// which tells its grade and the robot's move; «⏭ Следующее дорогое решение»
// goes from one reviewed move to the next. A game without a review
// (Чехарда has none) shows no mark and no such button. ▶ and ◀ step one
// move and name it, the round picker jumps to a round's first move, ⏭ to
// the end; «К итогам» brings the final table back. A screenshot of each
// (replay-<game>.png, at the review's costliest moment) goes to
// -screenshots.
func TestBrowserReplay(t *testing.T) {
	b := newBrowser(t)
	type lobbySetup = func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message)
	// Every game of the menu, played by three people, but where a game
	// is set up otherwise: Меню шефа by one person and two robots, Чехарда
	// a short game (to 30) with a quiet pause of 2 s.
	otherwise := map[string]struct {
		names []string
		setup lobbySetup
	}{
		chef.Game().ID(): {[]string{"Аня"}, withRobots(2)},
		chekharda.Game().ID(): {[]string{"Аня", "Борис", "Вера"}, func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message) {
			for _, label := range []string{h.T("chekharda.option.target", "Count", ck.TargetFull), h.T("chekharda.option.pause", "Count", 3)} {
				if _, err := creator.Press(lobby, label); err != nil {
					h.TB.Fatal(err)
				}
			}
		}},
	}
	menu := games.All()
	for _, g := range menu {
		c := struct {
			game  adapter.Game
			names []string
			setup lobbySetup
		}{g, []string{"Аня", "Борис", "Вера"}, nil}
		if o, ok := otherwise[g.ID()]; ok {
			c.names, c.setup = o.names, o.setup
		}
		t.Run(c.game.ID(), func(t *testing.T) {
			id := c.game.ID()
			x := newGameWith(t, c.game, c.names, webapp.Config{ActionsPerSecond: 1000, ActionBurst: 1000}, c.setup)
			x.finish(t, 3)
			code, first, body := x.replay(t, x.people[0], "0")
			if code != 200 {
				t.Fatalf("%s: step 0: %d %s", id, code, body)
			}
			moves := first.Moves
			tab, _ := x.h.Table(x.group)
			// Only a game the review code reviews gets a review: none is
			// made up for the others.
			var rep review.Report
			if adapter.Reviewable(c.game) {
				rep = x.storeReview(t, x.people[0], tab.SeatOf(x.people[0].ID()))
			}
			costs := rep.Costs
			for _, ph := range phones {
				p := b.phonePage(t, x.web.URL, x.id, x.people[0], ph.w, ph.h)
				what := id + " at " + ph.name
				waitFor(t, p, what+": «▶️ Повтор»", `!!document.querySelector('.over .replay-open')`)
				click(t, p, ".over .replay-open")
				waitFor(t, p, what+": the deal", atStep(0))
				deal := readView(t, p)
				if deal.Up == 0 || deal.Down != 0 || deal.Hand != 0 || deal.Label == "" || deal.Move != "" {
					t.Fatalf("%s: the deal shows %+v: want cards face up only, nothing to press", what, deal)
				}
				checkFit(t, p, what+", the deal", false)
				checkControls(t, p, what)
				checkHands(t, p, what+", the deal")

				if deal.Marks != len(costs) || deal.Costly != len(rep.Moments) || deal.Yours != "" {
					t.Fatalf("%s: %d marks (%d costliest) and %q at the deal, want %d marks (%d)", what, deal.Marks, deal.Costly, deal.Yours, len(costs), len(rep.Moments))
				}
				if len(costs) == 0 {
					if deal.Mistake {
						t.Fatalf("%s: «⏭ next mistake» without a review", what)
					}
				} else {
					// The review's costliest moment, its mark numbered 1.
					top := review.Step(rep.Moments[0].Move)
					click(t, p, `.replay-mark.costly[data-step="`+strconv.Itoa(top)+`"]`)
					waitFor(t, p, what+": the costliest mark", atStep(top))
					if mine := readView(t, p); mine.Yours == "" || mine.Move == "" || mine.Here != "1" {
						t.Fatalf("%s: the review's costliest move shows %+v", what, mine)
					}
					checkFit(t, p, what+", a reviewed move", false)
					checkControls(t, p, what+", a reviewed move")
					checkHands(t, p, what+", a reviewed move")
					// «⏭ next mistake» from the deal walks the reviewed moves
					// in the order of the game, and stops at the last.
					click(t, p, ".replay-btn.first")
					waitFor(t, p, what+": ⏮", atStep(0))
					for i, c := range costs[:min(len(costs), 4)] {
						click(t, p, ".replay-mistake")
						waitFor(t, p, what+": mistake "+strconv.Itoa(i+1), atStep(review.Step(c.Move)))
						if v := readView(t, p); v.Yours == "" {
							t.Fatalf("%s: mistake %d shows no verdict: %+v", what, i+1, v)
						}
					}
					goTo(t, p, review.Step(costs[len(costs)-1].Move))
					if ok, _ := chromedp.Run(p, chromedp.Evaluate[bool](`document.querySelector('.replay-mistake').disabled`)); !ok {
						t.Errorf("%s: «⏭ next mistake» pressable past the last one", what)
					}
					click(t, p, ".replay-btn.first")
					waitFor(t, p, what+": ⏮", atStep(0))
				}

				click(t, p, ".replay-btn.next")
				waitFor(t, p, what+": ▶", atStep(1))
				one := readView(t, p)
				if one.Move == "" || one.Label == deal.Label || one.Table == deal.Table || one.Down != 0 {
					t.Fatalf("%s: after ▶: %+v (the deal %+v)", what, one, deal)
				}
				click(t, p, ".replay-btn.prev")
				waitFor(t, p, what+": ◀", atStep(0))
				if back := readView(t, p); back.Table != deal.Table || back.Label != deal.Label {
					t.Fatalf("%s: ◀ did not bring the deal back: %+v", what, back)
				}

				if len(first.Rounds) > 1 {
					// The round picker jumps to the second round's first move.
					k := first.Rounds[1].Step
					ok, err := chromedp.Run(p, chromedp.Evaluate[bool](`(() => { const s = document.querySelector('.replay-rounds'); if (!s) return false;
	  s.selectedIndex = 1; s.dispatchEvent(new Event('change')); return true; })()`))
					if err != nil || !ok {
						t.Fatalf("%s: no round picker (%v)", what, err)
					}
					waitFor(t, p, what+": round 2", atStep(k))
				} else {
					if n, _ := chromedp.Run(p, chromedp.Evaluate[int](`document.querySelectorAll('.replay-rounds').length`)); n != 0 {
						t.Errorf("%s: a round picker for a game of one round", what)
					}
				}
				click(t, p, ".replay-btn.last")
				waitFor(t, p, what+": ⏭", atStep(moves))
				end := readView(t, p)
				if end.Down != 0 || end.Move == "" || end.Hand != 0 || len(costs) == 0 && (end.Yours != "" || end.Mistake) {
					t.Fatalf("%s: the end of the replay: %+v", what, end)
				}
				checkFit(t, p, what+", the end", false)
				checkControls(t, p, what+", the end")
				checkHands(t, p, what+", the end")
				if *screenshots != "" {
					shot := moves // no review: the end of the game
					if len(rep.Moments) > 0 {
						shot = review.Step(rep.Moments[0].Move)
					}
					goTo(t, p, shot)
					time.Sleep(400 * time.Millisecond) // the cards' entrance
					checkHands(t, p, what+", the screenshot")
					name := "replay-" + id + ".png"
					if ph.w != 390 {
						name = "replay-" + id + "-" + ph.name + ".png"
					}
					shoot(t, p, name, false)
				}
				// «К итогам» is at the top of the page.
				if _, err := chromedp.Run(p, chromedp.Evaluate[bool](`(() => { window.scrollTo(0, 0); return true; })()`)); err != nil {
					t.Fatal(err)
				}
				if top, _ := chromedp.Run(p, chromedp.Evaluate[float64](`document.querySelector('.replay-back').getBoundingClientRect().top`)); top < 0 {
					t.Errorf("%s: «К итогам» off screen at the top of the page", what)
				}
				click(t, p, ".replay-back")
				waitFor(t, p, what+": back to the results", `!!document.querySelector('.over .replay-open') && !document.getElementById('app').dataset.replay`)
			}
			if id == menu[0].ID() {
				checkOpenAt(t, b, x, rep)
			}
		})
	}
}

// checkOpenAt: a page opened at a step (?step=N, a «🔍 Разбор» moment's
// button) opens the replay there, at the review's costliest move with its
// mark; a step the game has not, or a step of another game, is refused by
// the server (400, 409) and the page shows the results, and a step that
// is no number is ignored.
func checkOpenAt(t *testing.T, b *browser, x *table, rep review.Report) {
	t.Helper()
	top := review.Step(rep.Moments[0].Move)
	tab, _ := x.h.Table(x.group)
	p := b.pageAt(t, x.web.URL, x.id, "&step="+strconv.Itoa(top)+"&game="+url.QueryEscape(review.GameKey(tab)), x.people[0])
	waitFor(t, p, "opened at the costliest move", atStep(top))
	checkHands(t, p, "opened at the costliest move")
	if v := readView(t, p); v.Here != "1" || v.Yours == "" {
		t.Fatalf("opened at the costliest move: %+v", v)
	}
	other := strconv.Itoa(tab.GameNo+1) + "." + strconv.FormatInt(tab.Started.Unix(), 10)
	for _, bad := range []string{"&step=999999", "&step=-1", "&step=x1", "&step=1e3", "&step=1&game=" + other} {
		p := b.pageAt(t, x.web.URL, x.id, bad, x.people[0])
		waitFor(t, p, bad+": the results", `!!document.querySelector('.over .replay-open')`)
		time.Sleep(300 * time.Millisecond)
		if n, _ := chromedp.Run(p, chromedp.Evaluate[bool](`!!document.getElementById('app').dataset.replay`)); n {
			t.Fatalf("%s opened a replay", bad)
		}
	}
}

// pageAt opens u's page of the table at 390×844 with extra query
// parameters (extra starts with "&").
func (b *browser) pageAt(t *testing.T, base, table, extra string, u *telegramtest.User) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	addr := base + "/?table=" + url.QueryEscape(table) + extra + "#tgWebAppData=" + url.QueryEscape(initData(u)) + "&tgWebAppVersion=8.0&tgWebAppPlatform=android"
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)), addScript(errorsScript),
		chromedp.Navigate(addr), chromedp.WaitVisible(`#app[data-version]`)); err != nil {
		t.Fatalf("%s's page: %v", u.User().FirstName, err)
	}
	return ctx
}

// checkHands: the replay's open hands are on screen above its controls,
// none of them under the sticky bar, and nothing scrolls sideways.
func checkHands(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	g, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(() => {
  const h = document.querySelector('.replay-hands').getBoundingClientRect();
  const b = document.querySelector('.replay-bar').getBoundingClientRect();
  return { top: h.top, bottom: h.bottom, height: h.height, bar: b.top, screen: window.innerHeight,
    sideways: document.documentElement.scrollWidth - window.innerWidth };
})()`))
	if err != nil {
		t.Fatal(err)
	}
	if g["height"] <= 0 || g["bottom"] > g["bar"]+0.5 || g["top"] < -0.5 || g["sideways"] > 0 {
		t.Errorf("%s: the hands from %.0f to %.0f, the bar's top at %.0f on a screen of %.0f, %.0f px sideways: want the hands whole above the bar",
			what, g["top"], g["bottom"], g["bar"], g["screen"], g["sideways"])
	}
}

// goTo moves a page's replay to step k with the track, as a finger
// dragging it does.
func goTo(t *testing.T, ctx context.Context, k int) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const r = document.querySelector('.replay-range'); if (!r) return false;
  r.value = '`+strconv.Itoa(k)+`'; r.dispatchEvent(new Event('change')); return true; })()`))
	if err != nil || !ok {
		t.Fatalf("no track (%v)", err)
	}
	waitFor(t, ctx, "step "+strconv.Itoa(k), atStep(k))
}

// checkControls: the replay's buttons are on screen.
func checkControls(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	off, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
  const out = [];
  for (const e of document.querySelectorAll('.replay-nav > *, .replay-range')) {
    const r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5 || !r.width) out.push(e.className);
  }
  return out;
})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(off) > 0 {
		raw, _ := json.Marshal(off)
		t.Errorf("%s: replay controls off screen: %s", what, raw)
	}
}
