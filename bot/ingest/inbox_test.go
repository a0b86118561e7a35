package ingest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// uncounting is the real store whose Attempt fails its first fails
// calls, as a store that cannot be reached: nothing else of it changes.
type uncounting struct {
	*store.Bolt
	mu    sync.Mutex
	fails int
}

func (s *uncounting) Attempt(ctx context.Context, key, item string, ttl time.Duration) (int, error) {
	s.mu.Lock()
	if s.fails > 0 {
		s.fails--
		s.mu.Unlock()
		return 0, errors.New("dial tcp: connection refused")
	}
	s.mu.Unlock()
	return s.Bolt.Attempt(ctx, key, item, ttl)
}

func openStore(t *testing.T) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"), store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestGivingUpKeepsTheUpdate: an update whose handler keeps panicking is
// tried its attempts, then moved to the store's dead letters with why
// (not dropped), and the chat's later updates are applied in order; an
// update whose attempts the store cannot count (it cannot be reached) is
// not tried meanwhile, however often that happens, and never given up.
func TestGivingUpKeepsTheUpdate(t *testing.T) {
	st := &uncounting{Bolt: openStore(t)}
	ctx := context.Background()
	var mu sync.Mutex
	var applied []int64
	handle := func(ctx context.Context, u *models.Update) error {
		mu.Lock()
		defer mu.Unlock()
		if u.ID == 2 {
			panic("a handler's bug")
		}
		applied = append(applied, u.ID)
		return nil
	}
	in := New(Params{Config: Config{PressesPerSecond: 100, PressBurst: 100}, Store: st, Handle: handle, Now: time.Now, Log: zerolog.Nop()})
	chat := store.InboxChat(-100)
	var ups []*models.Update
	for id := int64(1); id <= 4; id++ {
		ups = append(ups, &models.Update{ID: id, Message: &models.Message{Chat: models.Chat{ID: -100}, Text: "/help"}})
	}
	if err := in.ingest(ctx, ups); err != nil {
		t.Fatal(err)
	}
	for try := 0; try < 40; try++ {
		if try == 6 {
			st.mu.Lock()
			st.fails = 10 // update 3 finds the store down ten times
			st.mu.Unlock()
		}
		in.drainChat(ctx, chat)
		if left, err := st.Inbox(ctx, chat, 10); err == nil && len(left) == 0 {
			break
		}
	}
	mu.Lock()
	got := append([]int64(nil), applied...)
	mu.Unlock()
	if want := []int64{1, 3, 4}; len(got) != len(want) || got[0] != 1 || got[1] != 3 || got[2] != 4 {
		t.Errorf("applied %v, want %v (the store's failures waited out, the panicking one given up)", got, want)
	}
	dead, err := st.DeadLetters(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(dead) != 1 || dead[0].Entry.ID != 2 || dead[0].Chat != chat || !strings.Contains(dead[0].Reason, "attempt 5 of 5") {
		t.Errorf("dead letters %+v, want update 2 of %s with its reason", dead, chat)
	}
	if left, _ := st.Inbox(ctx, chat, 10); len(left) != 0 {
		t.Errorf("%d updates left in the inbox", len(left))
	}
}

// TestAnUpdateThatKeepsFailing: the retry policy as a person meets it.
// A press whose handler fails every time is tried five times: each attempt
// is counted in the store before it runs, so a new Ingestion on the same
// store (a restart, another replica) counts on; the attempts are spaced
// 0.5, 1, 2 and 4 s (the chat is given back due then); after the fifth the
// press is in the dead letters and answered «that failed», and the chat's
// next update is applied. Put back (as `trickchef deadletters requeue`
// does) once the handler works, it is applied, with all its attempts.
func TestAnUpdateThatKeepsFailing(t *testing.T) {
	ctx := t.Context()
	srv := telegramtest.NewServer(telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	tg, err := tgbot.New("123456:TEST-token-for-the-fake-bot-api", tgbot.WithServerURL(srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	ann := srv.NewUser("Аня")
	group := srv.NewGroup("Группа", ann)
	if _, err := tg.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: group.ID(), Text: "стол",
		ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "✋", CallbackData: "join"}}}}}); err != nil {
		t.Fatal(err)
	}
	press, err := ann.PressAsync(group.Last(), "✋")
	if err != nil {
		t.Fatal(err)
	}
	ann.Send(group, "/help")
	all, err := (&Poller{APIURL: srv.URL, Token: "123456:TEST-token-for-the-fake-bot-api", Timeout: time.Second}).GetUpdates(ctx, 0)
	var ups []*models.Update // the press and the command (not the bot's joining)
	for _, u := range all {
		if u.CallbackQuery != nil || u.Message != nil {
			ups = append(ups, u)
		}
	}
	if err != nil || len(ups) != 2 || ups[0].CallbackQuery == nil {
		t.Fatalf("updates %v (%v), want the press and the command", ups, err)
	}

	st := openStore(t)
	var mu sync.Mutex
	works := false
	var applied []int64
	handle := func(ctx context.Context, u *models.Update) error {
		mu.Lock()
		defer mu.Unlock()
		if u.CallbackQuery != nil && !works {
			return errors.New("the table cannot be read")
		}
		applied = append(applied, u.ID)
		return nil
	}
	say := func(u *models.User, what Said) string { return fmt.Sprintf("said %d to %s", what, u.FirstName) }
	clock := time.UnixMilli(1_700_000_000_000)
	now := func() time.Time { return clock }
	replica := func() *Ingestion {
		return New(Params{Config: Config{PressesPerSecond: 100, PressBurst: 100}, Store: st, Telegram: tg, Handle: handle, Say: say, Now: now, Log: zerolog.New(zerolog.NewTestWriter(t))})
	}
	in := replica()
	if err := in.ingest(ctx, ups); err != nil {
		t.Fatal(err)
	}
	// Waiting: the gauge of the oldest update of each kind says how long.
	clock = clock.Add(3 * time.Second)
	if oldest, err := in.oldestWaiting(ctx); err != nil || oldest["press"] != 3*time.Second || oldest["command"] != 3*time.Second || oldest["other"] != 0 {
		t.Fatalf("oldest waiting %v (%v), want a press and a command 3 s old", oldest, err)
	}
	chat := store.InboxChat(group.ID())
	for i, wait := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second} {
		if i == 2 {
			in = replica() // a restart: the count is the store's
		}
		if next := in.drainChat(ctx, chat); next.Sub(clock) != wait {
			t.Fatalf("attempt %d failed: chat due again in %v, want %v", i+1, next.Sub(clock), wait)
		}
		if dead, _ := st.DeadLetterCount(ctx); dead != 0 {
			t.Fatalf("given up after %d attempts", i+1)
		}
	}
	if next := in.drainChat(ctx, chat); !next.IsZero() {
		t.Fatalf("after the fifth attempt the chat is due again at %v, want its inbox drained", next)
	}
	dead, err := st.DeadLetters(ctx, 10)
	if err != nil || len(dead) != 1 || dead[0].Entry.ID != ups[0].ID || !strings.Contains(dead[0].Reason, "the table cannot be read") {
		t.Fatalf("dead letters %+v (%v), want the press with its reason", dead, err)
	}
	if mu.Lock(); len(applied) != 1 || applied[0] != ups[1].ID {
		t.Errorf("applied %v, want the command after the press", applied)
	}
	mu.Unlock()
	answer, err := press.Wait(10 * time.Second)
	if err != nil || answer.Text != say(&models.User{FirstName: "Аня"}, GivenUp) {
		t.Fatalf("the press given up was answered %+v (%v), want «that failed»", answer, err)
	}

	// Put back once the handler works: applied, from its first attempt.
	mu.Lock()
	works = true
	mu.Unlock()
	if err := st.ForgetAttempts(ctx, AttemptKey(chat)); err != nil {
		t.Fatal(err)
	}
	if err := st.Requeue(ctx, chat, ups[0].ID, clock); err != nil {
		t.Fatal(err)
	}
	if next := replica().drainChat(ctx, chat); !next.IsZero() {
		t.Fatalf("the update put back was not applied at once: due again at %v", next)
	}
	if mu.Lock(); len(applied) != 2 || applied[1] != ups[0].ID {
		t.Errorf("applied %v, want the press put back after the command", applied)
	}
	mu.Unlock()
	if n, _ := st.DeadLetterCount(ctx); n != 0 {
		t.Errorf("%d dead letters left", n)
	}
}

// TestFloodGateJudgesAnUpdateOnce: a batch fetched again after its store
// write failed charges its sender nothing more, and a press refused once
// stays refused (its answer given once).
func TestFloodGateJudgesAnUpdateOnce(t *testing.T) {
	f := newFloodGate(1, 2)
	now := time.Unix(1700000000, 0)
	for fetch := 0; fetch < 5; fetch++ {
		for id := int64(1); id <= 2; id++ {
			if ok, again := f.allow(id, 7, now); !ok || again != (fetch > 0) {
				t.Fatalf("fetch %d, update %d: allowed %v, judged before %v", fetch, id, ok, again)
			}
		}
	}
	if ok, again := f.allow(3, 7, now); ok || again {
		t.Fatalf("the third press at once: allowed %v, judged before %v; want refused, first time", ok, again)
	}
	if ok, again := f.allow(3, 7, now.Add(time.Minute)); ok || !again {
		t.Fatalf("the refused press fetched again: allowed %v, judged before %v; want refused again, no new answer", ok, again)
	}
	for id := int64(100); id < 100+judged+10; id++ {
		f.allow(id, 8, now)
	}
	if len(f.verdicts) > judged {
		t.Errorf("%d verdicts remembered, want at most %d", len(f.verdicts), judged)
	}
}
