package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/trickchef/trickchef/store/redistest"
)

// crc16 is CRC-16/XMODEM, the checksum Redis Cluster hashes keys with.
func crc16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// slot is Redis Cluster's key slot: the hash tag {…} if one is non-empty.
func slot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	return int(crc16([]byte(key)) % 16384)
}

func TestSlotHelper(t *testing.T) {
	// Vectors from the Redis Cluster specification and CLUSTER KEYSLOT.
	for key, want := range map[string]int{
		"123456789":            12739,
		"foo":                  12182,
		"{user1000}.following": slot("user1000"),
		"foo{}{bar}":           slot("foo{}{bar}"),
	} {
		if got := slot(key); got != want {
			t.Errorf("slot(%q) = %d, want %d", key, got, want)
		}
	}
}

var slotTables = []string{"-1001234567890", "g1", "a:b", "x{y", "x}y", "{z}", "ключ", "a b"}

// TestTableKeysShareSlot checks that every key a table's Commit or Delete
// touches hashes to one slot, whatever the table id.
func TestTableKeysShareSlot(t *testing.T) {
	for _, prefix := range []string{"", "tc:", "prod:v2:", BotPrefix("tc:", 7000000001)} {
		r := NewRedis(nil, prefix, Config{})
		for _, table := range slotTables {
			keys := r.tableKeys(table)
			if len(keys) != 6 {
				t.Fatalf("tableKeys = %v", keys)
			}
			want := slot(keys[0])
			for _, k := range keys {
				if got := slot(k); got != want {
					t.Errorf("prefix %q table %q: %s in slot %d, %s in slot %d", prefix, table, keys[0], want, k, got)
				}
			}
			if a, b := slot(r.rateKey(table)), slot(r.rateMetaKey(table)); a != b {
				t.Errorf("rate keys of %q in slots %d and %d", table, a, b)
			}
		}
	}
}

// botKeys lists one key of every family for a table id (also used as
// pointer, rate, chat and player key), the queues' keys last.
func botKeys(r *Redis, table string) []string {
	keys := append(r.tableKeys(table), r.pointerKey(table), r.rateKey(table), r.rateMetaKey(table), r.inboxKey(table))
	deadlines, expiry := r.rateTurnKeys(table)
	keys = append(keys, deadlines, expiry, r.resChatsKey(table))
	keys = append(keys, r.resGroupKeys(-1001234567890, []string{"trickchef", table})...)
	return append(keys, allQueueKeys(r)...)
}

// allQueueKeys lists every key of every queue.
func allQueueKeys(r *Redis) []string {
	var keys []string
	for _, q := range queues {
		k := r.queueKeys(q)
		keys = append(keys, k.due, k.held, k.token, k.again, k.ver)
	}
	return keys
}

// TestQueueKeysShareSlot checks that each queue's keys hash to one slot
// (its scripts touch them together), for the helper and the server, and
// that its first key keeps the due set's old name.
func TestQueueKeysShareSlot(t *testing.T) {
	c := redistest.StartCluster(t).Client(t)
	for _, prefix := range []string{"", "tc:", "prod:v2:", BotPrefix("tc:", 7000000001)} {
		r := NewRedis(nil, prefix, Config{})
		for _, q := range queues {
			k := r.queueKeys(q)
			if k.due != prefix+string(q) {
				t.Errorf("queue %s: due set %q, want %q", q, k.due, prefix+string(q))
			}
			want := slot(k.due)
			for _, key := range []string{k.held, k.token, k.again, k.ver} {
				server, err := c.ClusterKeySlot(t.Context(), key).Result()
				if err != nil {
					t.Fatal(err)
				}
				if got := slot(key); got != want || int(server) != want {
					t.Errorf("%s in slot %d (server %d), its due set %s in %d", key, got, server, k.due, want)
				}
			}
		}
	}
}

// TestBotKeysKeepSlot checks what MigrateFrom relies on: a bot's key is
// its old key with the bot's id inserted after the base prefix, in the
// same Cluster slot (so RENAME works), for every family but the untagged
// wake set, which is copied instead. The server agrees.
func TestBotKeysKeepSlot(t *testing.T) {
	c := redistest.StartCluster(t).Client(t)
	old, bot := NewRedis(nil, "tc:", Config{}), NewRedis(nil, BotPrefix("tc:", 7000000001), Config{})
	for _, table := range slotTables {
		oldKeys, botKeys := botKeys(old, table), botKeys(bot, table)
		for i, k := range oldKeys {
			if !isLegacyKey("tc:", k) {
				t.Errorf("%s is not recognised as an old key", k)
			}
			if isLegacyKey("tc:", botKeys[i]) {
				t.Errorf("bot key %s taken for an old key", botKeys[i])
			}
			if isQueueKey(old.prefix, k) {
				continue // tagged with the prefix: copied member by member, not renamed
			}
			if want := bot.prefix + strings.TrimPrefix(k, old.prefix); botKeys[i] != want {
				t.Errorf("bot key %s, want %s", botKeys[i], want)
			}
			server, err := c.ClusterKeySlot(t.Context(), botKeys[i]).Result()
			if err != nil {
				t.Fatal(err)
			}
			if a, b := slot(k), slot(botKeys[i]); a != b || int(server) != b {
				t.Errorf("%s in slot %d, %s in slot %d (server: %d)", k, a, botKeys[i], b, server)
			}
		}
	}
}

// TestSlotMatchesServer compares the helper with a cluster-enabled
// redis-server's own CLUSTER KEYSLOT for the real key names.
func TestSlotMatchesServer(t *testing.T) {
	srv := redistest.StartCluster(t)
	c := srv.Client(t)
	r := NewRedis(nil, "tc:", Config{})
	for _, table := range slotTables {
		keys := append(r.tableKeys(table), r.pointerKey(table), r.rateKey(table), r.rateMetaKey(table))
		keys = append(keys, allQueueKeys(r)...)
		for _, k := range keys {
			got, err := c.ClusterKeySlot(t.Context(), k).Result()
			if err != nil {
				t.Fatal(err)
			}
			if int(got) != slot(k) {
				t.Errorf("CLUSTER KEYSLOT %q = %d, helper says %d", k, got, slot(k))
			}
		}
	}
}

// TestUpdateRetention checks that applied update ids are forgotten after
// UpdateRetention but not before.
func TestUpdateRetention(t *testing.T) {
	t.Run("Bolt", func(t *testing.T) {
		ctx := t.Context()
		b, err := OpenBolt(t.TempDir()+"/s.db", Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		now := time.Unix(1_700_000_000, 0)
		b.now = func() time.Time { return now }
		mustCommit(t, b.Commit, Change{Data: []byte("1"), UpdateID: 1})
		now = now.Add(UpdateRetention - time.Minute)
		mustCommit(t, b.Commit, Change{Version: 1, Data: []byte("2"), UpdateID: 2})
		if _, err := b.Commit(ctx, "g", Change{Version: 2, UpdateID: 1}); err != ErrDuplicate {
			t.Fatalf("update 1 within retention: %v, want ErrDuplicate", err)
		}
		now = now.Add(2 * time.Minute) // update 1 is now older than the retention
		mustCommit(t, b.Commit, Change{Version: 2, Data: []byte("3"), UpdateID: 3})
		mustCommit(t, b.Commit, Change{Version: 3, Data: []byte("4"), UpdateID: 1})
		if _, err := b.Commit(ctx, "g", Change{Version: 4, UpdateID: 2}); err != ErrDuplicate {
			t.Fatalf("update 2 within retention: %v, want ErrDuplicate", err)
		}
	})
	t.Run("Redis", func(t *testing.T) {
		ctx := t.Context()
		c := redistest.Client(t)
		r := NewRedis(c, redistest.Prefix(t), Config{})
		mustCommit(t, r.Commit, Change{Data: []byte("1"), UpdateID: 1})
		// Age update 1 past the retention as the server's clock sees it.
		old := float64(time.Now().Add(-UpdateRetention - time.Minute).UnixMilli())
		if err := c.ZAddXX(ctx, r.updKey("g"), redis.Z{Score: old, Member: "1"}).Err(); err != nil {
			t.Fatal(err)
		}
		mustCommit(t, r.Commit, Change{Version: 1, Data: []byte("2"), UpdateID: 2})
		if n := c.ZCard(ctx, r.updKey("g")).Val(); n != 1 {
			t.Fatalf("%d update ids kept, want 1 (the old one trimmed)", n)
		}
		mustCommit(t, r.Commit, Change{Version: 2, Data: []byte("3"), UpdateID: 1})
		if _, err := r.Commit(ctx, "g", Change{Version: 3, UpdateID: 2}); err != ErrDuplicate {
			t.Fatalf("update 2 within retention: %v, want ErrDuplicate", err)
		}
	})
}

func mustCommit(t *testing.T, commit func(ctx context.Context, table string, c Change) (int64, error), c Change) {
	t.Helper()
	if _, err := commit(t.Context(), "g", c); err != nil {
		t.Fatal(err)
	}
}

// TestRedisLargeIDs guards against Lua's 14-digit number formatting in the
// strings the scripts build.
func TestRedisLargeIDs(t *testing.T) {
	ctx := t.Context()
	c := redistest.Client(t)
	r := NewRedis(c, redistest.Prefix(t), Config{})
	const big = 999_999_999_999_999
	if err := c.Set(ctx, r.outseqKey("g"), big, 0).Err(); err != nil {
		t.Fatal(err)
	}
	mustCommit(t, r.Commit, Change{Data: []byte("1"), UpdateID: big, Outbox: [][]byte{[]byte("a")}})
	out, err := r.Outbox(ctx, "g", 1)
	if err != nil || len(out) != 1 || out[0].ID != big+1 {
		t.Fatalf("Outbox = %v, %v; want id %d", out, err, int64(big+1))
	}
	if _, err := r.Commit(ctx, "g", Change{Version: 1, UpdateID: big}); err != ErrDuplicate {
		t.Fatalf("large update id repeated: %v, want ErrDuplicate", err)
	}
}
