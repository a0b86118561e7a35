package store

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestBoltSweepsOldFiles: a file written before expiry gives everything in
// it a full period from its first sweep, then sweeps it like the rest.
func TestBoltSweepsOldFiles(t *testing.T) {
	ctx := t.Context()
	b, err := OpenBolt(filepath.Join(t.TempDir(), "s.db"), Config{Retention: Retention{Tables: time.Hour, Pointers: 2 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.Unix(1_700_000_000, 0)
	b.now = func() time.Time { return now }
	if _, err := b.Commit(ctx, "old", Change{Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if err := b.SetPointer(ctx, "user:1", "old"); err != nil {
		t.Fatal(err)
	}
	// What an old version left: no expiry at all.
	err = b.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bucketExpiry)); err != nil {
			return err
		}
		_, err := tx.CreateBucket([]byte(bucketExpiry))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(24 * time.Hour)
	if n, err := b.Sweep(ctx); err != nil || n != 0 {
		t.Fatalf("first sweep of an old file deleted %d (%v), want 0", n, err)
	}
	now = now.Add(90 * time.Minute)
	if n, err := b.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep after the tables' period deleted %d (%v), want the table", n, err)
	}
	if _, err := b.Load(ctx, "old"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old table: %v", err)
	}
	if _, err := b.Pointer(ctx, "user:1"); err != nil {
		t.Fatalf("pointer within its period: %v", err)
	}
}

// TestBoltSweepsByItself: the sweep runs every Config.Sweep period without
// anyone calling it.
func TestBoltSweepsByItself(t *testing.T) {
	ctx := t.Context()
	b, err := OpenBolt(filepath.Join(t.TempDir(), "s.db"), Config{Retention: Retention{Tables: 50 * time.Millisecond},
		Sweep: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Commit(ctx, "g", Change{Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := b.Load(ctx, "g"); errors.Is(err, ErrNotFound) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the table was never swept")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
