package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// Both stores keep results.
var (
	_ resultStore = (*store.Redis)(nil)
	_ resultStore = (*store.Bolt)(nil)
)

// postBox is the Bot API of the results tests: it accepts every message
// and keeps what was sent. Calls the tests never make hit the nil
// interface and fail loudly.
type postBox struct {
	Telegram
	mu   sync.Mutex
	sent []*tgbot.SendMessageParams
}

func (p *postBox) SendMessage(_ context.Context, m *tgbot.SendMessageParams) (*models.Message, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent = append(p.sent, m)
	return &models.Message{ID: len(p.sent)}, nil
}

func (p *postBox) messages() []*tgbot.SendMessageParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*tgbot.SendMessageParams(nil), p.sent...)
}

// countingStore is store.Redis that counts result writes and can fail the
// ack of the entry that follows one once: a worker that dies after
// recording a result and before acking it.
type countingStore struct {
	*store.Redis
	calls, recorded atomic.Int32
	loseAck         atomic.Bool // fail the next Ack after a RecordResult, once
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

func (s *countingStore) Ack(ctx context.Context, table string, id int64) error {
	if s.pending.Swap(false) && s.loseAck.Swap(false) {
		return errors.New("connection lost before the ack")
	}
	return s.Redis.Ack(ctx, table, id)
}

func newCountingStore(t *testing.T) *countingStore {
	return &countingStore{Redis: store.NewRedis(redistest.Client(t), redistest.Prefix(t))}
}

// resultsBot is a bot over st that sends into a postBox, with limits that
// never make a test wait long.
func resultsBot(t *testing.T, st Store) (*Bot, *postBox) {
	t.Helper()
	pb := &postBox{}
	b := New(Config{Username: "trickchefbot", Limits: Limits{GroupInterval: time.Millisecond, PrivateInterval: time.Millisecond,
		GlobalPerSecond: 1000, GlobalSlice: time.Second}}, st, pb, testCatalog(t),
		WithGames(testGames()...), WithLogger(zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)))
	return b, pb
}

// nearEnd stores a table of game g (people and robots) one move before
// the end, and returns that move.
func nearEnd(t *testing.T, b *Bot, g adapter.Game, id string, people, robots int, seed uint64) (game.Seat, game.Action) {
	t.Helper()
	chat, _, err := record.ParseID(id)
	if err != nil {
		t.Fatal(err)
	}
	tab := &record.Table{ID: id, ChatID: chat, Title: "Друзья", Lang: "ru", Phase: record.PhasePlaying, GameNo: 4, GameID: g.ID(),
		Creator: 1, Seed: seed, Started: fixtures.Clock}
	for i := 0; i < people+robots; i++ {
		s := record.Seat{UserID: int64(i + 1), Name: fixtures.Names[i]}
		if i >= people {
			s = record.Seat{Name: "Робот " + strconv.Itoa(i-people+1), AI: adapter.Levels(g)[0]}
		}
		tab.Seats = append(tab.Seats, s)
	}
	st, err := g.Start(adapter.View(tab))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 9))
	for step := 0; ; step++ {
		if step > 100000 || st.Over() {
			t.Fatal("the game ended before a last move was found")
		}
		act := st.ToAct()
		s := act[r.IntN(len(act))]
		legal := st.Legal(s)
		a := legal[r.IntN(len(legal))]
		data, err := st.MarshalBinary()
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
			if tab.State, err = st.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
			data, err := tab.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.store.Commit(context.Background(), id, store.Change{Data: data}); err != nil {
				t.Fatal(err)
			}
			return s, a
		}
		st = next
	}
}

// play applies one move to the stored table through apply, as a press or
// a timer does.
func play(t *testing.T, b *Bot, id string, seat game.Seat, a game.Action) *record.Table {
	t.Helper()
	tab, _, err := b.transact(context.Background(), id, 0, func(t *record.Table, ch *change) error {
		g, st, err := b.decode(t)
		if err != nil {
			return err
		}
		return b.apply(t, ch, g, st, seat, a, false)
	})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// drain runs the outbox of a table until it is empty, as the delivery
// worker would, waiting out the retries it asks for.
func drain(t *testing.T, b *Bot, id string) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		tab, _, err := b.load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		next, _ := b.delivery.sendOutbox(ctx, tab)
		if envs, err := b.store.Outbox(ctx, id, 1); err == nil && len(envs) == 0 {
			return
		}
		if wait := time.Until(next); wait > 0 {
			time.Sleep(min(wait, 50*time.Millisecond))
		}
	}
	t.Fatal("the outbox never emptied")
}

// checkRecordedOnce checks every person of a finished table has exactly
// one game in the group and the history holds it once.
func checkRecordedOnce(t *testing.T, rs resultStore, tab *record.Table) {
	t.Helper()
	ctx := context.Background()
	for _, s := range tab.Seats {
		if !s.Human() {
			continue
		}
		p, ok, err := rs.Stats(ctx, tab.ChatID, tab.GameID, humanPlayer(s.UserID))
		if err != nil || !ok || p.Games != 1 || p.Sigma == 0 {
			t.Errorf("%s: stats %+v, %v, %v; want one rated game", s.Name, p, ok, err)
		}
	}
	hist, err := rs.History(ctx, tab.ChatID, 10)
	if err != nil || len(hist) != 1 || hist[0].ID != resultID(tab) {
		t.Fatalf("history %+v, %v: want the one game %s", hist, err, resultID(tab))
	}
}

// TestResultRecordedOnceWhenTheAckIsLost: the worker records the result
// and dies before acking the entry. The entry is served again: the store
// sees the same result twice and counts it once.
func TestResultRecordedOnceWhenTheAckIsLost(t *testing.T) {
	t.Parallel()
	for _, g := range testGames() {
		t.Run(g.ID(), func(t *testing.T) {
			st := newCountingStore(t)
			st.loseAck.Store(true)
			b, pb := resultsBot(t, st)
			id := "-100777"
			seat, a := nearEnd(t, b, g, id, 3, 1, 5)
			tab := play(t, b, id, seat, a)
			if tab.Phase != record.PhaseIdle {
				t.Fatalf("phase %s after the last move", tab.Phase)
			}
			drain(t, b, id)
			if c, r := st.calls.Load(), st.recorded.Load(); c != 2 || r != 1 {
				t.Errorf("RecordResult called %d times, recorded %d: want 2 calls (one retried) and 1 record", c, r)
			}
			checkRecordedOnce(t, st, tab)
			// The final announcement carries «play again», for this game.
			want := callback.Data{Op: 'n', Table: id, GameNo: tab.GameNo, Word: g.ID()}.String()
			found := false
			private := map[string]int{} // chat → private results with the button
			for _, m := range pb.messages() {
				if kb, ok := m.ReplyMarkup.(*models.InlineKeyboardMarkup); ok {
					for _, row := range kb.InlineKeyboard {
						for _, bt := range row {
							if bt.CallbackData != want {
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
			}
			if !found {
				t.Errorf("no announcement has the button %q", want)
			}
			// Each of the three people got their own result once, though
			// the entry was served twice.
			if len(private) != 3 || private["1"] != 1 || private["2"] != 1 || private["3"] != 1 {
				t.Errorf("private results by chat: %v, want one for each of 1, 2, 3", private)
			}
		})
	}
}

// TestResultRecordedOnceByTwoProcesses: two bot processes over one store
// serve the same outbox at once; the result is recorded once.
func TestResultRecordedOnceByTwoProcesses(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	b1, _ := resultsBot(t, st)
	b2, _ := resultsBot(t, st)
	id := "-100778"
	seat, a := nearEnd(t, b1, testGame(t, "trickchef"), id, 2, 2, 6)
	tab := play(t, b1, id, seat, a)
	var wg sync.WaitGroup
	for _, b := range []*Bot{b1, b2, b1, b2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drain(t, b, id)
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
	b, _ := resultsBot(t, st)
	id := "-100779"
	nearEnd(t, b, testGame(t, "trickchef"), id, 3, 0, 7)
	ctx := context.Background()
	if _, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error { return b.askStop(t, ch, 1, false) }); err != nil {
		t.Fatal(err)
	}
	tab, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		return b.onStop(t, ch, callback.Data{Op: 's', Table: id, GameNo: t.GameNo, Args: []int{1}}, &models.User{ID: 1, FirstName: "Оля"})
	})
	if err != nil || tab.Phase != record.PhaseIdle {
		t.Fatalf("stop: %v (phase %v)", err, tab)
	}
	drain(t, b, id)
	if n := st.calls.Load(); n != 0 {
		t.Errorf("a stopped game made %d result writes", n)
	}
	if hist, err := st.History(ctx, tab.ChatID, 10); err != nil || len(hist) != 0 {
		t.Errorf("history after /stop: %+v, %v", hist, err)
	}
	// «Play again» under an older game is stale now: nothing finished.
	_, _, err = b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		return b.onAgain(ctx, t, ch, callback.Data{Op: 'n', Table: id, GameNo: t.GameNo, Word: t.GameID}, &models.User{ID: 1, FirstName: "Оля"})
	})
	if r := (*refusal)(nil); !errors.As(err, &r) || r.key != "error.stale" {
		t.Errorf("play again after /stop: %v, want error.stale", err)
	}
}

// TestResultOfATable checks what a finished table records: ids, places
// from the standings, robots per level (one seat per level), options.
func TestResultOfATable(t *testing.T) {
	b, _ := resultsBot(t, nil)
	g := testGame(t, "trickchef")
	tab, st := fixtures.Table(t, g, 3, 2, "novice", 13, map[string]int{"removed": 2})
	fixtures.PlayRandom(t, g, tab, st, 100000, 2)
	tab.GameNo, tab.Started = 9, fixtures.Clock
	r := b.results.resultOf(tab, g, st, fixtures.Clock.Add(time.Hour))
	if r.ID != tab.ID+":9:"+strconv.FormatUint(tab.Seed, 16) || r.Game != g.ID() || r.Chat != tab.ChatID || !r.Started.Equal(fixtures.Clock) {
		t.Errorf("result header %+v", r)
	}
	if r.Options != optionsText(tab, g) || r.Options == "" {
		t.Errorf("options %q", r.Options)
	}
	all := adapter.Standings(st.Result())
	placeOf := map[game.Seat]int{}
	for _, s := range all {
		placeOf[s.Seat] = s.Place
	}
	if len(r.Seats) != 2 {
		t.Fatalf("seats %+v: want the person and one robot level", r.Seats)
	}
	for i := 0; i < 1; i++ {
		if r.Seats[i].Player != humanPlayer(int64(i+1)) || r.Seats[i].Name != fixtures.Names[i] || r.Seats[i].Place != placeOf[game.Seat(i)] {
			t.Errorf("seat %d: %+v", i, r.Seats[i])
		}
	}
	robot := r.Seats[1]
	if robot.Player != "rnovice" || robot.Place != min(placeOf[1], placeOf[2]) {
		t.Errorf("robot seat %+v, places %d and %d", robot, placeOf[1], placeOf[2])
	}
	if !r.valid() {
		t.Error("the result is not valid")
	}
}

// TestRateFunc: newcomers start from the default rating, winners gain.
func TestRateFunc(t *testing.T) {
	mu, sigma := rate([]int{2, 1, 3}, nil, nil)([]store.PlayerStats{{Player: "u1"}, {Player: "u2"}, {Player: "u3", Mu: 30, Sigma: 2}})
	if len(mu) != 3 || len(sigma) != 3 {
		t.Fatalf("mu %v sigma %v", mu, sigma)
	}
	if !(mu[1] > 25 && mu[0] < mu[1] && sigma[0] < 25.0/3 && mu[2] < 30) {
		t.Errorf("mu %v sigma %v", mu, sigma)
	}
}

// TestPlayAgain: «play again» under a finished game opens a lobby of the
// same game, options and players (robots at their levels), once, run by
// the presser; another press joins it; should that lobby be cancelled, a
// press opens it again; a press after the next game started is stale.
func TestPlayAgain(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	b, _ := resultsBot(t, st)
	ctx := context.Background()
	id := "-100780"
	seat, a := nearEnd(t, b, testGame(t, "trickchef"), id, 2, 1, 8)
	if _, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		t.Options, t.AILevel = map[string]int{"removed": 1}, "shef"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	done := play(t, b, id, seat, a)
	press := func(who int64) (*record.Table, *change, error) {
		return b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
			return b.onAgain(ctx, t, ch, callback.Data{Op: 'n', Table: id, GameNo: done.GameNo, Word: done.GameID}, &models.User{ID: who, FirstName: "U" + strconv.FormatInt(who, 10)})
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
	if _, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		return b.onLobby(ctx, t, ch, callback.Data{Op: 'l', Table: id, GameNo: t.GameNo, Args: []int{lobbyCancel}}, &models.User{ID: 2}, false)
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
	if _, _, err := b.transact(ctx, id, 0, func(t *record.Table, ch *change) error { return b.startGame(ctx, t, ch) }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := press(3); !isRefusal(err, "error.stale") {
		t.Errorf("a press during the next game: %v", err)
	}
}

func isRefusal(err error, key string) bool {
	var r *refusal
	return errors.As(err, &r) && r.key == key
}

// TestMigrationTakesTheResults: a group upgraded to a supergroup right
// after a game ended, before the worker recorded it: the queued result is
// recorded and the group's results move to the new chat with the table.
func TestMigrationTakesTheResults(t *testing.T) {
	t.Parallel()
	st := newCountingStore(t)
	b, _ := resultsBot(t, st)
	ctx := context.Background()
	const oldChat, newChat = -781, -1000000000781
	id := record.ID(oldChat, 0)
	seat, a := nearEnd(t, b, testGame(t, "sausages"), id, 3, 0, 10)
	tab := play(t, b, id, seat, a)
	if err := b.migrate(ctx, oldChat, newChat); err != nil {
		t.Fatal(err)
	}
	if hist, err := st.History(ctx, newChat, 10); err != nil || len(hist) != 1 || hist[0].ID != resultID(tab) || hist[0].Chat != newChat {
		t.Fatalf("new chat's history %+v, %v", hist, err)
	}
	if hist, err := st.History(ctx, oldChat, 10); err != nil || len(hist) != 0 {
		t.Errorf("old chat's history %+v, %v", hist, err)
	}
	// Played on in the supergroup, the next game counts in the same group.
	if p, ok, err := st.Stats(ctx, newChat, "sausages", humanPlayer(1)); err != nil || !ok || p.Games != 1 {
		t.Errorf("stats in the new chat: %+v %v %v", p, ok, err)
	}
}

// TestResultPayloads: the results buttons fit Telegram's 64 bytes at the
// longest table id, game number and game id, and parse back.
func TestResultPayloads(t *testing.T) {
	const table = "-1001234567890_2147483647"
	for _, p := range []callback.Data{
		{Op: 'n', Table: table, GameNo: 99999, Word: "chekharda"},
		{Op: 'f', Table: "9223372036854775807", GameNo: 99999999999, Args: []int{1}},
	} {
		s := p.String()
		if len(s) > callback.MaxBytes {
			t.Errorf("%q is %d bytes", s, len(s))
		}
		got, err := callback.Parse(s)
		if err != nil || got.String() != s {
			t.Errorf("parsePayload(%q) = %+v, %v", s, got, err)
		}
	}
	for _, bad := range []string{"n:-100:1", "n:-100:1:trickchef:1", "f:5:1", "f:5:1:1:1", "f:5:1:trickchef"} {
		if _, err := callback.Parse(bad); err == nil {
			t.Errorf("parsePayload(%q) accepted it", bad)
		}
	}
}

// TestNumbers: one decimal with the language's sign and a true minus; a
// sum over groups keeps the best rating.
func TestNumbers(t *testing.T) {
	cat := testCatalog(t)
	ru, en := adapter.NewLoc(cat, "ru"), adapter.NewLoc(cat, "en")
	for x, want := range map[float64]string{12.34: "12,3", -1.25: "−1,2", -0.04: "0,0", 0: "0,0", 7: "7,0"} {
		if got := decimal(ru, x); got != want {
			t.Errorf("decimal(ru, %v) = %q, want %q", x, got, want)
		}
	}
	if got := decimal(en, -3.06); got != "−3.1" {
		t.Errorf("decimal(en, -3.06) = %q", got)
	}
	if integer(-3) != "−3" || integer(12) != "12" {
		t.Errorf("integer: %q %q", integer(-3), integer(12))
	}
	a := store.PlayerStats{Games: 2, Wins: 1, PlaceSum: 3, BestScore: 7, Mu: 30, Sigma: 5}
	b := store.PlayerStats{Games: 3, Wins: 2, PlaceSum: 4, TieHalves: 1, BestScore: 5, Mu: 28, Sigma: 2}
	sum := addStats(addStats(store.PlayerStats{}, a), b)
	if sum.Games != 5 || sum.Wins != 3 || sum.PlaceSum != 7 || sum.TieHalves != 1 || sum.BestScore != 7 || sum.Mu != 28 || sum.Sigma != 2 {
		t.Errorf("sum %+v", sum)
	}
}
