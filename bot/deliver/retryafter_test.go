package deliver

import (
	"context"
	"strconv"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// Test429WaitsRetryAfterOnAnyReplica: Telegram answers a group's
// announcement with a 429 asking to wait 2 s. The replica that got it
// stops at once and another takes over (a new Delivery over the same
// store, which knows nothing the first learned in memory). The fake Bot
// API's call log then shows: no call to the group before retry_after has
// passed since the 429; the announcement tried again soon after (not when
// the refused try's send lease ends); and a private chat's announcement,
// queued meanwhile, not held back by the group's wait.
func Test429WaitsRetryAfterOnAnyReplica(t *testing.T) {
	t.Parallel()
	const retryAfter = 2
	srv := telegramtest.NewServer(telegramtest.WithoutLimits(), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	anya := srv.NewUser("Аня")
	anya.Start("")
	group := srv.NewGroup("Флуд", anya)
	tg, err := tgbot.New("123:test", tgbot.WithServerURL(srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	st := testBolt(t)
	limits := Limits{GroupInterval: time.Millisecond, PrivateInterval: time.Millisecond,
		GlobalPerSecond: 1000, GlobalSlice: time.Second, CallTimeout: 10 * time.Second}
	run := func(b *bot) func() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); b.delivery.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	groupID, privateID := strconv.FormatInt(group.ID(), 10), strconv.FormatInt(anya.ID(), 10)
	srv.FailNext("sendMessage", 1, telegramtest.TooManyRequests(retryAfter))
	commit(t, st, time.Now(), groupID, func(*record.Table) []adapter.Message {
		return []adapter.Message{{Text: "🏁 <b>Раунд 1 окончен</b>"}}
	})
	stop := run(newBot(t, st, tg, limits, time.Now))
	if err := waitUntil(30*time.Second, func() bool { return srv.TooManyRequestsCount() == 1 }); err != nil {
		stop()
		t.Fatal("no 429")
	}
	stop()
	// The next replica; a private chat's announcement is queued.
	b := newBot(t, st, tg, limits, time.Now)
	commit(t, st, time.Now(), privateID, func(*record.Table) []adapter.Message {
		return []adapter.Message{{Text: "Ваш ход"}}
	})
	stop = run(b)
	err = waitUntil(30*time.Second, func() bool {
		g, err1 := st.Outbox(context.Background(), groupID, 1)
		p, err2 := st.Outbox(context.Background(), privateID, 1)
		return err1 == nil && err2 == nil && len(g) == 0 && len(p) == 0
	})
	stop()
	if err != nil {
		t.Fatal("the announcements were not both acknowledged")
	}
	var refused, retried, private time.Time
	for _, c := range srv.Calls() {
		switch {
		case c.ChatID == group.ID() && c.ErrorCode == 429:
			refused = c.Time
		case c.ChatID == group.ID() && retried.IsZero():
			retried = c.Time
			if c.Time.Sub(refused) < retryAfter*time.Second {
				t.Errorf("%s to the group %v after its 429, want ≥ %d s", c.Method, c.Time.Sub(refused), retryAfter)
			}
		case c.ChatID == anya.ID() && c.Method == "sendMessage" && private.IsZero():
			private = c.Time
		}
	}
	if refused.IsZero() || retried.IsZero() || private.IsZero() {
		t.Fatalf("calls: 429 at %v, group again at %v, private at %v", refused, retried, private)
	}
	if !private.Before(retried) {
		t.Errorf("the private chat's message (%v after the 429) waited for the group's retry_after (%v)",
			private.Sub(refused), retried.Sub(refused))
	}
	// The refused try's send lease (3 call times, 30 s) does not hold the
	// next try back: only retry_after does (half the lease is slack).
	if lease := 3 * limits.CallTimeout; retried.Sub(refused) >= lease/2 {
		t.Errorf("the group's retry came %v after its 429: it waited for the send lease (%v)", retried.Sub(refused), lease)
	}
	t.Logf("429 → private message %v, → group again %v", private.Sub(refused), retried.Sub(refused))
}

// TestTriesKeepRefusals: an entry's tries pointer reads back what it
// wrote, refusals included, and reads what older versions wrote.
func TestTriesKeepRefusals(t *testing.T) {
	at := time.UnixMilli(1764000000000)
	for _, x := range []tries{{}, {n: 2}, {n: 1, at: at}, {n: 1, at: at, refused: 3}, {refused: 1}} {
		if got := parseTries(x.String()); got.n != x.n || !got.at.Equal(x.at) || got.refused != x.refused {
			t.Errorf("%q reads back as %+v, want %+v", x.String(), got, x)
		}
	}
	if got := parseTries("2@1764000000000"); got.n != 2 || !got.at.Equal(at) || got.refused != 0 {
		t.Errorf("an older pointer reads %+v", got)
	}
}
