package tables

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/results"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// A finished game becomes a job on its table (record.Job), which the
// tables' timers do: the result is recorded (results.Record), then the job
// is dropped in a change that queues the private results. These tests run
// the jobs as the timers do (clock.Serve) over a real Redis.

// countingStore is store.Redis that counts result writes and can fail
// the commit that follows one, once: a replica that dies after recording
// a result and before dropping its job.
type countingStore struct {
	*store.Redis
	calls, recorded atomic.Int32
	loseCommit      atomic.Bool // fail the next Commit after a RecordResult, once
	pending         atomic.Bool
}

func (s *countingStore) RecordResult(ctx context.Context, r store.Result, rate store.RateFunc) (bool, error) {
	s.calls.Add(1)
	ok, err := s.Redis.RecordResult(ctx, r, rate)
	if ok {
		s.recorded.Add(1)
	}
	s.pending.Store(err == nil)
	return ok, err
}

func (s *countingStore) Commit(ctx context.Context, table string, c store.Change) (int64, error) {
	if s.pending.Swap(false) && s.loseCommit.Swap(false) {
		return 0, errors.New("connection lost before the commit")
	}
	return s.Redis.Commit(ctx, table, c)
}

func newCountingStore(t *testing.T) *countingStore {
	return &countingStore{Redis: store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})}
}

// nearEnd stores a table of game g (people and robots) one move before
// the end, and returns that move.
func nearEnd(t *testing.T, st Store, g adapter.Game, id string, people, robots int, seed uint64) (game.Seat, game.Action) {
	t.Helper()
	chat, _, err := record.ParseID(id)
	if err != nil {
		t.Fatal(err)
	}
	tab := &record.Table{ID: id, ChatID: chat, Title: "Друзья", Lang: "ru", Phase: record.PhasePlaying, GameNo: 4, GameID: g.ID(),
		Creator: 1, Seed: seed, Started: golden.Clock}
	for i := 0; i < people+robots; i++ {
		s := record.Seat{UserID: int64(i + 1), Name: golden.Names[i]}
		if i >= people {
			s = record.Seat{Name: "Робот " + strconv.Itoa(i-people+1), AI: adapter.Levels(g)[0]}
		}
		tab.Seats = append(tab.Seats, s)
	}
	gs, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 9))
	for step := 0; ; step++ {
		if step > 100000 || gs.Over() {
			t.Fatal("the game ended before a last move was found")
		}
		act := gs.ToAct()
		s := act[r.IntN(len(act))]
		legal := gs.Legal(s)
		a := legal[r.IntN(len(legal))]
		data, err := gs.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		next, err := g.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := next.Apply(s, a); err != nil {
			t.Fatal(err)
		}
		if next.Over() {
			if tab.State, err = gs.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
			data, err := tab.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Commit(context.Background(), id, store.Change{Data: data}); err != nil {
				t.Fatal(err)
			}
			return s, a
		}
		gs = next
	}
}

// playLast applies one move to the stored table through apply, as a press or
// a timer does.
func playLast(t *testing.T, tb *Tables, id string, seat game.Seat, a game.Action) *record.Table {
	t.Helper()
	tab, _, err := tb.tx.Transact(context.Background(), id, 0, func(t *record.Table, ch *txn.Change) error {
		g, st, err := txn.Decode(tb.views, t)
		if err != nil {
			return err
		}
		return tb.moves.Apply(t, ch, g, st, seat, a, false)
	})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// runJobs serves the table as the tables' timers would until its jobs are
// done, serving it again at once when a job failed (the timers would come
// back in a few seconds). It may run in several goroutines.
func runJobs(t *testing.T, tb *Tables, id string) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		tab, _, err := tb.tx.Load(ctx, id)
		if err != nil {
			t.Error(err)
			return
		}
		if len(tab.Jobs) == 0 {
			return
		}
		tb.clock.Serve(ctx, id)
	}
	t.Error("the jobs were never done")
}

// queued is table id's outbox as delivery would read it.
func queued(t *testing.T, st Store, id string) []outbox.Entry {
	t.Helper()
	envs, err := st.Outbox(context.Background(), id, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []outbox.Entry
	for _, e := range envs {
		m, _, err := outbox.Decode(e.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// checkRecordedOnce checks every person of a finished table has exactly
// one game in the group and the history holds it once.
func checkRecordedOnce(t *testing.T, rs results.Store, tab *record.Table) {
	t.Helper()
	ctx := context.Background()
	for _, s := range tab.Seats {
		if !s.Human() {
			continue
		}
		p, ok, err := rs.Stats(ctx, tab.ChatID, tab.GameID, record.PersonPlayer(s.UserID))
		if err != nil || !ok || p.Games != 1 || p.Sigma == 0 {
			t.Errorf("%s: stats %+v, %v, %v; want one rated game", s.Name, p, ok, err)
		}
	}
	hist, err := rs.History(ctx, tab.ChatID, 10)
	if err != nil || len(hist) != 1 || hist[0].ID != record.ResultID(tab) {
		t.Fatalf("history %+v, %v: want the one game %s", hist, err, record.ResultID(tab))
	}
}

// TestResultRecordedOnceWhenTheJobSurvives: the timers record the result
// and the replica dies before the change that drops the job (and queues
// the private results) is committed. The job is done again: the store sees
// the same result twice and counts it once, and the private results are
// queued once. (Before the tables did their results themselves this was a
// crash between recording and acking an outbox entry.)
func TestResultRecordedOnceWhenTheJobSurvives(t *testing.T) {
	t.Parallel()
	for _, g := range testGames() {
		t.Run(g.ID(), func(t *testing.T) {
			st := newCountingStore(t)
			st.loseCommit.Store(true)
			tb := newTables(t, st, nil)
			id := "-100777"
			seat, a := nearEnd(t, st, g, id, 3, 1, 5)
			tab := playLast(t, tb, id, seat, a)
			if tab.Phase != record.PhaseIdle {
				t.Fatalf("phase %s after the last move", tab.Phase)
			}
			runJobs(t, tb, id)
			if c, r := st.calls.Load(), st.recorded.Load(); c != 2 || r != 1 {
				t.Errorf("RecordResult called %d times, recorded %d: want 2 calls (one retried) and 1 record", c, r)
			}
			checkRecordedOnce(t, st, tab)
			// The final announcement carries «play again», for this game.
			want := callback.Data{Op: callback.Again, Table: id, GameNo: tab.GameNo, Word: g.ID()}.String()
			found := false
			private := map[string]int{} // chat → private results with the button
			for _, m := range queued(t, st, id) {
				for _, row := range m.Keyboard {
					for _, bt := range row {
						if bt.Data != want {
							continue
						}
						if chat := fmt.Sprint(m.ChatID); chat == id {
							found = true
						} else {
							private[chat]++
						}
					}
				}
			}
			if !found {
				t.Errorf("no announcement has the button %q", want)
			}
			// Each of the three people got their own result once, though
			// the job was done twice.
			if len(private) != 3 || private["1"] != 1 || private["2"] != 1 || private["3"] != 1 {
				t.Errorf("private results by chat: %v, want one for each of 1, 2, 3", private)
			}
		})
	}
}

// TestResultRecordedOnceByTwoProcesses: two processes over one store run
// the same table's jobs at once; the result is recorded once.
func TestResultRecordedOnceByTwoProcesses(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	b1, b2 := newTables(t, st, nil), newTables(t, st, nil)
	id := "-100778"
	seat, a := nearEnd(t, st, testGame(t, "trickchef"), id, 2, 2, 6)
	tab := playLast(t, b1, id, seat, a)
	var wg sync.WaitGroup
	for _, tb := range []*Tables{b1, b2, b1, b2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runJobs(t, tb, id)
		}()
	}
	wg.Wait()
	if r := st.recorded.Load(); r != 1 {
		t.Errorf("recorded %d times (%d calls), want once", r, st.calls.Load())
	}
	checkRecordedOnce(t, st, tab)
}

// TestStoppedGameRecordsNothing: a game stopped with /stop, and a lobby
// cancelled, leave no result.
func TestStoppedGameRecordsNothing(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	tb := newTables(t, st, nil)
	id := "-100779"
	nearEnd(t, st, testGame(t, "trickchef"), id, 3, 0, 7)
	ctx := context.Background()
	if _, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error { return tb.lobby.AskStop(t, ch, 1, false) }); err != nil {
		t.Fatal(err)
	}
	tab, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		return tb.lobby.OnStop(t, ch, callback.Data{Op: callback.Stop, Table: id, GameNo: t.GameNo, Args: []int{1}}, &models.User{ID: 1, FirstName: "Оля"}, false)
	})
	if err != nil || tab.Phase != record.PhaseIdle {
		t.Fatalf("stop: %v (phase %v)", err, tab)
	}
	runJobs(t, tb, id)
	if n := st.calls.Load(); n != 0 {
		t.Errorf("a stopped game made %d result writes", n)
	}
	if hist, err := st.History(ctx, tab.ChatID, 10); err != nil || len(hist) != 0 {
		t.Errorf("history after /stop: %+v, %v", hist, err)
	}
	// «Play again» under an older game is stale now: nothing finished.
	_, _, err = tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		return tb.lobby.OnAgain(ctx, t, ch, callback.Data{Op: callback.Again, Table: id, GameNo: t.GameNo, Word: t.GameID}, &models.User{ID: 1, FirstName: "Оля"})
	})
	if key, ok := refusal.Key(err); !ok || key != "error.stale" {
		t.Errorf("play again after /stop: %v, want error.stale", err)
	}
}

// TestPlayAgain: «play again» under a finished game opens a lobby of the
// same game, options and players (robots at their levels), once, run by
// the presser; another press joins it; should that lobby be cancelled, a
// press opens it again; a press after the next game started is stale.
func TestPlayAgain(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	tb := newTables(t, st, nil)
	ctx := context.Background()
	id := "-100780"
	seat, a := nearEnd(t, st, testGame(t, "trickchef"), id, 2, 1, 8)
	if _, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		t.Options, t.AILevel = map[string]int{"removed": 1}, "shef"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	done := playLast(t, tb, id, seat, a)
	press := func(who int64) (*record.Table, *txn.Change, error) {
		return tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
			return tb.lobby.OnAgain(ctx, t, ch, callback.Data{Op: callback.Again, Table: id, GameNo: done.GameNo, Word: done.GameID}, &models.User{ID: who, FirstName: "U" + strconv.FormatInt(who, 10)})
		})
	}
	lobby, _, err := press(2)
	if err != nil {
		t.Fatal(err)
	}
	if lobby.Phase != record.PhaseLobby || lobby.GameNo != done.GameNo+1 || lobby.GameID != done.GameID || lobby.Creator != 2 ||
		lobby.Options["removed"] != 1 || lobby.AILevel != "shef" || len(lobby.Seats) != len(done.Seats) {
		t.Fatalf("lobby %+v after a game %+v", lobby, done)
	}
	for i, s := range lobby.Seats {
		if s.UserID != done.Seats[i].UserID || s.AI != done.Seats[i].AI || s.Name != done.Seats[i].Name {
			t.Errorf("seat %d: %+v, was %+v", i, s, done.Seats[i])
		}
	}
	// Seated already: refused as such, and no second lobby.
	if _, _, err := press(1); !isRefusal(err, "lobby.already_seated") {
		t.Errorf("a seated player's press: %v", err)
	}
	// A newcomer who opened the private chat sits down in the same lobby.
	if err := st.SetPointer(ctx, store.StartedKey(9), "1"); err != nil {
		t.Fatal(err)
	}
	joined, _, err := press(9)
	if err != nil || joined.GameNo != lobby.GameNo || joined.SeatOf(9) != len(lobby.Seats) {
		t.Fatalf("newcomer's press: %v, table %+v", err, joined)
	}
	// The lobby cancelled, the button opens it again, run by its presser.
	if _, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		return tb.lobby.OnLobby(ctx, t, ch, callback.Data{Op: callback.Lobby, Table: id, GameNo: t.GameNo, Args: []int{callback.LobbyCancel}}, &models.User{ID: 2}, false)
	}); err != nil {
		t.Fatal(err)
	}
	again, _, err := press(9)
	if err != nil || again.Phase != record.PhaseLobby || again.GameNo != done.GameNo+2 || again.Creator != 9 || len(again.Seats) != len(joined.Seats) {
		t.Fatalf("a press after the lobby was cancelled: %v, table %+v", err, again)
	}
	if _, _, err := press(1); !isRefusal(err, "lobby.already_seated") {
		t.Errorf("a seated player's press on the reopened lobby: %v", err)
	}
	// Once the next game runs, the button is stale.
	if _, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error { return tb.lobby.StartGame(ctx, t, ch) }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := press(3); !isRefusal(err, "error.stale") {
		t.Errorf("a press during the next game: %v", err)
	}
}

func isRefusal(err error, key string) bool {
	k, ok := refusal.Key(err)
	return ok && k == key
}

// TestMigrationTakesTheResults: a group upgraded to a supergroup right
// after a game ended, before the timers recorded it: the result waiting
// as the table's job is recorded and the group's results move to the new
// chat with the table.
func TestMigrationTakesTheResults(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	tb := newTables(t, st, nil)
	ctx := context.Background()
	const oldChat, newChat = -781, -1000000000781
	id := record.ID(oldChat, 0)
	seat, a := nearEnd(t, st, testGame(t, "sausages"), id, 3, 0, 10)
	tab := playLast(t, tb, id, seat, a)
	if len(tab.Jobs) != 1 || tab.Jobs[0].Result == nil {
		t.Fatalf("the finished game left jobs %+v, want its result", tab.Jobs)
	}
	if err := tb.commands.migration.Migrate(ctx, oldChat, newChat); err != nil {
		t.Fatal(err)
	}
	if hist, err := st.History(ctx, newChat, 10); err != nil || len(hist) != 1 || hist[0].ID != record.ResultID(tab) || hist[0].Chat != newChat {
		t.Fatalf("new chat's history %+v, %v", hist, err)
	}
	if hist, err := st.History(ctx, oldChat, 10); err != nil || len(hist) != 0 {
		t.Errorf("old chat's history %+v, %v", hist, err)
	}
	// Played on in the supergroup, the next game counts in the same group.
	if p, ok, err := st.Stats(ctx, newChat, "sausages", record.PersonPlayer(1)); err != nil || !ok || p.Games != 1 {
		t.Errorf("stats in the new chat: %+v %v %v", p, ok, err)
	}
}

// TestMigrationTakesEveryTable: a group playing at its tables 1, 2 and 5
// upgraded to a supergroup: every table moves to the new chat, under its
// number, playing on where it was, and the old ones are gone.
func TestMigrationTakesEveryTable(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	tb := newTables(t, st, nil)
	ctx := context.Background()
	const oldChat, newChat = -782, -1000000000782
	nearEnd(t, st, testGame(t, "sausages"), record.ID(oldChat, 0), 3, 0, 11)
	nearEnd(t, st, testGame(t, "sausages"), record.TableID(oldChat, 0, 2), 3, 0, 12)
	nearEnd(t, st, testGame(t, "sausages"), record.TableID(oldChat, 0, 5), 3, 0, 13)
	if err := tb.commands.migration.Migrate(ctx, oldChat, newChat); err != nil {
		t.Fatal(err)
	}
	for _, ids := range [][2]string{
		{record.ID(oldChat, 0), record.ID(newChat, 0)},
		{record.TableID(oldChat, 0, 2), record.TableID(newChat, 0, 2)},
		{record.TableID(oldChat, 0, 5), record.TableID(newChat, 0, 5)},
	} {
		tab, version, err := tb.tx.Load(ctx, ids[1])
		if err != nil || version == 0 || tab.ID != ids[1] || tab.ChatID != newChat || tab.Phase != record.PhasePlaying {
			t.Errorf("%s after the upgrade: %+v at version %d, %v", ids[1], tab, version, err)
		}
		if _, version, err := tb.tx.Load(ctx, ids[0]); err != nil || version != 0 {
			t.Errorf("the old table %s is still there: version %d, %v", ids[0], version, err)
		}
	}
}
