package cup

import (
	"cmp"
	"hash/fnv"
	"slices"
)

// Cup points. A table's winner gets FirstPoints, its last 0, the places
// between evenly spaced, whatever the table's size: BGA's +6/+4/+2/0 at a
// table of four, +6/+3/0 at three, +6/+4.5/+3/+1.5/0 at five. Tables of a
// round may differ by a seat, and a fixed step (BGA's 2 a place) would give
// a table of four's winner more than a table of three's; here a seat is
// worth 3 on average at any table. People sharing places share their
// points: 2nd–3rd of four get (4+2)/2 = 3 each. Robots take places like
// anyone (beating a robot is worth what beating a person is) but are no
// entrants: they have no points and are not in the standings.
const (
	FirstPoints = 6
	// ByePoints are a bye's: an average seat's, FirstPoints/2. A bye is
	// nobody's fault and should neither lift nor sink the person who sits
	// out (Lichess and BGA give a win; there the bye goes to the lowest
	// ranked, where a win matters least, but it still moves them up).
	ByePoints = FirstPoints / 2
)

// unit is the denominator of the exact arithmetic: 720720 = lcm(1..16), so
// the points of any place at a table of up to MaxSeats seats, shared or
// not, and a table's mean score are whole units. Comparisons never see a
// rounded float.
const unit = 720720

// placeUnits are the cup points of each seat of a recorded table, in units:
// a place p shared by k of n seats earns the mean of places p…p+k−1,
// FirstPoints·(n − p − (k−1)/2)/(n−1).
func placeUnits(places []Place) []int64 {
	n := int64(len(places))
	out := make([]int64, len(places))
	for i, p := range places {
		k := int64(0)
		for _, o := range places {
			if o.Place == p.Place {
				k++
			}
		}
		out[i] = FirstPoints / 2 * unit * (2*n - 2*int64(p.Place) - k + 1) / (n - 1)
	}
	return out
}

// TablePoints are the cup points each seat of a table earns by places (in
// seat order), for showing a table's result.
func TablePoints(places []Place) []float64 {
	out := make([]float64, len(places))
	if len(places) < 2 || len(places) > MaxSeats {
		return out
	}
	for i, u := range placeUnits(places) {
		out[i] = float64(u) / unit
	}
	return out
}

// Standing is one person's line in the cup's standings.
type Standing struct {
	// Place is 1 for the best. People equal on points, opponents and
	// scores share a place: the lot orders their lines and their pairing,
	// never a trophy.
	Place  int
	Person Person
	Points float64 // cup points
	// Opponents is the mean cup points of the people they sat with, each
	// table-mate once per table (Buchholz, as a mean: tables differ in size
	// and in robots).
	Opponents float64
	// Scores is the sum, over their tables, of their game score minus the
	// table's mean score.
	Scores float64
	Games  int // tables recorded
	Byes   int
	Left   bool
}

// tally is a person's standing in exact units.
type tally struct {
	person       int // index in Cup.People
	points       int64
	oppSum, oppN int64
	scores       int64
	games, byes  int
	lot          uint64
	left         bool
}

// tallies sums the recorded rounds, one tally per entrant (in People order).
func (c *Cup) tallies() []tally {
	ts := make([]tally, len(c.People))
	idx := make(map[string]int, len(c.People))
	for i, p := range c.People {
		idx[p.ID] = i
		ts[i] = tally{person: i, lot: lot(c.Config.Seed, p.ID), left: p.Left}
	}
	for _, r := range c.Played {
		if r.Bye != "" {
			t := &ts[idx[r.Bye]]
			t.points += ByePoints * unit
			t.byes++
		}
		for _, tb := range r.Tables {
			if tb.Places == nil {
				continue
			}
			pts := placeUnits(tb.Places)
			n, sum := int64(len(tb.Places)), int64(0)
			for _, p := range tb.Places {
				sum += int64(p.Score)
			}
			for i, s := range tb.Seats {
				if s == Robot {
					continue
				}
				t := &ts[idx[s]]
				t.points += pts[i]
				t.games++
				t.scores += (n*int64(tb.Places[i].Score) - sum) * (unit / n)
			}
		}
	}
	// Opponents' points are their totals, so a second pass.
	for _, r := range c.Played {
		for _, tb := range r.Tables {
			if tb.Places == nil {
				continue
			}
			for _, a := range tb.Seats {
				for _, b := range tb.Seats {
					if a == Robot || b == Robot || a == b {
						continue
					}
					ts[idx[a]].oppSum += ts[idx[b]].points
					ts[idx[a]].oppN++
				}
			}
		}
	}
	return ts
}

// measure compares what places people: points, then opponents' mean
// points, then relative scores; 0 when all three are equal.
func measure(a, b *tally) int {
	if c := cmp.Compare(b.points, a.points); c != 0 {
		return c
	}
	// a.oppSum/a.oppN against b's, cross-multiplied (a mean of none is 0).
	an, bn := max(a.oppN, 1), max(b.oppN, 1)
	if c := cmp.Compare(b.oppSum*an, a.oppSum*bn); c != 0 {
		return c
	}
	return cmp.Compare(b.scores, a.scores)
}

// rank orders tallies best first: measure, then the lot, then (should two
// lots ever collide) the id.
func (c *Cup) rank(ts []tally) {
	slices.SortFunc(ts, func(a, b tally) int {
		if m := measure(&a, &b); m != 0 {
			return m
		}
		if l := cmp.Compare(a.lot, b.lot); l != 0 {
			return l
		}
		return cmp.Compare(c.People[a.person].ID, c.People[b.person].ID)
	})
}

// Standings are everyone's lines, best first: people still in and those
// who left alike (Left marks them); robots are not entrants.
func (c *Cup) Standings() []Standing {
	ts := c.tallies()
	c.rank(ts)
	out := make([]Standing, len(ts))
	for i := range ts {
		t := &ts[i]
		place := i + 1
		if i > 0 && measure(&ts[i-1], t) == 0 {
			place = out[i-1].Place
		}
		opp := 0.0
		if t.oppN > 0 {
			opp = float64(t.oppSum) / float64(t.oppN) / unit
		}
		out[i] = Standing{
			Place:     place,
			Person:    c.People[t.person].Person,
			Points:    float64(t.points) / unit,
			Opponents: opp,
			Scores:    float64(t.scores) / unit,
			Games:     t.games,
			Byes:      t.byes,
			Left:      t.left,
		}
	}
	return out
}

// Winners are the people sharing first place once the cup is over (nil
// before): several when they are equal on every measure. Nobody wins a cup
// they played no table of.
func (c *Cup) Winners() []Person {
	if !c.Done() {
		return nil
	}
	var out []Person
	for _, s := range c.Standings() {
		if s.Place == 1 && s.Games > 0 {
			out = append(out, s.Person)
		}
	}
	return out
}

// lot is a person's lot in the cup: drawn from the seed and their id, so it
// does not depend on the order people joined in.
func lot(seed uint64, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return mix(seed ^ h.Sum64())
}

// mix is splitmix64's finaliser: a well-spread function of x.
func mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}
