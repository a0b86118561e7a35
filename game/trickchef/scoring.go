package trickchef

import (
	"math/bits"

	"github.com/trickchef/trickchef/game"
)

// covered returns the won cards of suit s that chefs cover: always starting
// from the lowest value; spare chefs are lost.
func covered(won cardSet, s Suit, chefs int) cardSet {
	m := won.ofSuit(s)
	var out cardSet
	for ; m != 0 && chefs > 0; chefs-- {
		low := m & -m
		out |= low
		m &^= low
	}
	return out
}

// starsOf sums the stars of a card set.
func starsOf(m cardSet) int {
	n := 0
	for x := uint64(m); x != 0; x &= x - 1 {
		n += stars(int(bits.TrailingZeros64(x))%MaxValue + 1)
	}
	return n
}

// SuitScore returns the stars a won pile scores in suit s with the given
// number of chefs of that suit. Exposed for AIs (what is a chef or a card
// worth to me).
func SuitScore(won []Card, s Suit, chefs int) int {
	var m cardSet
	for _, c := range won {
		if c.Valid() {
			m |= 1 << c.index()
		}
	}
	return starsOf(covered(m, s, chefs))
}

// roundRecord is what a finished round leaves behind: enough to recompute
// and show its scoring.
type roundRecord struct {
	first uint8
	won   [4]cardSet
	chefs [4][NumSuits]uint8
	coins [4]uint8
}

// score is seat's points for the round: stars under chefs plus 1 per coin.
func (r *roundRecord) score(seat int) int { return r.stars(seat) + int(r.coins[seat]) }

// stars is the stars seat's chefs sit on at the round's end.
func (r *roundRecord) stars(seat int) int {
	n := 0
	for s := Suit(0); s < NumSuits; s++ {
		n += starsOf(covered(r.won[seat], s, int(r.chefs[seat][s])))
	}
	return n
}

// totals sums the scores of the first n finished rounds per seat.
func (st *State) totals() (t [4]int) {
	for r := 0; r < st.finishedRounds(); r++ {
		for i := 0; i < int(st.players); i++ {
			t[i] += st.results[r].score(i)
		}
	}
	return t
}

// finishedRounds is how many rounds have been scored.
func (st *State) finishedRounds() int {
	if st.phase == PhaseOver {
		return 3
	}
	return int(st.round) - 1
}

// TieBreak says what decided the winner of a finished game.
type TieBreak uint8

const (
	TieNone   TieBreak = iota // a single highest total
	TieRound3                 // tied totals, decided by the round-3 score
	TieShared                 // still tied after round 3: shared win
)

// String names the tie-break.
func (t TieBreak) String() string {
	switch t {
	case TieNone:
		return "none"
	case TieRound3:
		return "round3"
	case TieShared:
		return "shared"
	}
	return "?"
}

// finalResult ranks a finished game: the highest total wins; a tie goes to
// the highest round-3 score; still tied is a shared win.
func (st *State) finalResult() (scores []int, winners []game.Seat, tb TieBreak) {
	t := st.totals()
	n := int(st.players)
	scores = make([]int, n)
	best := -1 << 31
	for i := 0; i < n; i++ {
		scores[i] = t[i]
		best = max(best, t[i])
	}
	var tied []int
	for i := 0; i < n; i++ {
		if t[i] == best {
			tied = append(tied, i)
		}
	}
	if len(tied) == 1 {
		return scores, []game.Seat{game.Seat(tied[0])}, TieNone
	}
	r3 := &st.results[2]
	bestR3 := -1 << 31
	for _, i := range tied {
		bestR3 = max(bestR3, r3.score(i))
	}
	for _, i := range tied {
		if r3.score(i) == bestR3 {
			winners = append(winners, game.Seat(i))
		}
	}
	if len(winners) == 1 {
		return scores, winners, TieRound3
	}
	return scores, winners, TieShared
}
