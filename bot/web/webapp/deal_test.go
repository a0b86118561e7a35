package webapp_test

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

// secretForms are the ways a deal's secret could show in a payload: the
// seed's and the salt's 16 hex digits (as the reveal writes them) and
// decimal forms, and the reveal itself.
func secretForms(seed, salt uint64, reveal string) []string {
	var out []string
	for _, x := range []uint64{seed, salt} {
		out = append(out, strconv.FormatUint(x, 16), strconv.FormatUint(x, 10), strconv.FormatInt(int64(x), 10))
		if h := strconv.FormatUint(x, 16); len(h) < 16 {
			out = append(out, strings.Repeat("0", 16-len(h))+h)
		}
	}
	return append(out, reveal)
}

// TestStateNeverCarriesTheDeal: the «Стол» page's state, read by every
// player after every move of a whole game and streamed to one of them,
// never carries the deal's secret, nor its seeds, nor the reveal —
// not even once the game is over (the reveal is the chat's).
func TestStateNeverCarriesTheDeal(t *testing.T) {
	t.Parallel()
	x := newTable(t, webapp.Config{})
	tab, _ := x.h.Table(x.group)
	if tab.Seed == 0 || tab.RobotSeed == 0 || tab.Secret == "" {
		t.Fatalf("a game dealt without its seeds or secret: %d, %d, %q", tab.Seed, tab.RobotSeed, tab.Secret)
	}
	forms := append(secretForms(tab.Seed, tab.RobotSeed, deal.TableReveal(tab)), tab.Secret)
	check := func(what string, body []byte) {
		t.Helper()
		for _, f := range forms {
			if strings.Contains(string(body), f) {
				t.Fatalf("%s carries %q:\n%s", what, f, body)
			}
		}
	}

	// One player's page stays open: every event it is sent, raw.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", x.web.URL+"/api/events?table="+x.id, nil)
	req.Header.Set("Authorization", "tma "+initData(x.people[0]))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %v %v", resp, err)
	}
	var mu sync.Mutex
	var streamed []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			mu.Lock()
			streamed = append(streamed, sc.Text())
			mu.Unlock()
		}
	}()

	read := func() {
		t.Helper()
		for _, u := range x.people {
			code, body := x.request(t, "GET", "/api/state?table="+x.id, initData(u), nil)
			if code != http.StatusOK {
				t.Fatalf("state for %s: %d %s", u.User().FirstName, code, body)
			}
			check("the state for "+u.User().FirstName, body)
		}
	}
	moves := 0
	for ; moves < 400 && !x.over(t); moves++ {
		read()
		x.move(t)
	}
	if !x.over(t) {
		t.Fatal("the game did not end")
	}
	read()
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	events := 0
	for _, line := range streamed {
		if strings.HasPrefix(line, "data: ") {
			events++
		}
	}
	if events < 2 {
		t.Errorf("the open page was streamed %d states in a game of %d moves", events, moves)
	}
	check("the stream", []byte(strings.Join(streamed, "\n")))
}
