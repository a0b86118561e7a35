package chekharda

import (
	"slices"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Level is a robot's strength.
type Level string

const (
	// Novice («Новичок»): a random legal action, and now and then none
	// (it waits).
	Novice Level = "novice"
	// Cook («Повар»): goes out when it can, steals the biggest set it can
	// (from the leader on a tie), else adds to its own sets; it never goes
	// out when that would end the game with someone else winning, if it
	// can wait for a deal instead.
	Cook Level = "cook"
	// Shef («Шеф»): plays last. A set never leaves the table, so a single
	// card keeps its target however long one waits, and in a fight over a
	// set whoever steals last keeps it. So Shef holds its cards back while
	// nothing presses and strikes when the round may end any moment (an
	// opponent holds a single card), when it can empty its whole hand, or
	// when no deal will come (deck empty, or the variant). It then plays
	// its moves best first, weighing each by what the opponents can steal
	// back: the copies of that kind still unseen (not on the table, not in
	// its hand) against the cards hidden in their hands and the deck, and
	// preferring points taken from the leader. Like Cook it never goes out
	// into someone else's win while it can wait.
	Shef Level = "shef"
)

// Levels lists the levels, weakest first.
func Levels() []Level { return []Level{Novice, Cook, Shef} }

// Reaction times per level: how long after a change at the table a robot
// of that level acts. They bracket human speed. Novice is slower than the
// QuietPause, so the dealer deals before it moves and it almost never wins
// a race, but one reaction in noviceQuick/100 is as quick as Cook's, so
// now and then it beats a Cook (and a Cook, a little slower than Shef,
// now and then beats a Shef); the arena counts these races (docs/ai.md).
const (
	noviceMin, noviceMax = 3200 * time.Millisecond, 5000 * time.Millisecond
	noviceQuick          = 10 // % of Novice's reactions drawn from Cook's range
	cookMin, cookMax     = 1400 * time.Millisecond, 3000 * time.Millisecond
	shefMin, shefMax     = 1000 * time.Millisecond, 2400 * time.Millisecond
)

// ReactionRange is the span of a level's reaction times (an unknown level
// reacts like Cook). Novice's spans its quick reactions too.
func ReactionRange(level Level) (lo, hi time.Duration) {
	switch level {
	case Novice:
		return cookMin, noviceMax
	case Shef:
		return shefMin, shefMax
	}
	return cookMin, cookMax
}

// ReactionTime is a reaction time for level drawn from seed: pure (the
// same seed gives the same time), within ReactionRange, most often near
// the middle of the level's range (the mean of two uniform draws); a
// Novice's quick reactions are drawn like Cook's.
func ReactionTime(level Level, seed uint64) time.Duration {
	lo, hi := ReactionRange(level)
	r := rng(seed ^ 0x7ea5c0de)
	if level == Novice {
		lo = noviceMin
		if r.Below(100) < noviceQuick {
			lo, hi = cookMin, cookMax
		}
	}
	u := (r.Float64() + r.Float64()) / 2
	return lo + time.Duration(u*float64(hi-lo))
}

// Tuned with the real-time simulation of ai_test.go and the arena (see
// docs/chekharda.md).
const (
	noviceWait   = 35  // % of decisions Novice lets pass
	shefExposure = 1.0 // weight of the expected loss of an exposed set
	shefLeader   = 1.0 // weight of the points a steal takes from the leader
	shefOther    = 0.3 // ... from anyone else
	shefUrgent   = 1   // an opponent with this many cards or fewer may go out any moment
)

// Decide returns the action a robot of that level takes now for the seat
// of v, or false to wait (nothing worth doing, or nothing legal). It reads
// only v, so it never cheats; the action is always one of v.Legal, and the
// same view and seed give the same answer. An unknown level plays like
// Cook.
func Decide(level Level, v SeatView, seed uint64) (game.Action, bool) {
	if len(v.Legal) == 0 || v.Phase != PhasePlay || v.Seat < 0 || int(v.Seat) >= min(len(v.Seats), MaxPlayers) {
		return -1, false
	}
	r := aiRand(&v, seed)
	var a game.Action
	var ok bool
	switch level {
	case Novice:
		if r.Below(100) < noviceWait {
			return -1, false
		}
		a, ok = v.Legal[r.Below(len(v.Legal))], true
	case Shef:
		a, ok = shef(newLook(&v))
	default:
		a, ok = cook(newLook(&v))
	}
	if ok && !slices.Contains(v.Legal, a) {
		// Cannot happen with a view the engine made; a hand-built view
		// still gets a legal answer.
		a = v.Legal[0]
	}
	return a, ok
}

// aiRand seeds a generator from the seed and the situation.
func aiRand(v *SeatView, seed uint64) rng {
	h := seed ^ 0xc4e4a2da
	for _, x := range []int{int(v.Seat), v.Seq, v.Round, v.Deck, len(v.Legal)} {
		h = (h ^ uint64(x)) * 0x100000001b3
	}
	r := rng(h)
	r.Next()
	return r
}

// look is a robot's reading of its view.
type look struct {
	v      *SeatView
	n, me  int
	set    [MaxPlayers][kindSlots]int
	hand   [MaxPlayers]int
	sets   [MaxPlayers]int // cards in sets per seat
	total  [MaxPlayers]int
	table  [kindSlots]int // cards of each kind in sets
	mine   [kindSlots]bool
	hidden int // cards this seat cannot see: opponents' hands and the deck
	oppH   int // cards in the opponents' hands
}

func newLook(v *SeatView) *look {
	l := &look{v: v, n: min(len(v.Seats), MaxPlayers), me: int(v.Seat)}
	for i := 0; i < l.n; i++ {
		s := &v.Seats[i]
		l.hand[i], l.total[i] = s.Hand, s.Total
		for _, x := range s.Sets {
			if x.Kind.Valid() {
				l.set[i][x.Kind] = x.Size
				l.table[x.Kind] += x.Size
				l.sets[i] += x.Size
			}
		}
		if i != l.me {
			l.oppH += s.Hand
		}
	}
	for _, k := range v.Hand {
		if k.Valid() {
			l.mine[k] = true
		}
	}
	l.hidden = l.oppH + v.Deck
	return l
}

// canWait reports whether waiting is safe: the dealer will deal, so the
// table cannot stall.
func (l *look) canWait() bool { return !l.v.DrawForSelf && l.v.Deck > 0 }

// gameEnd tells what happens if this seat goes out now with move m: +1 the
// game ends and it wins (or shares), -1 the game ends and someone else
// wins, 0 the game goes on.
func (l *look) gameEnd(m Move) int {
	best, mine := -1, 0
	for i := 0; i < l.n; i++ {
		sets, hand := l.sets[i], l.hand[i]
		switch {
		case i == l.me:
			sets, hand = sets+1, 0
			if m.Type == MoveSteal {
				sets += l.set[m.Victim][m.Kind]
			}
		case m.Type == MoveSteal && i == int(m.Victim):
			sets -= l.set[i][m.Kind]
		}
		t := l.total[i] + roundScore(sets, hand, i == l.me)
		if i == l.me {
			mine = t
		}
		best = max(best, t)
	}
	switch {
	case best < l.v.Target:
		return 0
	case mine == best:
		return 1
	}
	return -1
}

// leader is the opponent with the highest total plus current round score.
func (l *look) leader() int {
	best, who := -1<<30, -1
	for i := 0; i < l.n; i++ {
		if i == l.me {
			continue
		}
		if s := l.total[i] + l.sets[i] - l.hand[i]; s > best {
			best, who = s, i
		}
	}
	return who
}

// goingOut handles the last card: every steal or add empties the hand.
// It returns the move to make (the best of the others), or wait, or
// neither (decide as usual).
func (l *look) goingOut(moves []Move, pick func([]Move) Move) (Move, bool, bool) {
	if l.hand[l.me] != 1 {
		return Move{}, false, false
	}
	var out []Move
	for _, m := range moves {
		if m.Type == MoveSteal || m.Type == MoveAdd {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return Move{}, false, false
	}
	var win, neutral []Move
	for _, m := range out {
		switch l.gameEnd(m) {
		case 1:
			win = append(win, m)
		case 0:
			neutral = append(neutral, m)
		}
	}
	switch {
	case len(win) > 0:
		return pick(win), true, true
	case len(neutral) > 0:
		return pick(neutral), true, true
	case l.canWait():
		return Move{}, false, true // going out would hand someone else the game
	}
	return pick(out), true, true
}

func decodeAll(legal []game.Action) []Move {
	out := make([]Move, 0, len(legal))
	for _, a := range legal {
		if m, ok := Decode(a); ok {
			out = append(out, m)
		}
	}
	return out
}

// cookPick: the biggest steal (from the leader on a tie, then the higher
// total), else an add to the biggest own set, else whatever is left.
func (l *look) cookPick(moves []Move) Move {
	lead := l.leader()
	best, bestV := moves[0], -1<<30
	for _, m := range moves {
		v := 0
		switch m.Type {
		case MoveSteal:
			v = 1000 + 10*l.set[m.Victim][m.Kind]
			if int(m.Victim) == lead {
				v += 5
			}
		case MoveAdd:
			v = 100 + l.set[l.me][m.Kind]
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

func cook(l *look) (game.Action, bool) {
	moves := decodeAll(l.v.Legal)
	if m, act, done := l.goingOut(moves, l.cookPick); done {
		return m.Action(), act
	}
	return l.cookPick(moves).Action(), true
}

// takeBack is the chance that some opponent holds one of the u unseen
// copies of a kind: 1 − P(all u are in the deck), drawing without
// replacement from the hidden cards.
func (l *look) takeBack(u int) float64 {
	if u <= 0 || l.oppH == 0 {
		return 0
	}
	none := 1.0
	d, h := l.v.Deck, l.hidden
	for i := 0; i < u; i++ {
		if d-i <= 0 || h-i <= 0 {
			return 1
		}
		none *= float64(d-i) / float64(h-i)
	}
	return 1 - none
}

// unseen is the number of copies of k this seat cannot see, once the
// card it holds of k (if any) is on the table.
func (l *look) unseen(k Kind) int {
	u := CopiesPerKind - l.table[k]
	if l.mine[k] {
		u--
	}
	return u
}

// shefValue is the worth of a move: the points it brings (a steal also
// those it takes from the victim), minus the expected loss of the set it
// leaves exposed.
func (l *look) shefValue(m Move, lead int) float64 {
	switch m.Type {
	case MoveSteal:
		k, took := m.Kind, l.set[m.Victim][m.Kind]
		after := l.set[l.me][k] + took + 1
		w := shefOther
		if int(m.Victim) == lead {
			w = shefLeader
		}
		return float64(took+2) + w*float64(took) - shefExposure*l.takeBack(l.unseen(k))*float64(after)
	case MoveAdd:
		return 2 - shefExposure*l.takeBack(l.unseen(m.Kind))
	}
	return 0 // a draw: the only move of a stuck seat
}

func (l *look) shefPick(moves []Move) Move {
	lead := l.leader()
	best, bestV := moves[0], -1e9
	for _, m := range moves {
		if v := l.shefValue(m, lead); v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

func shef(l *look) (game.Action, bool) {
	moves := decodeAll(l.v.Legal)
	if m, act, done := l.goingOut(moves, l.shefPick); done {
		return m.Action(), act
	}
	if l.canWait() && !l.urgent() && l.playable() < l.hand[l.me] {
		return -1, false
	}
	return l.shefPick(moves).Action(), true
}

// urgent reports that an opponent may go out any moment: cards still in
// hand would then cost a point each, and the sets not taken are lost.
func (l *look) urgent() bool {
	for i := 0; i < l.n; i++ {
		if i != l.me && l.hand[i] <= shefUrgent {
			return true
		}
	}
	return false
}

// playable counts the cards in hand this seat could play now (each kind
// is held at most once).
func (l *look) playable() int {
	var kinds [kindSlots]bool
	c := 0
	for _, a := range l.v.Legal {
		if m, ok := Decode(a); ok && m.Kind.Valid() && !kinds[m.Kind] {
			kinds[m.Kind] = true
			c++
		}
	}
	return c
}
