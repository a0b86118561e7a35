package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// The setup is cmd/pacegame's: people open their private chats, then each
// table's lobby opens with everyone seated, a few tables at a time;
// buttons are found by their payloads and tables checked in the store, so
// nothing depends on the bot's texts.

// names of the simulated people; a table number is appended.
var personNames = [...]string{"Аня", "Борис", "Вера", "Глеб"}

// setupWait bounds each step of the setup: with many tables the greetings
// and lobbies queue for Telegram's global budget.
const setupWait = 3 * time.Minute

func setup(ctx context.Context, h *bottest.Harness, st *store.Redis, tables []*table, people int) error {
	var all []*telegramtest.User
	for _, t := range tables {
		all = append(all, t.people...)
	}
	err := parallel(len(all), 16, func(i int) error {
		u := all[i]
		u.Start("")
		if _, err := u.PrivateChat().WaitMessage(setupWait, func(m *telegramtest.Message) bool { return m.FromBot }); err != nil {
			return fmt.Errorf("no greeting for %s: %w", u.User().FirstName, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return parallel(len(tables), 8, func(i int) error {
		if err := openLobby(ctx, h, st, tables[i], people); err != nil {
			return fmt.Errorf("table %s: %w", tables[i].id, err)
		}
		return nil
	})
}

// openLobby opens the table's lobby with /newgame and seats the others
// through «join».
func openLobby(ctx context.Context, h *bottest.Harness, st *store.Redis, t *table, people int) error {
	t.people[0].Send(t.group, "/newgame@"+h.Srv.Bot().Username+" trickchef")
	tb, err := waitTable(ctx, st, t.id, func(tb *bot.Table) bool { return tb.Phase == bot.PhaseLobby })
	if err != nil {
		return fmt.Errorf("no lobby: %w", err)
	}
	join := bot.LobbyPayload(tb, "join")
	lobby, err := t.group.WaitMessage(setupWait, func(m *telegramtest.Message) bool {
		_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return b.CallbackData == join })
		return ok
	})
	if err != nil {
		return fmt.Errorf("no lobby message: %w", err)
	}
	for _, u := range t.people[1:] {
		if _, err := u.PressData(lobby, join); err != nil {
			return fmt.Errorf("join: %w", err)
		}
	}
	if tb, err = waitTable(ctx, st, t.id, func(tb *bot.Table) bool { return len(tb.Seats) == people }); err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	t.lobby, t.start = lobby, bot.LobbyPayload(tb, "start")
	return nil
}

// startGame presses «start» as the creator and checks the game is on.
func startGame(ctx context.Context, st *store.Redis, t *table) error {
	if _, err := t.people[0].PressData(t.lobby, t.start); err != nil {
		return fmt.Errorf("table %s: %w", t.id, err)
	}
	_, err := waitTable(ctx, st, t.id, func(tb *bot.Table) bool { return tb.Phase == bot.PhasePlaying })
	return err
}

// waitTable polls the table's record until ok holds.
func waitTable(ctx context.Context, st *store.Redis, id string, ok func(*bot.Table) bool) (*bot.Table, error) {
	deadline := time.Now().Add(setupWait)
	for {
		rec, err := st.Load(ctx, id)
		var tb *bot.Table
		if err == nil {
			tb, err = bot.DecodeTable(rec.Data)
		}
		if err == nil && ok(tb) {
			return tb, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("phase %q, %d seats", tb.Phase, len(tb.Seats))
			}
			return nil, fmt.Errorf("table %s not ready after %v: %w", id, setupWait, err)
		}
		if !sleepCtx(ctx, 20*time.Millisecond) {
			return nil, ctx.Err()
		}
	}
}

// parallel runs fn(0..n-1) on at most k goroutines and returns the first
// error.
func parallel(n, k int, fn func(i int) error) error {
	errs := make(chan error, n)
	sem := make(chan struct{}, k)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(i); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// sleepCtx sleeps for d, or less if ctx ends first (then it reports false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
