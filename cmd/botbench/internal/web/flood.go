package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/cmd/internal/measure"
	"github.com/trickchef/trickchef/cmd/internal/webpage"
)

// floodResult is what n stream attempts and n state reads from one
// initData cost the process, and how a stop with open streams went.
type floodResult struct {
	Name     string `json:"name"`
	Attempts int    `json:"attempts"`
	// Status counts the answers to the stream attempts and to the reads.
	Streams map[int]int `json:"streams"`
	Reads   map[int]int `json:"reads"`
	// Open is how many streams the server kept open at the end.
	Open int `json:"open"`
	// Heap in use after a GC (MiB) and goroutines, before and after.
	HeapBeforeMiB float64 `json:"heap_before_mib"`
	HeapAfterMiB  float64 `json:"heap_after_mib"`
	GorBefore     int     `json:"goroutines_before"`
	GorAfter      int     `json:"goroutines_after"`
	// ShutdownMs is the time from the stop to the server's Shutdown
	// returning, with every stream still open then.
	ShutdownMs float64 `json:"shutdown_ms"`
}

// flood measures one table's page server under a flood from one person's
// initData at a table of game: n stream attempts (each kept open by the
// attacker), then n state reads, then a stop. web is the server's
// configuration.
func flood(ctx context.Context, game string, people int, redisURL, name string, n int, web webapp.Config, logw io.Writer) (floodResult, error) {
	res := floodResult{Name: name, Attempts: n, Streams: map[int]int{}, Reads: map[int]int{}}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	st, srv, closeAll, err := measure.Open(ctx, redisURL, "web")
	if err != nil {
		return res, err
	}
	defer closeAll()
	log := zerolog.New(logw).Level(zerolog.ErrorLevel)
	h := &bottest.Harness{Srv: srv, Store: st, Games: games.All(), Cfg: bot.Config{TurnTimeout: time.Hour}, Log: log}
	if err := h.Start(); err != nil {
		return res, err
	}
	defer h.Stop()
	webCtx, stopWeb := context.WithCancel(ctx)
	defer stopWeb()
	pages, err := webpage.ServeWith(webCtx, web, h.Bot, st, log)
	if err != nil {
		return res, err
	}
	defer pages.Close()
	t := measure.NewTable(srv, 0, people)
	setup := measure.Setup{H: h, Store: st, Game: game, Wait: setupWait}
	if err := setup.Seat(ctx, []*measure.Table{t}); err != nil {
		return res, err
	}
	if err := setup.StartGame(ctx, t); err != nil {
		return res, err
	}
	u := t.People[0]
	if resp, err := pages.Get(ctx, "/api/state", t.ID, u); err == nil { // mint the token, warm up
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	heap0, gor0 := footprint()

	streamCtx, closeStreams := context.WithCancel(ctx)
	defer closeStreams()
	var readers sync.WaitGroup
	for range n {
		resp, err := pages.Get(streamCtx, "/api/events", t.ID, u)
		if err != nil {
			return res, err
		}
		res.Streams[resp.StatusCode]++
		if resp.StatusCode != http.StatusOK {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			continue
		}
		readers.Add(1)
		go func() { // the attacker keeps reading until the server ends it
			defer readers.Done()
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	for range n {
		resp, err := pages.Get(ctx, "/api/state", t.ID, u)
		if err != nil {
			return res, err
		}
		res.Reads[resp.StatusCode]++
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	heap1, gor1 := footprint()
	res.Open = pages.Web.Streams()
	res.HeapBeforeMiB, res.HeapAfterMiB = float64(heap0)/(1<<20), float64(heap1)/(1<<20)
	res.GorBefore, res.GorAfter = gor0, gor1

	// A stop with the streams still open: Run's context ends, then the
	// listener shuts down as cmd/trickchef's does on SIGTERM.
	start := time.Now()
	stopWeb()
	sctx, scancel := context.WithTimeout(ctx, 20*time.Second)
	defer scancel()
	if err := pages.Shutdown(sctx); err != nil {
		return res, fmt.Errorf("shutdown: %w", err)
	}
	res.ShutdownMs = float64(time.Since(start).Microseconds()) / 1000
	closeStreams()
	readers.Wait()
	return res, nil
}

func printFlood(w io.Writer, r floodResult) {
	fmt.Fprintf(w, "%-26s attempts %5d  streams %v  reads %v  open at the end %d  heap %.1f → %.1f MiB  goroutines %d → %d  shutdown %.0f ms\n",
		r.Name, r.Attempts, r.Streams, r.Reads, r.Open, r.HeapBeforeMiB, r.HeapAfterMiB, r.GorBefore, r.GorAfter, r.ShutdownMs)
}
