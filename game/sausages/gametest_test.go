package sausages

import (
	"testing"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/gametest"
)

// TestConformance runs the shared engine conformance suite.
func TestConformance(t *testing.T) {
	gametest.Run(t, conformance())
}

// conformance describes the engine to the shared suite and fuzz harnesses.
func conformance() gametest.Game {
	return gametest.Game{
		New: func(seats int, seed uint64) (game.State, error) {
			return New(Config{Players: seats, Seed: seed})
		},
		Decode:    func(data []byte) (game.State, error) { return Unmarshal(data) },
		Seats:     []int{3, 4, 5, 6},
		MaxSteps:  maxSteps,
		MaxAction: MaxAction,
		View: func(st game.State, s game.Seat) any {
			if s == game.System {
				return st.(*State).PublicView()
			}
			return st.(*State).SeatView(s)
		},
		Rehide: func(st game.State, s game.Seat, seed uint64) game.State {
			return rehide(st.(*State), s, seed)
		},
	}
}

// rehide returns a copy of st in which everything seat s cannot see is
// redrawn from seed: the seed and generator, the blind order of a
// challenger's cards in a pick, and for every other seat whether it still
// has its boot, where the boot lies (hand or a face-down stack card), and,
// for the challenger of the last attempt, which card it lost. What the
// views show is kept: hand, stack and owned counts, face-up cards, the
// reveals of this round and of the last attempt (a seat still holds at
// least the sausages it showed there, and the owner of a revealed boot
// still has it). Among the combinations consistent with that, one is
// drawn uniformly; it is a consistent world, not the exact posterior. With
// game.System every seat is redrawn.
func rehide(st *State, s game.Seat, seed uint64) *State {
	h := st.Clone()
	r := rng(seed)
	h.seed, h.rng = r.Next(), rng(r.Next())
	for i := 0; i < int(h.players); i++ {
		if game.Seat(i) != s {
			redrawSeat(h, i, &r)
		}
	}
	if h.phase == PhasePick {
		c := &h.seats[h.bidder]
		h.fan = 0
		if c.hb == 1 {
			h.fan = uint8(r.Below(c.owned())) + 1
		}
	}
	return h
}

// sausagesShown counts seat i's sausages in a reveal log.
func sausagesShown(log []uint8, i int) int {
	k := 0
	for _, e := range log {
		if int(e>>1) == i && e&1 == 0 {
			k++
		}
	}
	return k
}

// redrawSeat redraws seat i's hidden cards in h (see rehide).
func redrawSeat(h *State, i int, r *rng) {
	b := &h.seats[i]
	l := &h.last
	owned := b.owned()
	hand, down := b.hand(), int(b.n-b.rev) // hidden slots: hand and face-down stack
	// Sausages seat i is known to hold now: its face-up stack cards and its
	// sausages revealed this round; shown in the last attempt, before any loss.
	now := max(int(b.rev), sausagesShown(h.rev[:h.nRev], i))
	var before int
	if l.valid {
		before = sausagesShown(l.rev[:l.nRev], i)
	}
	failed := l.valid && !l.success
	lostNow := failed && int(l.challenger) == i && l.lost != NoCard // its loss is hidden
	mustBoot := failed && int(l.bootOwner) == i && (int(l.challenger) != i || l.lost == NoCard)
	type option struct {
		boot int  // boots held now
		lost Card // the challenger's lost card, if lostNow
	}
	var opts [4]option
	k := 0
	ok := func(boot, sausages, shown int) bool {
		return boot >= 0 && sausages >= max(0, shown) && sausages <= SausagesPerPlayer && (boot == 0 || hand+down > 0)
	}
	if lostNow {
		ownBoot := l.bootOwner == l.challenger
		for bootBefore := 0; bootBefore <= 1; bootBefore++ {
			sBefore := owned + 1 - bootBefore
			if sBefore < before || sBefore > SausagesPerPlayer || ownBoot && bootBefore == 0 {
				continue
			}
			for _, c := range []Card{Sausage, Boot} {
				boot, lostS := bootBefore, 0
				if c == Boot {
					boot--
				} else {
					lostS = 1
				}
				if (c == Boot || sBefore >= 1) && ok(boot, owned-boot, max(now, before-lostS)) {
					opts[k] = option{boot, c}
					k++
				}
			}
		}
	} else {
		for boot := 0; boot <= 1; boot++ {
			if (boot == 1 || !mustBoot) && ok(boot, owned-boot, max(now, before)) {
				opts[k] = option{boot: boot}
				k++
			}
		}
	}
	if k == 0 {
		return // cannot happen in a reachable state; keep the cards
	}
	o := opts[r.Below(k)]
	if lostNow {
		l.lost = o.lost
	}
	b.hs, b.hb, b.boot = uint8(hand), 0, 0
	if o.boot == 1 {
		if slot := r.Below(hand + down); slot < hand {
			b.hs, b.hb = uint8(hand-1), 1
		} else {
			b.boot = uint8(slot-hand) + 1 // face-down cards are the bottom ones
		}
	}
}

// TestRehideRedraws checks that rehide really moves what a seat cannot
// see (boots, the lost card, the blind order) and keeps what the views
// imply: the conformance suite would pass a rehide that redrew nothing
// but the generator.
func TestRehideRedraws(t *testing.T) {
	games := uint64(40)
	if testing.Short() || raceEnabled {
		games = 10
	}
	var boots, lost, fan, kept int
	for g := uint64(0); g < games; g++ {
		st, err := New(Config{Players: 3 + int(g%4), Seed: g})
		if err != nil {
			t.Fatal(err)
		}
		r := rng(g)
		for !st.Over() {
			for seed := uint64(0); seed < 4; seed++ {
				h := rehide(st, 0, seed)
				if h.seats[0] != st.seats[0] {
					t.Fatal("seat 0's own cards changed")
				}
				for i := 1; i < int(st.players); i++ {
					if h.seats[i] != st.seats[i] {
						boots++
					}
				}
				if h.last.lost != st.last.lost {
					lost++
				}
				if h.fan != st.fan {
					fan++
				}
				// The owner of a revealed boot, if not the challenger, keeps it.
				if l := &st.last; l.valid && !l.success && l.bootOwner != l.challenger {
					if !h.seats[l.bootOwner].hasBoot() {
						t.Fatalf("game %d: seat %d lost the boot everyone saw", g, l.bootOwner)
					}
					kept++
				}
			}
			s := st.ToAct()[0]
			l := st.Legal(s)
			if err := st.Apply(s, l[r.Below(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if boots == 0 || lost == 0 || fan == 0 || kept == 0 {
		t.Fatalf("moved boots %d, lost cards %d, blind orders %d; kept boots %d", boots, lost, fan, kept)
	}
}
