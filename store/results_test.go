package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/trickchef/trickchef/store/redistest"
)

// resultStore is the results method set both stores share; the contract
// below pins its behaviour for each of them.
type resultStore interface {
	RecordResult(ctx context.Context, r Result, rate RateFunc) (bool, error)
	Top(ctx context.Context, chat int64, game string, n int) ([]PlayerStats, error)
	Stats(ctx context.Context, chat int64, game, player string) (PlayerStats, bool, error)
	PlayerGames(ctx context.Context, chat int64, player string) (map[string]PlayerStats, error)
	PlayerChats(ctx context.Context, player string) ([]int64, error)
	History(ctx context.Context, chat int64, n int) ([]Result, error)
	Forget(ctx context.Context, player string) error
	MoveChat(ctx context.Context, from, to int64) error
}

var (
	_ resultStore = (*Redis)(nil)
	_ resultStore = (*Bolt)(nil)
)

func TestResultsRedis(t *testing.T) {
	runResultsContract(t, func(t *testing.T) resultStore {
		return NewRedis(redistest.Client(t), redistest.Prefix(t), Config{})
	})
}

// TestResultsRedisCluster runs the contract against a one-node cluster,
// which refuses any script or transaction whose keys span slots.
func TestResultsRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t).ClusterClient(t)
	runResultsContract(t, func(t *testing.T) resultStore { return NewRedis(c, t.Name()+":", Config{}) })
}

func TestResultsBolt(t *testing.T) {
	runResultsContract(t, func(t *testing.T) resultStore { return resBolt(t) })
}

func resBolt(t testing.TB) *Bolt {
	b, err := OpenBolt(filepath.Join(t.TempDir(), "store.db"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

const (
	resChatA int64 = -1001234567890
	resChatB int64 = -4012345
	resChatC int64 = -1009876543210
)

// resT0 is the clock origin of the results' start and end times.
var resT0 = time.UnixMilli(1_700_000_000_000)

// resGame builds a result: seats given as "player:place:score", named after
// the player; the i-th game of a test ends i minutes after resT0.
func resGame(id, game string, chat int64, i int, seats ...string) Result {
	r := Result{ID: id, Game: game, Chat: chat,
		Started: resT0.Add(time.Duration(i)*time.Minute - 10*time.Minute),
		Ended:   resT0.Add(time.Duration(i) * time.Minute),
		Options: "opts " + id}
	for _, s := range seats {
		var player string
		var place, score int
		if _, err := fmt.Sscanf(s, "%s %d %d", &player, &place, &score); err != nil {
			panic(s)
		}
		r.Seats = append(r.Seats, ResultSeat{Player: player, Name: "name " + player, Place: place, Score: score})
	}
	return r
}

// resRate is a stand-in rating: each seat gains (seats − place) in mu and
// gets sigma 1, so ordinals are easy to predict.
func resRate(r Result) RateFunc {
	return func(cur []PlayerStats) (mu, sigma []float64) {
		for i, p := range cur {
			mu = append(mu, p.Mu+float64(len(r.Seats)-r.Seats[i].Place))
			sigma = append(sigma, 1)
		}
		return mu, sigma
	}
}

func resRecord(t *testing.T, s resultStore, r Result) bool {
	t.Helper()
	done, err := s.RecordResult(t.Context(), r, resRate(r))
	if err != nil {
		t.Fatal(err)
	}
	return done
}

func resMust[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func resOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func resGetStats(t *testing.T, s resultStore, chat int64, game, player string) (PlayerStats, bool) {
	t.Helper()
	p, found, err := s.Stats(t.Context(), chat, game, player)
	if err != nil {
		t.Fatal(err)
	}
	return p, found
}

func resPlayers(ps []PlayerStats) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Player)
	}
	return out
}

func resIDsOf(rs []Result) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// runResultsContract runs the shared results tests; newStore returns an
// empty store of its own for each subtest.
func runResultsContract(t *testing.T, newStore func(t *testing.T) resultStore) {
	t.Run("ExactlyOnce", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		r := resGame("g1", "trickchef", resChatA, 1, "u1 1 30", "u2 2 20", "rshef 3 10")
		if !resRecord(t, s, r) {
			t.Fatal("first RecordResult = false")
		}
		before := resMust(s.PlayerGames(ctx, resChatA, "u1"))(t)
		// The same id again, even with other contents: nothing changes and rate is not asked.
		again := resGame("g1", "trickchef", resChatA, 2, "u1 3 0", "u2 1 99", "rshef 2 5")
		rated := false
		done, err := s.RecordResult(ctx, again, func(cur []PlayerStats) ([]float64, []float64) {
			rated = true
			return resRate(again)(cur)
		})
		if err != nil || done || rated {
			t.Fatalf("duplicate RecordResult = %v, %v (rate called: %v), want false", done, err, rated)
		}
		if after := resMust(s.PlayerGames(ctx, resChatA, "u1"))(t); !reflect.DeepEqual(after, before) {
			t.Fatalf("stats after duplicate = %+v, want %+v", after, before)
		}
		if h := resMust(s.History(ctx, resChatA, 10))(t); len(h) != 1 {
			t.Fatalf("history after duplicate has %d entries", len(h))
		}

		// 20 writers (think replicas) record one new result at once.
		r2 := resGame("g2", "trickchef", resChatA, 3, "u1 2 10", "u2 1 40", "rshef 3 0")
		var wins atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for range 20 {
			wg.Go(func() {
				done, err := s.RecordResult(ctx, r2, resRate(r2))
				if err != nil {
					errs <- err
				}
				if done {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if n := wins.Load(); n != 1 {
			t.Fatalf("%d of 20 concurrent RecordResult calls returned true, want 1", n)
		}
		p, _ := resGetStats(t, s, resChatA, "trickchef", "u2")
		if p.Games != 2 || p.Wins != 1 || p.PlaceSum != 3 {
			t.Fatalf("u2 = %+v, want 2 games, 1 win, place sum 3", p)
		}
		if h := resMust(s.History(ctx, resChatA, 10))(t); !reflect.DeepEqual(resIDsOf(h), []string{"g2", "g1"}) {
			t.Fatalf("history = %v, want [g2 g1]", resIDsOf(h))
		}
	})

	t.Run("ConcurrentGroupWrites", func(t *testing.T) {
		// Different results of one group at once: none may be lost.
		s, ctx := newStore(t), t.Context()
		const n = 20
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				r := resGame(fmt.Sprint("c", i), "sausages", resChatA, i, "u1 1 5", "u2 2 3", fmt.Sprintf("u%d 3 1", 100+i))
				if done, err := s.RecordResult(ctx, r, resRate(r)); err != nil || !done {
					errs <- fmt.Errorf("result %d: %v %v", i, done, err)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		p, _ := resGetStats(t, s, resChatA, "sausages", "u1")
		if p.Games != n || p.Wins != n || p.Mu != 2*n {
			t.Fatalf("u1 = %+v, want %d games and wins, mu %d", p, n, 2*n)
		}
		if h := resMust(s.History(ctx, resChatA, 100))(t); len(h) != n {
			t.Fatalf("history has %d results, want %d", len(h), n)
		}
	})

	t.Run("StatsSums", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		// What rate sees: current stats in seat order, newcomers zero with Player and Name set.
		r1 := resGame("s1", "trickchef", resChatA, 1, "u1 2 -5", "rshef 1 12")
		var seen [][]PlayerStats
		rate := func(r Result) RateFunc {
			return func(cur []PlayerStats) ([]float64, []float64) {
				seen = append(seen, cur)
				return resRate(r)(cur)
			}
		}
		resMust(s.RecordResult(ctx, r1, rate(r1)))(t)
		want := []PlayerStats{{Player: "u1", Name: "name u1"}, {Player: "rshef", Name: "name rshef"}}
		if !reflect.DeepEqual(seen[0], want) {
			t.Fatalf("rate saw %+v, want %+v", seen[0], want)
		}
		r2 := resGame("s2", "trickchef", resChatA, 2, "rshef 2 7", "u1 1 -3")
		r2.Seats[1].Name = "Renamed"
		resMust(s.RecordResult(ctx, r2, rate(r2)))(t)
		want = []PlayerStats{
			{Player: "rshef", Name: "name rshef", Games: 1, Wins: 1, PlaceSum: 1, BestScore: 12, Mu: 1, Sigma: 1},
			{Player: "u1", Name: "Renamed", Games: 1, PlaceSum: 2, BestScore: -5, Sigma: 1},
		}
		if !reflect.DeepEqual(seen[1], want) {
			t.Fatalf("rate saw %+v, want %+v", seen[1], want)
		}
		r3 := resGame("s3", "trickchef", resChatA, 3, "u1 3 -9", "rshef 1 1", "u2 2 0")
		resRecord(t, s, r3)

		u1, found := resGetStats(t, s, resChatA, "trickchef", "u1")
		wantU1 := PlayerStats{Player: "u1", Name: "name u1", Games: 3, Wins: 1, PlaceSum: 6, BestScore: -3, Mu: 1, Sigma: 1}
		if !found || u1 != wantU1 {
			t.Fatalf("u1 = %+v %v, want %+v", u1, found, wantU1)
		}
		shef, _ := resGetStats(t, s, resChatA, "trickchef", "rshef")
		if shef.Games != 3 || shef.Wins != 2 || shef.PlaceSum != 4 || shef.BestScore != 12 || shef.Mu != 3 {
			t.Fatalf("rshef = %+v", shef)
		}
		if _, found := resGetStats(t, s, resChatA, "trickchef", "u9"); found {
			t.Fatal("Stats found a player who never played")
		}
		if _, found := resGetStats(t, s, resChatB, "trickchef", "u1"); found {
			t.Fatal("Stats found u1 in a group they never played in")
		}
		if _, found := resGetStats(t, s, resChatA, "sausages", "u1"); found {
			t.Fatal("Stats found u1 in a game they never played")
		}

		// A nil rate keeps the ratings.
		r4 := resGame("s4", "trickchef", resChatA, 4, "u1 1 50")
		resMust(s.RecordResult(ctx, r4, nil))(t)
		u1, _ = resGetStats(t, s, resChatA, "trickchef", "u1")
		if u1.Games != 4 || u1.Mu != 1 || u1.Sigma != 1 || u1.BestScore != 50 {
			t.Fatalf("after a nil rate u1 = %+v", u1)
		}
	})

	t.Run("Ties", func(t *testing.T) {
		s := newStore(t)
		resRecord(t, s, resGame("t1", "sausages", resChatA, 1, "u1 1 10", "u2 1 10", "u3 3 4", "u4 3 4"))
		for player, wins := range map[string]int{"u1": 1, "u2": 1, "u3": 0, "u4": 0} {
			p, _ := resGetStats(t, s, resChatA, "sausages", player)
			if p.Wins != wins || p.Games != 1 {
				t.Errorf("%s = %+v, want %d wins", player, p, wins)
			}
		}
		// A shared place counts as the middle of the places it spans: 1–2
		// is 1.5, 3–4 is 3.5; three sharing the 2nd take 2–4, 3 each.
		resRecord(t, s, resGame("t2", "sausages", resChatA, 2, "u1 2 5", "u2 2 5", "u3 2 5", "u4 1 9"))
		for player, want := range map[string]float64{"u1": 2.25, "u2": 2.25, "u3": 3.25, "u4": 2.25} {
			p, _ := resGetStats(t, s, resChatA, "sausages", player)
			if p.AveragePlace() != want {
				t.Errorf("%s = %+v: average place %v, want %v", player, p, p.AveragePlace(), want)
			}
		}
		// Merged into another group, the half places come along.
		resOK(t, s.MoveChat(t.Context(), resChatA, resChatB))
		if p, _ := resGetStats(t, s, resChatB, "sausages", "u3"); p.AveragePlace() != 3.25 {
			t.Errorf("moved u3 = %+v: average place %v, want 3.25", p, p.AveragePlace())
		}
	})

	t.Run("Leaderboard", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		if top := resMust(s.Top(ctx, resChatA, "trickchef", 10))(t); len(top) != 0 {
			t.Fatalf("Top of an empty group = %v", top)
		}
		for i := range 2 {
			resRecord(t, s, resGame(fmt.Sprint("l", i), "trickchef", resChatA, i, "u4 4 0", "u3 2 0", "u2 2 0", "u1 1 0"))
		}
		if top := resMust(s.Top(ctx, resChatA, "trickchef", 10))(t); len(top) != 0 {
			t.Fatalf("Top before the third game = %v", resPlayers(top))
		}
		// u5 plays only twice: never ranked, whatever their rating.
		for i := range 2 {
			resRecord(t, s, resGame(fmt.Sprint("x", i), "trickchef", resChatA, 10+i, "u5 1 0", "u6 9 0", "u7 9 0", "u8 9 0", "u9 9 0", "u10 9 0"))
		}
		// Mu after three games: u1 9, u2 6, u3 6, u4 0 (u2 and u3 tie: by id).
		resRecord(t, s, resGame("l2", "trickchef", resChatA, 2, "u4 4 0", "u3 2 0", "u2 2 0", "u1 1 0"))
		top := resMust(s.Top(ctx, resChatA, "trickchef", 10))(t)
		if got := resPlayers(top); !reflect.DeepEqual(got, []string{"u1", "u2", "u3", "u4"}) {
			t.Fatalf("Top = %v, want [u1 u2 u3 u4]", got)
		}
		if top[0].Mu != 9 || top[0].Games != 3 || top[0].Name != "name u1" {
			t.Fatalf("Top[0] = %+v", top[0])
		}
		if got := resPlayers(resMust(s.Top(ctx, resChatA, "trickchef", 2))(t)); !reflect.DeepEqual(got, []string{"u1", "u2"}) {
			t.Fatalf("Top(2) = %v", got)
		}
		if top := resMust(s.Top(ctx, resChatA, "trickchef", 0))(t); len(top) != 0 {
			t.Fatalf("Top(0) = %v", top)
		}
		if top := resMust(s.Top(ctx, resChatA, "sausages", 10))(t); len(top) != 0 {
			t.Fatalf("Top of another game = %v", top)
		}
		// u4 climbs past everyone: the order follows mu − 3σ, sigma included.
		r := resGame("l4", "trickchef", resChatA, 4, "u4 1 0")
		resMust(s.RecordResult(ctx, r, func(cur []PlayerStats) ([]float64, []float64) {
			return []float64{30}, []float64{5} // ordinal 15
		}))(t)
		if got := resPlayers(resMust(s.Top(ctx, resChatA, "trickchef", 10))(t)); !reflect.DeepEqual(got, []string{"u4", "u1", "u2", "u3"}) {
			t.Fatalf("Top = %v, want [u4 u1 u2 u3]", got)
		}
		r = resGame("l5", "trickchef", resChatA, 5, "u4 1 0")
		resMust(s.RecordResult(ctx, r, func(cur []PlayerStats) ([]float64, []float64) {
			return []float64{30}, []float64{8} // ordinal 6, as u1's: by id
		}))(t)
		if got := resPlayers(resMust(s.Top(ctx, resChatA, "trickchef", 10))(t)); !reflect.DeepEqual(got, []string{"u1", "u4", "u2", "u3"}) {
			t.Fatalf("Top = %v, want [u1 u4 u2 u3]", got)
		}
	})

	t.Run("History", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		if h := resMust(s.History(ctx, resChatA, 10))(t); len(h) != 0 {
			t.Fatalf("History of an empty group = %v", h)
		}
		first := resGame("h0", "trickchef", resChatA, 0, "u1 2 -1", "rshef 1 25")
		first.Options = "до 100 очков, 2 колоды"
		first.Seats[0].Name = "Анна 🃏"
		resRecord(t, s, first)
		h := resMust(s.History(ctx, resChatA, 10))(t)
		if len(h) != 1 || !bytes.Equal(encodeResult(&h[0]), encodeResult(&first)) ||
			!h[0].Started.Equal(first.Started) || !h[0].Ended.Equal(first.Ended) {
			t.Fatalf("History = %+v, want %+v", h, first)
		}
		for i := 1; i < HistoryLimit+5; i++ {
			resRecord(t, s, resGame(fmt.Sprint("h", i), "sausages", resChatA, i, "u1 1 1", "u2 2 0"))
		}
		h = resMust(s.History(ctx, resChatA, 2*HistoryLimit))(t)
		if len(h) != HistoryLimit || h[0].ID != fmt.Sprint("h", HistoryLimit+4) || h[HistoryLimit-1].ID != "h5" {
			t.Fatalf("History has %d entries from %s to %s, want %d from h%d to h5",
				len(h), h[0].ID, h[len(h)-1].ID, HistoryLimit, HistoryLimit+4)
		}
		if got := resIDsOf(resMust(s.History(ctx, resChatA, 3))(t)); !reflect.DeepEqual(got, []string{fmt.Sprint("h", HistoryLimit+4), fmt.Sprint("h", HistoryLimit+3), fmt.Sprint("h", HistoryLimit+2)}) {
			t.Fatalf("History(3) = %v", got)
		}
		// Dropped from the history, still counted in the stats.
		if p, _ := resGetStats(t, s, resChatA, "trickchef", "u1"); p.Games != 1 {
			t.Fatalf("u1 trickchef = %+v after its only game left the history", p)
		}
		if p, _ := resGetStats(t, s, resChatA, "sausages", "u1"); p.Games != HistoryLimit+4 {
			t.Fatalf("u1 sausages games = %d, want %d", p.Games, HistoryLimit+4)
		}
		// Result ids older than the history are still known.
		if resRecord(t, s, resGame("h1", "sausages", resChatA, 1, "u1 1 1", "u2 2 0")) {
			t.Fatal("a result that left the history was recorded again")
		}
	})

	t.Run("SeasonResults", func(t *testing.T) { testSeasonResults(t, newStore(t)) })
	t.Run("SeatFlags", func(t *testing.T) {
		// A leaver and a person the bot played for: the flags come back
		// from the history, and the game counts in their stats.
		s, ctx := newStore(t), t.Context()
		r := resGame("f1", "trickchef", resChatA, 0, "u1 1 30", "u2 2 -5", "u3 3 0")
		r.Seats[1].Unrated = true
		r.Seats[2].Left = true
		resRecord(t, s, r)
		h := resMust(s.History(ctx, resChatA, 1))(t)
		if len(h) != 1 || h[0].Seats[0].Left || h[0].Seats[0].Unrated || !h[0].Seats[1].Unrated || h[0].Seats[1].Left ||
			!h[0].Seats[2].Left || h[0].Seats[2].Unrated {
			t.Fatalf("History = %+v: flags lost", h)
		}
		for _, player := range []string{"u2", "u3"} {
			if p, _ := resGetStats(t, s, resChatA, "trickchef", player); p.Games != 1 {
				t.Fatalf("%s = %+v: want the game counted", player, p)
			}
		}
	})

	t.Run("PlayerGamesAndChats", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		resRecord(t, s, resGame("a1", "trickchef", resChatA, 1, "u1 1 10", "rshef 2 5"))
		resRecord(t, s, resGame("a2", "sausages", resChatA, 2, "u1 2 3", "u2 1 8"))
		resRecord(t, s, resGame("b1", "trickchef", resChatB, 3, "u1 2 1", "u3 1 9"))
		if got := resMust(s.PlayerChats(ctx, "u1"))(t); !reflect.DeepEqual(got, []int64{resChatA, resChatB}) {
			t.Fatalf("PlayerChats(u1) = %v, want [%d %d]", got, resChatA, resChatB)
		}
		if got := resMust(s.PlayerChats(ctx, "u3"))(t); !reflect.DeepEqual(got, []int64{resChatB}) {
			t.Fatalf("PlayerChats(u3) = %v", got)
		}
		if got := resMust(s.PlayerChats(ctx, "rshef"))(t); len(got) != 0 {
			t.Fatalf("robots are indexed: %v", got)
		}
		games := resMust(s.PlayerGames(ctx, resChatA, "u1"))(t)
		if len(games) != 2 || games["trickchef"].Wins != 1 || games["sausages"].PlaceSum != 2 || games["sausages"].Player != "u1" {
			t.Fatalf("PlayerGames(A, u1) = %+v", games)
		}
		games = resMust(s.PlayerGames(ctx, resChatB, "u1"))(t)
		if len(games) != 1 || games["trickchef"].Games != 1 || games["trickchef"].Wins != 0 {
			t.Fatalf("PlayerGames(B, u1) = %+v", games)
		}
		if games := resMust(s.PlayerGames(ctx, resChatB, "u2"))(t); len(games) != 0 {
			t.Fatalf("PlayerGames(B, u2) = %+v", games)
		}
		if games := resMust(s.PlayerGames(ctx, resChatA, "rshef"))(t); len(games) != 1 {
			t.Fatalf("PlayerGames(A, rshef) = %+v", games)
		}
	})

	t.Run("Forget", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		for i := range 3 {
			resRecord(t, s, resGame(fmt.Sprint("a", i), "trickchef", resChatA, i, "u1 1 10", "u2 2 5", "rshef 3 1"))
		}
		resRecord(t, s, resGame("a9", "sausages", resChatA, 9, "u2 1 4", "u1 2 2"))
		resRecord(t, s, resGame("b1", "trickchef", resChatB, 10, "u3 1 4", "u1 2 2"))
		u2Before := resMust(s.PlayerGames(ctx, resChatA, "u2"))(t)

		resOK(t, s.Forget(ctx, "u1"))
		for _, chat := range []int64{resChatA, resChatB} {
			if g := resMust(s.PlayerGames(ctx, chat, "u1"))(t); len(g) != 0 {
				t.Fatalf("PlayerGames(%d, u1) after Forget = %+v", chat, g)
			}
			for _, r := range resMust(s.History(ctx, chat, 100))(t) {
				for _, seat := range r.Seats {
					if seat.Player == "u1" || seat.Name == "name u1" {
						t.Fatalf("history %s still names u1: %+v", r.ID, r.Seats)
					}
				}
			}
		}
		if got := resMust(s.PlayerChats(ctx, "u1"))(t); len(got) != 0 {
			t.Fatalf("PlayerChats(u1) after Forget = %v", got)
		}
		if got := resPlayers(resMust(s.Top(ctx, resChatA, "trickchef", 10))(t)); !reflect.DeepEqual(got, []string{"u2", "rshef"}) {
			t.Fatalf("Top after Forget = %v, want [u2 rshef]", got)
		}
		// The seat stays (places still read right), blanked; the others are untouched.
		h := resMust(s.History(ctx, resChatA, 1))(t)
		want := []ResultSeat{{Player: "u2", Name: "name u2", Place: 1, Score: 4}, {Place: 2, Score: 2}}
		if !reflect.DeepEqual(h[0].Seats, want) {
			t.Fatalf("scrubbed seats = %+v, want %+v", h[0].Seats, want)
		}
		if got := resMust(s.PlayerGames(ctx, resChatA, "u2"))(t); !reflect.DeepEqual(got, u2Before) {
			t.Fatalf("u2 after Forget of u1 = %+v, want %+v", got, u2Before)
		}
		if got := resMust(s.PlayerChats(ctx, "u3"))(t); !reflect.DeepEqual(got, []int64{resChatB}) {
			t.Fatalf("PlayerChats(u3) = %v", got)
		}
		// Idempotent, also for someone unknown.
		resOK(t, s.Forget(ctx, "u1"))
		resOK(t, s.Forget(ctx, "u404"))
		// A later game counts anew.
		resRecord(t, s, resGame("a10", "trickchef", resChatA, 10, "u1 1 1", "u2 2 0"))
		if p, _ := resGetStats(t, s, resChatA, "trickchef", "u1"); p.Games != 1 {
			t.Fatalf("u1 after Forget and a new game = %+v", p)
		}
		if got := resMust(s.PlayerChats(ctx, "u1"))(t); !reflect.DeepEqual(got, []int64{resChatA}) {
			t.Fatalf("PlayerChats(u1) = %v", got)
		}
	})

	t.Run("MoveChat", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		for i := range 3 {
			resRecord(t, s, resGame(fmt.Sprint("old", i), "trickchef", resChatB, i, "u1 1 10", "u2 2 5", "rshef 3 1"))
		}
		resRecord(t, s, resGame("old3", "sausages", resChatB, 3, "u2 1 4", "u1 2 2"))
		resRecord(t, s, resGame("oth", "trickchef", resChatC, 4, "u1 1 1", "u9 2 1"))
		// The supergroup already saw a game (its migration was noticed late).
		resRecord(t, s, resGame("new0", "trickchef", resChatA, 5, "u2 1 30", "u3 2 0"))

		resOK(t, s.MoveChat(ctx, resChatB, resChatA))
		if h := resMust(s.History(ctx, resChatB, 10))(t); len(h) != 0 {
			t.Fatalf("old group still has history %v", resIDsOf(h))
		}
		if g := resMust(s.PlayerGames(ctx, resChatB, "u1"))(t); len(g) != 0 {
			t.Fatalf("old group still has stats %+v", g)
		}
		if top := resMust(s.Top(ctx, resChatB, "trickchef", 10))(t); len(top) != 0 {
			t.Fatalf("old group still has a leaderboard %v", resPlayers(top))
		}
		h := resMust(s.History(ctx, resChatA, 10))(t)
		if got := resIDsOf(h); !reflect.DeepEqual(got, []string{"new0", "old3", "old2", "old1", "old0"}) {
			t.Fatalf("merged history = %v", got)
		}
		for _, r := range h {
			if r.Chat != resChatA {
				t.Fatalf("moved result %s has chat %d", r.ID, r.Chat)
			}
		}
		u2, _ := resGetStats(t, s, resChatA, "trickchef", "u2")
		if u2.Games != 4 || u2.Wins != 1 || u2.PlaceSum != 7 || u2.BestScore != 30 || u2.Mu != 1 {
			t.Fatalf("merged u2 = %+v (rating of the new group's game kept)", u2)
		}
		u1 := resMust(s.PlayerGames(ctx, resChatA, "u1"))(t)
		if u1["trickchef"].Games != 3 || u1["trickchef"].Mu != 6 || u1["sausages"].Games != 1 {
			t.Fatalf("moved u1 = %+v", u1)
		}
		if got := resPlayers(resMust(s.Top(ctx, resChatA, "trickchef", 10))(t)); !reflect.DeepEqual(got, []string{"u1", "u2", "rshef"}) {
			t.Fatalf("merged Top = %v", got)
		}
		for player, want := range map[string][]int64{"u1": {resChatC, resChatA}, "u2": {resChatA}, "u3": {resChatA}} {
			if got := resMust(s.PlayerChats(ctx, player))(t); !reflect.DeepEqual(got, want) {
				t.Fatalf("PlayerChats(%s) = %v, want %v", player, got, want)
			}
		}

		// Idempotent.
		resOK(t, s.MoveChat(ctx, resChatB, resChatA))
		if again, _ := resGetStats(t, s, resChatA, "trickchef", "u2"); again != u2 {
			t.Fatalf("u2 after a repeated MoveChat = %+v, want %+v", again, u2)
		}
		// A late retry of an old result is still a duplicate; a late new one lands in the new group.
		if resRecord(t, s, resGame("old1", "trickchef", resChatB, 1, "u1 1 10", "u2 2 5", "rshef 3 1")) {
			t.Fatal("a moved result was recorded again")
		}
		if !resRecord(t, s, resGame("late", "trickchef", resChatB, 6, "u1 1 10", "u3 2 5")) {
			t.Fatal("a late result for the old group was refused")
		}
		if p, _ := resGetStats(t, s, resChatA, "trickchef", "u1"); p.Games != 4 {
			t.Fatalf("u1 after the late result = %+v", p)
		}
		if h := resMust(s.History(ctx, resChatA, 1))(t); h[0].ID != "late" || h[0].Chat != resChatA {
			t.Fatalf("late result in history = %+v", h[0])
		}
		if h := resMust(s.History(ctx, resChatB, 10))(t); len(h) != 0 {
			t.Fatalf("old group has history again: %v", resIDsOf(h))
		}
		// Forget finds the moved stats.
		resOK(t, s.Forget(ctx, "u1"))
		if g := resMust(s.PlayerGames(ctx, resChatA, "u1"))(t); len(g) != 0 {
			t.Fatalf("u1 after Forget = %+v", g)
		}
		// Moving a group without results is fine; a chat cannot move to itself.
		resOK(t, s.MoveChat(ctx, 77, 78))
		if err := s.MoveChat(ctx, resChatA, resChatA); err == nil {
			t.Fatal("MoveChat to itself accepted")
		}
	})

	t.Run("Invalid", func(t *testing.T) {
		s, ctx := newStore(t), t.Context()
		good := resGame("ok", "trickchef", resChatA, 1, "u1 1 1", "u2 2 0")
		for name, mutate := range map[string]func(r *Result){
			"empty id":        func(r *Result) { r.ID = "" },
			"space in id":     func(r *Result) { r.ID = "a b" },
			"no game":         func(r *Result) { r.Game = "" },
			"chat 0":          func(r *Result) { r.Chat = 0 },
			"no seats":        func(r *Result) { r.Seats = nil },
			"empty player":    func(r *Result) { r.Seats[0].Player = "" },
			"player twice":    func(r *Result) { r.Seats[1].Player = r.Seats[0].Player },
			"place 0":         func(r *Result) { r.Seats[0].Place = 0 },
			"brace in player": func(r *Result) { r.Seats[0].Player = "u{1}" },
		} {
			r := good
			r.Seats = append([]ResultSeat(nil), good.Seats...)
			mutate(&r)
			if done, err := s.RecordResult(ctx, r, nil); err == nil || done {
				t.Errorf("%s: RecordResult = %v, %v; want an error", name, done, err)
			}
		}
		for name, rate := range map[string]RateFunc{
			"short":    func([]PlayerStats) ([]float64, []float64) { return []float64{1}, []float64{1} },
			"NaN":      func([]PlayerStats) ([]float64, []float64) { return []float64{math.NaN(), 1}, []float64{1, 1} },
			"negative": func([]PlayerStats) ([]float64, []float64) { return []float64{1, 1}, []float64{1, -1} },
		} {
			if done, err := s.RecordResult(ctx, good, rate); err == nil || done {
				t.Errorf("rate %s: RecordResult = %v, %v; want an error", name, done, err)
			}
		}
		if h := resMust(s.History(ctx, resChatA, 10))(t); len(h) != 0 {
			t.Fatalf("a refused result was stored: %v", resIDsOf(h))
		}
		// The refusals left the id free.
		if !resRecord(t, s, good) {
			t.Fatal("a valid result after refused ones was not recorded")
		}
	})
}

// TestResultKeysShareSlot checks that a group's results keys hash to one
// slot, the slot of the group's table, and that the server agrees.
func TestResultKeysShareSlot(t *testing.T) {
	srv := redistest.StartCluster(t)
	c := srv.Client(t)
	for _, prefix := range []string{"", "tc:"} {
		r := NewRedis(nil, prefix, Config{})
		for _, chat := range []int64{resChatA, resChatB, 1, 42} {
			want := slot(r.recKey(strconv.FormatInt(chat, 10)))
			for _, k := range r.resGroupKeys(chat, []string{"trickchef", "sausages", "x}y"}) {
				if got := slot(k); got != want {
					t.Errorf("%s in slot %d, the table in %d", k, got, want)
				}
				server, err := c.ClusterKeySlot(t.Context(), k).Result()
				if err != nil {
					t.Fatal(err)
				}
				if int(server) != want {
					t.Errorf("CLUSTER KEYSLOT %s = %d, want %d", k, server, want)
				}
			}
		}
	}
}

// TestResultRetention checks that result ids are forgotten after
// ResultRetention and not before.
func TestResultRetention(t *testing.T) {
	t.Run("Bolt", func(t *testing.T) {
		b := resBolt(t)
		now := resT0
		b.now = func() time.Time { return now }
		r := resGame("r1", "trickchef", resChatA, 1, "u1 1 1")
		if !resRecord(t, b, r) {
			t.Fatal("not recorded")
		}
		now = now.Add(ResultRetention - time.Minute)
		resRecord(t, b, resGame("r2", "trickchef", resChatA, 2, "u1 1 1"))
		if resRecord(t, b, r) {
			t.Fatal("r1 recorded twice within the retention")
		}
		now = now.Add(2 * time.Minute)
		resRecord(t, b, resGame("r3", "trickchef", resChatA, 3, "u1 1 1")) // sweeps r1
		if !resRecord(t, b, r) {
			t.Fatal("r1 still remembered after the retention")
		}
		if resRecord(t, b, resGame("r2", "trickchef", resChatA, 2, "u1 1 1")) {
			t.Fatal("r2 forgotten within the retention")
		}
	})
	t.Run("Redis", func(t *testing.T) {
		ctx := t.Context()
		c := redistest.Client(t)
		r := NewRedis(c, redistest.Prefix(t), Config{})
		r1 := resGame("r1", "trickchef", resChatA, 1, "u1 1 1")
		resRecord(t, r, r1)
		if ttl := c.PTTL(ctx, r.resIDsKey(resChatA)).Val(); ttl <= ResultRetention-time.Minute || ttl > ResultRetention {
			t.Fatalf("ids TTL = %v, want about %v", ttl, ResultRetention)
		}
		// Age r1 past the retention as the server's clock sees it.
		old := float64(time.Now().Add(-ResultRetention - time.Minute).UnixMilli())
		if err := c.ZAddXX(ctx, r.resIDsKey(resChatA), redis.Z{Score: old, Member: "r1"}).Err(); err != nil {
			t.Fatal(err)
		}
		resRecord(t, r, resGame("r2", "trickchef", resChatA, 2, "u1 1 1"))
		if n := c.ZCard(ctx, r.resIDsKey(resChatA)).Val(); n != 1 {
			t.Fatalf("%d result ids kept, want 1 (r1 trimmed)", n)
		}
		if !resRecord(t, r, r1) {
			t.Fatal("r1 still remembered after the retention")
		}
	})
}

// TestResultFormat1Decodes reads a result as stored before seats had
// flags (format 1): it must stay readable, its seats neither left nor
// unrated.
func TestResultFormat1Decodes(t *testing.T) {
	old := []byte{1}
	old = appendString(old, "-100:3:ab")
	old = appendString(old, "trickchef")
	old = binary.AppendVarint(old, -100)
	old = binary.AppendVarint(old, 1_700_000_000_000)
	old = binary.AppendVarint(old, 1_700_000_600_000)
	old = appendString(old, "removed=2")
	old = binary.AppendUvarint(old, 2)
	for _, s := range []struct {
		player, name string
		place, score int
	}{{"u7", "Оля", 1, 19}, {"rshef", "шеф", 2, -3}} {
		old = appendString(old, s.player)
		old = appendString(old, s.name)
		old = binary.AppendUvarint(old, uint64(s.place))
		old = binary.AppendVarint(old, int64(s.score))
	}
	r, err := decodeResult(old)
	want := []ResultSeat{{Player: "u7", Name: "Оля", Place: 1, Score: 19}, {Player: "rshef", Name: "шеф", Place: 2, Score: -3}}
	if err != nil || r.ID != "-100:3:ab" || r.Options != "removed=2" || !reflect.DeepEqual(r.Seats, want) ||
		r.Ended.UnixMilli() != 1_700_000_600_000 {
		t.Fatalf("format 1 = %+v, %v", r, err)
	}
	// Written again, it takes the current format and keeps everything.
	again, err := decodeResult(encodeResult(&r))
	if err != nil || !reflect.DeepEqual(again.Seats, want) || encodeResult(&again)[0] != resultFormat {
		t.Fatalf("re-encoded = %+v, %v", again, err)
	}
}

// TestResultEncoding checks the encodings round-trip and that damaged bytes
// are refused rather than misread.
func TestResultEncoding(t *testing.T) {
	r := resGame("id-1", "trickchef", -1001234567890, 3, "u123 1 -40", "rshef 2 1000000")
	r.Options = "Ⅱ ✓"
	r.Seats[0].Unrated, r.Seats[1].Left = true, true
	got, err := decodeResult(encodeResult(&r))
	if err != nil || !reflect.DeepEqual(encodeResult(&got), encodeResult(&r)) || !got.Ended.Equal(r.Ended) || got.Chat != r.Chat {
		t.Fatalf("round trip = %+v, %v; want %+v", got, err, r)
	}
	p := PlayerStats{Player: "u1", Name: "Имя", Games: 300, Wins: 7, PlaceSum: 900, BestScore: -3, Mu: 27.5, Sigma: 1.0 / 3}
	q, err := decodeStats("u1", encodeStats(p))
	if err != nil || q != p {
		t.Fatalf("stats round trip = %+v, %v", q, err)
	}
	if f := encodeStats(p)[0]; f != statsFormat {
		t.Fatalf("stats without shared places written in format %d, want %d (readable by older code)", f, statsFormat)
	}
	tied := p
	tied.TieHalves = 5
	if q, err := decodeStats("u1", encodeStats(tied)); err != nil || q != tied {
		t.Fatalf("stats with shared places round trip = %+v, %v", q, err)
	}
	// Stats written before TieHalves existed, byte for byte.
	old := []byte{1, 0xac, 0x02, 7, 0x84, 0x07, 5}
	old = binary.BigEndian.AppendUint64(old, math.Float64bits(27.5))
	old = binary.BigEndian.AppendUint64(old, math.Float64bits(1.0/3))
	old = append(old, "Имя"...)
	if q, err := decodeStats("u1", old); err != nil || q != p {
		t.Fatalf("format 1 stats = %+v, %v; want %+v", q, err, p)
	}
	enc := encodeResult(&r)
	for i := range len(enc) - 1 {
		if _, err := decodeResult(enc[:i]); err == nil {
			t.Fatalf("decodeResult accepted %d of %d bytes", i, len(enc))
		}
	}
	if _, err := decodeResult(append(enc, 0)); err == nil {
		t.Fatal("decodeResult accepted trailing bytes")
	}
	st := encodeStats(p)
	for i := range 18 {
		if _, err := decodeStats("u1", st[:i]); err == nil {
			t.Fatalf("decodeStats accepted %d bytes", i)
		}
	}
}

// TestOrderedFloat checks the Bolt leaderboard key orders like the numbers.
func TestOrderedFloat(t *testing.T) {
	fs := []float64{math.Inf(-1), -1e300, -2.5, -1, -1e-300, 0, 1e-300, 1, 2.5, 1e300, math.Inf(1)}
	for i := 1; i < len(fs); i++ {
		if bytes.Compare(orderedFloat(fs[i-1]), orderedFloat(fs[i])) >= 0 {
			t.Errorf("orderedFloat(%v) ≥ orderedFloat(%v)", fs[i-1], fs[i])
		}
	}
}

// testSeasonResults: a group's results in a time window, oldest first,
// whatever order they were recorded in (a late one within SeasonSlack),
// across more than a page of history, not another group's; a forgotten
// person is blank there too, and a moved group's season moves with it.
func testSeasonResults(t *testing.T, s resultStore) {
	ctx := t.Context()
	type seasonStore interface {
		SeasonResults(ctx context.Context, chat int64, from, to time.Time) ([]Result, error)
	}
	ss := s.(seasonStore)
	at := func(i int) time.Time { return resT0.Add(time.Duration(i) * time.Minute) }
	// 600 games a minute apart, recorded in order but for game 300,
	// recorded after game 310 (late).
	for i := 1; i <= 600; i++ {
		if i == 300 {
			continue
		}
		resRecord(t, s, resGame(fmt.Sprint("s", i), "trickchef", resChatA, i, "u1 1 5", "u2 2 3"))
		if i == 310 {
			resRecord(t, s, resGame("s300", "trickchef", resChatA, 300, "u1 1 5", "u2 2 3"))
		}
	}
	resRecord(t, s, resGame("other", "trickchef", resChatB, 200, "u1 1 5", "u3 2 3"))

	got := resMust(ss.SeasonResults(ctx, resChatA, at(100), at(350)))(t)
	if len(got) != 250 || got[0].ID != "s100" || got[199].ID != "s299" || got[200].ID != "s300" || got[249].ID != "s349" {
		t.Fatalf("SeasonResults [100, 350) = %d results from %s to %s", len(got), got[0].ID, got[len(got)-1].ID)
	}
	for i := 1; i < len(got); i++ {
		if !got[i-1].Ended.Before(got[i].Ended) {
			t.Fatalf("not oldest first: %s then %s", got[i-1].ID, got[i].ID)
		}
	}
	if got[0].Seats[0].Name != "name u1" || got[0].Chat != resChatA || !got[0].Ended.Equal(at(100)) {
		t.Fatalf("SeasonResults[0] = %+v", got[0])
	}
	if got := resMust(ss.SeasonResults(ctx, resChatA, at(601), at(700)))(t); len(got) != 0 {
		t.Fatalf("an empty window: %d results", len(got))
	}
	if got := resMust(ss.SeasonResults(ctx, resChatA, at(350), at(100)))(t); len(got) != 0 {
		t.Fatalf("a backward window: %d results", len(got))
	}
	if got := resMust(ss.SeasonResults(ctx, -777, at(0), at(1000)))(t); len(got) != 0 {
		t.Fatalf("a group with no results: %d results", len(got))
	}
	if got := resMust(ss.SeasonResults(ctx, resChatB, at(0), at(1000)))(t); len(got) != 1 || got[0].ID != "other" {
		t.Fatalf("group B's season = %v", resIDsOf(got))
	}

	// Forgotten: blank in the season too.
	resOK(t, s.Forget(ctx, "u2"))
	got = resMust(ss.SeasonResults(ctx, resChatA, at(590), at(601)))(t)
	if len(got) != 11 || got[0].Seats[1].Player != "" || got[0].Seats[1].Name != "" || got[0].Seats[0].Player != "u1" {
		t.Fatalf("after Forget(u2): %+v", got[0])
	}

	// Moved: the season is the new group's.
	resOK(t, s.MoveChat(ctx, resChatB, resChatC))
	got = resMust(ss.SeasonResults(ctx, resChatC, at(0), at(1000)))(t)
	if len(got) != 1 || got[0].ID != "other" || got[0].Chat != resChatC {
		t.Fatalf("moved group's season = %+v", got)
	}
	if got := resMust(ss.SeasonResults(ctx, resChatB, at(0), at(1000)))(t); len(got) != 0 {
		t.Fatalf("the old group's season = %v", resIDsOf(got))
	}
}
