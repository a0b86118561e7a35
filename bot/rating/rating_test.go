package rating

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// tolerance is the absolute agreement required with the reference outputs.
const tolerance = 1e-9

type fixtureRating struct{ Mu, Sigma float64 }

type fixtureCase struct {
	Name     string
	Ratings  []fixtureRating
	Ranks    []int
	Expected []fixtureRating
	Ordinals []float64
}

type fixtureGame struct {
	Seats    []int
	Ratings  []fixtureRating
	Ranks    []int
	Expected []fixtureRating
}

type fixture struct {
	Source, Version, Model string
	Cases                  []fixtureCase
	Sequence               struct {
		Roster []fixtureRating
		Games  []fixtureGame
		Final  []fixtureRating
	}
}

func loadFixture(t *testing.T) fixture {
	t.Helper()
	data, err := os.ReadFile("testdata/fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Version != "5.0.1" || f.Model != "PlackettLuce" {
		t.Fatalf("fixture is %s %s, want openskill 5.0.1 PlackettLuce", f.Version, f.Model)
	}
	return f
}

func toRatings(in []fixtureRating) []Rating {
	out := make([]Rating, len(in))
	for i, r := range in {
		out[i] = Rating(r)
	}
	return out
}

// checkClose reports every mu and sigma further than tolerance from want.
func checkClose(t *testing.T, label string, got []Rating, want []fixtureRating) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d ratings, want %d", label, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(got[i].Mu - want[i].Mu); !(d <= tolerance) {
			t.Errorf("%s: player %d mu = %.17g, want %.17g (diff %.3g)", label, i, got[i].Mu, want[i].Mu, d)
		}
		if d := math.Abs(got[i].Sigma - want[i].Sigma); !(d <= tolerance) {
			t.Errorf("%s: player %d sigma = %.17g, want %.17g (diff %.3g)", label, i, got[i].Sigma, want[i].Sigma, d)
		}
	}
}

func TestFixtureCases(t *testing.T) {
	f := loadFixture(t)
	if len(f.Cases) < 30 {
		t.Fatalf("fixture has %d cases, want at least 30", len(f.Cases))
	}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			in := toRatings(c.Ratings)
			before := slices.Clone(in)
			ranks := slices.Clone(c.Ranks)
			got := Rate(in, ranks)
			if !slices.Equal(in, before) || !slices.Equal(ranks, c.Ranks) {
				t.Fatal("Rate modified its inputs")
			}
			checkClose(t, c.Name, got, c.Expected)
			for i, o := range c.Ordinals {
				if d := math.Abs(got[i].Ordinal() - o); !(d <= tolerance) {
					t.Errorf("player %d ordinal = %.17g, want %.17g", i, got[i].Ordinal(), o)
				}
			}
		})
	}
}

// TestFixtureSequence replays the long run of games twice: each game from the
// reference's own inputs, and chained from our outputs, so rounding drift
// over many games is caught too.
func TestFixtureSequence(t *testing.T) {
	f := loadFixture(t)
	seq := f.Sequence
	if len(seq.Games) < 100 {
		t.Fatalf("sequence has %d games, want at least 100", len(seq.Games))
	}
	roster := toRatings(seq.Roster)
	for g, game := range seq.Games {
		label := fmt.Sprintf("game %d", g)
		checkClose(t, label+" (reference inputs)", Rate(toRatings(game.Ratings), game.Ranks), game.Expected)

		in := make([]Rating, len(game.Seats))
		for i, s := range game.Seats {
			in[i] = roster[s]
		}
		checkClose(t, label+" (chained input)", in, game.Ratings)
		for i, r := range Rate(in, game.Ranks) {
			roster[game.Seats[i]] = r
		}
	}
	checkClose(t, "final roster", roster, seq.Final)
}

func TestNewAndOrdinal(t *testing.T) {
	r := New()
	if r.Mu != 25 || r.Sigma != 25.0/3 {
		t.Fatalf("New() = %+v", r)
	}
	if o := r.Ordinal(); math.Abs(o) > 1e-12 {
		t.Fatalf("New().Ordinal() = %g, want 0", o)
	}
	if o := (Rating{Mu: 30, Sigma: 2}).Ordinal(); o != 24 {
		t.Fatalf("Ordinal = %g, want 24", o)
	}
}

func TestRateLengthMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Rate with mismatched lengths did not panic")
		}
	}()
	Rate([]Rating{New(), New()}, []int{1})
}

func TestRateEmpty(t *testing.T) {
	if got := Rate(nil, nil); len(got) != 0 {
		t.Fatalf("Rate(nil, nil) = %v", got)
	}
}

// TestExtremeMuStaysFinite covers gaps where the reference's exp overflows.
func TestExtremeMuStaysFinite(t *testing.T) {
	got := Rate([]Rating{{Mu: 1e6, Sigma: 8}, {Mu: -1e6, Sigma: 8}, {Mu: 0, Sigma: 8}}, []int{3, 1, 2})
	for i, r := range got {
		if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Sigma) || math.IsInf(r.Sigma, 0) || r.Sigma <= 0 {
			t.Fatalf("player %d: %+v", i, r)
		}
	}
	if got[0].Mu >= 1e6 || got[1].Mu <= -1e6 {
		t.Fatalf("upset did not move the favourite down and the underdog up: %+v", got)
	}
}

// randomGame draws n ratings and a shuffled finishing order (with ties when
// tieP > 0) from r.
func randomGame(r *rand.Rand, n int, tieP float64) ([]Rating, []int) {
	ratings := make([]Rating, n)
	ranks := make([]int, n)
	for i := range n {
		ratings[i] = Rating{Mu: 10 + 30*r.Float64(), Sigma: 1 + 8*r.Float64()}
		ranks[i] = i + 1
		if i > 0 && r.Float64() < tieP {
			ranks[i] = ranks[i-1]
		}
	}
	r.Shuffle(n, func(i, j int) { ranks[i], ranks[j] = ranks[j], ranks[i] })
	return ratings, ranks
}

func TestSoleWinnerRisesSoleLoserFalls(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 2000 {
		n := 2 + k%7
		ratings, ranks := randomGame(r, n, 0.3)
		got := Rate(ratings, ranks)
		best, worst := slices.Min(ranks), slices.Max(ranks)
		for i := range n {
			if ranks[i] == best && count(ranks, best) == 1 && !(got[i].Mu > ratings[i].Mu) {
				t.Fatalf("game %d: sole winner %d mu %g -> %g", k, i, ratings[i].Mu, got[i].Mu)
			}
			if ranks[i] == worst && count(ranks, worst) == 1 && !(got[i].Mu < ratings[i].Mu) {
				t.Fatalf("game %d: sole loser %d mu %g -> %g", k, i, ratings[i].Mu, got[i].Mu)
			}
		}
	}
}

// TestSigmaShrinks: a game is evidence, so uncertainty drops. It holds for
// fresh and still-uncertain players; tau is added first, so a player who is
// already far more certain than the table, or nearly certain to have lost
// or won, may gain a little sigma (see the package doc and TestTauWidens).
func TestSigmaShrinks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for k := range 20000 {
		n := 2 + k%7
		ratings, ranks := randomGame(r, n, 0.3)
		for i := range ratings {
			ratings[i] = Rating{Mu: 15 + 20*r.Float64(), Sigma: 5 + 5*r.Float64()}
		}
		got := Rate(ratings, ranks)
		for i := range n {
			if !(got[i].Sigma < ratings[i].Sigma) || got[i].Sigma <= 0 {
				t.Fatalf("game %d: player %d sigma %g -> %g", k, i, ratings[i].Sigma, got[i].Sigma)
			}
		}
	}
	// Fresh players at every table size, with any finishing order.
	for n := 2; n <= 8; n++ {
		ratings := slices.Repeat([]Rating{New()}, n)
		_, ranks := randomGame(r, n, 0.3)
		for i, g := range Rate(ratings, ranks) {
			if !(g.Sigma < New().Sigma) {
				t.Fatalf("%d fresh players: player %d sigma %g", n, i, g.Sigma)
			}
		}
	}
}

// TestTauWidens pins the default dynamics: tau is added before the update
// and sigma is not capped at its old value (openskill's limitSigma is off).
func TestTauWidens(t *testing.T) {
	lone := Rate([]Rating{{Mu: 31, Sigma: 2}}, []int{1})[0]
	if lone.Mu != 31 || math.Abs(lone.Sigma-math.Sqrt(4+tau*tau)) > 1e-15 {
		t.Fatalf("lone player: %+v", lone)
	}
	for _, g := range Rate([]Rating{{Mu: 40, Sigma: 0.01}, {Mu: 10, Sigma: 0.02}}, []int{1, 2}) {
		if !(g.Sigma > 0.02) {
			t.Fatalf("near-certain players should widen by tau: %+v", g)
		}
	}
}

func TestTiedEqualPlayersGetEqualResults(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 2000 {
		n := 2 + k%7
		ratings, ranks := randomGame(r, n, 0)
		// Make two seats identical in rating and place.
		i, j := r.IntN(n), r.IntN(n)
		if i == j {
			j = (i + 1) % n
		}
		ratings[j] = ratings[i]
		ranks[j] = ranks[i]
		got := Rate(ratings, ranks)
		if got[i] != got[j] {
			t.Fatalf("game %d: tied equal players differ: %+v vs %+v", k, got[i], got[j])
		}
	}
	// All fresh and all tied: nothing to learn about the order, all equal.
	got := Rate(slices.Repeat([]Rating{New()}, 5), []int{1, 1, 1, 1, 1})
	for _, g := range got {
		if g != got[0] || math.Abs(g.Mu-25) > 1e-12 {
			t.Fatalf("five-way fresh tie: %+v", got)
		}
	}
}

func TestSeatOrderDoesNotMatter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for k := range 2000 {
		n := 1 + k%8
		ratings, ranks := randomGame(r, n, 0.3)
		got := Rate(ratings, ranks)

		perm := r.Perm(n)
		pr := make([]Rating, n)
		pk := make([]int, n)
		for to, from := range perm {
			pr[to], pk[to] = ratings[from], ranks[from]
		}
		pgot := Rate(pr, pk)
		for to, from := range perm {
			if math.Abs(pgot[to].Mu-got[from].Mu) > 1e-12 || math.Abs(pgot[to].Sigma-got[from].Sigma) > 1e-12 {
				t.Fatalf("game %d: seat %d->%d: %+v vs %+v", k, from, to, got[from], pgot[to])
			}
		}
	}
}

func TestOnlyRankOrderMatters(t *testing.T) {
	ratings := []Rating{{30, 5}, {22, 7}, {25, 2}, {18, 8}}
	a := Rate(ratings, []int{1, 2, 2, 4})
	b := Rate(ratings, []int{-3, 50, 50, 51})
	if !slices.Equal(a, b) {
		t.Fatalf("same order, different numbers: %+v vs %+v", a, b)
	}
}

func count(xs []int, v int) int {
	c := 0
	for _, x := range xs {
		if x == v {
			c++
		}
	}
	return c
}

func BenchmarkRate(b *testing.B) {
	for _, n := range []int{4, 8} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			ratings, ranks := randomGame(rand.New(rand.NewPCG(9, uint64(n))), n, 0.2)
			b.ReportAllocs()
			for b.Loop() {
				Rate(ratings, ranks)
			}
		})
	}
}
