package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// TableChange says that a table was committed at a version. Live pages
// (the web table) wait for these instead of polling: a page connected to any
// replica learns of a move applied on another.
//
// A change with an empty Table is a resync: notices may have been lost (the
// subscriber fell behind, or the connection to Redis was re-established), so
// whoever watches tables must reload the ones it cares about.
type TableChange struct {
	Table   string
	Version int64
}

// changeBuffer is how many notices a watcher may fall behind before it
// gets a resync instead; a watcher only needs the latest version of each
// table, so a slow one loses nothing it cannot reload.
const changeBuffer = 1024

// feed fans table changes out to the watchers of one process without ever
// blocking the publisher (a commit).
type feed struct {
	mu       sync.Mutex
	watchers map[*watcher]struct{}
}

type watcher struct {
	ch   chan TableChange
	lost bool // a notice was dropped: send a resync first
}

// watch registers a watcher until ctx is done; its channel is closed then.
func (f *feed) watch(ctx context.Context) <-chan TableChange {
	w := &watcher{ch: make(chan TableChange, changeBuffer)}
	f.mu.Lock()
	if f.watchers == nil {
		f.watchers = map[*watcher]struct{}{}
	}
	f.watchers[w] = struct{}{}
	f.mu.Unlock()
	go func() {
		<-ctx.Done()
		f.mu.Lock()
		delete(f.watchers, w)
		close(w.ch)
		f.mu.Unlock()
	}()
	return w.ch
}

// publish hands c to every watcher that has room; one that has none gets a
// resync as soon as it has.
func (f *feed) publish(c TableChange) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for w := range f.watchers {
		if w.lost {
			select {
			case w.ch <- TableChange{}:
				w.lost = false
			default:
				continue
			}
		}
		select {
		case w.ch <- c:
		default:
			w.lost = true
		}
	}
}

// parseChangeMessage reads a notice as it travels through Redis:
// "version:table" (published by the commit script).
func parseChangeMessage(s string) (TableChange, bool) {
	v, table, ok := strings.Cut(s, ":")
	if !ok || table == "" {
		return TableChange{}, false
	}
	ver, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ver <= 0 {
		return TableChange{}, false
	}
	return TableChange{Table: table, Version: ver}, true
}

// changesChannel is the Pub/Sub channel every commit announces itself on
// (from inside the commit script, so no commit goes unannounced). A plain
// channel, not a sharded one: in Redis Cluster a PUBLISH reaches the
// subscribers on every node, so one subscription per replica hears every
// table whatever its slot, and a page's table needs no subscription of its
// own. The traffic is one short message per commit.
func (r *Redis) changesChannel() string { return r.prefix + "changes" }

// WatchChanges delivers the changes committed from now on by every replica,
// until ctx is done (the channel is closed then). It returns once the
// subscription is in place. After Redis comes back from a lost connection,
// a resync (empty Table) says that changes in between were not seen.
func (r *Redis) WatchChanges(ctx context.Context) (<-chan TableChange, error) {
	ps := r.c.Subscribe(ctx, r.changesChannel())
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, fmt.Errorf("store: watch changes: %w", err)
	}
	var f feed
	out := f.watch(ctx)
	msgs := ps.ChannelWithSubscriptions(redis.WithChannelSize(changeBuffer))
	go func() {
		defer ps.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-msgs:
				if !ok {
					return
				}
				switch m := m.(type) {
				case *redis.Message:
					if c, ok := parseChangeMessage(m.Payload); ok {
						f.publish(c)
					}
				case *redis.Subscription:
					// Subscribed again after a reconnect: what was published
					// meanwhile is gone.
					f.publish(TableChange{})
				}
			}
		}
	}()
	return out, nil
}

// WatchChanges delivers the changes this process commits from now on, until
// ctx is done (the channel is closed then). The embedded store has one
// process, so its notices never leave it.
func (b *Bolt) WatchChanges(ctx context.Context) (<-chan TableChange, error) {
	return b.changes.watch(ctx), nil
}
