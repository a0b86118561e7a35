package webapp_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

// phones are the screens the page must fit: a common phone and a small one.
var phones = []struct {
	name string
	w, h int64
}{{"390x844", 390, 844}, {"320x568", 320, 568}}

// errorsScript records the page's uncaught errors (a «ResizeObserver
// loop» among them) for the test to read.
const errorsScript = `window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(String(e.message)));`

// phonePage opens the table's page as u on a phone-sized screen.
func (b *browser) phonePage(t *testing.T, base, table string, u *telegramtest.User, w, h int64) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	addr := base + "/?table=" + url.QueryEscape(table) + "#tgWebAppData=" + url.QueryEscape(initData(u)) + "&tgWebAppVersion=8.0&tgWebAppPlatform=android"
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, chromedp.EmulateScale(2)), addScript(errorsScript),
		chromedp.Navigate(addr), chromedp.WaitVisible(`#app[data-version]`)); err != nil {
		t.Fatalf("%s's page: %v", u.User().FirstName, err)
	}
	time.Sleep(500 * time.Millisecond) // the cards' entrance
	return ctx
}

// fitCheck is what a page's geometry says: how far it scrolls sideways,
// what the viewer must act on that lies off screen, seats over the middle
// of the table, and the page's errors.
const fitCheck = `(() => {
  const W = window.innerWidth, H = window.innerHeight;
  const out = { sideways: document.documentElement.scrollWidth - W, offscreen: [], covered: [], errors: window.__errors || [], turn: !!document.querySelector('.your-turn') };
  const inside = (e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.left >= 0 && r.bottom <= H + 0.5 && r.right <= W + 0.5; };
  const first = document.querySelector('.hand .card');
  if (first && !inside(first)) out.offscreen.push('the hand\'s first card');
  for (const b of document.querySelectorAll('.hand-area button.choice')) if (!inside(b)) out.offscreen.push('choice ' + b.textContent);
  const c = document.querySelector('.table .center');
  if (c && c.children.length) {
    const cr = c.getBoundingClientRect();
    for (const s of document.querySelectorAll('.table .seat')) {
      const r = s.getBoundingClientRect();
      if (r.left < cr.right && r.right > cr.left && r.top < cr.bottom && r.bottom > cr.top) out.covered.push(s.querySelector('.seat-name').textContent);
    }
  }
  return out;
})()`

type fit struct {
	Sideways  float64  `json:"sideways"`
	Offscreen []string `json:"offscreen"`
	Covered   []string `json:"covered"`
	Errors    []string `json:"errors"`
	Turn      bool     `json:"turn"`
}

func checkFit(t *testing.T, ctx context.Context, what string, turn bool) {
	t.Helper()
	f, err := chromedp.Run(ctx, chromedp.Evaluate[fit](fitCheck))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if f.Sideways > 0 {
		t.Errorf("%s: the page scrolls %v px sideways", what, f.Sideways)
	}
	if turn && len(f.Offscreen) > 0 {
		t.Errorf("%s: on the viewer's turn, off screen: %q", what, f.Offscreen)
	}
	if len(f.Covered) > 0 {
		t.Errorf("%s: seats cover the middle of the table: %q", what, f.Covered)
	}
	if len(f.Errors) > 0 {
		t.Errorf("%s: page errors %q", what, f.Errors)
	}
}

// untilTurn moves for the others until seat 0 has to act.
func (x *table) untilTurn(t *testing.T) {
	t.Helper()
	for i := 0; i < 40 && !x.toAct(t, 0); i++ {
		x.move(t)
	}
	if !x.toAct(t, 0) {
		t.Fatalf("%s: the first player's turn never came", x.game.ID())
	}
}

// TestBrowserPhoneTurn: at 390×844 and 320×568, in every game, when it is
// the viewer's turn the hand's first card and every choice button are on
// screen without scrolling, the page never scrolls sideways, no seat
// covers the middle, and the page raises no error. In turn-based games
// the headline speaks to the viewer; in a game played at once (Чехарда) it never
// says it is their turn.
func TestBrowserPhoneTurn(t *testing.T) {
	b := newBrowser(t)
	for _, c := range menuCases() {
		x := newGame(t, c.game, c.names, webapp.Config{})
		x.move(t)
		x.untilTurn(t)
		live := adapter.LiveButtons(c.game)
		for _, ph := range phones {
			p := b.phonePage(t, x.web.URL, x.id, x.people[0], ph.w, ph.h)
			what := c.game.ID() + " at " + ph.name
			checkFit(t, p, what, true)
			f, _ := chromedp.Run(p, chromedp.Evaluate[fit](fitCheck))
			if f.Turn == live {
				t.Errorf("%s: «your move» shown: %v", what, f.Turn)
			}
		}
	}
}

// TestBrowserNoSideways: the page never scrolls sideways nor covers the
// middle with seats in the states that stretch it: a Трик-н-Шеф game over
// with long names (the scores' sums; the standings with every seat's
// breakdown), and Меню шефа with eight seats.
func TestBrowserNoSideways(t *testing.T) {
	b := newBrowser(t)
	long := []string{"Александра Константиновна", "Вольдемар_Длинноимённый", "Жозефина Шарлотта", "Максимилиан Эдуардович"}
	x := newGame(t, trickchef.Game(), long, webapp.Config{})
	for i := 0; i < 400 && !x.over(t); i++ {
		x.move(t)
	}
	if !x.over(t) {
		t.Fatal("the game did not end")
	}
	y := newGame(t, chef.Game(), []string{"Аня", "Борис", "Вера", "Глеб", "Дарья", "Евгений Длинный", "Жанна", "Зиновий"}, webapp.Config{})
	for range 6 {
		y.move(t)
	}
	ws := x.state(t, x.people[0])
	if len(ws.Standings) != len(long) || ws.Standings[0].Place != 1 || len(ws.Standings[0].Detail) == 0 {
		t.Fatalf("the game over's standings: %+v", ws.Standings)
	}
	for i := 1; i < len(ws.Standings); i++ {
		if ws.Standings[i].Place < ws.Standings[i-1].Place {
			t.Fatalf("standings out of order: %+v", ws.Standings)
		}
	}
	for _, ph := range phones {
		over := b.phonePage(t, x.web.URL, x.id, x.people[0], ph.w, ph.h)
		checkFit(t, over, "trickchef over at "+ph.name, false)
		if n, err := chromedp.Run(over, chromedp.Evaluate[int](`document.querySelectorAll('.over .standings li .detail').length`)); err != nil || n != len(long) {
			t.Errorf("trickchef over at %s: %d standings with their breakdown, want %d (%v)", ph.name, n, len(long), err)
		}
		if *screenshots != "" && ph.w == 390 {
			_, _ = chromedp.Run(over, chromedp.Evaluate[bool](`(document.querySelector('.over').scrollIntoView(), true)`))
			time.Sleep(300 * time.Millisecond)
			shoot(t, over, "trickchef-over.png", false)
		}
		p := b.phonePage(t, y.web.URL, y.id, y.people[0], ph.w, ph.h)
		checkFit(t, p, "chef with 8 seats at "+ph.name, false)
		if *screenshots != "" && ph.w == 390 {
			shoot(t, p, "chef-8.png", false)
		}
		// A seat's cards open large on a tap.
		opened, err := chromedp.Run(p, chromedp.Evaluate[bool](`(() => {
  const b = document.querySelector('.seat-cards'); if (!b) return false;
  b.click(); return document.querySelectorAll('.modal .big-cards .card').length > 0;
})()`))
		if err != nil || !opened {
			t.Errorf("chef at %s: a seat's cards do not open large (%v)", ph.name, err)
		}
	}
}

// TestBrowserStrangerSeesNothing: a page opened by someone who neither
// plays nor is in the group shows no table, only that there is none; a
// page opened without a table says how to open one.
func TestBrowserStrangerSeesNothing(t *testing.T) {
	x := newTable(t, webapp.Config{})
	b := newBrowser(t)
	stranger := x.h.Srv.NewUser("Чужой")
	for _, c := range []struct{ table, key string }{{x.id, "web.not_found"}, {"", "web.no_table"}} {
		ctx, cancel := chromedp.NewContext(b.ctx)
		addr := x.web.URL + "/?table=" + url.QueryEscape(c.table) + "#tgWebAppData=" + url.QueryEscape(initData(stranger))
		if err := chromedp.Do(ctx, chromedp.Navigate(addr), chromedp.WaitVisible(`.empty-title`)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[document.querySelectorAll('.seat, .card').length, document.querySelector('.empty-title').textContent, !!document.querySelector('.head')]`))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != float64(0) || got[1] != x.h.T(c.key) || got[2] == true {
			t.Errorf("table %q: a stranger's page shows %v seats and cards, %q (want %q), a header: %v", c.table, got[0], got[1], x.h.T(c.key), got[2])
		}
	}
}

// TestBrowserClosedWhenTheViewerLeaves: the page of a member watching the
// table, who then leaves the group, takes the table away and says why in
// the catalog's words; it does not reconnect.
func TestBrowserClosedWhenTheViewerLeaves(t *testing.T) {
	cfg := webapp.Config{}
	cfg.Recheck = 50 * time.Millisecond
	x := newTable(t, cfg)
	b := newBrowser(t)
	m := x.h.Srv.NewUser("Соседка")
	x.group.AddMember(m)
	p := b.phonePage(t, x.web.URL, x.id, m, 390, 844)
	if n, err := chromedp.Run(p, chromedp.Evaluate[float64](`document.querySelectorAll('.seat').length`)); err != nil || n == 0 {
		t.Fatalf("the member's page shows %v seats (%v)", n, err)
	}
	m.Leave(x.group)
	ctx, cancel := context.WithTimeout(p, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`.empty-title`)); err != nil {
		t.Fatalf("the page of one who left the group did not close: %v", err)
	}
	got, err := chromedp.Run(p, chromedp.Evaluate[[]any](`[document.querySelectorAll('.seat, .card').length, document.querySelector('.empty-title').textContent, document.querySelector('.empty-icon').textContent]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != float64(0) || got[1] != x.h.T("web.left_group") || got[2] != "🔒" {
		t.Errorf("the closed page shows %v seats and cards, %q %q; want none, %q under 🔒", got[0], got[2], got[1], x.h.T("web.left_group"))
	}
	for deadline := time.Now().Add(10 * time.Second); x.srv.Streams() != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open after the page closed, want none", x.srv.Streams())
		}
	}
}

// shoot saves a screenshot of the page (full: the whole page, else the
// screen) to -screenshots.
func shoot(t *testing.T, ctx context.Context, name string, full bool) {
	t.Helper()
	var png []byte
	var err error
	if full {
		png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	} else {
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserCardFlies: a card tapped in the hand flies to where it lands
// on the table (the page marks the card it animated).
func TestBrowserCardFlies(t *testing.T) {
	b := newBrowser(t)
	x := newGame(t, trickchef.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{})
	x.untilTurn(t)
	p := b.phonePage(t, x.web.URL, x.id, x.people[0], 390, 844)
	for i := 0; i < 6; i++ {
		before := x.version(t)
		waitShown(t, p, before, 10*time.Second) // the page shows the turn
		name, err := chromedp.Run(p, chromedp.Evaluate[string](`(() => {
  const c = [...document.querySelectorAll('.hand button.card[data-act]:not(.dim)')][0];
  if (!c || !document.querySelector('.prompt.mine')) return '';
  c.click(); return c.title;
})()`))
		if err != nil {
			t.Fatal(err)
		}
		if name == "" {
			x.move(t) // a choice comes first (the chef): someone moves on
			continue
		}
		deadline := time.Now().Add(10 * time.Second)
		for x.version(t) == before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		waitShown(t, p, x.version(t), 10*time.Second)
		flew, err := chromedp.Run(p, chromedp.Evaluate[string](`document.getElementById('app').dataset.flew || ''`))
		if err != nil {
			t.Fatal(err)
		}
		if flew == name {
			return
		}
		centre, _ := chromedp.Run(p, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.center .card')].map((c) => c.title + (c.classList.contains('enter') ? '*' : ''))`))
		t.Logf("tapped %q, the table shows %q, flew %q", name, centre, flew)
		x.untilTurn(t)
	}
	t.Fatal("no card tapped in the hand flew to the table")
}

// TestBrowserFacesWithoutEmojiFont: on a device without a colour-emoji
// font (forced by «tcFaces=words»: this machine has the font) no card face
// is an emoji: such cards say what they are in words.
func TestBrowserFacesWithoutEmojiFont(t *testing.T) {
	b := newBrowser(t)
	x := newGame(t, chef.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{})
	x.move(t)
	ctx, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	addr := x.web.URL + "/?table=" + url.QueryEscape(x.id) + "#tgWebAppData=" + url.QueryEscape(initData(x.people[0])) + "&tcFaces=words"
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)), chromedp.Navigate(addr), chromedp.WaitVisible(`#app[data-version]`)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.card:not(.back) svg text')].map((e) => e.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	words := 0
	for _, s := range got {
		for _, r := range s {
			if r >= 0x1F000 || r >= 0x2600 && r <= 0x27BF {
				t.Fatalf("a card face draws %q without the emoji font", s)
			}
		}
		if len([]rune(s)) >= 3 {
			words++
		}
	}
	if words == 0 {
		t.Fatalf("no card says what it is in words: %q", got)
	}
	if *screenshots != "" {
		shoot(t, ctx, "chef-words.png", false)
	}
}

// TestBrowserFacesFromTheirOwnFont: the page loads the faces' own font
// (faces.ttf, named in the style sheet by its hash and allowed by the
// Content-Security-Policy), so its emoji faces are drawn whatever fonts
// the device has, and the cards show pictures, not words.
func TestBrowserFacesFromTheirOwnFont(t *testing.T) {
	b := newBrowser(t)
	x := newGame(t, chef.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{})
	x.move(t)
	p := b.phonePage(t, x.web.URL, x.id, x.people[0], 390, 844)
	got, err := chromedp.Run(p, chromedp.Evaluate[[]any](`[
		[...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'Trickchef Faces' && f.status === 'loaded'),
		document.fonts.check("20px 'Trickchef Faces'", '🍅'),
		document.documentElement.classList.contains('text-faces'),
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != true || got[1] != true {
		t.Fatalf("the faces' font is not loaded (loaded %v, covers 🍅 %v)", got[0], got[1])
	}
	if got[2] != false {
		t.Fatal("the page drew its faces as words though its own font is loaded")
	}
}

// TestBrowserTrickGoesToItsTaker: when a trick is complete, its cards fly
// from the table to the seat that took it (the page marks the taker).
func TestBrowserTrickGoesToItsTaker(t *testing.T) {
	b := newBrowser(t)
	x := newGame(t, trickchef.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{})
	p := b.phonePage(t, x.web.URL, x.id, x.people[0], 390, 844)
	for i := 0; i < 30; i++ {
		x.move(t)
		waitShown(t, p, x.version(t), 10*time.Second) // the page draws every state
		ws := x.state(t, x.people[0])
		for _, pile := range ws.Scene.Center {
			if pile.Taker == nil {
				continue
			}
			taken, err := chromedp.Run(p, chromedp.Evaluate[string](`document.getElementById('app').dataset.taken || ''`))
			if err != nil {
				t.Fatal(err)
			}
			if taken != strconv.Itoa(*pile.Taker) {
				t.Fatalf("trick taken by seat %d; the page moved it to %q", *pile.Taker, taken)
			}
			return
		}
	}
	t.Fatal("no trick was completed in 30 moves")
}
