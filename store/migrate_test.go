package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestBotPrefix(t *testing.T) {
	if got := BotPrefix("tc:", 7000000001); got != "tc:7000000001:" {
		t.Errorf("BotPrefix = %q", got)
	}
}

// TestMigrateFrom writes data the way the bot did before keys were kept per
// bot (everything under "P"), then migrates it into bot 42's prefix from
// eight replicas at once, and checks that bot 42 continues exactly where
// the old layout stood while bot 43 on the same Redis sees none of it.
func TestMigrateFrom(t *testing.T) {
	t.Run("redis", func(t *testing.T) {
		testMigrateFrom(t, redistest.Client(t), redistest.Prefix(t))
	})
	t.Run("cluster", func(t *testing.T) {
		// A one-node cluster refuses any script over two slots, which is
		// what RENAME of the untagged wake set would need.
		testMigrateFrom(t, redistest.StartCluster(t).ClusterClient(t), "tc:")
	})
}

func testMigrateFrom(t *testing.T, c redis.UniversalClient, old string) {
	ctx := t.Context()
	t0 := time.UnixMilli(1_700_000_000_000)
	legacy := NewRedis(c, old, Config{})

	// The old layout: a game in progress with its applied update ids,
	// dirty views, outbox, messages and wake-up; pointers; the token's
	// budget and a blocked chat; results.
	_, err := legacy.Commit(ctx, "-100", Change{Data: []byte("state 1"), UpdateID: 500000001,
		Dirty: []string{"table"}, Outbox: [][]byte{[]byte("round 1")}, WakeAt: t0.Add(time.Minute)})
	resOK(t, err)
	ver, err := legacy.Commit(ctx, "-100", Change{Version: 1, Data: []byte("state 2"), UpdateID: 500000002,
		Dirty: []string{"hand:7"}, Outbox: [][]byte{[]byte("round 2")}, TimerAt: t0.Add(3 * time.Minute)})
	resOK(t, err)
	// A chat's inbox claimed by a process of the old layout that stopped.
	resOK(t, legacy.Ingest(ctx, "-100", []InboxEntry{{ID: 500000003, Data: []byte("press")}}, t0))
	if c, err := legacy.Claim(ctx, Inboxes, t0, time.Hour, 1); err != nil || len(c) != 1 {
		t.Fatalf("claim in the old layout: %v %v", c, err)
	}
	resOK(t, legacy.SetMessage(ctx, "-100", "table", "m17"))
	resOK(t, legacy.SetPointer(ctx, UserTableKey(7), "-100"))
	resOK(t, legacy.SetPointer(ctx, StartedKey(7), "1"))
	for range 2 {
		allowed, _, err := legacy.Allow(ctx, GlobalRateKey, 2, time.Minute, t0)
		resOK(t, err)
		if !allowed {
			t.Fatal("legacy budget refused within its limit")
		}
	}
	resOK(t, legacy.Block(ctx, ChatRateKey(-100), t0.Add(time.Hour)))
	for i, id := range []string{"r1", "r2", "r3"} {
		if !resRecord(t, legacy, resGame(id, "trickchef", -100, i, "u7 1 10", "u8 2 5", "r3 3 0")) {
			t.Fatalf("legacy result %s not recorded", id)
		}
	}
	oldKeys := legacyKeys(t, c, old)
	if len(oldKeys) < 15 {
		t.Fatalf("only %d old keys written: %v", len(oldKeys), oldKeys)
	}

	// A bot with the new layout sees nothing before migrating.
	bot := NewRedis(c, BotPrefix(old, 42), Config{})
	if _, err := bot.Load(ctx, "-100"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("new layout loads the old table before migrating: %v", err)
	}

	// Eight replicas of bot 42 start at once.
	const replicas = 8
	reports := make([]Migration, replicas)
	errs := make([]error, replicas)
	var wg sync.WaitGroup
	for i := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = NewRedis(c, BotPrefix(old, 42), Config{}).MigrateFrom(ctx, old)
		}()
	}
	wg.Wait()
	moved := 0
	for i, m := range reports {
		resOK(t, errs[i])
		if m.Owner != bot.prefix || m.Kept != 0 {
			t.Errorf("replica %d: %+v", i, m)
		}
		moved += m.Moved
	}
	if moved != len(oldKeys) {
		t.Errorf("replicas moved %d keys together, want each of the %d once", moved, len(oldKeys))
	}
	if left := legacyKeys(t, c, old); len(left) != 0 {
		t.Errorf("old keys left after migrating: %v", left)
	}

	// Bot 42 continues the old game.
	rec := resMust(bot.Load(ctx, "-100"))(t)
	if string(rec.Data) != "state 2" || rec.Version != ver {
		t.Errorf("table = %q v%d, want %q v%d", rec.Data, rec.Version, "state 2", ver)
	}
	if _, err := bot.Commit(ctx, "-100", Change{Version: ver, Data: []byte("again"), UpdateID: 500000001}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("an update applied in the old layout is applied again: %v", err)
	}
	if dirty := resMust(bot.Dirty(ctx, "-100"))(t); !reflect.DeepEqual(dirty, map[string]int64{"table": 1, "hand:7": 2}) {
		t.Errorf("dirty = %v", dirty)
	}
	if out := resMust(bot.Outbox(ctx, "-100", 10))(t); len(out) != 2 || string(out[1].Data) != "round 2" {
		t.Errorf("outbox = %v", out)
	}
	if msgs := resMust(bot.Messages(ctx, "-100"))(t); msgs["table"] != "m17" {
		t.Errorf("messages = %v", msgs)
	}
	if p := resMust(bot.Pointer(ctx, UserTableKey(7)))(t); p != "-100" {
		t.Errorf("user pointer = %q", p)
	}
	if at, found := resMust2(bot.NextDue(ctx, Deliveries))(t); !found || !at.Equal(t0.Add(time.Minute)) {
		t.Errorf("next due = %v %v, want %v", at, found, t0.Add(time.Minute))
	}
	if at, found := resMust2(bot.NextDue(ctx, Timers))(t); !found || !at.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("next timer = %v %v, want %v", at, found, t0.Add(3*time.Minute))
	}
	if at, found := resMust2(bot.NextDue(ctx, Inboxes))(t); !found || at.After(time.Now()) {
		t.Errorf("the chat held in the old layout: due %v %v, want at once", at, found)
	}
	if in := resMust(bot.Inbox(ctx, "-100", 10))(t); len(in) != 1 || in[0].ID != 500000003 {
		t.Errorf("inbox = %v", in)
	}
	if claims := resMust(bot.Claim(ctx, Deliveries, t0.Add(2*time.Minute), time.Minute, 10))(t); len(claims) != 1 || claims[0].Name != "-100" {
		t.Errorf("claims = %v", claims)
	}
	if allowed, _, _ := bot.Allow(ctx, GlobalRateKey, 2, time.Minute, t0.Add(time.Second)); allowed {
		t.Error("the token's budget spent in the old layout is available again")
	}
	if allowed, _, _ := bot.Allow(ctx, ChatRateKey(-100), 5, time.Minute, t0.Add(time.Second)); allowed {
		t.Error("the chat's block was lost")
	}
	if h := resMust(bot.History(ctx, -100, 10))(t); !slices.Equal(resIDsOf(h), []string{"r3", "r2", "r1"}) {
		t.Errorf("history = %v", resIDsOf(h))
	}
	if top := resMust(bot.Top(ctx, -100, "trickchef", 10))(t); !slices.Equal(resPlayers(top), []string{"u7", "u8", "r3"}) {
		t.Errorf("top = %v", resPlayers(top))
	}
	if chats := resMust(bot.PlayerChats(ctx, "u7"))(t); !slices.Equal(chats, []int64{-100}) {
		t.Errorf("player chats = %v", chats)
	}
	if resRecord(t, bot, resGame("r2", "trickchef", -100, 1, "u7 1 10", "u8 2 5", "r3 3 0")) {
		t.Error("a result recorded in the old layout is recorded again")
	}

	// Later starts skip the scan; another bot finds the claim taken and
	// gets nothing.
	if m := resMust(bot.MigrateFrom(ctx, old))(t); !m.Done || m.Moved != 0 {
		t.Errorf("second migration: %+v", m)
	}
	other := NewRedis(c, BotPrefix(old, 43), Config{})
	if m := resMust(other.MigrateFrom(ctx, old))(t); m.Owner != bot.prefix || m.Moved != 0 {
		t.Errorf("other bot's migration: %+v", m)
	}
	if _, err := other.Load(ctx, "-100"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the other bot loads bot 42's table: %v", err)
	}
	if h := resMust(other.History(ctx, -100, 10))(t); len(h) != 0 {
		t.Errorf("the other bot sees bot 42's history: %v", resIDsOf(h))
	}
	if allowed, _, _ := other.Allow(ctx, GlobalRateKey, 2, time.Minute, t0.Add(time.Second)); !allowed {
		t.Error("the other bot shares bot 42's budget")
	}
}

// TestMigrateFromKeepsNewData checks that a key the new layout already has
// wins over its old twin, which is left alone, and that a run that stopped
// halfway (some keys moved, no done mark) is finished by the next.
func TestMigrateFromKeepsNewData(t *testing.T) {
	ctx := t.Context()
	c := redistest.Client(t)
	old := redistest.Prefix(t)
	legacy, bot := NewRedis(c, old, Config{}), NewRedis(c, BotPrefix(old, 42), Config{})
	for _, table := range []string{"a", "b", "c"} {
		_, err := legacy.Commit(ctx, table, Change{Data: []byte("old " + table)})
		resOK(t, err)
	}
	_, err := bot.Commit(ctx, "a", Change{Data: []byte("new a")})
	resOK(t, err)
	// Halfway: b's record already moved by a run that then stopped.
	resOK(t, c.Rename(ctx, old+"t:{b}:rec", bot.prefix+"t:{b}:rec").Err())

	m := resMust(bot.MigrateFrom(ctx, old))(t)
	if m.Moved != 1 || m.Kept != 1 || m.Done {
		t.Errorf("migration: %+v, want c moved and a kept", m)
	}
	for table, want := range map[string]string{"a": "new a", "b": "old b", "c": "old c"} {
		if rec := resMust(bot.Load(ctx, table))(t); string(rec.Data) != want {
			t.Errorf("table %s = %q, want %q", table, rec.Data, want)
		}
	}
	if left := legacyKeys(t, c, old); !slices.Equal(left, []string{old + "t:{a}:rec"}) {
		t.Errorf("old keys left: %v", left)
	}
	if _, err := bot.MigrateFrom(ctx, "x:"); err == nil {
		t.Error("migrating from a prefix the bot's does not extend was accepted")
	}
}

// TestIsLegacyKey pins which keys are the old layout's: never a key of a
// bot's own prefix, whatever follows it.
func TestIsLegacyKey(t *testing.T) {
	for key, want := range map[string]bool{
		"tc:t:{-100}:rec":             true,
		"tc:wake":                     true,
		"tc:wake:held{tc:wake}":       true,
		"tc:timers":                   true,
		"tc:inbox:again{tc:inbox}":    true,
		"tc:42:timers":                false,
		"tc:42:wake:held{tc:42:wake}": false,
		"tc:ptr:{user:7}":             true,
		"tc:rate:{global}:meta":       true,
		"tc:res:{-100}:hist":          true,
		"tc:resu:{u7}":                true,
		"tc:legacy":                   false,
		"tc:42:t:{-100}:rec":          false,
		"tc:42:wake":                  false,
		"tc:wakeful":                  false,
		"other:t:{-100}:rec":          false,
		"tc:7000000001:resu:{x}":      false,
	} {
		if got := isLegacyKey("tc:", key); got != want {
			t.Errorf("isLegacyKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// legacyKeys lists the old layout's keys under old, sorted.
func legacyKeys(t *testing.T, c redis.UniversalClient, old string) []string {
	t.Helper()
	var (
		mu   sync.Mutex
		keys []string
	)
	scan := func(ctx context.Context, n redis.UniversalClient) error {
		iter := n.Scan(ctx, 0, old+"*", 1000).Iterator()
		for iter.Next(ctx) {
			if isLegacyKey(old, iter.Val()) {
				mu.Lock()
				keys = append(keys, iter.Val())
				mu.Unlock()
			}
		}
		return iter.Err()
	}
	var err error
	if cc, ok := c.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(t.Context(), func(ctx context.Context, n *redis.Client) error { return scan(ctx, n) })
	} else {
		err = scan(t.Context(), c)
	}
	resOK(t, err)
	slices.Sort(keys)
	return keys
}

func resMust2[A, B any](a A, b B, err error) func(t *testing.T) (A, B) {
	return func(t *testing.T) (A, B) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return a, b
	}
}

// TestBoltOwn checks that a file, old or new, goes to the first bot that
// owns it, keeps its data for that bot across a reopen, and refuses
// another.
func TestBoltOwn(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "store.db")
	b, err := OpenBolt(path, Config{})
	resOK(t, err)
	// Written before owners were recorded.
	_, err = b.Commit(ctx, "-100", Change{Data: []byte("old game"), UpdateID: 9})
	resOK(t, err)
	resOK(t, b.Close())

	b, err = OpenBolt(path, Config{})
	resOK(t, err)
	resOK(t, b.Own("42"))
	resOK(t, b.Own("42"))
	if err := b.Own("43"); !errors.Is(err, ErrOtherOwner) {
		t.Errorf("another bot owns the file: %v", err)
	}
	resOK(t, b.Close())

	b, err = OpenBolt(path, Config{})
	resOK(t, err)
	defer b.Close()
	if err := b.Own("43"); !errors.Is(err, ErrOtherOwner) || !strings.Contains(err.Error(), "42") {
		t.Errorf("after a reopen another bot owns the file: %v", err)
	}
	resOK(t, b.Own("42"))
	if rec := resMust(b.Load(ctx, "-100"))(t); string(rec.Data) != "old game" {
		t.Errorf("the owner's old table: %q", rec.Data)
	}
	if err := b.Own(""); err == nil {
		t.Error("an empty owner was accepted")
	}
}
