package cup

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

var soak = flag.Int("soak", 0, "cups per size and range in TestRepeatsAreRare (default: 1,000 for 3–4 seats, 100 for the other ranges); e.g. -soak 20000 for a long soak")

func people(n int) []Person {
	out := make([]Person, n)
	for i := range out {
		out[i] = Person{ID: fmt.Sprintf("u%d", i+1), Name: fmt.Sprintf("P%d", i+1)}
	}
	return out
}

func mustNew(t testing.TB, cfg Config, ps []Person) *Cup {
	t.Helper()
	c, err := New(cfg, ps)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// playRandomly plays the cup to its end with random results drawn from r:
// random scores, places from them (ties when scores tie).
func playRandomly(t testing.TB, c *Cup, r *rand.Rand) {
	t.Helper()
	for !c.Done() {
		rd, err := c.Pair()
		if err != nil {
			t.Fatal(err)
		}
		for i, tb := range rd.Tables {
			if err := c.Record(rd.No, i+1, randomPlaces(r, len(tb.Seats))); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func randomPlaces(r *rand.Rand, n int) []Place {
	out := make([]Place, n)
	for i := range out {
		out[i].Score = r.IntN(30)
	}
	return placesOf(out)
}

// placesOf ranks places by score, as a game's standings do.
func placesOf(ps []Place) []Place {
	for i := range ps {
		ps[i].Place = 1
		for _, o := range ps {
			if o.Score > ps[i].Score {
				ps[i].Place++
			}
		}
	}
	return ps
}

// repeatShare is the measure of the repeat bound: of all distinct pairs of
// people who shared a table during the cup, how many shared one twice or
// more.
func repeatShare(c *Cup) (repeated, pairs int) {
	met := map[[2]string]int{}
	for _, r := range c.Played {
		for _, t := range r.Tables {
			for i, a := range t.Seats {
				for _, b := range t.Seats[i+1:] {
					if a != Robot && b != Robot {
						met[[2]string{min(a, b), max(a, b)}]++
					}
				}
			}
		}
	}
	for _, k := range met {
		if k >= 2 {
			repeated++
		}
	}
	return repeated, len(met)
}

// TestRepeatsAreRare is the repeat bound: for 8, 12 and 16 people over
// three rounds, at most one pair in ten of those who shared a table shares
// one twice — in every one of 1,000 random cups per size for a game of 3–4
// seats, and of 100 for each other range the games have (at these sizes
// every range seats the same numbers of people, so they add little; -soak
// runs more of each).
func TestRepeatsAreRare(t *testing.T) {
	for _, sizes := range [][2]int{{3, 4}, {2, 8}, {3, 6}, {2, 6}} {
		cups := 100
		if sizes == [2]int{3, 4} {
			cups = 1000
		}
		if *soak > 0 {
			cups = *soak
		}
		for _, n := range []int{8, 12, 16} {
			layout, _ := Layout(n, 3, sizes[0], sizes[1])
			t.Run(fmt.Sprintf("%d-%d/%d", sizes[0], sizes[1], n), func(t *testing.T) {
				worst, sum, repeatedCups := 0.0, 0.0, 0
				for k := range cups {
					seed := uint64(k)
					c := mustNew(t, Config{Game: "g", Sizes: sizes, Rounds: 3, Seed: seed}, people(n))
					playRandomly(t, c, rand.New(rand.NewPCG(seed, 0xc0b)))
					rep, pairs := repeatShare(c)
					share := float64(rep) / float64(pairs)
					if share > 0.10 {
						t.Fatalf("cup %d: %d of %d pairs met twice (%.0f%%): %+v", k, rep, pairs, 100*share, c.Played)
					}
					if rep > 0 {
						repeatedCups++
					}
					sum += share
					worst = max(worst, share)
				}
				t.Logf("tables %v: repeat share mean %.4f%%, worst %.2f%%, cups with a repeat %d of %d", layout, 100*sum/float64(cups), 100*worst, repeatedCups, cups)
			})
		}
	}
}

func TestLayout(t *testing.T) {
	tests := []struct {
		n, rounds, lo, hi int
		want              []int
		bye               bool
	}{
		{8, 3, 3, 4, []int{3, 3, 2}, false},     // 4+4 would force 8 repeats: a robot instead
		{12, 3, 3, 4, []int{3, 3, 3, 3}, false}, // three tables of four: round 2 must repeat
		{16, 3, 3, 4, []int{4, 4, 4, 4}, false}, // four of four
		{16, 3, 2, 8, []int{4, 4, 4, 4}, false}, // 6+5+5 would fit the count, not round 2
		{16, 1, 2, 8, []int{8, 8}, false},       // one round repeats nothing
		{13, 3, 3, 4, []int{4, 3, 3, 3}, false}, //
		{7, 3, 3, 4, []int{3, 2, 2}, false},     // two robots a round
		{6, 3, 3, 4, []int{3, 3}, false},        // nothing avoids repeats: the smallest tables
		{4, 3, 3, 4, []int{2, 2}, false},        // each meets each other once
		{5, 3, 3, 4, []int{3, 2}, false},        //
		{2, 3, 3, 4, []int{2}, false},           // after leavers
		{3, 3, 2, 8, []int{3}, false},           // 2+1: the one joins instead of sitting alone
		{5, 3, 2, 8, []int{3, 2}, false},        //
		{5, 3, 2, 2, []int{2, 2}, true},         // a game of two: a bye
		{3, 3, 2, 2, []int{2}, true},            //
		{9, 2, 2, 2, []int{2, 2, 2, 2}, true},   //
		{16, 3, 4, 4, []int{4, 4, 4, 4}, false}, // a game of four
		{10, 3, 4, 4, []int{4, 3, 3}, false},    //
		{16, 10, 3, 4, []int{3, 3, 3, 3, 2, 2}, false},
	}
	for _, tc := range tests {
		got, bye := Layout(tc.n, tc.rounds, tc.lo, tc.hi)
		if !slices.Equal(got, tc.want) || bye != tc.bye {
			t.Errorf("Layout(%d, %d rounds, %d–%d) = %v, bye %v; want %v, bye %v", tc.n, tc.rounds, tc.lo, tc.hi, got, bye, tc.want, tc.bye)
		}
	}
}

// TestPairingIsSwiss: after a first round of four tables of four, the
// four winners (from four different tables) sit together at table 1, the
// seconds at table 2, and so on: equal points at every table, no repeat.
func TestPairingIsSwiss(t *testing.T) {
	c := mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 3, Seed: 7}, people(16))
	r1, err := c.Pair()
	if err != nil {
		t.Fatal(err)
	}
	for i := range r1.Tables {
		if err := c.Record(1, i+1, []Place{{1, 40}, {2, 30}, {3, 20}, {4, 10}}); err != nil {
			t.Fatal(err)
		}
	}
	points := map[string]float64{}
	for _, s := range c.Standings() {
		points[s.Person.ID] = s.Points
	}
	r2, err := c.Pair()
	if err != nil {
		t.Fatal(err)
	}
	for i, tb := range r2.Tables {
		want := float64(FirstPoints - 2*i)
		for _, s := range tb.Seats {
			if points[s] != want {
				t.Errorf("round 2, table %d: %s has %v points, want %v (%v)", i+1, s, points[s], want, r2.Tables)
			}
		}
	}
	if rep, _ := repeatShare(c); rep != 0 {
		t.Errorf("%d pairs met twice: %+v", rep, c.Played)
	}
}

// TestPairingIsDeterministic: the same seed, people (in any order) and
// results give the same rounds and standings; another seed another cup.
func TestPairingIsDeterministic(t *testing.T) {
	play := func(seed uint64, ps []Person) *Cup {
		c := mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 3, Seed: seed}, ps)
		playRandomly(t, c, rand.New(rand.NewPCG(1, 2)))
		return c
	}
	ps := people(11)
	rev := slices.Clone(ps)
	slices.Reverse(rev)
	a, b := play(42, ps), play(42, rev)
	if !slices.EqualFunc(a.Played, b.Played, roundsEqual) {
		t.Errorf("same seed, different rounds:\n%+v\n%+v", a.Played, b.Played)
	}
	if !slices.Equal(a.Standings(), b.Standings()) {
		t.Errorf("same seed, different standings:\n%+v\n%+v", a.Standings(), b.Standings())
	}
	if other := play(43, ps); slices.EqualFunc(a.Played[:1], other.Played[:1], roundsEqual) {
		t.Errorf("seeds 42 and 43 drew the same first round: %+v", a.Played[0])
	}
}

func roundsEqual(a, b Round) bool {
	return a.No == b.No && a.Bye == b.Bye && slices.EqualFunc(a.Tables, b.Tables, func(x, y Table) bool {
		return slices.Equal(x.Seats, y.Seats) && slices.Equal(x.Places, y.Places)
	})
}

// TestByes: in a game of two with five people, one sits out each round —
// the lowest ranked who has sat out least — with ByePoints, and over five
// rounds everyone sits out once.
func TestByes(t *testing.T) {
	c := mustNew(t, Config{Game: "g", Sizes: [2]int{2, 2}, Rounds: 5, Seed: 3}, people(5))
	r := rand.New(rand.NewPCG(3, 3))
	seen := map[string]int{}
	for !c.Done() {
		before := c.Standings()
		rd, err := c.Pair()
		if err != nil {
			t.Fatal(err)
		}
		if rd.Bye == "" || len(rd.Tables) != 2 {
			t.Fatalf("round %d: %+v, want two tables and a bye", rd.No, rd)
		}
		fewest := 5
		for _, s := range before {
			fewest = min(fewest, s.Byes)
		}
		for i := len(before) - 1; i >= 0; i-- { // the lowest ranked of those with fewest byes
			if before[i].Byes == fewest {
				if rd.Bye != before[i].Person.ID {
					t.Errorf("round %d: bye for %s, want %s (standings %+v)", rd.No, rd.Bye, before[i].Person.ID, before)
				}
				break
			}
		}
		seen[rd.Bye]++
		for i, tb := range rd.Tables {
			if err := c.Record(rd.No, i+1, randomPlaces(r, len(tb.Seats))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, s := range c.Standings() {
		if seen[s.Person.ID] != 1 || s.Byes != 1 {
			t.Errorf("%s sat out %d times (standing says %d), want once", s.Person.ID, seen[s.Person.ID], s.Byes)
		}
	}
	// A bye is worth ByePoints: a person with a bye and nothing else.
	one := mustNew(t, Config{Game: "g", Sizes: [2]int{2, 2}, Rounds: 1, Seed: 3}, people(3))
	rd, _ := one.Pair()
	if err := one.Record(1, 1, []Place{{1, 5}, {2, 1}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range one.Standings() {
		if s.Person.ID == rd.Bye && (s.Points != ByePoints || s.Games != 0 || s.Byes != 1) {
			t.Errorf("the bye's standing %+v, want %d points, no game, one bye", s, ByePoints)
		}
	}
}

// TestRobotsFill: four people at a game of 3–4 play at two tables of two
// people and a robot; robots are in no standings.
func TestRobotsFill(t *testing.T) {
	c := mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 3, Seed: 9, Robots: "pro"}, people(4))
	playRandomly(t, c, rand.New(rand.NewPCG(9, 9)))
	for _, r := range c.Played {
		for _, tb := range r.Tables {
			if len(tb.Seats) != 3 || slices.Index(tb.Seats, Robot) < 0 || countRobots(tb.Seats) != 1 {
				t.Errorf("round %d: seats %q, want two people and a robot", r.No, tb.Seats)
			}
		}
	}
	if rep, pairs := repeatShare(c); rep != 0 || pairs != 6 {
		t.Errorf("%d of %d pairs met twice; want everyone to meet everyone once", rep, pairs)
	}
	if st := c.Standings(); len(st) != 4 {
		t.Errorf("standings %+v, want the four people only", st)
	}
}

func countRobots(seats []string) int {
	n := 0
	for _, s := range seats {
		if s == Robot {
			n++
		}
	}
	return n
}

func BenchmarkPair(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	// A cup after two rounds of random results: Pair seats the third.
	base := mustNew(b, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 3, Seed: 5}, people(16))
	for range 2 {
		rd, _ := base.Pair()
		for i, tb := range rd.Tables {
			if err := base.Record(rd.No, i+1, randomPlaces(r, len(tb.Seats))); err != nil {
				b.Fatal(err)
			}
		}
	}
	played := base.Played
	b.ReportAllocs()
	for b.Loop() {
		base.Played = played[:2:2]
		if _, err := base.Pair(); err != nil {
			b.Fatal(err)
		}
	}
}
