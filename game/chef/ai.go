package chef

import (
	"math"
	"slices"

	"github.com/trickchef/trickchef/game"
)

// Level is a robot player's strength.
type Level string

const (
	// Novice («Новичок») plays Cook's action, but a fraction noviceSlip of
	// the time a uniformly random legal one instead.
	Novice Level = "novice"
	// Cook («Повар») plays sensible heuristics: take the Addition when it
	// wins, announce at once, redraw a Chef on a complete menu, hit a next
	// player close to finishing with the strongest card it holds, take a
	// dish it lacks, steal one with a Chef, discard duplicates (a copy the
	// next player cannot use), play a drawn action card at once but keep a
	// Chef that finds nothing it lacks, shed the rest once it has all six
	// colours, and make a victim lose colours it holds once and that are
	// scarce.
	Cook Level = "cook"
	// Shef («Шеф») searches (ai_search.go): flat Monte Carlo over sampled
	// orders of the pile, the only hidden thing, every legal action played
	// out by Cook at every seat in the same sampled worlds, the better half
	// kept round after round. The number of playouts is fixed (Budget), so
	// a decision is deterministic for a seed.
	Shef Level = "shef"
)

// noviceSlip is how often Novice plays a uniformly random legal action
// instead of Cook's.
const noviceSlip = 1.0 / 3

// Decide returns the action level chooses for the seat v belongs to, or -1
// if the seat has nothing to do (v.Legal is empty). It reads only v (which
// holds everything public; the pile's order is the only secret and is
// sampled), always returns one of v.Legal, and is deterministic for a seed.
// An unknown level plays like Cook. Shef searches with DefaultPlayouts;
// DecideBudget sets another budget or a wall-clock cap.
func Decide(level Level, v SeatView, seed uint64) game.Action {
	return decide(level, v, seed, Budget{})
}

func decide(level Level, v SeatView, seed uint64, b Budget) game.Action {
	return decideWhy(level, v, seed, b, nil)
}

// decideWhy is decide that also fills ev, if given, with Shef's evidence.
func decideWhy(level Level, v SeatView, seed uint64, b Budget, ev *Advice) game.Action {
	if len(v.Legal) == 0 {
		return -1
	}
	r := aiRand(&v, seed)
	if level == Novice {
		// A generator of its own, so that when it does not slip the novice
		// decides exactly as Cook does.
		s := r ^ 0x6e6f76696365
		if s.Float64() < noviceSlip {
			return v.Legal[s.Below(len(v.Legal))]
		}
	}
	st, ok := fromView(&v, &r)
	var a game.Action = -1
	if ok {
		if level == Shef {
			a = search(&st, &r, b, ev)
		} else {
			a = cookMove(&st)
		}
	}
	if !slices.Contains(v.Legal, a) {
		// Only for a hand-built or inconsistent view.
		return v.Legal[0]
	}
	return a
}

// aiRand seeds a generator from the seed and the situation, so decisions
// differ between situations but repeat for the same view.
func aiRand(v *SeatView, seed uint64) rng {
	h := seed ^ 0x63686566c0ffee
	last := 0
	if len(v.Events) > 0 {
		last = v.Events[len(v.Events)-1].Seq
	}
	for _, x := range []int{int(v.Seat), v.TurnNumber, int(v.Step), v.Pile, len(v.Discard), last} {
		h = (h ^ uint64(x)) * 0x100000001b3
	}
	r := rng(h)
	r.Next()
	return r
}

// fromView rebuilds a state from a view, the pile in an order drawn from
// r; false if the view is not one the engine could have made for a seat
// to act.
func fromView(v *SeatView, r *rng) (State, bool) {
	var st State
	n := v.Players
	if n < MinPlayers || n > MaxPlayers || len(v.Seats) != n || v.Step == StepOver || v.Turn < 0 || int(v.Turn) >= n ||
		v.Seat != v.Turn || v.Rebuilds < 0 || v.Rebuilds > MaxRebuilds || len(v.Discard) > DeckSize || v.TurnNumber < 1 {
		return st, false
	}
	st.players, st.auto, st.ccw, st.step, st.drawn = uint8(n), v.AutoAnnounce, !v.Clockwise, v.Step, v.Drawn
	st.turn, st.turnNo, st.rebuilds, st.rng = uint8(v.Turn), uint32(v.TurnNumber), uint8(v.Rebuilds), rng(r.Next())
	for c := Starter; c <= Addition; c++ {
		k := v.PileCards[c]
		if k < 0 || int(st.npile)+k > DeckSize || v.Removed[c] < 0 || v.Removed[c] > 15 {
			return st, false
		}
		for ; k > 0; k-- {
			st.pile[st.npile] = c
			st.npile++
		}
		st.removed[c] = uint8(v.Removed[c])
	}
	st.shuffle(st.pile[:st.npile])
	for _, c := range v.Discard {
		if !c.Valid() {
			return st, false
		}
		st.pushDisc(c)
	}
	for i := range v.Seats {
		p := &v.Seats[i]
		s := &st.seats[i]
		for c := Starter; c <= Addition; c++ {
			if p.Cards[c] < 0 || p.Cards[c] > 15 {
				return st, false
			}
			s.n[c] = uint8(p.Cards[c])
		}
		if p.Announced {
			s.flags |= flagAnnounced
		}
		if p.Skipped {
			s.flags |= flagSkipped
		}
	}
	return st, st.validate() == nil
}

// ---- Cook ----

// cookMove is Cook's action for the seat to act in st (a legal one).
func cookMove(st *State) game.Action {
	me := &st.seats[st.turn]
	vs := st.nextOf(st.turn)
	v := &st.seats[vs]
	if st.step == StepDrawn {
		switch {
		case st.canRedraw(me):
			return actRedraw
		case st.canAnnounce(me):
			return actAnnounce
		}
		// A drawn action card is played at once (later it would cost a
		// turn), but for a Chef that finds nothing we lack on a victim
		// that is not close to finishing: that one is kept for later.
		if c := st.drawn; c.IsAction() && !(c == ChefCard && !dangerous(v) && me.colours() < NumColours && !hasLacked(me, v)) {
			if a := playAt(st, c, me, vs); a >= 0 {
				return a
			}
		}
		if d := bestDuplicate(st, me, 2); d != NoCard {
			return DiscardAction(d)
		}
		return actEnd
	}
	top := st.discTop()
	switch {
	case top == Addition && st.canTake(me):
		return actTake
	case st.canAnnounce(me):
		return actAnnounce
	case me.complete():
		return actDraw // announced (or automatic): only the Addition is missing
	}
	if dangerous(v) {
		// Hit the next player before it wins.
		for _, c := range [...]Card{Hangover, Diet, ChefCard, EmptyPlate, BlankMenu} {
			if me.n[c] > 0 && (c != BlankMenu || st.players > 2) {
				if a := playAt(st, c, me, vs); a >= 0 {
					return a
				}
			}
		}
	}
	if st.canTake(me) {
		return actTake
	}
	if me.n[ChefCard] > 0 && hasLacked(me, v) {
		return playAt(st, ChefCard, me, vs)
	}
	if me.colours() == NumColours {
		// All colours: shed the surplus, action cards first (they cannot be
		// discarded after a draw).
		for _, c := range [...]Card{Hangover, Diet, ChefCard, EmptyPlate, BlankMenu} {
			if me.n[c] > 0 {
				if a := playAt(st, c, me, vs); a >= 0 {
					return a
				}
			}
		}
		if d := bestDuplicate(st, me, 2); d != NoCard {
			return DiscardAction(d)
		}
	}
	return actDraw
}

// hasLacked reports whether v has a dish of a colour me lacks.
func hasLacked(me, v *seat) bool {
	for d := Starter; d <= Drink; d++ {
		if me.n[d] == 0 && v.n[d] > 0 {
			return true
		}
	}
	return false
}

// dangerous reports whether seat s is close to winning.
func dangerous(s *seat) bool {
	c, sp := s.colours(), s.surplus()
	return s.complete() || c == NumColours && sp <= 2 || c == NumColours-1 && sp == 0
}

// playAt returns the action playing card c (in front of me) at the next
// seat vs with Cook's choice of dishes, or -1 if it cannot be played.
func playAt(st *State, c Card, me *seat, vs uint8) game.Action {
	v := &st.seats[vs]
	after := &st.seats[st.nextOf(vs)] // plays right after the victim's skip
	switch c {
	case EmptyPlate:
		return actEmptyPlate
	case BlankMenu:
		return actBlankMenu
	case Diet:
		if v.dishes() < 1 {
			return -1
		}
		d, _ := victimDishes(st, v, after, 1)
		return PlayAction(Diet, d, NoCard)
	case Hangover:
		if v.dishes() < 2 {
			return -1
		}
		d1, d2 := victimDishes(st, v, after, 2)
		return PlayAction(Hangover, d1, d2)
	case ChefCard:
		if v.dishes() < 1 {
			return -1
		}
		best, bestScore := NoCard, math.MinInt
		for d := Starter; d <= Drink; d++ {
			if v.n[d] == 0 {
				continue
			}
			sc := 0
			if me.n[d] == 0 {
				sc += 100 // a colour we lack
			}
			if v.n[d] == 1 {
				sc += 10 // breaks a colour of theirs
			}
			if sc > bestScore {
				best, bestScore = d, sc
			}
		}
		return PlayAction(ChefCard, best, NoCard)
	}
	return -1
}

// available counts the dishes of colour d that can still come back: in the
// pile or the discard pile (the box less what lies in front of the seats
// and what left the game).
func available(st *State, d Card) int {
	k := DishesPerColour - int(st.removed[d])
	for i := 0; i < int(st.players); i++ {
		k -= int(st.seats[i].n[d])
	}
	return k
}

// victimDishes picks k (1 or 2) dishes for v to lose: colours it holds once
// first (each breaks its menu), scarce colours first; the last one named
// goes on the discard top, so it is one the seat after v does not lack.
func victimDishes(st *State, v, after *seat, k int) (Card, Card) {
	left := v.n
	pick := func(avoidFeeding bool) Card {
		best, bestScore := NoCard, math.MinInt
		for d := Starter; d <= Drink; d++ {
			if left[d] == 0 {
				continue
			}
			sc := -available(st, d)
			if left[d] == 1 {
				sc += 100
			}
			if avoidFeeding && after.n[d] == 0 && st.players > 2 {
				sc -= 30
			}
			if sc > bestScore {
				best, bestScore = d, sc
			}
		}
		left[best]--
		return best
	}
	if k == 1 {
		return pick(true), NoCard
	}
	d1 := pick(false)
	d2 := pick(true)
	return d1, d2
}

// bestDuplicate is the dish to discard among colours held at least least
// times (NoCard if none): the most copies first, then one the next player
// does not lack (so they cannot take it).
func bestDuplicate(st *State, me *seat, least uint8) Card {
	next := &st.seats[st.nextOf(st.turn)]
	best, bestScore := NoCard, math.MinInt
	for d := Starter; d <= Drink; d++ {
		if me.n[d] < least {
			continue
		}
		sc := 10 * int(me.n[d])
		if next.n[d] > 0 {
			sc += 5
		}
		if sc > bestScore {
			best, bestScore = d, sc
		}
	}
	return best
}

// ---- Shef: playouts (the search is in ai_search.go) ----

// playout plays st on with Cook at every seat for horizon turns and
// scores it for seat me: its share of the win if the game ended, else an
// estimate from everyone's progress.
func playout(st *State, me uint8, horizon uint32) float64 {
	stop := st.turnNo + horizon
	for st.step != StepOver && st.turnNo < stop {
		if st.Apply(game.Seat(st.turn), cookMove(st)) != nil {
			break // cannot happen: Cook only plays legal moves
		}
	}
	if st.step == StepOver {
		if st.winners&(1<<me) == 0 {
			return 0
		}
		k := 0
		for w := st.winners; w != 0; w &= w - 1 {
			k++
		}
		return 1 / float64(k)
	}
	var total, mine float64
	d := 0.0 // seats from the one to act, in playing order
	for i, k := st.turn, 0; k < int(st.players); i, k = st.nextOf(i), k+1 {
		x := math.Exp(strength(&st.seats[i]) - 0.27*d/float64(st.players))
		total += x
		if i == me {
			mine = x
		}
		d++
	}
	return mine / total
}

// strength scores a seat's chances (a conditional logit fitted to Cook
// self-play: P(seat wins) is proportional to exp(strength), less a little
// for seats that play later).
func strength(s *seat) float64 {
	c := s.colours()
	x := 0.33*float64(c) - 0.03*float64(s.actions())
	switch {
	case s.complete():
		x += 1.1
		if s.announced() {
			x += 0.2
		}
	case c == NumColours-1:
		x += 0.3
	case c == NumColours && s.surplus() == 1:
		x += 0.2
	}
	return x
}
