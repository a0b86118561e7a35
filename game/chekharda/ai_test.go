package chekharda

import (
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/game"
)

// realtime plays one game the way the bot runs it: after every change each
// robot reacts after its reaction time (drawn per decision); the fastest
// robot that wants to act acts; if nobody acts before the quiet pause, or
// nobody can act at all, the dealer deals; between rounds the next round
// starts. equal gives every level Cook's reaction times, to compare the
// decisions alone. It returns the final state.
func realtime(t testing.TB, cfg Config, levels []Level, equal bool, seed uint64) *State {
	t.Helper()
	st, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rng(seed)
	idle := 0
	for step := 0; !st.Over(); step++ {
		if step > maxSteps {
			t.Fatalf("seed %d: game does not end", seed)
		}
		var s game.Seat = game.System
		var a game.Action
		switch {
		case st.Phase() == PhaseRoundEnd:
			a = NextRoundAction()
		case st.Stuck():
			a = DealAction()
		default:
			best := time.Duration(1 << 62)
			for _, p := range st.ToAct() {
				if p == game.System {
					continue
				}
				ds := r.Next()
				x, ok := Decide(levels[p], st.SeatView(p), ds)
				if !ok {
					continue
				}
				lv := levels[p]
				if equal {
					lv = Cook
				}
				if rt := ReactionTime(lv, ds); rt < best {
					best, s, a = rt, p, x
				}
			}
			switch {
			case s != game.System && (best < QuietPause || !st.canDeal()):
				idle = 0
			case st.canDeal():
				s, a = game.System, DealAction()
			default:
				// Everybody waited and no deal can come: only Novice does
				// that, by chance; after a while anyone acts.
				if idle++; idle < 100 {
					continue
				}
				s = st.ToAct()[0]
				a = st.Legal(s)[0]
			}
		}
		if err := st.Apply(s, a); err != nil {
			t.Fatalf("seed %d step %d: seat %d %s: %v", seed, step, s, mustDecode(a), err)
		}
	}
	return st
}

// share plays games with hero at one seat (rotating) and villain at the
// others and returns the hero's share of wins (a shared win counts 1/k).
func share(t testing.TB, games, players int, hero, villain Level, equal bool) float64 {
	won := 0.0
	for g := 0; g < games; g++ {
		me := g % players
		levels := make([]Level, players)
		for i := range levels {
			levels[i] = villain
		}
		levels[me] = hero
		cfg := Config{Players: players, Dealer: game.Seat(g / players % players), Seed: uint64(g)*31 + 7}
		st := realtime(t, cfg, levels, equal, uint64(g))
		if w := st.Winners(); slices.Contains(w, game.Seat(me)) {
			won += 1 / float64(len(w))
		}
	}
	return won / float64(games)
}

// Cook beats Novices, and Shef beats Cooks: with the bot's reaction times
// per level and, to judge the decisions alone, with equal ones. Seeds are
// fixed, so the numbers are stable.
func TestAIStrength(t *testing.T) {
	games := 400
	if raceEnabled || testing.Short() {
		games = 60
	}
	for _, players := range []int{2, 4} {
		fair := 1 / float64(players)
		for _, equal := range []bool{false, true} {
			cn := share(t, games, players, Cook, Novice, equal)
			sc := share(t, games, players, Shef, Cook, equal)
			nc := share(t, games, players, Novice, Cook, equal)
			t.Logf("%d players (fair %.2f), equal reaction %v: Cook vs Novices %.3f, Shef vs Cooks %.3f, Novice vs Cooks %.3f",
				players, fair, equal, cn, sc, nc)
			if cn <= fair || nc >= fair {
				t.Errorf("%d players, equal %v: Cook does not beat Novice", players, equal)
			}
			if sc <= fair {
				t.Errorf("%d players, equal %v: Shef does not beat Cook", players, equal)
			}
		}
	}
}

func TestAIDeterministicAndLegal(t *testing.T) {
	if _, ok := Decide(Shef, SeatView{}, 1); ok {
		t.Fatal("empty view")
	}
	games := 40
	if raceEnabled {
		games = 10
	}
	for g := 0; g < games; g++ {
		cfg := playoutConfig(uint64(g))
		st, _ := New(cfg)
		for n := 0; !st.Over(); n++ {
			for _, s := range st.ToAct() {
				if s == game.System {
					continue
				}
				v := st.SeatView(s)
				for _, lv := range append(Levels(), "unknown") {
					a, ok := Decide(lv, v, uint64(n))
					b, ok2 := Decide(lv, st.SeatView(s), uint64(n))
					if a != b || ok != ok2 || ok && !slices.Contains(v.Legal, a) {
						t.Fatalf("game %d: %s: %d %v not deterministic or not legal", g, lv, a, ok)
					}
				}
			}
			to := st.ToAct()
			s := to[n%len(to)]
			a := st.Legal(s)[0]
			if s != game.System {
				if x, ok := Decide(Levels()[n%3], st.SeatView(s), uint64(n)); ok {
					a = x
				}
			}
			if err := st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestReactionTimes(t *testing.T) {
	for _, lv := range Levels() {
		lo, hi := ReactionRange(lv)
		if lo < 500*time.Millisecond || hi > 5*time.Second || lo >= hi {
			t.Fatalf("%s: %v..%v", lv, lo, hi)
		}
		var sum time.Duration
		for s := uint64(0); s < 1000; s++ {
			d := ReactionTime(lv, s)
			if d < lo || d > hi || d != ReactionTime(lv, s) {
				t.Fatalf("%s: %v", lv, d)
			}
			sum += d
		}
		t.Logf("%s: %v..%v, mean %v", lv, lo, hi, sum/1000)
	}
	if lo, _ := ReactionRange(Shef); lo >= QuietPause {
		t.Fatal("Shef slower than the quiet pause")
	}
}

// TestReactionRaces: the levels react in a distinct order (medians), the
// novice is slower than the quiet pause but for its rare quick reactions,
// and each level still beats the level above it in a race now and then
// (independent draws; the arena counts the races of real games).
func TestReactionRaces(t *testing.T) {
	const n = 20000
	draw := func(lv Level, i int) time.Duration {
		return ReactionTime(lv, uint64(i)*0x9e3779b97f4a7c15+uint64(len(lv)))
	}
	median := map[Level]time.Duration{}
	for _, lv := range Levels() {
		ds := make([]time.Duration, n)
		for i := range ds {
			ds[i] = draw(lv, i)
		}
		slices.Sort(ds)
		median[lv] = ds[n/2]
	}
	beats := func(a, b Level) float64 {
		k := 0
		for i := 0; i < n; i++ {
			if draw(a, i) < draw(b, i+n) {
				k++
			}
		}
		return float64(k) / n
	}
	pause := 0
	for i := 0; i < n; i++ {
		if draw(Novice, i) < QuietPause {
			pause++
		}
	}
	nc, cs, np := beats(Novice, Cook), beats(Cook, Shef), float64(pause)/n
	t.Logf("medians %v; novice before the quiet pause %.3f, novice beats cook %.3f, cook beats shef %.3f", median, np, nc, cs)
	if !(median[Novice] > QuietPause && QuietPause > median[Cook] && median[Cook] > median[Shef]) {
		t.Errorf("levels not distinct around the quiet pause: medians %v", median)
	}
	if np > 0.15 || nc < 0.01 || nc > 0.15 || cs < 0.05 || cs > 0.45 {
		t.Errorf("races: novice before the pause %.3f (want ≤ 0.15), novice beats cook %.3f (want 0.01..0.15), cook beats shef %.3f (want 0.05..0.45)", np, nc, cs)
	}
}

// Cook steals the biggest set; both go out when they can.
func TestAIChoices(t *testing.T) {
	st := deal(t, "PMC / TT | A / PP | Z / MMMM ; deck J")
	for seed := uint64(0); seed < 20; seed++ {
		for _, lv := range []Level{Cook, Shef} {
			if a, ok := Decide(lv, st.SeatView(0), seed); !ok || a != StealAction(Monkey, 2) {
				t.Fatalf("%s: %v %v, want the monkeys", lv, mustDecode(a), ok)
			}
		}
	}
	// The last card goes out, even onto the smaller set.
	st = deal(t, "P / TT | A / PP | Z / MMMM ; deck J")
	for _, lv := range []Level{Cook, Shef} {
		if a, ok := Decide(lv, st.SeatView(0), 1); !ok || a != StealAction(Pig, 1) {
			t.Fatalf("%s: %v", lv, mustDecode(a))
		}
	}
	// Novice sometimes waits, otherwise plays something legal.
	waits := 0
	for seed := uint64(0); seed < 200; seed++ {
		if _, ok := Decide(Novice, st.SeatView(0), seed); !ok {
			waits++
		}
	}
	if waits < 30 || waits > 120 {
		t.Fatalf("novice waited %d times in 200", waits)
	}
}

// Going out would end the game with seat 1 winning: with a deal to come,
// Cook and Shef wait instead; with the deck empty, they go out anyway (the
// table must not stall); if going out wins the game, at once.
func TestAINoLosingExit(t *testing.T) {
	st := deal(t, "P / TT | A / MMMMMM | Z / PP ; deck J")
	setTotals(st, 5, 60, 75, 10) // seat 1 would score 6 − 1 = 5 → 80
	for _, lv := range []Level{Cook, Shef} {
		if a, ok := Decide(lv, st.SeatView(0), 1); ok {
			t.Fatalf("%s goes out into a loss: %v", lv, mustDecode(a))
		}
	}
	st = deal(t, "P / TT | A / MMMMMM | Z / PP ; deck J")
	setTotals(st, 5, 72, 75, 10) // seat 0: 72 + 2+2+1 + 5 = 82 > 80
	for _, lv := range []Level{Cook, Shef} {
		if a, ok := Decide(lv, st.SeatView(0), 1); !ok || a != StealAction(Pig, 2) {
			t.Fatalf("%s does not win: %v %v", lv, a, ok)
		}
	}
}

// Shef plays last: it holds its cards while nothing presses, and strikes
// when an opponent is down to one card, when it can empty its hand, or
// when no deal will come. Cook steals at once.
func TestShefPlaysLast(t *testing.T) {
	const quiet = "PCT / MM | AZ / PP | JSR / HH ; deck B"
	st := deal(t, quiet)
	if a, ok := Decide(Cook, st.SeatView(0), 1); !ok || a != StealAction(Pig, 1) {
		t.Fatalf("cook: %v %v", a, ok)
	}
	if _, ok := Decide(Shef, st.SeatView(0), 1); ok {
		t.Fatal("shef moves while nothing presses")
	}
	for name, table := range map[string]string{
		"opponent on one card": "PCT / MM | A / PP | JSR / HH ; deck B",
		"whole hand playable":  "PM / MM | AZ / PP | JSR / HH ; deck B",
	} {
		st := deal(t, table)
		if a, ok := Decide(Shef, st.SeatView(0), 1); !ok || a != StealAction(Pig, 1) {
			t.Fatalf("%s: shef %v %v", name, a, ok)
		}
	}
	st = dealCfg(t, Config{Players: 3, DrawForSelf: true}, quiet)
	if a, ok := Decide(Shef, st.SeatView(0), 1); !ok || a != StealAction(Pig, 1) {
		t.Fatalf("variant: shef %v %v", a, ok)
	}
}

// Hand-built views (a bot bug, a test) never make a robot panic or play
// something outside v.Legal.
func TestAIOddViews(t *testing.T) {
	st := deal(t, "PMC / TT | A / PP | Z / MMMM ; deck J")
	odd := []SeatView{st.SeatView(0), st.SeatView(0), st.SeatView(0), st.SeatView(0)}
	odd[0].Seat = 7
	odd[1].Seats = append(odd[1].Seats, make([]SeatPublic, 6)...)
	odd[1].Seat = 8
	odd[2].Legal = []game.Action{StealAction(Zone, 5), AddAction(Alien)}
	odd[3].Seats[2].Sets = []Set{{Owner: 2, Kind: 40, Size: 9}}
	odd[3].Hand = []Kind{0, 99}
	for i, v := range odd {
		for _, lv := range Levels() {
			if a, ok := Decide(lv, v, 1); ok && !slices.Contains(v.Legal, a) {
				t.Fatalf("view %d, %s: %d", i, lv, a)
			}
		}
	}
}
