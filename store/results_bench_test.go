package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

// BenchmarkResults measures the results paths the bot uses per finished
// game and per command, against a real Redis (and Bolt for comparison):
//
//   - record: one 4-seat result into a group of 40 players.
//   - top10: Top(…, 10) of one group with 10,000 recorded games of 40 players;
//     its setup also reports the stored bytes per result (one busy group:
//     the history is capped, so this is mostly stats and result-id markers).
//   - history10: History(…, 10) with 10,000 results spread over 1,000 groups
//     of 8 players; its setup reports the bytes per result when every result
//     is still in a history.
//
// Each reports the p50 and p99 latency of the loop besides ns/op.
//
//	go test -run '^$' -bench BenchmarkResults -benchtime 3s ./store/
func BenchmarkResults(b *testing.B) {
	stores := []struct {
		name string
		new  func(b *testing.B) resultStore
	}{
		{"Redis", func(b *testing.B) resultStore { return NewRedis(redistest.Client(b), redistest.Prefix(b), Config{}) }},
		{"Bolt", func(b *testing.B) resultStore { return resBolt(b) }},
	}
	for _, st := range stores {
		b.Run(st.name+"/record", func(b *testing.B) {
			s, ctx := st.new(b), b.Context()
			rng := rand.New(rand.NewPCG(1, 2))
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				r := benchResult(rng, fmt.Sprint("w", i), resChatA, 40)
				start := time.Now()
				done, err := s.RecordResult(ctx, r, benchRate)
				lat = append(lat, time.Since(start))
				if err != nil || !done {
					b.Fatal(done, err)
				}
			}
			reportLatency(b, lat)
		})
		b.Run(st.name+"/top10", func(b *testing.B) {
			s, ctx := st.new(b), b.Context()
			report := measureFill(b, s, 10_000, func(i int) int64 { return resChatA }, 40)
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				top, err := s.Top(ctx, resChatA, "trickchef", 10)
				lat = append(lat, time.Since(start))
				if err != nil || len(top) != 10 {
					b.Fatal(len(top), err)
				}
			}
			reportLatency(b, lat)
			report()
		})
		b.Run(st.name+"/history10", func(b *testing.B) {
			s, ctx := st.new(b), b.Context()
			report := measureFill(b, s, 10_000, func(i int) int64 { return -1_000_000 - int64(i%1000) }, 8)
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				h, err := s.History(ctx, -1_000_000-int64(i%1000), 10)
				lat = append(lat, time.Since(start))
				if err != nil || len(h) != 10 {
					b.Fatal(len(h), err)
				}
			}
			reportLatency(b, lat)
			report()
		})
	}
}

// benchResult is a 4-seat result of players drawn from u1..u<players>.
func benchResult(rng *rand.Rand, id string, chat int64, players int) Result {
	r := Result{ID: id, Game: "trickchef", Chat: chat, Started: resT0, Ended: resT0.Add(20 * time.Minute),
		Options: "до 100 очков"}
	for place, p := range rng.Perm(players)[:4] {
		r.Seats = append(r.Seats, ResultSeat{Player: fmt.Sprint("u", 100_000_000+p),
			Name: fmt.Sprint("Игрок ", p), Place: place + 1, Score: 100 - 20*place})
	}
	return r
}

// benchRate moves ratings a little, like a real model, without its cost.
func benchRate(cur []PlayerStats) (mu, sigma []float64) {
	for i, p := range cur {
		if p.Sigma == 0 {
			p.Mu, p.Sigma = 25, 25.0/3
		}
		mu = append(mu, p.Mu+float64(len(cur)/2-i)*0.5)
		sigma = append(sigma, p.Sigma*0.99)
	}
	return mu, sigma
}

// measureFill records n results (the i-th in group chatOf(i)). For Redis
// it measures the stored bytes per result two ways — the sum of MEMORY USAGE
// over the store's keys and the change of INFO used_memory — and returns a
// function that reports them (metrics must be reported after b.Loop, which
// clears them when it starts).
func measureFill(b *testing.B, s resultStore, n int, chatOf func(i int) int64, players int) (report func()) {
	ctx := b.Context()
	r, isRedis := s.(*Redis)
	if bs, ok := s.(*Bolt); ok {
		bs.db.NoSync = true // setup only: the fsync per write is measured by record
		defer func() { bs.db.NoSync = false }()
	}
	var usedBefore, keysBefore int64
	if isRedis {
		usedBefore = benchMust(r.UsedMemory(ctx))(b)
		keysBefore = benchMust(r.resKeyBytes(ctx))(b)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		res := benchResult(rng, fmt.Sprint("f", i), chatOf(i), players)
		if _, err := s.RecordResult(ctx, res, benchRate); err != nil {
			b.Fatal(err)
		}
	}
	if !isRedis {
		return func() {}
	}
	used := benchMust(r.UsedMemory(ctx))(b) - usedBefore
	keys := benchMust(r.resKeyBytes(ctx))(b) - keysBefore
	return func() {
		b.ReportMetric(float64(keys)/float64(n), "keyB/result")
		b.ReportMetric(float64(used)/float64(n), "usedB/result")
	}
}

// resKeyBytes sums MEMORY USAGE (exact, SAMPLES 0) over the store's keys.
func (r *Redis) resKeyBytes(ctx context.Context) (int64, error) {
	var total int64
	iter := r.c.Scan(ctx, 0, r.prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		n, err := r.c.MemoryUsage(ctx, iter.Val(), 0).Result()
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, iter.Err()
}

func benchMust[T any](v T, err error) func(b *testing.B) T {
	return func(b *testing.B) T {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
}

// reportLatency reports the median and the 99th percentile of lat.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		i := int(q*float64(len(lat)) + 0.5)
		return float64(lat[min(max(i-1, 0), len(lat)-1)]) / 1e3
	}
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// BenchmarkSeasonResults measures a season's read: one group whose history
// is full (HistoryLimit games of 8 players, 10 a day over 300 days), read
// for its last month (about 300 games: /season, the month's end) and for
// its whole year (/season history). Its setup reports the stored bytes per
// result for Redis.
//
//	go test -run '^$' -bench SeasonResults ./store/
func BenchmarkSeasonResults(b *testing.B) {
	stores := []struct {
		name string
		new  func(b *testing.B) resultStore
	}{
		{"Redis", func(b *testing.B) resultStore { return NewRedis(redistest.Client(b), redistest.Prefix(b), Config{}) }},
		{"Bolt", func(b *testing.B) resultStore { return resBolt(b) }},
	}
	type seasonStore interface {
		SeasonResults(ctx context.Context, chat int64, from, to time.Time) ([]Result, error)
	}
	const perDay = 10
	end := resT0.Add(HistoryLimit / perDay * 24 * time.Hour)
	for _, st := range stores {
		for _, w := range []struct {
			name string
			from time.Time
			want int
		}{
			{"month", end.Add(-30 * 24 * time.Hour), 30 * perDay},
			{"year", end.Add(-365 * 24 * time.Hour), HistoryLimit},
		} {
			b.Run(st.name+"/"+w.name, func(b *testing.B) {
				s, ctx := st.new(b), b.Context()
				report := seasonFill(b, s, perDay)
				ss := s.(seasonStore)
				var lat []time.Duration
				for b.Loop() {
					start := time.Now()
					rs, err := ss.SeasonResults(ctx, resChatA, w.from, end)
					lat = append(lat, time.Since(start))
					if err != nil || len(rs) != w.want {
						b.Fatal(len(rs), err)
					}
				}
				reportLatency(b, lat)
				report()
			})
		}
	}
}

// seasonFill fills group resChatA's history: HistoryLimit games, perDay a
// day, the last ending just before resT0 + HistoryLimit/perDay days.
func seasonFill(b *testing.B, s resultStore, perDay int) (report func()) {
	ctx := b.Context()
	r, isRedis := s.(*Redis)
	if bs, ok := s.(*Bolt); ok {
		bs.db.NoSync = true
		defer func() { bs.db.NoSync = false }()
	}
	var before int64
	if isRedis {
		before = benchMust(r.resKeyBytes(ctx))(b)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	step := 24 * time.Hour / time.Duration(perDay)
	for i := range HistoryLimit {
		res := benchResult(rng, fmt.Sprint("s", i), resChatA, 8)
		res.Ended = resT0.Add(time.Duration(i)*step + step/2)
		res.Started = res.Ended.Add(-20 * time.Minute)
		if _, err := s.RecordResult(ctx, res, benchRate); err != nil {
			b.Fatal(err)
		}
	}
	if !isRedis {
		return func() {}
	}
	keys := benchMust(r.resKeyBytes(ctx))(b) - before
	return func() { b.ReportMetric(float64(keys)/HistoryLimit, "keyB/result") }
}
