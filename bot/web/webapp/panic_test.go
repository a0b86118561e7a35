package webapp_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/game"
)

// panickyScene is Трик-н-Шеф whose page scene panics while on is set: a
// bug in a game's web rendering.
type panickyScene struct {
	adapter.Game
	on *atomic.Bool
}

func (p panickyScene) Scene(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Scene {
	if p.on.Load() {
		panic("a scene bug")
	}
	return p.Game.(adapter.WebGame).Scene(l, t, st, seat)
}

// TestPanickingPageRequest: a request whose handling panics is answered
// with a 500 and a plain error, counted, and the server serves the next
// request as before.
func TestPanickingPageRequest(t *testing.T) {
	t.Parallel()
	var on atomic.Bool
	var panics atomic.Int64
	x := newGame(t, panickyScene{Game: trickchef.Game(), on: &on}, []string{"Аня", "Борис", "Вера"},
		webapp.Config{Panicked: func() { panics.Add(1) }})
	path := "/api/state?table=" + url.QueryEscape(x.id)
	on.Store(true)
	code, body := x.request(t, "GET", path, initData(x.people[0]), nil)
	var e struct {
		Error string `json:"error"`
		Text  string `json:"text"`
	}
	if err := json.Unmarshal(body, &e); code != http.StatusInternalServerError || err != nil || e.Error != "internal" || e.Text == "" {
		t.Errorf("a panicking request: %d %s", code, body)
	}
	if panics.Load() != 1 {
		t.Errorf("%d panics counted, want 1", panics.Load())
	}
	on.Store(false)
	if code, body := x.request(t, "GET", path, initData(x.people[0]), nil); code != http.StatusOK {
		t.Errorf("the next request: %d %s", code, body)
	}
}
