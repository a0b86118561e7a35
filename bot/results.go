package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/rating"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// Results: a finished game leaves a record, exactly once.
//
// The change that ends a game (apply) queues a result entry in the table's
// outbox, ahead of the final announcement, in the same commit as the last
// move. The delivery worker reaches it in queue order, records it with the
// store's RecordResult (idempotent per result id) and only then acks it. A
// crash before the ack leaves the entry queued; the retry finds the id
// recorded and changes nothing. So a finished game is never lost (the entry
// is committed with the move) and never counted twice (the store remembers
// the id). A game stopped or cancelled queues nothing.

// resultStore is what results need from the store; store.Redis and
// store.Bolt have it. A store without it (a test double) records nothing.
type resultStore interface {
	RecordResult(ctx context.Context, r store.Result, rate store.RateFunc) (bool, error)
	Top(ctx context.Context, chat int64, game string, n int) ([]store.PlayerStats, error)
	Stats(ctx context.Context, chat int64, game, player string) (store.PlayerStats, bool, error)
	PlayerGames(ctx context.Context, chat int64, player string) (map[string]store.PlayerStats, error)
	PlayerChats(ctx context.Context, player string) ([]int64, error)
	History(ctx context.Context, chat int64, n int) ([]store.Result, error)
	Forget(ctx context.Context, player string) error
	MoveChat(ctx context.Context, from, to int64) error
}

// results is the role that keeps finished games and speaks of them: it
// records a result once and rates it, and draws /stats, /top, /history
// and a person's private result from what the store keeps. The tables
// queue its work (a result entry, a results command) in their outbox, and
// delivery hands each entry over when it reaches it (Bot.resolveOut).
type results struct {
	store resultStore // nil: the store keeps no results
	games *registry
	tr    adapter.Translator
	log   zerolog.Logger
	now   func() time.Time // /history says how long ago
}

// newResults is the results role over st, when st keeps results.
func newResults(st Store, games *registry, tr adapter.Translator, log zerolog.Logger, now func() time.Time) *results {
	rs, _ := st.(resultStore)
	return &results{store: rs, games: games, tr: tr, log: log, now: now}
}

// loc is the catalog in lang.
func (res *results) loc(lang string) adapter.Loc { return adapter.NewLoc(res.tr, lang) }

// resultEntry is a finished game as queued in the outbox (store.Result
// with a stable JSON form). GameNo and Players serve the private results
// (queuePrivateResults); entries queued before they existed have them zero.
type resultEntry struct {
	ID      string       `json:"id"`
	Game    string       `json:"game"`
	Chat    int64        `json:"chat"`
	Started time.Time    `json:"started"`
	Ended   time.Time    `json:"ended"`
	Options string       `json:"opts,omitempty"`
	Seats   []resultSeat `json:"seats"`
	GameNo  int          `json:"game_no,omitempty"`
	Players int          `json:"players,omitempty"`
}

type resultSeat struct {
	Player  string `json:"player"`
	Name    string `json:"name"`
	Place   int    `json:"place"`
	Score   int    `json:"score"`
	Left    bool   `json:"left,omitempty"`
	Unrated bool   `json:"unrated,omitempty"`
	Hinted  bool   `json:"hinted,omitempty"` // unrated because they took a hint
}

// resultID names a game for exactly-once recording: the same on every
// retry of the commit that ended it, and different for every game.
func resultID(t *record.Table) string {
	return t.ID + ":" + strconv.Itoa(t.GameNo) + ":" + strconv.FormatUint(t.Seed, 16)
}

// humanPlayer and robotPlayer are the results' player ids: a person is
// rated per user, a robot per level.
func humanPlayer(user int64) string   { return "u" + strconv.FormatInt(user, 10) }
func robotPlayer(level string) string { return "r" + level }

// robotLevel is the level of a robot's player id ("" for a person).
func robotLevel(player string) (string, bool) {
	level, ok := strings.CutPrefix(player, "r")
	return level, ok && level != ""
}

// againButton opens the next game with the same players (onAgain).
func againButton(l adapter.Loc, t *record.Table) adapter.Button {
	return adapter.Button{Text: l.T("again.button"), Data: callback.Data{Op: 'n', Table: t.ID, GameNo: t.GameNo, Word: t.GameID}.String()}
}

// resultOf describes a finished game: seats in seat order with their place
// and score from the final standings. Robots are rated per level, so two
// robots of one level would be one player twice: only the better placed
// of them is recorded (rating updates need distinct players).
//
// The seats and places are the game's one result list (finalList): a
// person who left is recorded in place of the robot that finished for
// them, last, with score 0. A robot is recorded under its name at the
// table («Робот 1»). A person the bot played for in most of their moves is
// marked unrated.
func (res *results) resultOf(t *record.Table, g adapter.Game, st game.State, ended time.Time) *resultEntry {
	r := &resultEntry{ID: resultID(t), Game: t.GameID, Chat: t.ChatID, Started: t.Started, Ended: ended, Options: optionsText(t, g),
		GameNo: t.GameNo, Players: len(t.Seats)}
	moves, auto := make([]int, len(t.Seats)), make([]int, len(t.Seats))
	for _, m := range t.Log {
		if s := int(m.Seat); s >= 0 && s < len(t.Seats) {
			moves[s]++
			if m.Auto {
				auto[s]++
			}
		}
	}
	list := adapter.FinalList(adapter.View(t), st.Result(), st.Over())
	slices.SortFunc(list, func(a, b adapter.FinalSeat) int { return a.Seat - b.Seat }) // the record is in seat order
	at := map[string]int{}
	for _, f := range list {
		seat := resultSeat{Player: humanPlayer(f.User), Name: f.Name, Place: f.Place, Score: f.Score, Left: f.Left}
		switch {
		case f.Left:
		case f.Level != "":
			seat.Player = robotPlayer(f.Level)
		default:
			hinted := t.Seats[f.Seat].Hinted // a hint taken: not rated
			seat.Unrated, seat.Hinted = 2*auto[f.Seat] > moves[f.Seat] || hinted, hinted
		}
		if j, dup := at[seat.Player]; dup {
			if seat.Place < r.Seats[j].Place {
				r.Seats[j] = seat
			}
			continue
		}
		at[seat.Player] = len(r.Seats)
		r.Seats = append(r.Seats, seat)
	}
	return r
}

// optionsText is the table's option values as text ("removed=2"), in the
// game's option order; "" for a game without options.
func optionsText(t *record.Table, g adapter.Game) string {
	var parts []string
	for _, o := range adapter.Options(g) {
		parts = append(parts, o.Key+"="+strconv.Itoa(adapter.OptionValue(adapter.View(t), g, o.Key)))
	}
	return strings.Join(parts, ",")
}

func (e *resultEntry) storeResult() store.Result {
	r := store.Result{ID: e.ID, Game: e.Game, Chat: e.Chat, Started: e.Started, Ended: e.Ended, Options: e.Options}
	for _, s := range e.Seats {
		r.Seats = append(r.Seats, store.ResultSeat{Player: s.Player, Name: s.Name, Place: s.Place, Score: s.Score, Left: s.Left, Unrated: s.Unrated})
	}
	return r
}

// valid checks what the store would refuse for good: no seats, a seat
// without a place, a player seated twice.
func (e *resultEntry) valid() bool {
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
func (e *resultEntry) places() []int {
	out := make([]int, len(e.Seats))
	for i, s := range e.Seats {
		out[i] = s.Place
	}
	return out
}

// rated lists which seats the game rates, in seat order: all but the
// people the bot played for.
func (e *resultEntry) rated() []bool {
	out := make([]bool, len(e.Seats))
	for i, s := range e.Seats {
		out[i] = !s.Unrated
	}
	return out
}

// ratingChange is a seat's shown rating (the ordinal) before and after a
// game.
type ratingChange struct{ Before, After float64 }

// rate is the store's rating callback: the rated seats' current ratings
// (a new player starts at rating.New) updated by one free-for-all game
// among them; an unrated seat keeps its rating. It is pure but for seen,
// which gets each call's changes in seat order (the store may call it
// again when concurrent writers collide: the last call is the one
// written).
func rate(places []int, rated []bool, seen func([]ratingChange)) store.RateFunc {
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
			ch := make([]ratingChange, len(cur))
			for i, p := range cur {
				ch[i] = ratingChange{Before: ordinal(p), After: ordinal(store.PlayerStats{Mu: mu[i], Sigma: sigma[i]})}
			}
			seen(ch)
		}
		return mu, sigma
	}
}

// record stores a finished game and returns its seats' rating changes
// (nil when this call did not rate it: already recorded, or no results
// kept). Recording the same entry again is a no-op in the store, which is
// what makes a retry after a crash safe.
func (res *results) record(ctx context.Context, e *resultEntry) ([]ratingChange, error) {
	rs := res.store
	if rs == nil {
		res.log.Warn().Str("result", e.ID).Msg("the store keeps no results: game not recorded")
		return nil, nil
	}
	if !e.valid() {
		// Retrying cannot fix it, and the queue must move on.
		res.log.Error().Str("result", e.ID).Msg("malformed result dropped")
		return nil, nil
	}
	var changes []ratingChange
	recorded, err := rs.RecordResult(ctx, e.storeResult(), rate(e.places(), e.rated(), func(c []ratingChange) { changes = c }))
	if err != nil {
		return nil, fmt.Errorf("record result %s: %w", e.ID, err)
	}
	res.log.Debug().Str("result", e.ID).Bool("recorded", recorded).Msg("game result")
	if !recorded {
		return nil, nil
	}
	return changes, nil
}
