package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/initdata"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/webapp"
	"github.com/trickchef/trickchef/store"
)

// The -pages mode: every person has the table's «Стол» page open and
// visible and plays through it, at the same pace. The page server
// (bot/webapp) runs in this process on a local listener, in front of the
// bot being measured.

// seenEvery is how often an open page says it is visible, as the page does.
const seenEvery = 25 * time.Second

// pages talks to the page server as the people's pages would.
type pages struct {
	base    string
	streams *http.Client
	calls   *http.Client
	close   func()
}

// startPages serves the page's API for b on a local listener until ctx
// ends or close is called.
func startPages(ctx context.Context, b *bot.Bot, st *store.Redis, log zerolog.Logger) (*pages, error) {
	web := webapp.New(webapp.Config{Token: bottest.Token}, b, st, log)
	if err := web.Run(ctx); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: web.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	p := &pages{
		base:    "http://" + ln.Addr().String(),
		streams: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}},
		calls: &http.Client{Timeout: time.Minute, Transport: &http.Transport{
			MaxIdleConnsPerHost: 256, DisableCompression: true,
		}},
	}
	p.close = func() {
		_ = hs.Close()
		p.streams.CloseIdleConnections()
		p.calls.CloseIdleConnections()
	}
	return p, nil
}

func (p *pages) auth(u *telegramtest.User) string {
	return "tma " + initdata.SignUser(bottest.Token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now(), "")
}

func (p *pages) post(ctx context.Context, u *telegramtest.User, path string, body any) (*http.Response, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", p.base+path, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", p.auth(u))
	req.Header.Set("Content-Type", "application/json")
	return p.calls.Do(req)
}

// seen tells the bot u's page is visible, now and every seenEvery until
// ctx ends or the table is done.
func (p *pages) seen(ctx context.Context, t *table, u *telegramtest.User) {
	for {
		resp, err := p.post(ctx, u, "/api/seen", map[string]any{"table": t.id, "visible": true})
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.done:
			return
		case <-time.After(seenEvery):
		}
	}
}

// arrived is a state the page received and when.
type arrived struct {
	ws bot.WebState
	at time.Time
}

// stream opens u's event stream; the returned channel holds the newest
// state (an older one not yet taken is replaced) and is closed when the
// stream ends.
func (p *pages) stream(ctx context.Context, t *table, u *telegramtest.User) (<-chan arrived, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", p.base+"/api/events?table="+url.QueryEscape(t.id), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", p.auth(u))
	resp, err := p.streams.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("events: %d", resp.StatusCode)
	}
	out := make(chan arrived, 1)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var ws bot.WebState
			if json.Unmarshal([]byte(data), &ws) != nil {
				continue
			}
			a := arrived{ws: ws, at: time.Now()}
			select { // keep only the newest
			case <-out:
			default:
			}
			out <- a
		}
	}()
	return out, nil
}

// act sends one action from u's page; ok reports it was applied.
func (p *pages) act(ctx context.Context, t *table, u *telegramtest.User, data, key string) (bool, error) {
	resp, err := p.post(ctx, u, "/api/act", map[string]string{"table": t.id, "act": data, "key": key})
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var r bot.WebReply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return false, fmt.Errorf("act: %d: %w", resp.StatusCode, err)
	}
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
		return false, fmt.Errorf("act: %d %s", resp.StatusCode, r.Text)
	}
	return resp.StatusCode == http.StatusOK && r.OK, nil
}

// playPage is one simulated person with the page open: whenever the page
// shows them something to press, they think, then press one of them at
// random. answered observes each applied act's request latency.
func (p *pages) playPage(ctx context.Context, t *table, u *telegramtest.User, think func() time.Duration, rng *rand.Rand, limit int, answered func(time.Duration)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	states, err := p.stream(ctx, t, u)
	if err != nil {
		t.mu.Lock()
		t.pressErrors++
		t.mu.Unlock()
		return
	}
	go p.seen(ctx, t, u)
	var cur arrived
	prompted := false // the current prompt's arrival is recorded
	tried := map[string]bool{}
	for {
		acts := pageActs(cur.ws, tried)
		if len(acts) == 0 {
			select {
			case <-ctx.Done():
				return
			case <-t.done:
				return
			case a, ok := <-states:
				if !ok { // the server ended the stream: reopen it, as the page does
					if !sleepCtx(ctx, time.Second) {
						return
					}
					if states, err = p.stream(ctx, t, u); err != nil {
						t.mu.Lock()
						t.pressErrors++
						t.mu.Unlock()
						return
					}
					continue
				}
				cur = a
				if len(pageActs(cur.ws, nil)) == 0 {
					prompted = false
				}
				tried = map[string]bool{}
			}
			continue
		}
		if !prompted {
			prompted = true
			t.mu.Lock()
			t.prompts = append(t.prompts, cur.at)
			t.mu.Unlock()
		}
		if !sleepCtx(ctx, think()) || t.finished() || (limit > 0 && int(t.applied.Load()) >= limit) {
			return
		}
		select { // a newer state came while thinking: act on it
		case a, ok := <-states:
			if ok {
				cur, tried = a, map[string]bool{}
				continue
			}
			// Ended: the wait above reopens it.
		default:
		}
		a := acts[rng.IntN(len(acts))]
		tried[a] = true
		at := time.Now()
		ok, err := p.act(ctx, t, u, a, strconv.FormatInt(cur.ws.Version, 10)+"-"+a)
		t.mu.Lock()
		switch {
		case err != nil:
			t.pressErrors++
		case !ok:
			t.refused++
		default:
			now := time.Now()
			t.presses = append(t.presses, press{at: at, answered: now})
			answered(now.Sub(at))
			prompted = false
			cur = arrived{} // wait for the page to show the move
			if limit > 0 && int(t.applied.Add(1)) >= limit {
				t.finish()
			}
		}
		t.mu.Unlock()
	}
}

// pageActs are the acts a viewer's page offers and not yet tried: moves
// (cards that are not dim, choices) when there are any, else steps of a
// choice in parts. A choice labelled in brackets is a card the chat shows
// as not playable (a game whose web buttons are its chat buttons).
func pageActs(ws bot.WebState, tried map[string]bool) []string {
	if ws.Scene == nil {
		return nil
	}
	var moves, steps []string
	add := func(a string) {
		b, err := bot.ParseButton(a)
		switch {
		case err != nil || tried[a]:
		case b.Op == 'a':
			moves = append(moves, a)
		case b.Op == 'm' || b.Op == 'b':
			steps = append(steps, a)
		}
	}
	for _, c := range ws.Scene.Hand {
		if c.Act != "" && !c.Dim {
			add(c.Act)
		}
	}
	for _, c := range ws.Scene.Choices {
		if !strings.HasPrefix(c.Text, "(") {
			add(c.Act)
		}
	}
	if len(moves) > 0 {
		return moves
	}
	return steps
}
