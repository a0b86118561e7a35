package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
)

// legacyStore is the old API kept in legacy.go; this test goes with it.
type legacyStore interface {
	Wake(ctx context.Context, table string, at time.Time) error
	ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Claim, error)
	Release(ctx context.Context, c store.Claim, next time.Time) error
	NextWake(ctx context.Context) (time.Time, bool, error)
	Scheduled(ctx context.Context) (int64, error)
	Ingest(ctx context.Context, chat string, entries []store.InboxEntry, now time.Time) error
	ClaimChats(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Claim, error)
	ReleaseChat(ctx context.Context, c store.Claim, next, now time.Time) error
	NextChat(ctx context.Context) (time.Time, bool, error)
}

// TestLegacyWrappers checks that the old API, kept until the runtime moves
// to the queues, still reads as it did: claims name their table, and a chat
// released with updates waiting is due again.
func TestLegacyWrappers(t *testing.T) {
	for name, s := range map[string]legacyStore{"Redis": newRedis(t), "Bolt": newBolt(t)} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			ok(t, s.Wake(ctx, "g", base))
			if at, has := must2(t)(s.NextWake(ctx)); !has || !at.Equal(base) {
				t.Fatalf("NextWake = %v %v", at, has)
			}
			c := get(s.ClaimDue(ctx, base, time.Minute, 5))(t)
			if len(c) != 1 || c[0].Table != "g" || c[0].Name != "g" {
				t.Fatalf("ClaimDue = %+v", c)
			}
			if n := get(s.Scheduled(ctx))(t); n != 1 {
				t.Fatalf("Scheduled = %d", n)
			}
			ok(t, s.Release(ctx, c[0], time.Time{}))

			ok(t, s.Ingest(ctx, "-1", []store.InboxEntry{{ID: 1, Data: []byte("u")}}, base))
			chats := get(s.ClaimChats(ctx, base, time.Minute, 5))(t)
			if len(chats) != 1 || chats[0].Table != "-1" {
				t.Fatalf("ClaimChats = %+v", chats)
			}
			ok(t, s.ReleaseChat(ctx, chats[0], time.Time{}, base.Add(time.Second)))
			if at, has := must2(t)(s.NextChat(ctx)); !has || !at.Equal(base.Add(time.Second)) {
				t.Fatalf("NextChat = %v %v, want the update still waiting due at %v", at, has, base.Add(time.Second))
			}
		})
	}
}
