package cup

import "slices"

// Pairing. A round seats every person still in the cup at once:
//
//  1. The layout (Layout): how many tables and how many people at each.
//  2. A bye, when the layout leaves one person out.
//  3. Who sits where: a deterministic local search that starts from the
//     Swiss order (the best ranked together at the first table, the next at
//     the second…) and swaps people between tables while that lowers the
//     cost — first the repeats (each pair of table-mates who already
//     shared a table costs the square of how often they did), then the
//     spread (the sum, over pairs of table-mates, of the difference of their
//     cup points). Kicks (two random swaps, then the descent again) drawn
//     from the cup's seed get it out of local minima; a kick's seating is
//     kept when it is no worse than the best, so the search also walks
//     across equal seatings.
//  4. Tables are numbered best first (the table of the best ranked is
//     table 1); robots fill a table up to the game's fewest seats; the seat
//     order is shuffled by the seed.
//
// The same cup gives the same round, on any replica.

// kicks is the local search's restarts per round. Without them, of the
// pairs of 8 people who met over three rounds 2.7% met twice on average;
// with 32 no pair of the property test's cups did, the spread is as low as
// with 100, and 16 people pair in about 0.1 ms (BenchmarkPair).
const kicks = 32

// Pair seats the next round and returns it; the previous round's tables
// must all be recorded.
func (c *Cup) Pair() (Round, error) {
	if c.Done() {
		return Round{}, ErrDone
	}
	if r := c.last(); r != nil && !r.recorded() {
		return Round{}, ErrRoundOpen
	}
	no := len(c.Played) + 1
	rnd := &rng{x: mix(c.Config.Seed ^ mix(uint64(no)))}

	ts := c.tallies()
	c.rank(ts)
	var people []tally // those still in, best first
	for _, t := range ts {
		if !t.left {
			people = append(people, t)
		}
	}
	lo, hi := c.Config.Sizes[0], c.Config.Sizes[1]
	sizes, bye := Layout(len(people), c.Config.Rounds, lo, hi)

	round := Round{No: no}
	if bye {
		// The lowest ranked of those with the fewest byes: Swiss's rule,
		// so nobody sits out twice while another has not sat out once.
		b := len(people) - 1
		for i := len(people) - 1; i >= 0; i-- {
			if people[i].byes < people[b].byes {
				b = i
			}
		}
		round.Bye = c.People[people[b].person].ID
		people = append(people[:b], people[b+1:]...)
	}

	idx := make(map[string]int, len(people)) // person id → index in people
	for i, t := range people {
		idx[c.People[t.person].ID] = i
	}
	s := newSeating(people, sizes, c.meetings(idx))
	s.search(rnd)

	for _, members := range s.ordered() {
		seats := make([]string, 0, max(len(members), lo))
		for _, m := range members {
			seats = append(seats, c.People[people[m].person].ID)
		}
		for len(seats) < lo {
			seats = append(seats, Robot)
		}
		for i := len(seats) - 1; i > 0; i-- {
			j := rnd.intn(i + 1)
			seats[i], seats[j] = seats[j], seats[i]
		}
		round.Tables = append(round.Tables, Table{Seats: seats})
	}
	c.Played = append(c.Played, round)
	return round.clone(), nil
}

// Layout is how a round seats n people for a cup of rounds rounds at a game
// of lo–hi seats: the people at each table (largest first), and whether
// one of them sits the round out instead (a bye).
//
// The people are spread over ⌈n/s⌉ tables whose sizes differ by at most
// one, s the largest size in lo–hi that forces no repeat by counting alone:
//
//   - rounds·(s−1) ≤ n−1: nobody has to meet more table-mates over the cup
//     than there are others (8 people at tables of four for three rounds
//     would make 36 meetings of 28 pairs);
//   - no table holds more people than there are tables (unless the cup has
//     one round): the second round must seat each of the first round's
//     table-mates at a different table (12 people at three tables of four
//     cannot, so they play at four tables of three).
//
// When no size passes, s is lo: repeats cannot be avoided, and the smallest
// tables make the fewest. Robots fill a table below lo. Should that leave a person alone with robots (only
// with tables of two and an odd n), they join a table instead when the
// game takes three, and sit out (a bye) only when it does not.
func Layout(n, rounds, lo, hi int) (people []int, bye bool) {
	if n < 1 {
		return nil, false
	}
	s := lo
	for c := hi; c > lo; c-- {
		t := (n + c - 1) / c
		largest := (n + t - 1) / t
		if rounds*(c-1) <= n-1 && (rounds == 1 || largest <= t) {
			s = c
			break
		}
	}
	t := (n + s - 1) / s
	sizes := balanced(n, t)
	if t == 1 || sizes[t-1] > 1 {
		return sizes, false
	}
	if (n+t-2)/(t-1) <= hi {
		return balanced(n, t-1), false
	}
	return balanced(n-1, (n-1+s-1)/s), true
}

// balanced splits n into t sizes that differ by at most one, largest first.
func balanced(n, t int) []int {
	out := make([]int, t)
	for i := range out {
		out[i] = n / t
		if i < n%t {
			out[i]++
		}
	}
	return out
}

// meetings counts, for people indexed by idx, how many tables each pair
// shared in the rounds played.
func (c *Cup) meetings(idx map[string]int) [][]int {
	m := make([][]int, len(idx))
	for i := range m {
		m[i] = make([]int, len(idx))
	}
	var at []int
	for _, r := range c.Played {
		for _, t := range r.Tables {
			at = at[:0]
			for _, s := range t.Seats {
				if i, ok := idx[s]; ok {
					at = append(at, i)
				}
			}
			for _, i := range at {
				for _, j := range at {
					if i != j {
						m[i][j]++
					}
				}
			}
		}
	}
	return m
}

// cost is a seating's, compared repeats first.
type cost struct{ repeats, spread int64 }

func (a cost) less(b cost) bool {
	if a.repeats != b.repeats {
		return a.repeats < b.repeats
	}
	return a.spread < b.spread
}

func (a cost) add(b cost) cost { return cost{a.repeats + b.repeats, a.spread + b.spread} }
func (a cost) sub(b cost) cost { return cost{a.repeats - b.repeats, a.spread - b.spread} }

// seating is the local search's state: people 0…m−1 (best ranked first) at
// t tables of fixed sizes.
type seating struct {
	m, t    int
	pair    []cost  // m×m: what a pair costs at one table
	table   []int   // person → table
	members [][]int // table → people
	// at is m×t: what each person would cost with each table's people,
	// so a swap's change is read in constant time.
	at []cost
}

func newSeating(people []tally, sizes []int, met [][]int) *seating {
	m, t := len(people), len(sizes)
	s := &seating{m: m, t: t, pair: make([]cost, m*m), table: make([]int, m), members: make([][]int, t), at: make([]cost, m*t)}
	for a := range m {
		for b := range m {
			d := people[a].points - people[b].points
			s.pair[a*m+b] = cost{int64(met[a][b] * met[a][b]), max(d, -d)}
		}
	}
	next := 0 // the Swiss order: the best ranked fill the first table
	for i, n := range sizes {
		for range n {
			s.table[next] = i
			next++
		}
	}
	s.restore(slices.Clone(s.table))
	return s
}

func (s *seating) total() cost {
	var c cost
	for p, t := range s.table {
		c = c.add(s.at[p*s.t+t])
	}
	return cost{c.repeats / 2, c.spread / 2} // each pair counted from both ends
}

// delta is what swapping a and b (at different tables) changes.
func (s *seating) delta(a, b int) cost {
	x, y := s.table[a], s.table[b]
	d := s.at[b*s.t+x].sub(s.at[a*s.t+x]).add(s.at[a*s.t+y]).sub(s.at[b*s.t+y])
	ab := s.pair[a*s.m+b]
	return d.sub(ab).sub(ab)
}

func (s *seating) swap(a, b int) {
	x, y := s.table[a], s.table[b]
	for p := range s.m {
		d := s.pair[p*s.m+b].sub(s.pair[p*s.m+a])
		s.at[p*s.t+x] = s.at[p*s.t+x].add(d)
		s.at[p*s.t+y] = s.at[p*s.t+y].sub(d)
	}
	s.members[x][slices.Index(s.members[x], a)] = b
	s.members[y][slices.Index(s.members[y], b)] = a
	s.table[a], s.table[b] = y, x
}

// descend makes the best swap while one lowers the cost.
func (s *seating) descend() {
	for {
		var best cost
		ba, bb := -1, -1
		for a := range s.m {
			for b := a + 1; b < s.m; b++ {
				if s.table[a] == s.table[b] {
					continue
				}
				if d := s.delta(a, b); d.less(best) {
					best, ba, bb = d, a, b
				}
			}
		}
		if ba < 0 {
			return
		}
		s.swap(ba, bb)
	}
}

// search descends from the Swiss order, then kicks: from the best seating
// seen, two random swaps and the descent again, keeping the result when it
// is no worse (so it can walk across equal seatings).
func (s *seating) search(r *rng) {
	s.descend()
	if s.t < 2 {
		return
	}
	best, bestCost := slices.Clone(s.table), s.total()
	for range kicks {
		if bestCost == (cost{}) {
			break
		}
		s.restore(best)
		for range 2 {
			a := r.intn(s.m)
			b := r.intn(s.m - 1)
			if b >= a {
				b++
			}
			if s.table[a] != s.table[b] {
				s.swap(a, b)
			}
		}
		s.descend()
		if c := s.total(); !bestCost.less(c) {
			best, bestCost = slices.Clone(s.table), c
		}
	}
	s.restore(best)
}

// restore seats people as table (person → table) says, each table's people
// in rank order.
func (s *seating) restore(table []int) {
	copy(s.table, table)
	for t := range s.members {
		s.members[t] = s.members[t][:0]
	}
	for p, t := range s.table {
		s.members[t] = append(s.members[t], p)
	}
	clear(s.at)
	for p := range s.m {
		for q, t := range s.table {
			s.at[p*s.t+t] = s.at[p*s.t+t].add(s.pair[p*s.m+q])
		}
	}
}

// ordered are the tables' people, each best ranked first, the table of the
// best ranked first.
func (s *seating) ordered() [][]int {
	s.restore(slices.Clone(s.table))
	out := slices.Clone(s.members)
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

// rng is a splitmix64 stream: small, and the same everywhere and in every
// Go version, unlike math/rand's helpers.
type rng struct{ x uint64 }

func (r *rng) next() uint64 {
	r.x++
	return mix(r.x)
}

// intn is in [0, n); the modulo's bias is below 2⁻⁵⁹ for n ≤ 16.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }
