package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// changeStore is what a live page's server needs: commits and their notices.
type changeStore interface {
	Commit(ctx context.Context, table string, c store.Change) (int64, error)
	WatchChanges(ctx context.Context) (<-chan store.TableChange, error)
}

var (
	_ changeStore = (*store.Redis)(nil)
	_ changeStore = (*store.Bolt)(nil)
)

func TestChangesRedis(t *testing.T) {
	testChanges(t, newRedis(t))
}

func TestChangesRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t).ClusterClient(t)
	testChanges(t, store.NewRedis(c, t.Name()+":", store.Config{}))
}

func TestChangesBolt(t *testing.T) {
	testChanges(t, newBolt(t))
}

// testChanges: every commit is announced once, in order, with its version;
// a refused commit (conflict, duplicate update) announces nothing; the
// channel closes with its context.
func testChanges(t *testing.T, s changeStore) {
	ctx, cancel := context.WithCancel(t.Context())
	ch, err := s.WatchChanges(ctx)
	ok(t, err)
	get(s.Commit(ctx, "a", store.Change{Data: []byte("1"), UpdateID: 5}))(t)
	get(s.Commit(ctx, "b", store.Change{Data: []byte("1")}))(t)
	_, err = s.Commit(ctx, "a", store.Change{Version: 7, Data: []byte("x")})
	wantErr(t, err, store.ErrConflict)
	_, err = s.Commit(ctx, "a", store.Change{Version: 1, Data: []byte("x"), UpdateID: 5})
	wantErr(t, err, store.ErrDuplicate)
	get(s.Commit(ctx, "a", store.Change{Version: 1, Data: []byte("2"), Dirty: []string{"table"}, Outbox: [][]byte{[]byte("o")}}))(t)

	want := []store.TableChange{{Table: "a", Version: 1}, {Table: "b", Version: 1}, {Table: "a", Version: 2}}
	for i, w := range want {
		if got := next(t, ch); got != w {
			t.Fatalf("notice %d = %+v, want %+v", i, got, w)
		}
	}
	select {
	case c := <-ch:
		t.Fatalf("unexpected notice %+v", c)
	case <-time.After(100 * time.Millisecond):
	}
	cancel()
	for range ch { // closed once the context is done
	}
}

// TestChangesAcrossReplicas: a page served by one replica hears a move
// committed by another; a bot under another prefix is not heard.
func TestChangesAcrossReplicas(t *testing.T) {
	prefix := redistest.Prefix(t)
	watcher := store.NewRedis(redistest.Client(t), prefix, store.Config{})
	other := store.NewRedis(redistest.Client(t), prefix, store.Config{})
	stranger := store.NewRedis(redistest.Client(t), prefix+"other:", store.Config{})
	ch, err := watcher.WatchChanges(t.Context())
	ok(t, err)
	get(stranger.Commit(t.Context(), "g", store.Change{Data: []byte("s")}))(t)
	get(other.Commit(t.Context(), "g", store.Change{Data: []byte("s")}))(t)
	if got := next(t, ch); got != (store.TableChange{Table: "g", Version: 1}) {
		t.Fatalf("got %+v", got)
	}
	select {
	case c := <-ch:
		t.Fatalf("heard another prefix's commit: %+v", c)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestChangesResyncAfterReconnect: when the connection to Redis is cut, the
// watcher is told to reload (notices in between are lost), then hears new
// commits again.
func TestChangesResyncAfterReconnect(t *testing.T) {
	srv := redistest.Start(t)
	c := srv.Client(t)
	s := store.NewRedis(c, "p:", store.Config{})
	ch, err := s.WatchChanges(t.Context())
	ok(t, err)
	admin := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer admin.Close()
	ok(t, admin.Do(t.Context(), "CLIENT", "KILL", "TYPE", "pubsub").Err())
	if got := next(t, ch); got != (store.TableChange{}) {
		t.Fatalf("after reconnect got %+v, want a resync", got)
	}
	get(s.Commit(t.Context(), "g", store.Change{Data: []byte("s")}))(t)
	if got := next(t, ch); got != (store.TableChange{Table: "g", Version: 1}) {
		t.Fatalf("got %+v", got)
	}
}

// TestChangesSlowWatcher: a watcher that stops reading never blocks a
// commit; when it reads again it is told to resync, then hears new commits.
func TestChangesSlowWatcher(t *testing.T) {
	s := newBolt(t)
	ch, err := s.WatchChanges(t.Context())
	ok(t, err)
	const n = 1100 // more than a watcher's buffer
	for i := range n {
		get(s.Commit(t.Context(), "g", store.Change{Version: int64(i), Data: []byte("s")}))(t)
	}
	seen := 0
	for len(ch) > 0 {
		<-ch
		seen++
	}
	if seen >= n {
		t.Fatalf("the buffer held all %d notices; the test does not overflow it", n)
	}
	get(s.Commit(t.Context(), "g", store.Change{Version: n, Data: []byte("s")}))(t)
	if got := next(t, ch); got != (store.TableChange{}) {
		t.Fatalf("after falling behind got %+v, want a resync", got)
	}
	if got := next(t, ch); got != (store.TableChange{Table: "g", Version: n + 1}) {
		t.Fatalf("got %+v", got)
	}
}

func next(t *testing.T, ch <-chan store.TableChange) store.TableChange {
	t.Helper()
	select {
	case c, open := <-ch:
		if !open {
			t.Fatal("changes channel closed")
		}
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no change notice within 10 s")
	}
	return store.TableChange{}
}
