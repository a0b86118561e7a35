package webapp_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

var (
	screenshots   = flag.String("screenshots", "", "directory to save each game's table screenshots in (docs/img to refresh the README's)")
	browserSample = flag.Int("browser.sample", 0, "measure move → the other page's DOM updated over this many moves (0: not measured)")
)

// browser is one headless Chromium for a test; its pages are tabs. The
// browser tests never skip: without Chromium they fail and say how to get
// it (.ci/run installs it).
type browser struct{ ctx context.Context }

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("the web table's browser tests need Chromium: apt-get install chromium")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(412, 915),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("force-device-scale-factor", "2"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // starts the browser
		t.Fatal(err)
	}
	return &browser{ctx: ctx}
}

// page opens the table's page as u, the way Telegram opens it: the
// signed initData in the URL's fragment.
func (b *browser) page(t *testing.T, base, table string, u *telegramtest.User) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	addr := base + "/?table=" + url.QueryEscape(table) + "#tgWebAppData=" + url.QueryEscape(initData(u)) + "&tgWebAppVersion=8.0&tgWebAppPlatform=weba"
	if err := chromedp.Do(ctx, chromedp.Navigate(addr), chromedp.WaitVisible(`#app[data-version]`)); err != nil {
		t.Fatalf("%s's page: %v", u.User().FirstName, err)
	}
	return ctx
}

// shownVersion is the table version a page shows, and when it drew it
// (the page's clock, Unix ms: the same machine's clock as the test's).
func shownVersion(ctx context.Context) (version, at int64, err error) {
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.getElementById('app').dataset.version || '0', document.getElementById('app').dataset.drawn || '0']`))
	if err != nil || len(out) != 2 {
		return 0, 0, err
	}
	version, _ = strconv.ParseInt(out[0], 10, 64)
	at, _ = strconv.ParseInt(out[1], 10, 64)
	return version, at, nil
}

// waitShown waits until a page shows version v or later.
func waitShown(t *testing.T, ctx context.Context, v int64, within time.Duration) int64 {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got, at, err := shownVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got >= v {
			return at
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page shows version %d, not %d, after %v", got, v, within)
		}
		time.Sleep(10 * time.Millisecond) // the drawing's time is read from the page, not from this loop
	}
}

// tapMove taps one of the page's moves when it is the viewer's turn: a
// playable card, else a choice that makes a move; it returns the data
// tapped, "" when there was nothing to do.
const tapMove = `(() => {
  if (!document.querySelector('.prompt.mine')) return '';
  const cards = [...document.querySelectorAll('.hand button.card[data-act]:not(.dim)')];
  const choices = [...document.querySelectorAll('button.choice[data-act^="a:"]')];
  const all = cards.length ? cards : choices;
  if (!all.length) return '';
  const b = all[Math.floor(Math.random() * all.length)];
  b.click();
  return b.dataset.act;
})()`

// playPage plays a seat from its page until the game is over there.
func playPage(ctx context.Context, done <-chan struct{}) (taps int, err error) {
	for {
		select {
		case <-done:
			return taps, nil
		case <-time.After(150 * time.Millisecond):
		}
		over, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('.over')`))
		if err != nil {
			return taps, err
		}
		if over {
			return taps, nil
		}
		tapped, err := chromedp.Run(ctx, chromedp.Evaluate[string](tapMove))
		if err != nil {
			return taps, err
		}
		if tapped != "" {
			taps++
			time.Sleep(300 * time.Millisecond) // let the answer and the next state come
		}
	}
}

// TestBrowserGameWithChatAndPages plays Трик-н-Шеф to the end with two
// players in browser pages and two in the chat. The pages are served by a
// second replica over the same Redis: their moves are applied there, the
// chat's by the replica that polls Telegram, and each sees the other's.
func TestBrowserGameWithChatAndPages(t *testing.T) {
	x := newTableOf(t, []string{"Аня", "Борис", "Вера", "Глеб"})
	other := x.replica(t)
	b := newBrowser(t)
	pages := []context.Context{b.page(t, other.URL, x.id, x.people[0]), b.page(t, other.URL, x.id, x.people[1])}
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range x.people[2:] {
		waits = append(waits, x.h.Player(u, done, nil))
	}
	var wg sync.WaitGroup
	taps := make([]int, len(pages))
	errs := make([]error, len(pages))
	for i, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			taps[i], errs[i] = playPage(p, done)
		}()
	}
	_, err := x.group.WaitMessage(4*time.Minute, x.h.Won())
	close(done)
	wg.Wait()
	for _, w := range waits {
		w()
	}
	if err != nil {
		x.h.DumpGroup(x.group)
		t.Fatalf("the game did not end: %v", err)
	}
	for i, e := range errs {
		if e != nil {
			t.Fatalf("page %d: %v", i, e)
		}
		if taps[i] == 0 {
			t.Fatalf("page %d never played", i)
		}
	}
	for i, p := range pages {
		over := false
		deadline := time.Now().Add(10 * time.Second)
		for !over && time.Now().Before(deadline) {
			var err error
			if over, err = chromedp.Run(p, chromedp.Evaluate[bool](`!!document.querySelector('.over')`)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !over {
			t.Fatalf("page %d does not show the game over", i)
		}
	}
	x.h.CheckLimits(x.group)
	x.h.CheckReplay(x.group)
}

// TestBrowserNamesAreText: a name made of markup is shown as text and
// runs nothing.
func TestBrowserNamesAreText(t *testing.T) {
	evil := `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`
	x := newTableOf(t, []string{evil, "Борис", "Вера"})
	b := newBrowser(t)
	p := b.page(t, x.web.URL, x.id, x.people[1])
	res, err := chromedp.Run(p, chromedp.Evaluate[[]any](`[window.pwned === undefined, document.querySelectorAll('#app img, #app script').length, document.body.textContent.includes('<img src=x')]`))
	if err != nil {
		t.Fatal(err)
	}
	if res[0] != true || res[1] != float64(0) || res[2] != true {
		t.Fatalf("a name of markup: not pwned %v, elements made %v, shown as text %v", res[0], res[1], res[2])
	}
}

// TestBrowserSample measures the time from a move's request to the other
// page's DOM showing it: over N moves with -browser.sample=N (the
// measurement in docs/web.md), over a few otherwise.
func TestBrowserSample(t *testing.T) {
	n := *browserSample
	if n == 0 {
		n = 10 // a smoke run: the numbers are logged, never asserted
	}
	x := newTableOf(t, []string{"Аня", "Борис", "Вера", "Глеб"})
	b := newBrowser(t)
	// Two players watch their pages; moves are made through the API by
	// whoever's turn it is, and the page of a player who did not move is
	// timed.
	pages := []context.Context{b.page(t, x.web.URL, x.id, x.people[0]), b.page(t, x.web.URL, x.id, x.people[1])}
	var lat []time.Duration
	for len(lat) < n {
		if x.over(t) {
			x.again(t)
		}
		mover := x.move(t)
		// The pages say they are visible now and then: a commit that
		// changes nothing they show sends them nothing, so a page is
		// waited for at the move's own version.
		sent, v := x.lastSent, x.lastVersion
		watcher := pages[0]
		if mover == x.people[0] {
			watcher = pages[1]
		}
		drawn := waitShown(t, watcher, v, 10*time.Second)
		lat = append(lat, time.UnixMilli(drawn).Sub(sent))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	t.Logf("move → the other page's DOM updated, %d moves: p50 %v, p99 %v, max %v", len(lat), q(0.5), q(0.99), lat[len(lat)-1])
}

// TestBrowserScreenshots draws each game's table as a player sees it (in
// Russian) a few moves in, the screen at 390×844 (<game>.png) and at
// 320×568 (<game>-320x568.png), and saves the pictures: to
// -screenshots when given (docs/img for the README), else to a temporary
// directory.
func TestBrowserScreenshots(t *testing.T) {
	dir := *screenshots
	if dir == "" {
		dir = t.TempDir()
	}
	b := newBrowser(t)
	// Every game of the menu, a move past the first round of turns; Меню
	// шефа's first moves are draws, so its table is shown further on.
	further := map[string]int{chef.Game().ID(): 16}
	for _, c := range menuCases() {
		moves := len(c.names) + 1
		if n, ok := further[c.game.ID()]; ok {
			moves = n
		}
		x := newGame(t, c.game, c.names, webapp.Config{})
		for i := 0; i < moves; i++ {
			x.move(t)
		}
		// What the screen of a common phone and of a small one shows
		// (the hand stays at its bottom).
		for _, ph := range phones {
			p := b.phonePage(t, x.web.URL, x.id, x.people[0], ph.w, ph.h)
			name := c.game.ID() + ".png"
			if ph.w != 390 {
				name = c.game.ID() + "-" + ph.name + ".png"
			}
			png, err := chromedp.Run(p, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if len(png) < 20_000 {
				t.Fatalf("%s: a screenshot of %d bytes: nothing drawn?", c.game.ID(), len(png))
			}
			if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// layBy makes one of u's moves that grabs nothing (a card laid from the
// hand), reporting whether there was one.
func (x *table) layBy(t *testing.T, u *telegramtest.User) bool {
	t.Helper()
	ws := x.state(t, u)
	if ws.Scene == nil {
		return false
	}
	for _, c := range ws.Scene.Hand {
		if c.Act == "" || c.Dim {
			continue
		}
		if code, r := x.act(t, u, c.Act, fmt.Sprintf("lay-%d", ws.Version)); code == http.StatusOK && r.OK {
			return true
		}
	}
	return false
}

// TestBrowserChekhardaRace: two pages grab the same set at the same moment;
// one gets it, and the other page is told who was faster.
func TestBrowserChekhardaRace(t *testing.T) {
	x := newGame(t, chekharda.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{})
	a, b := x.people[0], x.people[1]
	br := newBrowser(t)
	pages := []context.Context{br.page(t, x.web.URL, x.id, a), br.page(t, x.web.URL, x.id, b)}
	grabs := `[...document.querySelectorAll('button.choice')].map((e) => e.textContent).filter((s) => s.startsWith('⚡'))`
	// Play on until both pages offer to grab the same set from the same
	// player, then press it in both at once.
	var grab string
	var before int64
	var logLen int
	clicked := make([]bool, 2)
	for i := 0; i < 300 && grab == ""; i++ {
		mine, err := chromedp.Run(pages[0], chromedp.Evaluate[[]string](grabs))
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := chromedp.Run(pages[1], chromedp.Evaluate[[]string](grabs))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range theirs {
			if slices.Contains(mine, g) {
				grab = g
			}
		}
		if grab == "" {
			if x.over(t) {
				x.again(t) // the pages follow the table into its next game
			}
			// Only Вера lays cards (never grabs): sets pile up in front
			// of her while the racers' hands grow with every deal.
			if !x.layBy(t, x.people[2]) {
				time.Sleep(300 * time.Millisecond) // the dealer deals after a quiet pause
			}
			continue
		}
		before = x.version(t)
		tab, _ := x.h.Table(x.group)
		logLen = len(tab.Log)
		click := `(() => { const b = [...document.querySelectorAll('button.choice')].find((e) => e.textContent === ` + strconv.Quote(grab) + `); if (!b) return false; b.click(); return true; })()`
		var wg sync.WaitGroup
		for i, p := range pages {
			wg.Add(1)
			go func() {
				defer wg.Done()
				clicked[i], _ = chromedp.Run(p, chromedp.Evaluate[bool](click))
			}()
		}
		wg.Wait()
		if !clicked[0] || !clicked[1] {
			grab = "" // the dealer dealt in between: look again
		}
	}
	if grab == "" {
		t.Fatal("no set both could grab came up in 300 moves")
	}
	// One grab was applied: whose, the table says; the other page says so.
	deadline := time.Now().Add(10 * time.Second)
	var toasts []string
	for time.Now().Before(deadline) {
		toasts = toasts[:0]
		for _, p := range pages {
			text, err := chromedp.Run(p, chromedp.Evaluate[string](`(() => { const t = document.getElementById('toast'); return t.hidden ? '' : t.textContent; })()`))
			if err != nil {
				t.Fatal(err)
			}
			toasts = append(toasts, text)
		}
		if toasts[0] != "" && toasts[1] != "" { // the winner's confirms the move, the loser's says who was faster
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if x.version(t) <= before {
		t.Fatal("neither grab was applied")
	}
	tab, _ := x.h.Table(x.group)
	var racers []int
	for _, m := range tab.Log[logLen:] {
		if m.Seat == 0 || m.Seat == 1 {
			racers = append(racers, int(m.Seat))
		}
	}
	if len(racers) != 1 {
		t.Fatalf("the racers made %d moves (%v), want one; toasts %q", len(racers), racers, toasts)
	}
	winner, loser := racers[0], 1-racers[0]
	name := x.people[winner].User().FirstName
	if !strings.Contains(toasts[loser], name) {
		t.Fatalf("the slower page says %q, not who was faster (%s); the faster says %q", toasts[loser], name, toasts[winner])
	}
}

// TestBrowserDirectLink: opened from the group's direct link, the page
// finds its table in the start parameter Telegram signs into initData.
func TestBrowserDirectLink(t *testing.T) {
	x := newTable(t, webapp.Config{})
	u := x.people[1]
	data := initdata.SignUser(bottest.Token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now(), x.id)
	b := newBrowser(t)
	ctx, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	addr := x.web.URL + "/#tgWebAppData=" + url.QueryEscape(data) + "&tgWebAppVersion=8.0&tgWebAppPlatform=android"
	if err := chromedp.Do(ctx, chromedp.Navigate(addr), chromedp.WaitVisible(`#app[data-version]`)); err != nil {
		t.Fatal(err)
	}
	you, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('.seat.you')`))
	if err != nil || !you {
		t.Fatalf("the page opened by the direct link does not show the viewer's seat (%v)", err)
	}
}

// TestBrowserTelegramTheme: the page takes Telegram's theme colours (a dark
// theme here) and tells Telegram it is ready through the bridge Telegram's
// apps provide (window.TelegramWebviewProxy on phones).
func TestBrowserTelegramTheme(t *testing.T) {
	x := newTable(t, webapp.Config{})
	u := x.people[0]
	b := newBrowser(t)
	ctx, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	theme := `{"bg_color":"#17212b","text_color":"#f5f5f5","hint_color":"#708499","button_color":"#5288c1","button_text_color":"#ffffff","secondary_bg_color":"#232e3c"}`
	// The phone app's bridge, as a page script sees it, recording what the
	// page asks of Telegram.
	proxy := `window.__events = []; window.TelegramWebviewProxy = { postEvent: (type, data) => window.__events.push(type) };`
	addr := x.web.URL + "/?table=" + url.QueryEscape(x.id) + "#tgWebAppData=" + url.QueryEscape(initData(u)) +
		"&tgWebAppVersion=8.0&tgWebAppPlatform=android&tgWebAppThemeParams=" + url.QueryEscape(theme)
	if err := chromedp.Do(ctx, addScript(proxy), chromedp.Navigate(addr), chromedp.WaitVisible(`#app[data-version]`)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[getComputedStyle(document.body).backgroundColor, document.documentElement.classList.contains('dark'), window.__events]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != "rgb(23, 33, 43)" || got[1] != true {
		t.Fatalf("Telegram's dark theme not taken: background %v, dark %v", got[0], got[1])
	}
	events, _ := got[2].([]any)
	if !slices.Contains(events, any("web_app_ready")) || !slices.Contains(events, any("web_app_expand")) {
		t.Fatalf("the page told Telegram %v, want web_app_ready and web_app_expand", events)
	}
	if *screenshots != "" {
		time.Sleep(500 * time.Millisecond)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*screenshots, "trickchef-dark.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// addScript runs source in every document the tab loads from now on,
// before the page's own scripts (what a Telegram app injects).
func addScript(source string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source})
		return err
	})
}
