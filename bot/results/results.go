// Package results is the role that keeps finished games and speaks of
// them: it records a game once and rates it (OpenSkill, Plackett-Luce),
// and draws /stats, /top, /history and a person's private result from
// what the store keeps. It imports no other role: the tables hand it a
// finished game (record.Result) or a results command (record.Query) from
// their jobs, and it answers.
//
// A finished game leaves a record exactly once: the change that ends it
// leaves a job on the table in the same commit as the last move; the
// tables' timers record it with the store's RecordResult (idempotent per
// result id) and only then drop the job. A crash before that leaves the
// job; the retry finds the id recorded and changes nothing. A game stopped
// or cancelled leaves nothing.
package results

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/rating"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Store is what results need from the store; store.Redis and store.Bolt
// have it.
type Store interface {
	RecordResult(ctx context.Context, r store.Result, rate store.RateFunc) (bool, error)
	Top(ctx context.Context, chat int64, game string, n int) ([]store.PlayerStats, error)
	Stats(ctx context.Context, chat int64, game, player string) (store.PlayerStats, bool, error)
	PlayerGames(ctx context.Context, chat int64, player string) (map[string]store.PlayerStats, error)
	PlayerChats(ctx context.Context, player string) ([]int64, error)
	History(ctx context.Context, chat int64, n int) ([]store.Result, error)
	Forget(ctx context.Context, player string) error
	// ForgetUser forgets a person everywhere the store keeps them: Forget,
	// their private chat's table and inbox, their pointers.
	ForgetUser(ctx context.Context, user int64) error
	MoveChat(ctx context.Context, from, to int64) error
	// SeasonResults and the queue are the seasons' (season.go).
	SeasonResults(ctx context.Context, chat int64, from, to time.Time) ([]store.Result, error)
	Schedule(ctx context.Context, q store.Queue, name string, at time.Time) error
	lease.Store
}

// Results is the role. Build it with New.
type Results struct {
	store Store // nil: the store keeps no results
	games view.Games
	tr    adapter.Translator
	log   zerolog.Logger
	now   func() time.Time // /history says how long ago
}

// Params is what the results role is built from.
type Params struct {
	// Store keeps the results; nil keeps nothing (every answer says
	// results are unavailable).
	Store      Store
	Games      view.Games
	Translator adapter.Translator
	Log        zerolog.Logger
	Now        func() time.Time // /history says how long ago
}

// New is the results role over p.Store.
func New(p Params) *Results {
	st, games, tr, log, now := p.Store, p.Games, p.Translator, p.Log, p.Now
	return &Results{store: st, games: games, tr: tr, log: log, now: now}
}

// loc is the catalog in lang.
func (res *Results) loc(lang string) adapter.Loc { return adapter.NewLoc(res.tr, lang) }

func storeResult(e *record.Result) store.Result {
	r := store.Result{ID: e.ID, Game: e.Game, Chat: e.Chat, Started: e.Started, Ended: e.Ended, Options: e.Options}
	for _, s := range e.Seats {
		r.Seats = append(r.Seats, store.ResultSeat{Player: s.Player, Name: s.Name, Place: s.Place, Score: s.Score, Left: s.Left, Unrated: s.Unrated})
	}
	return r
}

// valid checks what the store would refuse for good: no seats, a seat
// without a place, a player seated twice.
func valid(e *record.Result) bool {
	seen := map[string]bool{}
	for _, s := range e.Seats {
		if s.Place < 1 || s.Player == "" || seen[s.Player] {
			return false
		}
		seen[s.Player] = true
	}
	return e.ID != "" && len(e.Seats) > 0
}

// places lists the seats' places, in seat order.
func places(e *record.Result) []int {
	out := make([]int, len(e.Seats))
	for i, s := range e.Seats {
		out[i] = s.Place
	}
	return out
}

// rated lists which seats the game rates, in seat order: all but the
// people the bot played for.
func rated(e *record.Result) []bool {
	out := make([]bool, len(e.Seats))
	for i, s := range e.Seats {
		out[i] = !s.Unrated
	}
	return out
}

// rate is the store's rating callback: the rated seats' current ratings
// (a new player starts at rating.New) updated by one free-for-all game
// among them; an unrated seat keeps its rating. It is pure but for seen,
// which gets each call's changes in seat order (the store may call it
// again when concurrent writers collide: the last call is the one
// written).
func rate(places []int, rated []bool, seen func([]record.RatingChange)) store.RateFunc {
	return func(cur []store.PlayerStats) (mu, sigma []float64) {
		mu, sigma = make([]float64, len(cur)), make([]float64, len(cur))
		var rs []rating.Rating
		var ranks, idx []int
		for i, p := range cur {
			mu[i], sigma[i] = p.Mu, p.Sigma
			if i < len(rated) && !rated[i] {
				continue
			}
			r := rating.New()
			if p.Sigma != 0 {
				r = rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
			}
			rs, ranks, idx = append(rs, r), append(ranks, places[i]), append(idx, i)
		}
		if len(rs) > 0 {
			for k, r := range rating.Rate(rs, ranks) {
				mu[idx[k]], sigma[idx[k]] = r.Mu, r.Sigma
			}
		}
		if seen != nil {
			ch := make([]record.RatingChange, len(cur))
			for i, p := range cur {
				ch[i] = record.RatingChange{Before: ordinal(p), After: ordinal(store.PlayerStats{Mu: mu[i], Sigma: sigma[i]})}
			}
			seen(ch)
		}
		return mu, sigma
	}
}

// Record stores a finished game and returns its seats' rating changes
// (nil when this call did not rate it: already recorded, or no results
// kept). Recording the same entry again is a no-op in the store, which is
// what makes a retry after a crash safe.
func (res *Results) Record(ctx context.Context, e *record.Result) ([]record.RatingChange, error) {
	rs := res.store
	if rs == nil {
		res.log.Warn().Str("result", e.ID).Msg("the store keeps no results: game not recorded")
		return nil, nil
	}
	if !valid(e) {
		// Retrying cannot fix it, and the queue must move on.
		res.log.Error().Str("result", e.ID).Msg("malformed result dropped")
		return nil, nil
	}
	var changes []record.RatingChange
	recorded, err := rs.RecordResult(ctx, storeResult(e), rate(places(e), rated(e), func(c []record.RatingChange) { changes = c }))
	if err != nil {
		return nil, fmt.Errorf("record result %s: %w", e.ID, err)
	}
	res.log.Debug().Str("result", e.ID).Bool("recorded", recorded).Msg("game result")
	// Due at its month's end (again, on a retry: harmless).
	if err := res.scheduleSeason(ctx, e.Chat, e.Ended); err != nil {
		return nil, fmt.Errorf("record result %s: %w", e.ID, err)
	}
	if !recorded {
		return nil, nil
	}
	return changes, nil
}

// WebRatings keeps a recorded result's rating changes for the page, by
// player id (nil when they are not known: a retried recording).
func (res *Results) WebRatings(e *record.Result, changes []record.RatingChange) map[string][2]float64 {
	if len(changes) == 0 {
		return nil
	}
	out := map[string][2]float64{}
	for i, s := range e.Seats {
		if i < len(changes) && !s.Unrated && s.Player != "" {
			out[s.Player] = [2]float64{changes[i].Before, changes[i].After}
		}
	}
	return out
}

// Valid reports whether a finished game can be recorded at all (what the
// store would refuse for good: no seats, a seat without a place, a player
// seated twice).
func (res *Results) Valid(e *record.Result) bool { return valid(e) }
