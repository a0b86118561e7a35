package results

import (
	"testing"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// Both stores keep results.
var (
	_ Store = (*store.Redis)(nil)
	_ Store = (*store.Bolt)(nil)
)

// TestRateSkipsUnrated: an unrated seat keeps its rating (a newcomer stays
// never rated), the others are rated among themselves as if it had not
// played; the callback sees every seat's shown rating before and after.
func TestRateSkipsUnrated(t *testing.T) {
	cur := []store.PlayerStats{{Player: "u1"}, {Player: "u2", Mu: 30, Sigma: 2}, {Player: "u3"}, {Player: "u4", Mu: 20, Sigma: 3}}
	var seen []record.RatingChange
	mu, sigma := rate([]int{1, 2, 3, 4}, []bool{true, false, true, false}, func(c []record.RatingChange) { seen = c })(cur)
	if mu[1] != 30 || sigma[1] != 2 || mu[3] != 20 || sigma[3] != 3 {
		t.Errorf("unrated seats changed: mu %v sigma %v", mu, sigma)
	}
	want, wantSigma := rate([]int{1, 3}, nil, nil)([]store.PlayerStats{cur[0], cur[2]})
	if mu[0] != want[0] || mu[2] != want[1] || sigma[0] != wantSigma[0] || sigma[2] != wantSigma[1] {
		t.Errorf("rated seats: mu %v sigma %v, want as a game of two: %v %v", mu, sigma, want, wantSigma)
	}
	if len(seen) != 4 || seen[1].Before != seen[1].After || seen[0].After <= seen[0].Before || seen[2].After >= seen[0].After {
		t.Errorf("changes seen %+v", seen)
	}
	never := rate([]int{1, 2}, []bool{false, true}, nil)
	if mu, sigma := never([]store.PlayerStats{{Player: "u1"}, {Player: "u2"}}); mu[0] != 0 || sigma[0] != 0 {
		t.Errorf("an unrated newcomer got a rating: %v %v", mu, sigma)
	}
}

// TestRateFunc: newcomers start from the default rating, winners gain.
func TestRateFunc(t *testing.T) {
	mu, sigma := rate([]int{2, 1, 3}, nil, nil)([]store.PlayerStats{{Player: "u1"}, {Player: "u2"}, {Player: "u3", Mu: 30, Sigma: 2}})
	if len(mu) != 3 || len(sigma) != 3 {
		t.Fatalf("mu %v sigma %v", mu, sigma)
	}
	if !(mu[1] > 25 && mu[0] < mu[1] && sigma[0] < 25.0/3 && mu[2] < 30) {
		t.Errorf("mu %v sigma %v", mu, sigma)
	}
}

// TestAddStats: a sum over groups keeps the best rating. (The numbers'
// looks, pinned by the same old test, are view's: TestNumbers there.)
func TestAddStats(t *testing.T) {
	a := store.PlayerStats{Games: 2, Wins: 1, PlaceSum: 3, BestScore: 7, Mu: 30, Sigma: 5}
	b := store.PlayerStats{Games: 3, Wins: 2, PlaceSum: 4, TieHalves: 1, BestScore: 5, Mu: 28, Sigma: 2}
	sum := addStats(addStats(store.PlayerStats{}, a), b)
	if sum.Games != 5 || sum.Wins != 3 || sum.PlaceSum != 7 || sum.TieHalves != 1 || sum.BestScore != 7 || sum.Mu != 28 || sum.Sigma != 2 {
		t.Errorf("sum %+v", sum)
	}
}
