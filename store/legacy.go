package store

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The methods below are kept until the runtime moves to Claim/Renew/Release:
// they are the due sets' old API (tables' wake set, chats' inbox set) as
// thin wrappers over the queues. Delete this file, and the legacyClaim
// field of Claim, once bot/ no longer calls them.

// legacyClaim is what the old API's callers read from a Claim.
type legacyClaim struct {
	Table string // = Name
}

func legacy(cs []Claim, err error) ([]Claim, error) {
	for i := range cs {
		cs[i].Table = cs[i].Name
	}
	return cs, err
}

// Wake is Schedule(Deliveries).
func (r *Redis) Wake(ctx context.Context, table string, at time.Time) error {
	return r.Schedule(ctx, Deliveries, table, at)
}

// ClaimDue is Claim(Deliveries).
func (r *Redis) ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return legacy(r.Claim(ctx, Deliveries, now, lease, limit))
}

// NextWake is NextDue(Deliveries).
func (r *Redis) NextWake(ctx context.Context) (time.Time, bool, error) {
	return r.NextDue(ctx, Deliveries)
}

// Scheduled is Pending(Deliveries).
func (r *Redis) Scheduled(ctx context.Context) (int64, error) { return r.Pending(ctx, Deliveries) }

// ClaimChats is Claim(Inboxes).
func (r *Redis) ClaimChats(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return legacy(r.Claim(ctx, Inboxes, now, lease, limit))
}

// ReleaseChat is Release, and with next zero a chat with updates still
// waiting is due again at now.
func (r *Redis) ReleaseChat(ctx context.Context, c Claim, next, now time.Time) error {
	if err := r.Release(ctx, c, next); err != nil || !next.IsZero() {
		return err
	}
	if left, err := r.Inbox(ctx, c.Name, 1); err != nil || len(left) == 0 {
		return err
	}
	return r.mark(ctx, Inboxes, c.Name, now)
}

// NextChat is NextDue(Inboxes).
func (r *Redis) NextChat(ctx context.Context) (time.Time, bool, error) {
	return r.NextDue(ctx, Inboxes)
}

// Wake is Schedule(Deliveries).
func (b *Bolt) Wake(ctx context.Context, table string, at time.Time) error {
	return b.Schedule(ctx, Deliveries, table, at)
}

// ClaimDue is Claim(Deliveries).
func (b *Bolt) ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return legacy(b.Claim(ctx, Deliveries, now, lease, limit))
}

// NextWake is NextDue(Deliveries).
func (b *Bolt) NextWake(ctx context.Context) (time.Time, bool, error) {
	return b.NextDue(ctx, Deliveries)
}

// Scheduled is Pending(Deliveries).
func (b *Bolt) Scheduled(ctx context.Context) (int64, error) { return b.Pending(ctx, Deliveries) }

// ClaimChats is Claim(Inboxes).
func (b *Bolt) ClaimChats(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Claim, error) {
	return legacy(b.Claim(ctx, Inboxes, now, lease, limit))
}

// ReleaseChat is Release, and with next zero a chat with updates still
// waiting is due again at now.
func (b *Bolt) ReleaseChat(ctx context.Context, c Claim, next, now time.Time) error {
	if err := b.Release(ctx, c, next); err != nil || !next.IsZero() {
		return err
	}
	if left, err := b.Inbox(ctx, c.Name, 1); err != nil || len(left) == 0 {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error { return boltQueue(tx, Inboxes).mark(c.Name, now) })
}

// NextChat is NextDue(Inboxes).
func (b *Bolt) NextChat(ctx context.Context) (time.Time, bool, error) {
	return b.NextDue(ctx, Inboxes)
}
