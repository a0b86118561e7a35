package trickchef

import (
	"flag"
	"fmt"
	"math"
	"testing"
)

// The cook heuristic's tuning bench: one seat plays candidate cookParams
// against three seats of defaultCook, each seat acting as in Shef's
// playouts (knowing its hand and the cards out, scores perturbed by
// shefRolloutNoise). Deals are paired: each is played four times with the
// candidate in every seat, so the cards' luck cancels. Skipped unless
// -tc-tune gives the games per measurement:
//
//	go test ./game/trickchef/ -run TestTuneCook -v -timeout 0 -args -tc-tune 20000
//
// measures shefCook; with -tc-tune-search it first searches each number
// (coordinate steps ×0.5, ×0.7, ×1.4, ×2, sign flips and ±1 for counts)
// on common seeds, keeping a step only if it wins, then measures the
// result on fresh seeds (-tc-tune-fresh games).
var (
	tuneGames  = flag.Int("tc-tune", 0, "games per cook tuning measurement (0: skip TestTuneCook)")
	tuneSeed   = flag.Uint64("tc-tune-seed", 1, "seed of the tuning deals")
	tuneSearch = flag.Bool("tc-tune-search", false, "search the cook's numbers before measuring")
	tunePasses = flag.Int("tc-tune-passes", 1, "coordinate search passes")
	tuneFresh  = flag.Int("tc-tune-fresh", 40000, "games of the final measurement on fresh seeds")
	tuneZ      = flag.Float64("tc-tune-z", 1.5, "standard errors a step must win by to be kept")
	tuneNoise  = flag.Float64("tc-tune-noise", shefRolloutNoise, "noise of every seat's scores")
)

// tuneKnob is one number of cookParams the search may change.
type tuneKnob struct {
	name  string
	f     func(p *cookParams) *float64
	i     func(p *cookParams) *int
	flips bool // try 0 and −x as well
}

var tuneKnobs = []tuneKnob{
	{name: "winBonus", f: func(p *cookParams) *float64 { return &p.winBonus }, flips: true},
	{name: "spareChef", f: func(p *cookParams) *float64 { return &p.spareChef }},
	{name: "laterTrump", f: func(p *cookParams) *float64 { return &p.laterTrump }},
	{name: "nowTrump", f: func(p *cookParams) *float64 { return &p.nowTrump }},
	{name: "holdLater", f: func(p *cookParams) *float64 { return &p.holdLater }},
	{name: "holdWin", f: func(p *cookParams) *float64 { return &p.holdWin }},
	{name: "holdChef", f: func(p *cookParams) *float64 { return &p.holdChef }},
	{name: "income", f: func(p *cookParams) *float64 { return &p.income }},
	{name: "coinCost", f: func(p *cookParams) *float64 { return &p.coinCost }},
	{name: "maxCoins", i: func(p *cookParams) *int { return &p.maxCoins }},
	{name: "chefBase", f: func(p *cookParams) *float64 { return &p.chefBase }},
	{name: "chefSpread", f: func(p *cookParams) *float64 { return &p.chefSpread }},
	{name: "chefCap", f: func(p *cookParams) *float64 { return &p.chefCap }},
	{name: "chefLater", f: func(p *cookParams) *float64 { return &p.chefLater }},
	{name: "chefNowMix", f: func(p *cookParams) *float64 { return &p.chefNowMix }},
	{name: "chefScarce", f: func(p *cookParams) *float64 { return &p.chefScarce }, flips: true},
	{name: "keepWin", f: func(p *cookParams) *float64 { return &p.keepWin }},
	{name: "keepStars", f: func(p *cookParams) *float64 { return &p.keepStars }},
	{name: "keepLow", f: func(p *cookParams) *float64 { return &p.keepLow }, flips: true},
	{name: "keepLowMax", i: func(p *cookParams) *int { return &p.keepLowMax }},
}

// tuneSteps are the candidates the search tries for knob k from p.
func tuneSteps(p cookParams, k tuneKnob) []cookParams {
	var out []cookParams
	if k.i != nil {
		for _, d := range []int{-1, 1} {
			q := p
			if v := *k.i(&q) + d; v >= 0 {
				*k.i(&q) = v
				out = append(out, q)
			}
		}
		return out
	}
	muls := []float64{0.5, 0.7, 1.4, 2}
	if k.flips {
		muls = append(muls, 0, -1)
	}
	for _, m := range muls {
		q := p
		*k.f(&q) *= m
		if *k.f(&q) != *k.f(&p) {
			out = append(out, q)
		}
	}
	return out
}

// tuneDealSeed spreads deal numbers over the seed space (splitmix64).
func tuneDealSeed(seed uint64, d int) uint64 {
	z := seed + uint64(d+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// playCookGame plays a 4-player game on seed with params[i] for seat i and
// returns each seat's win share (1/k for each of k winners).
func playCookGame(tb testing.TB, seed uint64, params *[4]*cookParams, noise float64) (share [4]float64) {
	st, err := New(DefaultConfig(4, 0, seed))
	if err != nil {
		tb.Fatal(err)
	}
	r := rng(seed ^ 0x74756e65)
	for !st.Over() {
		seat := st.turn
		var out cardSet
		for i := 0; i < int(st.players); i++ {
			if uint8(i) != seat {
				out |= st.hands[i]
			}
		}
		if err := st.Apply(st.turnSeat(), cookAct(st, out, &r, noise, params[seat])); err != nil {
			tb.Fatal(err)
		}
	}
	_, winners, _ := st.finalResult()
	for _, w := range winners {
		share[w] += 1 / float64(len(winners))
	}
	return share
}

// tuneDeals plays deals [from, from+n) with cand in one seat (every seat in
// turn) and defaultCook in the others, and returns cand's mean win share
// per deal.
func tuneDeals(tb testing.TB, cand *cookParams, seed uint64, from, n int) []float64 {
	out := make([]float64, n)
	def := defaultCook
	for d := 0; d < n; d++ {
		s := tuneDealSeed(seed, from+d)
		for rot := 0; rot < 4; rot++ {
			params := [4]*cookParams{&def, &def, &def, &def}
			params[rot] = cand
			out[d] += playCookGame(tb, s, &params, *tuneNoise)[rot] / 4
		}
	}
	return out
}

// meanCI is the mean of x and the half-width of its 95% interval.
func meanCI(x []float64) (float64, float64) {
	n := float64(len(x))
	var s, sq float64
	for _, v := range x {
		s += v
		sq += v * v
	}
	m := s / n
	return m, 1.96 * math.Sqrt(math.Max(sq/n-m*m, 0)/(n-1))
}

func TestTuneCook(t *testing.T) {
	if *tuneGames <= 0 {
		t.Skip("no -tc-tune games")
	}
	deals := max(1, *tuneGames/4)
	p := shefCook
	if *tuneSearch {
		best := tuneDeals(t, &p, *tuneSeed, 0, deals)
		m, ci := meanCI(best)
		fmt.Printf("start %+v: %.2f%% ± %.2f%% over %d games\n", p, 100*m, 100*ci, 4*deals)
		for pass := 0; pass < *tunePasses; pass++ {
			for _, k := range tuneKnobs {
				for _, q := range tuneSteps(p, k) {
					u := tuneDeals(t, &q, *tuneSeed, 0, deals)
					diff := make([]float64, deals)
					for i := range diff {
						diff[i] = u[i] - best[i]
					}
					dm, dci := meanCI(diff)
					um, _ := meanCI(u)
					keep := dm > 0 && dm > *tuneZ*dci/1.96
					fmt.Printf("  %-10s %s: %.2f%% (%+.2f%% ± %.2f%%)%s\n", k.name, tuneValue(q, k), 100*um, 100*dm, 100*dci, map[bool]string{true: " kept"}[keep])
					if keep {
						p, best = q, u
					}
				}
			}
			m, ci := meanCI(best)
			fmt.Printf("pass %d %+v: %.2f%% ± %.2f%%\n", pass+1, p, 100*m, 100*ci)
		}
	}
	// Fresh deals: numbered past any the search used.
	n := deals
	if *tuneSearch {
		n = max(1, *tuneFresh/4)
	}
	u := tuneDeals(t, &p, *tuneSeed+0x5eed, 1<<20, n)
	m, ci := meanCI(u)
	fmt.Printf("%+v vs 3 defaultCook: %.2f%% ± %.2f%% over %d games (fresh seeds)\n", p, 100*m, 100*ci, 4*n)
}

func tuneValue(p cookParams, k tuneKnob) string {
	if k.i != nil {
		return fmt.Sprint(*k.i(&p))
	}
	return fmt.Sprintf("%.4g", *k.f(&p))
}

// Shef's playout policy is the stronger player: one seat of shefCook
// against three of defaultCook wins clearly more than the 25% of equal
// play on a small fixed sample (TestTuneCook measured 32.3% ± 0.3%), and
// defaultCook against itself is exactly even.
func TestShefCookIsStronger(t *testing.T) {
	deals := 400
	if raceEnabled {
		deals = 60
	}
	def := defaultCook
	even, _ := meanCI(tuneDeals(t, &def, 7, 0, deals))
	if math.Abs(even-0.25) > 1e-9 {
		t.Fatalf("defaultCook against itself: %.4f", even)
	}
	m, ci := meanCI(tuneDeals(t, &shefCook, 7, 0, deals))
	t.Logf("shefCook vs 3 defaultCook: %.1f%% ± %.1f%% over %d games", 100*m, 100*ci, 4*deals)
	if m-ci <= 0.25 {
		t.Fatalf("shefCook wins %.1f%% ± %.1f%%: not above equal play", 100*m, 100*ci)
	}
}
