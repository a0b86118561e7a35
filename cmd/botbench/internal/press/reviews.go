package press

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/store"
)

// reviewStore is what queueing reviews needs of the store.
type reviewStore interface {
	KeepGame(ctx context.Context, ref string, people []int64, data []byte) error
	Schedule(ctx context.Context, q store.Queue, name string, at time.Time) error
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
}

// queuedReview is one review asked for.
type queuedReview struct {
	ref  string
	user int64
}

// reviewedGame is the game whose reviews are queued: the slowest to
// review (docs/ai.md «Разбор»).
const reviewedGame = "trickchef"

// queueReviews keeps n whole games of Трик-н-Шеф, each dealt from its own
// seed and played by random legal moves at seats of made-up people, and
// queues one review of each, as n presses of «🔍 Разбор» would.
func queueReviews(ctx context.Context, st reviewStore, n int, seed uint64) ([]queuedReview, error) {
	var g adapter.Game
	for _, have := range games.All() {
		if have.ID() == reviewedGame {
			g = have
		}
	}
	if g == nil {
		return nil, fmt.Errorf("press: no game %s to review", reviewedGame)
	}
	var out []queuedReview
	for i := range n {
		t, err := playedGame(g, i, seed)
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		ref := record.GameRef(t)
		if err := st.KeepGame(ctx, ref, t.People(), data); err != nil {
			return nil, err
		}
		user := t.Seats[0].UserID
		if err := st.Schedule(ctx, store.Reviews, store.ReviewRequest(ref, user), time.Now()); err != nil {
			return nil, err
		}
		out = append(out, queuedReview{ref, user})
	}
	return out, nil
}

// playedGame is game i finished: four people (made-up ids far from the
// simulated people's) dealt from a seed of its own, every move a random
// legal one.
func playedGame(g adapter.Game, i int, seed uint64) (*record.Table, error) {
	chat := int64(-4_000_000_000 - i)
	t := &record.Table{ID: record.ID(chat, 0), ChatID: chat, Lang: "ru", Phase: record.PhasePlaying, GameNo: 1,
		GameID: g.ID(), Seed: seed<<20 + uint64(i) + 1, Started: time.Unix(1_790_000_000, 0)}
	for k := range 4 {
		t.Seats = append(t.Seats, record.Seat{UserID: 9_000_000_000 + int64(4*i+k), Name: fmt.Sprint("Игрок ", k+1)})
	}
	t.Creator = t.Seats[0].UserID
	st, err := g.Start(adapter.View(t))
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	for !st.Over() {
		act := st.ToAct()
		s := act[r.IntN(len(act))]
		legal := st.Legal(s)
		a := legal[r.IntN(len(legal))]
		if err := st.Apply(s, a); err != nil {
			return nil, err
		}
		t.Log = append(t.Log, record.Move{Seat: s, Action: a})
	}
	if t.State, err = st.MarshalBinary(); err != nil {
		return nil, err
	}
	return t.Finished(), nil
}

// reviewsMade counts the queued reviews whose report is kept.
func reviewsMade(ctx context.Context, st reviewStore, queued []queuedReview) int {
	n := 0
	for _, q := range queued {
		if _, err := st.Review(ctx, q.ref, q.user); err == nil {
			n++
		}
	}
	return n
}
