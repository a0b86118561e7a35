package store

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/trickchef/trickchef/store/redistest"
	bolt "go.etcd.io/bbolt"
)

// TestKeptGamesExpireRedis: a kept game and each person's index live
// GameRetention from the keep (the game's time is not renewed by a second
// keep or a review); a game that expired is skipped and pruned from the
// index, refuses a review and is not made anew by one; index entries older
// than the retention are dropped at the next keep.
func TestKeptGamesExpireRedis(t *testing.T) {
	for name, newClient := range map[string]func(t *testing.T) redis.UniversalClient{
		"Redis":   func(t *testing.T) redis.UniversalClient { return redistest.Client(t) },
		"Cluster": func(t *testing.T) redis.UniversalClient { return redistest.StartCluster(t).ClusterClient(t) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			c := newClient(t)
			r := NewRedis(c, "tc:"+name+":", Config{})
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			aboutRetention := func(key string) {
				t.Helper()
				if ttl := c.PTTL(ctx, key).Val(); ttl <= GameRetention-time.Minute || ttl > GameRetention {
					t.Errorf("%s: TTL %v, want about %v", key, ttl, GameRetention)
				}
			}
			must(r.KeepGame(ctx, "-1:1:1", []int64{42, 43}, []byte("g1")))
			must(r.SetReview(ctx, "-1:1:1", 42, []byte("r")))
			for _, k := range []string{r.gameKey("-1:1:1"), r.keptKey(42), r.keptKey(43)} {
				aboutRetention(k)
			}
			// A second keep and a review leave the game's time alone.
			must(c.PExpire(ctx, r.gameKey("-1:1:1"), time.Hour).Err())
			must(r.KeepGame(ctx, "-1:1:1", []int64{42}, []byte("again")))
			must(r.SetReview(ctx, "-1:1:1", 43, []byte("r")))
			if ttl := c.PTTL(ctx, r.gameKey("-1:1:1")).Val(); ttl > time.Hour {
				t.Errorf("game's TTL renewed to %v", ttl)
			}

			// The game expires (as Redis would do it, now).
			must(r.KeepGame(ctx, "-1:2:2", []int64{42}, []byte("g2")))
			must(c.Del(ctx, r.gameKey("-1:1:1")).Err())
			if _, err := r.KeptGame(ctx, "-1:1:1"); !errors.Is(err, ErrNotFound) {
				t.Errorf("KeptGame of an expired game: %v", err)
			}
			if _, err := r.Review(ctx, "-1:1:1", 42); !errors.Is(err, ErrNotFound) {
				t.Errorf("Review of an expired game: %v", err)
			}
			if err := r.SetReview(ctx, "-1:1:1", 42, []byte("r")); !errors.Is(err, ErrNotFound) {
				t.Errorf("SetReview of an expired game: %v", err)
			}
			if n := c.Exists(ctx, r.gameKey("-1:1:1")).Val(); n != 0 {
				t.Error("SetReview made an expired game's key anew")
			}
			refs, err := r.KeptGames(ctx, 42, 10)
			must(err)
			if len(refs) != 1 || refs[0] != "-1:2:2" {
				t.Errorf("KeptGames = %v, want [-1:2:2]", refs)
			}
			if n := c.ZCard(ctx, r.keptKey(42)).Val(); n != 1 {
				t.Errorf("42's index has %d entries after listing, want the expired game pruned", n)
			}

			// An entry older than the retention goes at the next keep.
			old := float64(time.Now().Add(-GameRetention - time.Minute).UnixMilli())
			must(c.ZAdd(ctx, r.keptKey(43), redis.Z{Score: old, Member: "-1:0:0"}).Err())
			must(r.KeepGame(ctx, "-1:3:3", []int64{43}, []byte("g3")))
			if _, err := c.ZScore(ctx, r.keptKey(43), "-1:0:0").Result(); !errors.Is(err, redis.Nil) {
				t.Errorf("an index entry older than the retention kept: %v", err)
			}
		})
	}
}

// TestKeptGamesExpireBolt: the sweep deletes a kept game GameRetention
// after its keep, with its reviews and its people's index rows, and not
// before.
func TestKeptGamesExpireBolt(t *testing.T) {
	ctx := t.Context()
	b, err := OpenBolt(filepath.Join(t.TempDir(), "s.db"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	now := time.Unix(1_700_000_000, 0)
	b.now = func() time.Time { return now }
	must(b.KeepGame(ctx, "-1:1:1", []int64{42, 43}, []byte("g1")))
	must(b.SetReview(ctx, "-1:1:1", 42, []byte("r")))
	now = now.Add(time.Hour)
	must(b.KeepGame(ctx, "-1:2:2", []int64{42}, []byte("g2")))
	must(b.KeepGame(ctx, "-1:1:1", []int64{42}, []byte("again"))) // no new time

	now = now.Add(GameRetention - 2*time.Hour)
	if n, err := b.Sweep(ctx); err != nil || n != 0 {
		t.Fatalf("sweep within the retention deleted %d (%v)", n, err)
	}
	if _, err := b.Review(ctx, "-1:1:1", 42); err != nil {
		t.Fatalf("review within the retention: %v", err)
	}
	now = now.Add(90 * time.Minute) // past the first game's retention, not the second's
	if n, err := b.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep after the first game's retention deleted %d (%v), want 1", n, err)
	}
	if _, err := b.KeptGame(ctx, "-1:1:1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an expired game: %v", err)
	}
	if _, err := b.Review(ctx, "-1:1:1", 42); !errors.Is(err, ErrNotFound) {
		t.Errorf("an expired game's review: %v", err)
	}
	if err := b.SetReview(ctx, "-1:1:1", 42, []byte("r")); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetReview of an expired game: %v", err)
	}
	if refs, err := b.KeptGames(ctx, 42, 10); err != nil || len(refs) != 1 || refs[0] != "-1:2:2" {
		t.Errorf("KeptGames(42) = %v, %v", refs, err)
	}
	if refs, err := b.KeptGames(ctx, 43, 10); err != nil || len(refs) != 0 {
		t.Errorf("KeptGames(43) = %v, %v", refs, err)
	}
	rows := func() int {
		n := 0
		must(b.db.View(func(tx *bolt.Tx) error {
			n = tx.Bucket([]byte(bucketKept)).Stats().KeyN + tx.Bucket([]byte(bucketKeptBy)).Stats().KeyN
			return nil
		}))
		return n
	}
	if n := rows(); n != 2 {
		t.Errorf("%d index rows left, want 42's row of the second game in both buckets", n)
	}
	now = now.Add(time.Hour)
	if n, err := b.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep after the second game's retention deleted %d (%v), want 1", n, err)
	}
	if n := rows(); n != 0 {
		t.Errorf("%d index rows left after every game expired", n)
	}
}
