// Package rating keeps a Bayesian skill estimate per player: the Weng-Lin
// online rating method with the Plackett-Luce ranking model, as implemented by
// the openskill JavaScript package.
//
// The numbers match openskill 5.0.1 called as rate(teams, {rank}) with one
// player per team and default options; testdata/fixture.json is generated from
// that package and the tests pin every output to it within 1e-9.
//
// Default-option behaviour reproduced here:
//   - every sigma is first widened by tau (sqrt(sigma² + tau²)) so ratings keep
//     adapting over many games;
//   - limitSigma is off, so a very confident rating (sigma much below 1) can end
//     a game with a larger sigma than it started with;
//   - gamma is openskill's default, sqrt(teamSigma²)/c;
//   - kappa floors the variance shrink factor so sigma never reaches zero.
package rating

import (
	"fmt"
	"math"
)

// Defaults of openskill 5.0.1 (src/constants.ts).
const (
	// defaultMu is the starting mean skill.
	defaultMu = 25.0
	// defaultSigma is the starting uncertainty, mu/3, so a new player's
	// ordinal (mu − 3σ) starts at zero.
	defaultSigma = defaultMu / 3
	// beta is the performance noise of a single game: default sigma / 2.
	beta = defaultSigma / 2
	// tau is the dynamics term added to every sigma before a game: mu/300.
	tau = defaultMu / 300
	// kappa is the lower bound of the sigma shrink factor, keeping sigma positive.
	kappa = 1e-4
	// ordinalZ is how many standard deviations Ordinal subtracts: openskill's
	// z = 3 (with alpha 1, target 0), i.e. ~99.9% confidence skill is higher.
	ordinalZ = 3.0
)

// Rating is a player's skill belief.
type Rating struct{ Mu, Sigma float64 }

// New is the starting rating: mu 25, sigma 25/3.
func New() Rating { return Rating{Mu: defaultMu, Sigma: defaultSigma} }

// Ordinal is the conservative display value mu − 3σ: a skill the player very
// probably exceeds, so new players (large σ) rank below proven ones.
func (r Rating) Ordinal() float64 { return r.Mu - ordinalZ*r.Sigma }

// Rate returns the updated ratings for one free-for-all game: one player per team,
// ranks[i] is player i's place (1 = best; equal ranks are ties). Inputs unchanged.
//
// Only the order of rank values matters (1,2,2,4 and 1,5,5,9 are the same game).
// Any number of players works; a lone player only gets the tau widening.
// Rate panics if len(ratings) != len(ranks): that is a caller bug, not a
// game outcome.
//
// Unlike the reference, the win probabilities are computed with log-sum-exp,
// so huge mu gaps (where openskill's exp overflows to NaN) still give finite
// results; elsewhere this differs from openskill only by rounding.
func Rate(ratings []Rating, ranks []int) []Rating {
	n := len(ratings)
	if len(ranks) != n {
		panic(fmt.Sprintf("rating: Rate got %d ratings and %d ranks", n, len(ranks)))
	}
	out := make([]Rating, n)
	if n == 0 {
		return out
	}

	// Widen by tau, then c² is the summed variance of all performances.
	sigSq := make([]float64, n)
	cSq := 0.0
	for i, r := range ratings {
		sigSq[i] = r.Sigma*r.Sigma + tau*tau
		cSq += sigSq[i] + beta*beta
	}
	c := math.Sqrt(cSq)

	// x[i] is player i's strength on the exp scale; tied[q] counts players
	// sharing q's place; logSum[q] = log Σ exp(x[j]) over players placed no
	// better than q, i.e. those still in the race when q's place is decided.
	x := make([]float64, n)
	for i, r := range ratings {
		x[i] = r.Mu / c
	}
	tied := make([]float64, n)
	logSum := make([]float64, n)
	for q := range n {
		top := math.Inf(-1)
		for j := range n {
			if ranks[j] == ranks[q] {
				tied[q]++
			}
			if ranks[j] >= ranks[q] && x[j] > top {
				top = x[j]
			}
		}
		s := 0.0
		for j := range n {
			if ranks[j] >= ranks[q] {
				s += math.Exp(x[j] - top)
			}
		}
		logSum[q] = top + math.Log(s)
	}

	for i, r := range ratings {
		// Sum over every place decided while i was still in the race.
		// omega is the mean-shift score, delta the information gained.
		// The "won my own place" term 1/tied[i] is added apart, so equal
		// tied players get bit-identical results.
		omega, delta := 1/tied[i], 0.0
		for q := range n {
			if ranks[q] > ranks[i] {
				continue
			}
			p := math.Exp(x[i] - logSum[q]) // P(i takes q's place)
			omega -= p / tied[q]
			delta += p * (1 - p) / tied[q]
		}
		gamma := math.Sqrt(sigSq[i]) / c
		shrink := math.Max(1-sigSq[i]/cSq*gamma*delta, kappa)
		out[i] = Rating{
			Mu:    r.Mu + sigSq[i]/c*omega,
			Sigma: math.Sqrt(sigSq[i] * shrink),
		}
	}
	return out
}
