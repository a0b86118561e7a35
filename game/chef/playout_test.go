package chef

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/trickchef/trickchef/game"
)

// policy chooses an action for the seat to act.
type policy func(st *State, r *rng) game.Action

func randomPolicy(st *State, r *rng) game.Action {
	l := st.Legal(game.Seat(st.turn))
	return l[r.Below(len(l))]
}

func cookPolicy(st *State, r *rng) game.Action {
	return Decide(Cook, st.SeatView(game.Seat(st.turn)), r.Next())
}

func novicePolicy(st *State, r *rng) game.Action {
	return Decide(Novice, st.SeatView(game.Seat(st.turn)), r.Next())
}

// maxSteps bounds a game: at most 3 passes through the 100 cards, each
// draw followed by at most a handful of moves without a draw (see the
// termination argument in rulings.go); random games take about 650.
const maxSteps = 20000

// TestRandomPlayouts plays seeded games with 2–8 players, mixing random,
// Novice and Cook seats, manual and automatic announcements, and checks the
// invariants at every step.
func TestRandomPlayouts(t *testing.T) {
	games := 700
	if testing.Short() || raceEnabled {
		games = 60
	}
	const shards = 4
	for sh := 0; sh < shards; sh++ {
		t.Run(fmt.Sprintf("shard%d", sh), func(t *testing.T) {
			t.Parallel()
			for g := sh; g < games; g += shards {
				n := MinPlayers + g%(MaxPlayers-MinPlayers+1)
				cfg := Config{Players: n, First: game.Seat(g / 7 % n), AutoAnnounce: g%5 == 0, Seed: uint64(g) * 7919}
				playGame(t, cfg, uint64(g))
				if t.Failed() {
					return
				}
			}
		})
	}
}

func playGame(t *testing.T, cfg Config, seed uint64) {
	t.Helper()
	st, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rng(seed)
	var kinds [MaxPlayers]int // per seat: 0 random, 1 Novice, 2 Cook
	if seed%3 != 0 {
		for i := range kinds {
			kinds[i] = r.Below(3)
		}
	}
	policies := []policy{randomPolicy, novicePolicy, cookPolicy}
	deep := seed%10 == 0
	var log []game.Action
	lastSeq := 0
	for n := 0; !st.Over(); n++ {
		if n > maxSteps {
			t.Fatalf("seed %d: game does not end", seed)
		}
		checkStep(t, st, deep)
		p := st.PublicView()
		if len(p.Events) > 0 {
			if s := p.Events[len(p.Events)-1].Seq; s < lastSeq {
				t.Fatalf("seed %d: event sequence went back", seed)
			} else {
				lastSeq = s
			}
		}
		a := policies[kinds[st.turn]](st, &r)
		if err := st.Apply(game.Seat(st.turn), a); err != nil {
			t.Fatalf("seed %d step %d: legal action %s refused: %v", seed, n, mustDecode(a), err)
		}
		log = append(log, a)
	}
	checkStep(t, st, true)
	re, _ := New(cfg)
	for _, a := range log {
		if err := re.Apply(game.Seat(re.turn), a); err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
	}
	if !bytes.Equal(mustMarshal(t, re), mustMarshal(t, st)) || *re != *st {
		t.Fatalf("seed %d: replay differs", seed)
	}
	if c := st.Clone(); *c != *st {
		t.Fatal("clone differs")
	}
	res := st.Result()
	if len(res.Scores) != cfg.Players || len(res.Winners) == 0 {
		t.Fatalf("result %+v", res)
	}
	if e := st.PublicView().Events; e[len(e)-1].Kind != EventWin && e[len(e)-1].Kind != EventClosing {
		t.Fatalf("last event %+v", e[len(e)-1])
	}
}

// checkStep verifies the state, its encoding and its views; deep also
// checks Legal against Apply for every action value.
func checkStep(t *testing.T, st *State, deep bool) {
	t.Helper()
	if err := st.validate(); err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(mustMarshal(t, st))
	if err != nil || *back != *st {
		t.Fatalf("round trip: %v", err)
	}
	to := st.ToAct()
	if st.Over() != (len(to) == 0) {
		t.Fatalf("ToAct %v over %v", to, st.Over())
	}
	for s := game.Seat(0); s < game.Seat(st.players); s++ {
		if l := st.Legal(s); slices.Contains(to, s) != (len(l) > 0) {
			t.Fatalf("seat %d legal %v, ToAct %v", s, l, to)
		}
	}
	if deep {
		checkLegal(t, st)
		checkViews(t, st)
	}
}

// checkViews verifies the views against the state.
func checkViews(t *testing.T, st *State) {
	t.Helper()
	p := st.PublicView()
	for s := game.Seat(-1); s <= game.Seat(st.players); s++ {
		v := st.SeatView(s)
		if !reflect.DeepEqual(v.Public, p) || v.Seat != s || !slices.Equal(v.Legal, st.Legal(s)) {
			t.Fatalf("seat %d view differs", s)
		}
	}
	total := p.Pile + len(p.Discard)
	var kinds [NumKinds]int
	for c, k := range p.PileCards {
		kinds[c] += k
	}
	for _, c := range p.Discard {
		kinds[c]++
	}
	for c, k := range p.Removed {
		kinds[c] += k
		total += k
	}
	for i, s := range p.Seats {
		b := &st.seats[i]
		if s.Dishes != b.dishes() || s.Colours != b.colours() || s.Actions != b.actions() || s.Complete != b.complete() ||
			s.Announced != b.announced() || s.Score != score(b) {
			t.Fatalf("seat %d: %+v", i, s)
		}
		for c, k := range s.Cards {
			kinds[c] += k
			total += k
		}
	}
	if total != DeckSize {
		t.Fatalf("%d cards on the table", total)
	}
	for c := Starter; c <= Addition; c++ {
		if kinds[c] != BoxCount(c) {
			t.Fatalf("%d of %s", kinds[c], c.Key())
		}
	}
	if len(p.Events) > MaxEvents || len(p.Events) > 0 && p.Events[len(p.Events)-1].Seq != int(st.nev) {
		t.Fatalf("events %+v", p.Events)
	}
	if !st.Over() && (p.Turn != game.Seat(st.turn) || p.Next != game.Seat(st.nextOf(st.turn))) {
		t.Fatalf("turn %d next %d", p.Turn, p.Next)
	}
}

// TestViewsHideOnlyThePile: two states that differ only in the pile's
// order (and the generator) have identical views and legal actions.
func TestViewsHideOnlyThePile(t *testing.T) {
	for g := 0; g < 40; g++ {
		st, _ := New(Config{Players: 2 + g%7, Seed: uint64(g)})
		r := rng(uint64(g))
		for i := 0; !st.Over(); i++ {
			if i%7 == 0 {
				tw := rehide(st, game.Seat(i%int(st.players)), r.Next())
				if *tw == *st && st.npile > 1 {
					t.Fatal("rehide changed nothing")
				}
				for s := game.Seat(-1); s < game.Seat(st.players); s++ {
					if !reflect.DeepEqual(st.SeatView(s), tw.SeatView(s)) {
						t.Fatalf("game %d: seat %d's view depends on the pile order", g, s)
					}
				}
			}
			if err := st.Apply(game.Seat(st.turn), cookPolicy(st, &r)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestEventsLog checks the log of a scripted sequence.
func TestEventsLog(t *testing.T) {
	st := deal(t, "0:Dr 1:orpgbn 2:C announced:1 discard:g pile:r")
	apply(t, st, "play:D:o 2=play:C:r 0=draw 0=end")
	ev := st.PublicView().Events
	want := []Event{
		{Seq: 1, Kind: EventPlay, Seat: 0, Target: 1, Card: Diet, Dishes: [2]Card{Starter}},
		{Seq: 2, Kind: EventLapse, Seat: 1, Target: -1},
		{Seq: 3, Kind: EventPlay, Seat: 2, Target: 0, Card: ChefCard, Dishes: [2]Card{Sauce}},
		{Seq: 4, Kind: EventDraw, Seat: 0, Target: -1, Card: Sauce},
	}
	if !reflect.DeepEqual(ev, want) {
		t.Fatalf("events\n%+v\nwant\n%+v", ev, want)
	}
	// The ring keeps the last MaxEvents.
	st = deal(t, "0:- 1:- discard:g pile:oooooooooo")
	for i := 0; i < 10; i++ {
		apply(t, st, "draw end")
	}
	ev = st.PublicView().Events
	if len(ev) != 10 || ev[0].Seq != 1 {
		t.Fatalf("%d events from %d", len(ev), ev[0].Seq)
	}
	st = deal(t, "0:- 1:- discard:g pile:oooooooooorrrrrrrrrr")
	for i := 0; i < 20; i++ {
		apply(t, st, "draw end")
	}
	ev = st.PublicView().Events
	if len(ev) != MaxEvents || ev[0].Seq != 20-MaxEvents+1 || ev[MaxEvents-1].Seq != 20 || ev[MaxEvents-1].Card != Sauce {
		t.Fatalf("ring %+v", ev)
	}
}
