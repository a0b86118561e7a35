package deliver

import (
	"context"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
)

// TestUnansweredAnnouncementIsPostedAgain: an announcement whose sends
// Telegram does not answer in time is never dropped. The fake Bot API
// posts a send and answers it late, or refuses it and answers that late;
// the bot's call time is 1 s. Whatever happened, the announcement ends up
// in the group, its first copy as written and every further copy marked as
// a possible repeat; a copy only where a send took effect; and a late
// answer that is heard counts: the announcement is not posted again.
func TestUnansweredAnnouncementIsPostedAgain(t *testing.T) {
	const call = time.Second
	// Answers that come while the bot still listens (within 5 call times),
	// and answers that never come in time.
	late, never := 4*call, 8*call
	for _, tc := range []struct {
		name  string
		fault func(srv *telegramtest.Server)
		// copies is how often the announcement may be in the group: the
		// first as written, the others marked.
		copies []int
	}{
		{"posted twice, answered late", func(srv *telegramtest.Server) {
			srv.SlowNext("sendMessage", 2, late)
		}, []int{1, 2}},
		{"posted twice, never answered", func(srv *telegramtest.Server) {
			srv.SlowNext("sendMessage", 2, never)
		}, []int{3}},
		{"lost twice, never answered", func(srv *telegramtest.Server) {
			srv.FailNext("sendMessage", 2, telegramtest.InternalError())
			srv.SlowNext("sendMessage", 2, never)
		}, []int{1}},
		{"answered late, the next try refused", func(srv *telegramtest.Server) {
			srv.SlowNext("sendMessage", 1, late)
			go func() {
				// The tries after the first are refused: armed once it is made.
				_ = srv.WaitFor(time.Minute, func() bool { return len(srv.Calls()) > 0 })
				srv.FailNext("sendMessage", 2, telegramtest.InternalError())
			}()
		}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := telegramtest.NewServer(telegramtest.WithoutLimits(), telegramtest.WithTB(t))
			t.Cleanup(srv.Close)
			group := srv.NewGroup("Медленный телеграм", srv.NewUser("Аня"))
			tg, err := tgbot.New("123:test", tgbot.WithServerURL(srv.URL), tgbot.WithSkipGetMe())
			if err != nil {
				t.Fatal(err)
			}
			st := testBolt(t)
			b := newBot(t, st, tg, Limits{GroupInterval: time.Millisecond, PrivateInterval: time.Millisecond,
				GlobalPerSecond: 1000, GlobalSlice: time.Second, CallTimeout: call}, time.Now)
			id := strconv.FormatInt(group.ID(), 10)
			tc.fault(srv)
			commit(t, st, time.Now(), id, func(*record.Table) []adapter.Message {
				return []adapter.Message{{Text: "🏁 <b>Раунд 1 окончен</b>"}}
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); b.delivery.Run(ctx) }()
			err = waitUntil(time.Minute, func() bool {
				envs, err := st.Outbox(context.Background(), id, 1)
				return err == nil && len(envs) == 0
			})
			cancel()
			<-done
			if err != nil {
				t.Fatal("the announcement was never acknowledged")
			}
			mark := plain(golden.Catalog(t).T(locales.Default, "delivery.repeat"))
			var copies []string
			for _, m := range group.Messages() {
				if m.FromBot {
					copies = append(copies, m.Text)
				}
			}
			if len(copies) == 0 {
				t.Fatal("the announcement was acknowledged and never posted")
			}
			ok := false
			for _, n := range tc.copies {
				ok = ok || len(copies) == n
			}
			if !ok {
				t.Errorf("%d copies in the group, want %v: %q", len(copies), tc.copies, copies)
			}
			unmarked := 0
			for i, c := range copies {
				body, marked := strings.CutPrefix(c, mark+"\n\n")
				if body != "🏁 Раунд 1 окончен" {
					t.Errorf("copy %d reads %q", i+1, c)
				}
				if !marked {
					unmarked++
					if i > 0 {
						t.Errorf("copy %d of %d is not marked as a possible repeat: %q", i+1, len(copies), c)
					}
				}
			}
			if unmarked > 1 {
				t.Errorf("%d copies are not marked", unmarked)
			}
			var tries []string
			for _, c := range srv.Calls() {
				if c.Method == "sendMessage" {
					tries = append(tries, c.Time.Format("05.000")+" "+strconv.Itoa(max(c.ErrorCode, 200)))
				}
			}
			t.Logf("%d copies in the group (%d unmarked); the sends: %v", len(copies), unmarked, tries)
		})
	}
}

// waitUntil polls cond until it holds, or fails after timeout.
func waitUntil(timeout time.Duration, cond func() bool) error {
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return context.DeadlineExceeded
		}
	}
	return nil
}

// plain is Telegram HTML as the chat shows it.
func plain(s string) string {
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, ""))
}

// TestLostLeaseStopsBeforeTheNextSend: a serving whose lease is lost (its
// context cancelled) while a send is in flight acknowledges what it posted
// — posting it again would double it — and makes no other call: the next
// announcement waits for the next owner, as do the views.
func TestLostLeaseStopsBeforeTheNextSend(t *testing.T) {
	st := testBolt(t)
	ctx, lose := context.WithCancel(context.Background())
	tg := &sendHook{hook: lose} // the lease is lost while the first send is made
	b := newBot(t, st, tg, Limits{GroupInterval: time.Millisecond, PrivateInterval: time.Millisecond,
		GlobalPerSecond: 1000, GlobalSlice: time.Second}, time.Now)
	t.Cleanup(b.delivery.listening.close)
	const id = "-100"
	commit(t, st, time.Now(), id, func(tab *record.Table) []adapter.Message {
		openLobby(tab, testGames()[0].ID(), record.Seat{UserID: 1, Name: "Аня"})
		return []adapter.Message{{Text: "round 1"}, {Text: "round 2"}}
	})
	outbox := func() []string {
		envs, err := st.Outbox(context.Background(), id, 8)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, e := range envs {
			texts = append(texts, string(e.Data))
		}
		return texts
	}
	b.delivery.service(ctx, id)
	// Heard in time or late (the serving stopped waiting when it lost the
	// lease), what was posted is acknowledged.
	if err := waitUntil(10*time.Second, func() bool { return len(outbox()) == 1 }); err != nil {
		t.Fatalf("outbox %q, want the second announcement alone", outbox())
	}
	if calls := tg.log(); len(calls) != 1 || calls[0] != "send:round 1" {
		t.Fatalf("calls %q, want the first announcement alone", calls)
	}
	// A serving that has lost its lease sends nothing, acknowledges
	// nothing.
	b.delivery.service(ctx, id)
	if calls := tg.log(); len(calls) != 1 {
		t.Fatalf("calls %q after the lease was lost", calls)
	}
	if len(outbox()) != 1 {
		t.Fatal("an announcement acknowledged unsent")
	}
	// The next owner posts the second, then the lobby.
	b.delivery.service(context.Background(), id)
	if calls := tg.log(); len(calls) != 3 || calls[1] != "send:round 2" || !strings.HasPrefix(calls[2], "send:") {
		t.Fatalf("calls %q, want the second announcement, then the lobby", calls)
	}
}

// TestUnansweredTriesBackOff: tries of an announcement Telegram keeps
// leaving unanswered come farther and farther apart — the send lease,
// doubling — and at most five send leases apart (5 min with the default
// call time): a dozen an hour, however long it lasts.
func TestUnansweredTriesBackOff(t *testing.T) {
	d := budgetDelivery(nil, nil, new(time.Time), Limits{CallTimeout: 20 * time.Second})
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute}
	for i, w := range want {
		if got := d.backoff(i + 1); got != w {
			t.Errorf("after %d unanswered tries: %v, want %v", i+1, got, w)
		}
	}
}

// TestLateCopyIsKeptOrRetired: a hand's copy whose send was answered late
// is the hand when it is the copy the record awaits; a copy of an older
// try, answered too late to be awaited, is retired like a replaced
// message (its buttons taken, deleted with the next batch). Once the
// awaited answer can no longer come, the record stops awaiting it.
func TestLateCopyIsKeptOrRetired(t *testing.T) {
	st := testBolt(t)
	now := golden.Clock
	d := budgetDelivery(st, nil, &now, Limits{CallTimeout: time.Second})
	ctx := context.Background()
	tab := &record.Table{ID: "-100", ChatID: -100, GameNo: 1, Seats: []record.Seat{{UserID: 7, Name: "Аня"}}}
	j := redrawJob{view: view.Hand(1, 0), seat: 0}
	awaited := now.Add(time.Second).UnixMilli()
	waiting := view.MessageRecord{Tries: 1, TriedAt: 5, Await: awaited}
	late := func(l lateCopy) {
		if err := st.SetPointer(ctx, lateKey(tab.ID, j.view), l.String()); err != nil {
			t.Fatal(err)
		}
	}

	late(lateCopy{id: 41, digest: "old", buttons: true, await: awaited - 3000})
	rec, changed, err := d.hearLate(ctx, tab, j, waiting)
	if err != nil || !changed || rec.ID != 0 || !rec.Replaced(41) || len(rec.Strip) != 1 || rec.Await != awaited {
		t.Fatalf("an older try's copy: %+v (changed %v, %v), want it retired and the answer still awaited", rec, changed, err)
	}

	late(lateCopy{id: 42, digest: "d", ping: true, buttons: true, gen: 0, await: awaited})
	rec, changed, err = d.hearLate(ctx, tab, j, rec)
	if err != nil || !changed || rec.ID != 42 || rec.Digest != "d" || !rec.Ping || rec.Tries != 0 || rec.Await != 0 {
		t.Fatalf("the awaited copy: %+v (changed %v, %v), want it the hand", rec, changed, err)
	}
	if _, err := st.Pointer(ctx, lateKey(tab.ID, j.view)); err == nil {
		t.Fatal("the late copy's pointer was kept")
	}

	now = now.Add(2 * time.Second)
	rec, changed, err = d.hearLate(ctx, tab, j, waiting)
	if err != nil || !changed || rec.ID != 0 || rec.Await != 0 {
		t.Fatalf("no answer in time: %+v (changed %v, %v), want the record to stop awaiting it", rec, changed, err)
	}
}
