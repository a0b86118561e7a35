package deliver

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// TestGroupShares: a busy table's edits cannot take a group's whole
// minute. Edits tried every 100 ms for a minute get at most their ceiling
// (groupViewCalls) of the group's 20 calls, spaced evenly; announcements
// then still find theirs and replies theirs, at once, and nothing goes
// past 20.
func TestGroupShares(t *testing.T) {
	st := testBolt(t)
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	now := start
	d := budgetDelivery(st, nil, &now, Limits{
		GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond, GlobalPerSecond: 1000, GlobalSlice: time.Second,
	})
	ctx := context.Background()
	const group = -100
	var edits []time.Time
	for ; now.Before(start.Add(time.Minute)); now = now.Add(100 * time.Millisecond) {
		if d.budget.admitFor(ctx, group, prioTable, "t/table:1", now.Add(tablePatience)).IsZero() {
			edits = append(edits, now)
		}
	}
	if len(edits) != groupViewCalls {
		t.Fatalf("%d table edits in a minute, want %d", len(edits), groupViewCalls)
	}
	for i := 1; i < len(edits); i++ {
		if gap := edits[i].Sub(edits[i-1]); gap < d.budget.viewSpacing() {
			t.Fatalf("table edits %v apart, want ≥ %v", gap, d.budget.viewSpacing())
		}
	}
	// Less than the window has passed: every edit is still in it.
	now = start.Add(time.Minute - 50*time.Millisecond)
	announcements := 0
	for d.budget.admitFor(ctx, group, prioAnnounce, "", now.Add(announcePatience)).IsZero() {
		announcements++
		if announcements > groupCalls {
			t.Fatal("announcements without end")
		}
	}
	if announcements != groupAnnounceCalls-groupViewCalls {
		t.Fatalf("%d announcements behind a busy table, want %d", announcements, groupAnnounceCalls-groupViewCalls)
	}
	replies := 0
	// A reply, as the outbox asks for one: a named call of the reply class.
	reply := func() time.Time {
		return d.budget.admitAs(ctx, group, prioAnnounce, classReply, "reply/test/"+strconv.Itoa(replies), now.Add(announcePatience))
	}
	for reply().IsZero() {
		replies++
		if replies > groupCalls {
			t.Fatal("replies without end")
		}
	}
	if replies != groupCalls-groupAnnounceCalls {
		t.Fatalf("%d replies behind a busy table and announcements, want %d", replies, groupCalls-groupAnnounceCalls)
	}
	// Only replies leave the window full: when the first edit leaves it, a
	// reply goes, and a table edit still does not.
	now = start.Add(d.budget.groupWindow() + 10*time.Millisecond)
	if d.budget.admitFor(ctx, group, prioTable, "t/table:1", now.Add(tablePatience)).IsZero() {
		t.Fatal("a table edit with the window at its ceiling")
	}
	if !reply().IsZero() {
		t.Fatal("a reply refused when a call had left the window")
	}
}

// callLog is a Telegram that records the group calls in order.
type callLog struct {
	Telegram
	mu    sync.Mutex
	calls []string // "send:<text>" or "edit:<text>"
	next  int
}

func (c *callLog) SendMessage(_ context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, "send:"+p.Text)
	c.next++
	return &models.Message{ID: c.next}, nil
}

func (c *callLog) EditMessageText(_ context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, "edit:"+p.Text)
	return &models.Message{ID: p.MessageID}, nil
}

func (c *callLog) log() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// TestAnnouncementBeforeTheTable: a change that queues an announcement
// (a round's result) and changes the table (the next round) reaches the
// group announcement first, even when the table's edit asked for the
// token's budget earlier: the group table is not edited past a waiting
// announcement.
func TestAnnouncementBeforeTheTable(t *testing.T) {
	st := testBolt(t)
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := start
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	at := func(d time.Duration) { mu.Lock(); now = start.Add(d); mu.Unlock() }
	tg := &callLog{}
	// One call a second for the whole token: the announcement and the
	// table edit cannot both go at once.
	b := newBot(t, st, tg, Limits{GroupInterval: time.Millisecond, PrivateInterval: time.Millisecond,
		GlobalPerSecond: 1, GlobalSlice: time.Second}, clock)
	ctx := context.Background()
	const id = "-100"
	g := testGames()[0]
	commit(t, st, clock(), id, func(tab *record.Table) []adapter.Message {
		tab.Title = "Друзья"
		openLobby(tab, g.ID(), record.Seat{UserID: 1, Name: "Аня"})
		return nil
	})
	b.delivery.service(ctx, id) // the lobby is posted
	if calls := tg.log(); len(calls) != 1 {
		t.Fatalf("calls after the lobby: %q", calls)
	}
	// The token's second is used up; then a change queues an announcement
	// and changes the table.
	at(2 * time.Second)
	if ok, _, err := st.AllowInTurn(ctx, store.GlobalRateKey, "", clock().Add(time.Hour), 1, time.Second, clock()); err != nil || !ok {
		t.Fatal("could not use the token's second", err)
	}
	commit(t, st, clock(), id, func(tab *record.Table) []adapter.Message {
		tab.Seats = append(tab.Seats, record.Seat{UserID: 2, Name: "Боря"})
		return []adapter.Message{{Text: "round over"}}
	})
	for step := 0; step < 20; step++ {
		at(2*time.Second + time.Duration(step)*250*time.Millisecond)
		b.delivery.service(ctx, id)
	}
	calls := tg.log()
	if len(calls) != 3 {
		t.Fatalf("group calls %q, want the lobby, the announcement and the edit", calls)
	}
	if calls[1] != "send:round over" || calls[2][:5] != "edit:" {
		t.Fatalf("group calls %q: the announcement must come before the table's edit", calls)
	}
}

// TestNewTableIsAReply: a group table posted anew (/newgame's lobby, «play
// again») answers someone, so it goes while the group's window is past the
// table edits' share; its edits then wait for that share.
func TestNewTableIsAReply(t *testing.T) {
	st := testBolt(t)
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := start
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tg := &callLog{}
	b := newBot(t, st, tg, Limits{GroupInterval: 3 * time.Second, PrivateInterval: time.Millisecond,
		GlobalPerSecond: 1000, GlobalSlice: time.Second}, clock)
	ctx := context.Background()
	const id, chat = "-100", -100
	// The last game's edits and announcements fill the window to the
	// announcements' ceiling.
	for i := range groupAnnounceCalls {
		if ok, _, err := st.Allow(ctx, store.ChatRateKey(chat), groupCalls, b.delivery.budget.groupWindow(), start.Add(time.Duration(i-groupAnnounceCalls)*time.Second)); err != nil || !ok {
			t.Fatal("could not fill the window", err)
		}
	}
	commit(t, st, clock(), id, func(tab *record.Table) []adapter.Message {
		openLobby(tab, testGames()[0].ID(), record.Seat{UserID: 1, Name: "Аня"})
		return nil
	})
	b.delivery.service(ctx, id)
	if calls := tg.log(); len(calls) != 1 || calls[0][:5] != "send:" {
		t.Fatalf("calls %q, want the lobby posted at once", calls)
	}
	// Someone joins: the edit is the table's, and the window holds 18.
	commit(t, st, clock(), id, func(tab *record.Table) []adapter.Message {
		tab.Seats = append(tab.Seats, record.Seat{UserID: 2, Name: "Боря"})
		return nil
	})
	b.delivery.service(ctx, id)
	if calls := tg.log(); len(calls) != 1 {
		t.Fatalf("calls %q: a table edit past its share", calls)
	}
}

// sendHook is a callLog that runs a hook inside the first sendMessage, to
// interleave another replica at exactly that moment.
type sendHook struct {
	callLog
	hooked atomic.Bool
	hook   func()
}

func (s *sendHook) SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	if s.hooked.CompareAndSwap(false, true) {
		s.hook()
	}
	return s.callLog.SendMessage(ctx, p)
}

// TestAnnouncementSentOnceByTwoReplicas: a commit wakes its table at once,
// so another replica may serve it while the first is still sending an
// announcement; the second must not post it again (the sender has it to
// itself until its ack lands).
func TestAnnouncementSentOnceByTwoReplicas(t *testing.T) {
	st := testBolt(t)
	tg := &sendHook{}
	newReplica := func() *bot {
		return newBot(t, st, tg, Limits{GroupInterval: time.Millisecond, PrivateInterval: time.Millisecond,
			GlobalPerSecond: 1000, GlobalSlice: time.Second}, time.Now)
	}
	first, second := newReplica(), newReplica()
	ctx := context.Background()
	const id = "-100"
	commit(t, st, time.Now(), id, func(*record.Table) []adapter.Message {
		return []adapter.Message{{Text: "round over"}}
	})
	tbl, _, err := first.delivery.load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tg.hook = func() { second.delivery.sendOutbox(ctx, tbl) } // the other replica, mid-send
	first.delivery.sendOutbox(ctx, tbl)
	second.delivery.sendOutbox(ctx, tbl) // after the ack: nothing left
	if calls := tg.log(); len(calls) != 1 || calls[0] != "send:round over" {
		t.Fatalf("calls %q, want the announcement once", calls)
	}
}
