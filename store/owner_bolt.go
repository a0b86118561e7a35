package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// ErrOtherOwner is returned by Own when the file belongs to another bot.
var ErrOtherOwner = errors.New("store: the data belongs to another bot")

// bucketMeta holds facts about the file itself: "owner" is the bot it
// belongs to (see Own).
const bucketMeta = "meta"

// Own ties the file to one bot (any string naming it, e.g. its id). The
// first call records owner; later calls with the same owner pass, and with
// another fail with ErrOtherOwner, so a process started with another
// token over the same data directory stops instead of serving a
// different bot's tables, message ids and update ids. Redis keeps bots
// apart by key prefix (BotPrefix); a bbolt file is opened by one process
// at a time, so one file per bot is the whole separation. A file from
// before owners were recorded goes to the first bot that opens it, like
// the old Redis layout (MigrateFrom).
func (b *Bolt) Own(owner string) error {
	if owner == "" {
		return errors.New("store: own: empty owner")
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		m, err := tx.CreateBucketIfNotExists([]byte(bucketMeta))
		if err != nil {
			return fmt.Errorf("store: own: %w", err)
		}
		cur := m.Get([]byte("owner"))
		switch {
		case cur == nil:
			return m.Put([]byte("owner"), []byte(owner))
		case string(cur) != owner:
			return fmt.Errorf("%w: %s, not %s", ErrOtherOwner, cur, owner)
		}
		return nil
	})
}
