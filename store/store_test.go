package store_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func newRedis(t testing.TB) *store.Redis {
	return store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
}

func newBolt(t testing.TB) *store.Bolt { return newBoltWith(t, store.Config{}) }

func newBoltWith(t testing.TB, cfg store.Config) *store.Bolt {
	b, err := store.OpenBolt(filepath.Join(t.TempDir(), "store.db"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

func TestRedis(t *testing.T) {
	runContract(t, func(t *testing.T) tableStore { return newRedis(t) })
}

// TestRedisCluster runs the contract through a cluster client against a
// one-node cluster, which refuses any command whose keys span slots.
func TestRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t).ClusterClient(t)
	if err := c.Del(t.Context(), "a", "b").Err(); err == nil || !strings.Contains(err.Error(), "CROSSSLOT") {
		t.Fatalf("DEL over two slots: %v, want CROSSSLOT (the cluster must enforce slots)", err)
	}
	runContract(t, func(t *testing.T) tableStore { return store.NewRedis(c, t.Name()+":", store.Config{}) })
}

func TestBolt(t *testing.T) {
	runContract(t, func(t *testing.T) tableStore { return newBolt(t) })
}

// TestBoltReopen checks that what a restart needs survives in the file.
func TestBoltReopen(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "store.db")
	b, err := store.OpenBolt(path, store.Config{})
	ok(t, err)
	get(b.Commit(ctx, "g", store.Change{Data: []byte("s"), UpdateID: 9, Dirty: []string{"table"},
		Outbox: [][]byte{[]byte("a")}, WakeAt: base}))(t)
	ok(t, b.SetPointer(ctx, "user:1", "g"))
	ok(t, b.Close())

	b, err = store.OpenBolt(path, store.Config{})
	ok(t, err)
	defer b.Close()
	if rec := get(b.Load(ctx, "g"))(t); rec.Version != 1 || string(rec.Data) != "s" {
		t.Fatalf("Load = %+v", rec)
	}
	_, err = b.Commit(ctx, "g", store.Change{Version: 1, UpdateID: 9})
	wantErr(t, err, store.ErrDuplicate)
	if at, has := must2(t)(b.NextDue(ctx, store.Deliveries)); !has || !at.Equal(base) {
		t.Fatalf("NextDue = %v %v", at, has)
	}
	if o := get(b.Outbox(ctx, "g", 5))(t); len(o) != 1 {
		t.Fatalf("Outbox = %v", o)
	}
	if v := get(b.Pointer(ctx, "user:1"))(t); v != "g" {
		t.Fatalf("Pointer = %q", v)
	}
}

func TestDialRedis(t *testing.T) {
	ctx := t.Context()
	r, err := store.DialRedis(ctx, redistest.URL(t), redistest.Prefix(t), store.Config{})
	ok(t, err)
	get(r.Commit(ctx, "g", store.Change{Data: []byte("x")}))(t)
	ok(t, r.Close())
	if err := r.Ping(ctx); err == nil {
		t.Fatal("Ping after Close succeeded")
	}

	cl := redistest.StartCluster(t)
	rc, err := store.DialRedis(ctx, "redis-cluster://"+cl.Addr, "tc:", store.Config{})
	ok(t, err)
	defer rc.Close()
	get(rc.Commit(ctx, "g", store.Change{Data: []byte("x"), Dirty: []string{"table"}}))(t)

	if _, err := store.DialRedis(ctx, "http://nope", "", store.Config{}); err == nil {
		t.Fatal("DialRedis accepted an http URL")
	}
	// NewRedis leaves the caller's client open.
	c := redistest.Client(t)
	ok(t, store.NewRedis(c, "x:", store.Config{}).Close())
	ok(t, c.Ping(ctx).Err())
}

// TestCommitAfterScriptFlush: a server that lost the commit script (a
// restart, SCRIPT FLUSH) refuses the one-round-trip commit with NOSCRIPT
// before writing anything; the commit then loads the script and goes
// through, wake-up included.
func TestCommitAfterScriptFlush(t *testing.T) {
	ctx := t.Context()
	c := redistest.Client(t)
	s := store.NewRedis(c, redistest.Prefix(t), store.Config{})
	get(s.Commit(ctx, "g", store.Change{Data: []byte("a")}))(t)
	ok(t, c.ScriptFlush(ctx).Err())
	v := get(s.Commit(ctx, "g", store.Change{Version: 1, Data: []byte("b"), Dirty: []string{"table"}, WakeAt: base}))(t)
	if v != 2 {
		t.Fatalf("version = %d, want 2", v)
	}
	if at, has := must2(t)(s.NextDue(ctx, store.Deliveries)); !has || !at.Equal(base) {
		t.Fatalf("NextDue = %v %v, want %v", at, has, base)
	}
	if rec := get(s.Load(ctx, "g"))(t); string(rec.Data) != "b" {
		t.Fatalf("Load = %+v", rec)
	}
}
