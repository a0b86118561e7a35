package measure

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// personNames are the simulated people's names; a table number is
// appended.
var personNames = [...]string{"Аня", "Борис", "Вера", "Глеб", "Даша", "Егор"}

// MaxPeople is how many people NewTable can seat at a table.
const MaxPeople = len(personNames)

// Table is one group of simulated people, as the scenarios that play
// through the fake Bot API (cmd/botbench pace, press, web) seat them.
type Table struct {
	ID     string
	Group  *telegramtest.Chat
	People []*telegramtest.User
	Lobby  *telegramtest.Message // set by Seat
	Start  string                // the payload of the lobby's «start», set by Seat
}

// NewTable makes the i'th table's people and their group on srv.
func NewTable(srv *telegramtest.Server, i, people int) *Table {
	t := &Table{}
	for j := range people {
		t.People = append(t.People, srv.NewUser(personNames[j]+" "+strconv.Itoa(i+1)))
	}
	t.Group = srv.NewGroup("Стол "+strconv.Itoa(i+1), t.People...)
	t.ID = strconv.FormatInt(t.Group.ID(), 10)
	return t
}

// Setup opens lobbies and starts games on a running bot. It finds buttons
// by their payloads and checks the tables in the store, so it does not
// depend on the bot's texts.
type Setup struct {
	H      *bottest.Harness
	Store  *store.Redis
	Game   string // the game id given to /newgame
	Robots int    // robots added to each table
	// Wait bounds each step: with many tables the greetings and lobbies
	// queue for Telegram's global budget.
	Wait time.Duration
}

// Seat has every person open their private chat with the bot, then opens
// each table's lobby with everyone seated, a few tables at a time.
func (s Setup) Seat(ctx context.Context, tables []*Table) error {
	var people []*telegramtest.User
	for _, t := range tables {
		people = append(people, t.People...)
	}
	err := Parallel(len(people), 16, func(i int) error {
		u := people[i]
		u.Start("")
		_, err := u.PrivateChat().WaitMessage(s.Wait, func(m *telegramtest.Message) bool { return m.FromBot })
		if err != nil {
			return fmt.Errorf("no greeting for %s: %w", u.User().FirstName, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return Parallel(len(tables), 8, func(i int) error {
		if err := s.openLobby(ctx, tables[i]); err != nil {
			return fmt.Errorf("table %s: %w", tables[i].ID, err)
		}
		return nil
	})
}

// openLobby opens the table's lobby with /newgame <game>, seats the others
// through «join» and adds the robots.
func (s Setup) openLobby(ctx context.Context, t *Table) error {
	creator := t.People[0]
	creator.Send(t.Group, "/newgame@"+s.H.Srv.Bot().Username+" "+s.Game)
	tb, err := s.WaitTable(ctx, t.ID, func(tb *record.Table) bool { return tb.Phase == record.PhaseLobby && tb.GameID == s.Game })
	if err != nil {
		return fmt.Errorf("no lobby: %w", err)
	}
	join := bot.LobbyPayload(tb, "join")
	lobby, err := t.Group.WaitMessage(s.Wait, func(m *telegramtest.Message) bool {
		_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return b.CallbackData == join })
		return ok
	})
	if err != nil {
		return fmt.Errorf("no lobby message: %w", err)
	}
	for _, u := range t.People[1:] {
		if _, err := u.PressData(lobby, join); err != nil {
			return fmt.Errorf("join: %w", err)
		}
	}
	for range s.Robots {
		if _, err := creator.PressData(lobby, bot.LobbyPayload(tb, "robot")); err != nil {
			return fmt.Errorf("add a robot: %w", err)
		}
	}
	seats := len(t.People) + s.Robots
	if tb, err = s.WaitTable(ctx, t.ID, func(tb *record.Table) bool { return len(tb.Seats) == seats }); err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	t.Lobby, t.Start = lobby, bot.LobbyPayload(tb, "start")
	return nil
}

// StartGame presses «start» as the creator and checks the game is on.
func (s Setup) StartGame(ctx context.Context, t *Table) error {
	if _, err := t.People[0].PressData(t.Lobby, t.Start); err != nil {
		return err
	}
	_, err := s.WaitTable(ctx, t.ID, func(tb *record.Table) bool { return tb.Phase == record.PhasePlaying })
	return err
}

// WaitTable polls the table's record until ok holds, for at most s.Wait.
func (s Setup) WaitTable(ctx context.Context, id string, ok func(*record.Table) bool) (*record.Table, error) {
	deadline := time.Now().Add(s.Wait)
	for {
		rec, err := s.Store.Load(ctx, id)
		var tb *record.Table
		if err == nil {
			tb, err = record.Decode(rec.Data)
		}
		if err == nil && ok(tb) {
			return tb, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("phase %q, game %q, %d seats", tb.Phase, tb.GameID, len(tb.Seats))
			}
			return nil, fmt.Errorf("table %s not ready after %v: %w", id, s.Wait, err)
		}
		if !Sleep(ctx, 20*time.Millisecond) {
			return nil, ctx.Err()
		}
	}
}

// Parallel runs fn(0..n-1) on at most k goroutines and returns the first
// error.
func Parallel(n, k int, fn func(i int) error) error {
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

// Sleep sleeps for d, or less if ctx ends first (then it reports false).
func Sleep(ctx context.Context, d time.Duration) bool {
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

// Open gives a measurement its Redis, under a fresh key prefix named
// after it so runs never share keys, and a fake Bot API server with
// Telegram's limits on (or as opts say); done closes both and removes
// every key the measurement left.
func Open(ctx context.Context, url, name string, opts ...telegramtest.Option) (st *store.Redis, srv *telegramtest.Server, done func(), err error) {
	prefix := name + ":" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	st, err = store.DialRedis(ctx, url, prefix, store.Config{})
	if err != nil {
		return nil, nil, nil, err
	}
	srv = telegramtest.NewServer(opts...)
	return st, srv, func() {
		srv.Close()
		DeletePrefix(url, prefix)
		_ = st.Close()
	}, nil
}
