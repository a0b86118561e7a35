package review_test

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/bot/sausages"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/locales"
)

// keysSeen is a Translator that passes every call to the catalog and
// keeps the keys rendered since the last take.
type keysSeen struct {
	adapter.Translator
	mu   sync.Mutex
	keys []string
}

func (k *keysSeen) T(lang, key string, args ...any) string {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
	return k.Translator.T(lang, key, args...)
}

func (k *keysSeen) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.keys
	k.keys = nil
	return out
}

// TestReasonsTold measures how often a review's costly moment says why
// the robot's move is better in the game's terms (a <id>.reason.* text)
// rather than the robot's evidence alone: over 12 seeded games per level
// below the top (Новичок and Любитель), three seats, against «Профи», the
// robots and the judge at 60 playouts, seat 0 reviewed. It is a
// measurement (docs/ai.md, «Why, in the game's terms»), run only on
// demand:
//
//	REVIEW_REASONS=1 go test -run TestReasonsTold -v ./bot/review/
//
// REVIEW_REASONS=2 also prints every moment told no reason.
func TestReasonsTold(t *testing.T) {
	mode := os.Getenv("REVIEW_REASONS")
	if mode == "" {
		t.Skip("a measurement: REVIEW_REASONS=1 to run it")
	}
	const games, playouts = 12, 60
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	seen := &keysSeen{Translator: cat}
	l := adapter.NewLoc(seen, "ru")
	for _, g := range []adapter.Game{trickchef.Game(), chef.Game(), sausages.Game()} {
		levels := adapter.Levels(g)
		lo, _ := g.SeatRange()
		told, moments := 0, 0
		codes := map[string]int{}
		for _, lv := range levels[:len(levels)-1] {
			for k := range games {
				seed := uint64(k + 1)
				tab := reviewtest.Play(t, g, max(lo, 3), seed, lv, []string{levels[len(levels)-1]}, playouts)
				seen.take()
				r, err := review.Review(g, tab, 0, l, review.Options{Playouts: playouts})
				if err != nil {
					t.Fatal(err)
				}
				// Each moment's Describe renders its keys in turn: a reason's
				// key (<id>.reason.*) before the Best line's (<id>.review.best*).
				var whys []string
				pending := ""
				for _, key := range seen.take() {
					switch {
					case strings.HasPrefix(key, g.ID()+".reason.") && !strings.HasSuffix(key, ".left"):
						pending = strings.TrimPrefix(key, g.ID()+".reason.")
					case strings.HasPrefix(key, g.ID()+".review.best"):
						whys = append(whys, pending)
						pending = ""
					}
				}
				if len(whys) != len(r.Moments) {
					t.Fatalf("%s %s seed %d: %d moments, %d Best lines", g.ID(), lv, seed, len(r.Moments), len(whys))
				}
				moments += len(r.Moments)
				for i, m := range r.Moments {
					if code := whys[i]; code != "" {
						told++
						codes[code]++
					} else if mode == "2" {
						t.Logf("%s %s seed %d move %d (loss %.3f):\n%s\n%s\n%s\n%s\n", g.ID(), lv, seed, m.Move, m.Loss, m.Judged.Moment, m.Judged.Played, m.Judged.Best, m.Judged.Cost)
					}
				}
			}
		}
		t.Logf("%s: a reason told in %d of %d moments; by code %v", g.ID(), told, moments, codes)
	}
}
