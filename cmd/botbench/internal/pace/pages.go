package pace

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/cmd/internal/webpage"
)

// The -pages mode: every person has the table's «Стол» page open and
// visible and plays through it, at the same pace. The page server
// (bot/webapp) runs in this process on a local listener, in front of the
// bot being measured.

// seenEvery is how often an open page says it is visible, as the page does.
const seenEvery = 25 * time.Second

// seen tells the bot u's page is visible, now and every seenEvery until
// ctx ends or the table is done.
func seen(ctx context.Context, page *webpage.Client, t *table, u *telegramtest.User) {
	for {
		_ = page.Seen(ctx, t.ID, u)
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
	ws web.State
	at time.Time
}

// stream opens u's event stream; the returned channel holds the newest
// state (an older one not yet taken is replaced) and is closed when the
// stream ends.
func stream(ctx context.Context, page *webpage.Client, t *table, u *telegramtest.User) (<-chan arrived, error) {
	body, err := page.Events(ctx, t.ID, u)
	if err != nil {
		return nil, err
	}
	out := make(chan arrived, 1)
	go func() {
		defer close(out)
		defer body.Close()
		r := bufio.NewReader(body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var ws web.State
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

// playPage is one simulated person with the page open: whenever the page
// shows them something to press, they think, then press one of them at
// random. answered observes each applied act's request latency.
func playPage(ctx context.Context, page *webpage.Client, t *table, u *telegramtest.User, think func() time.Duration, rng *rand.Rand, limit int, answered func(time.Duration)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	states, err := stream(ctx, page, t, u)
	if err != nil {
		t.mu.Lock()
		t.pressErrors++
		t.mu.Unlock()
		return
	}
	go seen(ctx, page, t, u)
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
					if !measure.Sleep(ctx, time.Second) {
						return
					}
					if states, err = stream(ctx, page, t, u); err != nil {
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
		if !measure.Sleep(ctx, think()) || t.finished() || (limit > 0 && int(t.applied.Load()) >= limit) {
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
		ok, err := page.Act(ctx, t.ID, u, a, strconv.FormatInt(cur.ws.Version, 10)+"-"+a)
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
// when there are any, else steps of a choice in parts.
func pageActs(ws web.State, tried map[string]bool) []string {
	moves, steps := webpage.Acts(ws, func(a string) bool { return tried[a] })
	if len(moves) > 0 {
		return moves
	}
	return steps
}
