package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/store"
)

// TestGivingUpKeepsTheUpdate: an update whose handler keeps panicking is
// tried a few times, then moved to the store's dead letters with why (not
// dropped), and the chat's later updates are applied in order; an update
// that fails because the store cannot be reached is tried until it is
// applied, however often that takes, and never given up.
func TestGivingUpKeepsTheUpdate(t *testing.T) {
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	var mu sync.Mutex
	var applied []int64
	storeDown := 10 // the first ten tries of update 3 find the store down
	handle := func(ctx context.Context, u *models.Update) error {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case u.ID == 2:
			panic("a handler's bug")
		case u.ID == 3 && storeDown > 0:
			storeDown--
			return errors.New("dial tcp: connection refused")
		}
		applied = append(applied, u.ID)
		return nil
	}
	in := New(Config{PressesPerSecond: 100, PressBurst: 100}, st, nil, handle, nil, time.Now, zerolog.Nop(), nil)
	chat := store.InboxChat(-100)
	var ups []*models.Update
	for id := int64(1); id <= 4; id++ {
		ups = append(ups, &models.Update{ID: id, Message: &models.Message{Chat: models.Chat{ID: -100}, Text: "/help"}})
	}
	if err := in.ingest(ctx, ups); err != nil {
		t.Fatal(err)
	}
	for try := 0; try < 40; try++ {
		in.drainChat(ctx, chat)
		if left, err := st.Inbox(ctx, chat, 10); err == nil && len(left) == 0 {
			break
		}
	}
	mu.Lock()
	got := append([]int64(nil), applied...)
	mu.Unlock()
	if want := []int64{1, 3, 4}; len(got) != len(want) || got[0] != 1 || got[1] != 3 || got[2] != 4 {
		t.Errorf("applied %v, want %v (the store's failures retried, the panicking one given up)", got, want)
	}
	dead, err := st.DeadLetters(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(dead) != 1 || dead[0].Entry.ID != 2 || dead[0].Chat != chat || dead[0].Reason == "" {
		t.Errorf("dead letters %+v, want update 2 of %s with its reason", dead, chat)
	}
	if left, _ := st.Inbox(ctx, chat, 10); len(left) != 0 {
		t.Errorf("%d updates left in the inbox", len(left))
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
