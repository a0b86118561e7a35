package webapp_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/web/webapp"
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
		t.Fatalf("no %s to press (%v)", sel, err)
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
// and nothing to press; the viewer's reviewed moves (a review kept in the
// store) are marked, and a mark goes to its move, which tells its accuracy
// and the robot's move; ▶ and ◀ step one move and name it, the round
// picker jumps to a round's first move, ⏭ to the end; the controls stay
// on screen and nothing scrolls sideways at 390×844 and 320×568; «К
// итогам» brings the final table back. A screenshot of each
// (replay-<game>.png) goes to -screenshots.
func TestBrowserReplay(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct {
		game  adapter.Game
		names []string
		setup func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message)
	}{
		{trickchef.Game(), []string{"Аня", "Борис", "Вера"}, nil},
		{sausages.Game(), []string{"Аня", "Борис", "Вера"}, nil},
		{chef.Game(), []string{"Аня"}, withRobots(2)},
		{chekharda.Game(), []string{"Аня", "Борис", "Вера"}, func(h *bottest.Test, group *telegramtest.Chat, creator *telegramtest.User, lobby *telegramtest.Message) {
			// A short game (to 30) with a quiet pause of 2 s.
			for _, label := range []string{h.T("chekharda.option.target", "Count", ck.TargetFull), h.T("chekharda.option.pause", "Count", 3)} {
				if _, err := creator.Press(lobby, label); err != nil {
					h.TB.Fatal(err)
				}
			}
		}},
	} {
		id := c.game.ID()
		x := newGameWith(t, c.game, c.names, webapp.Config{ActionsPerSecond: 1000, ActionBurst: 1000}, c.setup)
		x.finish(t, 3)
		code, first, body := x.replay(t, x.people[0], "0")
		if code != 200 {
			t.Fatalf("%s: step 0: %d %s", id, code, body)
		}
		moves := first.Moves
		tab, _ := x.h.Table(x.group)
		costs := x.storeReview(t, x.people[0], tab.SeatOf(x.people[0].ID()))
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
			if top, _ := chromedp.Run(p, chromedp.Evaluate[float64](`document.querySelector('.replay-back').getBoundingClientRect().top`)); top < 0 {
				t.Errorf("%s: «К итогам» off screen as the replay opens", what)
			}

			// The viewer's reviewed moves are marked on the track; a mark
			// goes to its move, which shows its accuracy and the robot's.
			if deal.Marks != len(costs) || deal.Yours != "" {
				t.Fatalf("%s: %d marks and %q at the deal, want %d marks", what, deal.Marks, deal.Yours, len(costs))
			}
			click(t, p, ".replay-mark")
			waitFor(t, p, what+": the first mark", atStep(costs[0].Move+1))
			if mine := readView(t, p); mine.Yours == "" || mine.Move == "" {
				t.Fatalf("%s: the viewer's reviewed move shows %+v", what, mine)
			}
			checkFit(t, p, what+", a reviewed move", false)
			checkControls(t, p, what+", a reviewed move")
			click(t, p, ".replay-btn.first")
			waitFor(t, p, what+": ⏮", atStep(0))

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
			if end.Down != 0 || end.Move == "" || end.Hand != 0 {
				t.Fatalf("%s: the end of the replay: %+v", what, end)
			}
			checkFit(t, p, what+", the end", false)
			checkControls(t, p, what+", the end")
			if *screenshots != "" && ph.w == 390 {
				// The viewer's last reviewed move: its verdict and the marks.
				goTo(t, p, costs[len(costs)-1].Move+1)
				time.Sleep(400 * time.Millisecond) // the cards' entrance
				shoot(t, p, "replay-"+id+".png", false)
			}
			click(t, p, ".replay-back")
			waitFor(t, p, what+": back to the results", `!!document.querySelector('.over .replay-open') && !document.getElementById('app').dataset.replay`)
		}
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
