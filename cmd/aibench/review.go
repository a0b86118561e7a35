package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/locales"
)

// review plays seeded games of robots of every level against each other
// (or of -players, random among them), seeds every decision as the bot
// does and counts every robot's move as its own, then reviews every seat
// of every game as «🔍 Разбор» would (package bot/review: the judge at
// the bot's budget, its default; -playouts is the robots' budget only),
// and reports the mean accuracy per level, the inaccuracies, mistakes and
// blunders per game, and the CPU one seat's review costs (the CPU time of
// the thread that computed it, p50/p90/p99/max). The last line is one
// JSON object:
//
//	{"game":"chef","games":N,"levels":["random","novice","cook","shef"],"accuracy":[8,50.4,87.3,97.1],
//	 "accuracy_ci95":[...],"decisions":[...],"grades":[[inaccuracies,mistakes,blunders],...],
//	 "review_cpu_ms":{"p50":…,"p90":…,"p99":…,"max":…},"playouts":0,"seconds":…}
//
// levels random first, then easiest first (the adapter's order), accuracy
// the mean over the games and seats of each level, in the same order.

// reviewSummary is the JSON last line.
type reviewSummary struct {
	Game      string    `json:"game"`
	Games     int       `json:"games"`
	Levels    []string  `json:"levels"`
	Accuracy  []float64 `json:"accuracy"`
	CI95      []float64 `json:"accuracy_ci95"`
	Decisions []float64 `json:"decisions"` // judged per game and seat
	// Grades are the inaccuracies, mistakes and blunders per game and
	// seat, by level.
	Grades     [][3]float64 `json:"grades"`
	CPU        quantiles    `json:"review_cpu_ms"`
	Playouts   int          `json:"playouts"`
	Seconds    float64      `json:"seconds"`
	ReportSize quantiles    `json:"report_bytes"`
}

// reviewPlayers is review's default: every level once.
func reviewPlayers(g adapter.Game) string { return strings.Join(adapter.Levels(g), ",") }

func runReview(o *options, stdout, stderr io.Writer) error {
	b, games, err := newBench(o, reviewPlayers)
	if err != nil {
		return err
	}
	if !adapter.Reviewable(b.g) {
		return fmt.Errorf("%s: %w", b.g.ID(), review.ErrNotReviewable)
	}
	b.botSeeds, b.budget = true, 0 // the robots play as the review will ask: by the count
	cat, err := locales.New()
	if err != nil {
		return err
	}
	l := adapter.NewLoc(cat, "ru")
	start := time.Now()
	n := len(b.players)
	acc := make([][]float64, games) // per game, per player
	judged := make([][]int, games)
	grades := make([][][3]int, games)
	var cpu []time.Duration
	var sizes []float64 // stored reports, bytes
	var mu sync.Mutex
	var progress io.Writer
	if o.progress {
		progress = stderr
	}
	err = playAll(b, games, o.workers, progress, runtime.LockOSThread, func(gi int, p *played) error {
		acc[gi], judged[gi], grades[gi] = make([]float64, n), make([]int, n), make([][3]int, n)
		for i, seat := range p.seatOf {
			c := threadCPU()
			r, err := review.Review(b.g, p.tab, seat, l, review.Options{})
			took := threadCPU() - c
			if err != nil {
				return fmt.Errorf("game %d, seat %d: %w", gi, seat, err)
			}
			data, err := r.MarshalBinary()
			if err != nil {
				return err
			}
			acc[gi][i], judged[gi][i] = r.Accuracy, r.Judged
			grades[gi][i] = [3]int{r.Inaccuracies, r.Mistakes, r.Blunders}
			mu.Lock()
			cpu, sizes = append(cpu, took), append(sizes, float64(len(data)))
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return err
	}
	sum := reviewSummary{Game: b.g.ID(), Games: games, Playouts: b.playouts, CPU: quantilesOf(cpu), ReportSize: quantilesOfValues(sizes)}
	order := adapter.Levels(b.g)
	for _, p := range b.players {
		if !slices.Contains(sum.Levels, p.name) {
			sum.Levels = append(sum.Levels, p.name)
		}
	}
	slices.SortStableFunc(sum.Levels, func(x, y string) int { return rank(order, x) - rank(order, y) })
	fmt.Fprintf(stdout, "%d games, players %s, game %s, robots at playouts %d, reviews by the judge at its default budget\n", games, o.playersList(b), b.g.ID(), b.playouts)
	fmt.Fprintf(stdout, "%-10s %6s %20s %15s %30s\n", "level", "seats", "accuracy (95% CI)", "decisions/game", "inacc./mistakes/blunders/game")
	for _, lv := range sum.Levels {
		var xs []float64
		dec := 0
		var gr [3]int
		for i, p := range b.players {
			if p.name != lv {
				continue
			}
			for gi := range games {
				xs = append(xs, acc[gi][i])
				dec += judged[gi][i]
				for k := range gr {
					gr[k] += grades[gi][i][k]
				}
			}
		}
		m, ci := meanCI95(xs, 1)
		per := float64(len(xs))
		sum.Accuracy, sum.CI95 = append(sum.Accuracy, round2(m)), append(sum.CI95, round2(ci))
		sum.Decisions = append(sum.Decisions, round2(float64(dec)/per))
		sum.Grades = append(sum.Grades, [3]float64{round2(float64(gr[0]) / per), round2(float64(gr[1]) / per), round2(float64(gr[2]) / per)})
		fmt.Fprintf(stdout, "%-10s %6d %12.1f%% ± %4.1f %15.1f %14.1f / %.1f / %.1f\n", lv, len(xs)/games, m, ci, float64(dec)/per,
			float64(gr[0])/per, float64(gr[1])/per, float64(gr[2])/per)
	}
	sum.Seconds = time.Since(start).Seconds()
	fmt.Fprintf(stdout, "review of one seat's game, CPU ms: p50 %.1f, p90 %.1f, p99 %.1f, max %.1f (%d reviews); stored report p50 %.0f bytes, max %.0f; %.0fs\n",
		sum.CPU.P50, sum.CPU.P90, sum.CPU.P99, sum.CPU.Max, len(cpu), sum.ReportSize.P50, sum.ReportSize.Max, sum.Seconds)
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, string(line))
	return nil
}

// rank is a level's place among the adapter's levels, easiest first;
// random comes before them all, and one the adapter does not offer after
// them.
func rank(levels []string, l string) int {
	if l == randomKind {
		return -1
	}
	if i := slices.Index(levels, l); i >= 0 {
		return i
	}
	return len(levels)
}

// playersList is the players as given.
func (o *options) playersList(b *bench) string {
	kinds := make([]string, len(b.players))
	for i, p := range b.players {
		kinds[i] = p.kind
	}
	return strings.Join(kinds, ",")
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
