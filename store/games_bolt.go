package store

import (
	"bytes"
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Kept games in the bbolt file (R a game ref, U a user id as 8 bytes):
//
//	games/<R>/   g → the game's bytes, p → its people (8 bytes each),
//	             r + U → U's review
//	kept/        U + keep time (ms, ordered) + R → ""   a person's index, in time order
//	keptby/      U + R → keep time (ms, ordered)        the same, by game
//
// A game expires through exp/ (kind 'g', name R) GameRetention after its
// keep; deleting it takes its reviews and its people's index rows.
const (
	bucketGames  = "games"
	bucketKept   = "kept"
	bucketKeptBy = "keptby"

	keyGame   = "g"
	keyPeople = "p"
	keyReview = 'r'
)

// gameBuckets are the kept games' top-level buckets (OpenBolt).
var gameBuckets = []string{bucketGames, bucketKept, bucketKeptBy}

func reviewKey(user int64) []byte { return append([]byte{keyReview}, u64(user)...) }

// keptGame returns a kept game's bucket, or nil.
func keptGame(tx *bolt.Tx, ref string) *bolt.Bucket {
	return tx.Bucket([]byte(bucketGames)).Bucket([]byte(ref))
}

// KeepGame keeps a finished game's bytes under ref for GameRetention, and
// indexes ref under each person of people (user ids > 0) so KeptGames
// lists it and forgetting a person finds it. Keeping a ref that is kept already
// changes nothing (a retried job: first write wins, its reviews stay).
func (b *Bolt) KeepGame(ctx context.Context, ref string, people []int64, data []byte) error {
	if err := keepArgs(ref, people); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		now := b.now()
		for _, u := range people {
			if err := indexKept(tx, u, ref, now); err != nil {
				return err
			}
		}
		if keptGame(tx, ref) != nil {
			return nil
		}
		g, err := tx.Bucket([]byte(bucketGames)).CreateBucket([]byte(ref))
		if err != nil {
			return err
		}
		var who []byte
		for _, u := range people {
			who = append(who, u64(u)...)
		}
		if err := g.Put([]byte(keyGame), data); err != nil {
			return err
		}
		if err := g.Put([]byte(keyPeople), who); err != nil {
			return err
		}
		return expireAt(tx, expGame, []byte(ref), now.Add(GameRetention))
	})
}

// indexKept indexes ref under user at now, after every game indexed
// before (the order is the keeps' even within one millisecond), unless it
// is indexed already; then drops the entries older than GameRetention and
// all but the newest KeptPerPerson.
func indexKept(tx *bolt.Tx, user int64, ref string, now time.Time) error {
	kept, by := tx.Bucket([]byte(bucketKept)), tx.Bucket([]byte(bucketKeptBy))
	prefix := u64(user)
	byKey := append(clone(prefix), ref...)
	if by.Get(byKey) == nil {
		at := fromMillis(toMillis(now)) // as kept: a later keep in the same millisecond must sort after
		if k, _ := lastWithPrefix(kept.Cursor(), prefix); k != nil {
			if last := fromOrderedMillis(k[8:16]); !last.Before(at) {
				at = last.Add(time.Millisecond)
			}
		}
		enc := orderedMillis(at)
		if err := kept.Put(append(append(clone(prefix), enc...), ref...), nil); err != nil {
			return err
		}
		if err := by.Put(byKey, enc); err != nil {
			return err
		}
	}
	var rows [][]byte
	c := kept.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		rows = append(rows, clone(k))
	}
	cutoff := orderedMillis(now.Add(-GameRetention))
	for i, k := range rows {
		if len(rows)-i <= KeptPerPerson && bytes.Compare(k[8:16], cutoff) >= 0 {
			break
		}
		if err := unindexKept(tx, user, string(k[16:])); err != nil {
			return err
		}
	}
	return nil
}

// unindexKept drops ref from user's index, if it is there.
func unindexKept(tx *bolt.Tx, user int64, ref string) error {
	by := tx.Bucket([]byte(bucketKeptBy))
	byKey := append(u64(user), ref...)
	at := by.Get(byKey)
	if at == nil {
		return nil
	}
	row := append(append(u64(user), at...), ref...)
	if err := tx.Bucket([]byte(bucketKept)).Delete(row); err != nil {
		return err
	}
	return by.Delete(byKey)
}

// lastWithPrefix is the last key of c's bucket that starts with prefix (a
// user id), or nil.
func lastWithPrefix(c *bolt.Cursor, prefix []byte) ([]byte, []byte) {
	end := u64(i64(prefix) + 1)
	k, v := c.Seek(end)
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return nil, nil
	}
	return k, v
}

// deleteGame deletes a kept game, its reviews and its people's index rows.
func deleteGame(tx *bolt.Tx, ref string) error {
	g := keptGame(tx, ref)
	if g == nil {
		return nil
	}
	who := g.Get([]byte(keyPeople))
	for i := 0; i+8 <= len(who); i += 8 {
		if err := unindexKept(tx, i64(who[i:i+8]), ref); err != nil {
			return err
		}
	}
	if err := tx.Bucket([]byte(bucketGames)).DeleteBucket([]byte(ref)); err != nil {
		return err
	}
	return unexpire(tx, expGame, []byte(ref))
}

// forgetKeptGames takes the person out of every game in their index: their
// review of it, their place in its people and their request for one
// waiting in Reviews go; then their index rows. The games stay for the
// others who played them (see forget.go).
func forgetKeptGames(tx *bolt.Tx, user int64) error {
	prefix := u64(user)
	var refs []string
	c := tx.Bucket([]byte(bucketKept)).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		refs = append(refs, string(k[16:]))
	}
	for _, ref := range refs {
		if g := keptGame(tx, ref); g != nil {
			if err := g.Delete(reviewKey(user)); err != nil {
				return err
			}
			if err := g.Put([]byte(keyPeople), without(g.Get([]byte(keyPeople)), user)); err != nil {
				return err
			}
		}
		if err := boltQueue(tx, Reviews).remove(ReviewRequest(ref, user)); err != nil {
			return err
		}
		if err := unindexKept(tx, user, ref); err != nil {
			return err
		}
	}
	return nil
}

// without is a game's people (8 bytes each) but user.
func without(people []byte, user int64) []byte {
	var out []byte
	for i := 0; i+8 <= len(people); i += 8 {
		if i64(people[i:i+8]) != user {
			out = append(out, people[i:i+8]...)
		}
	}
	return out
}

// RewriteKeptGame replaces the copy of the kept game ref with data and
// deletes the reviews of the people in drop (see (*Redis).RewriteKeptGame).
func (b *Bolt) RewriteKeptGame(ctx context.Context, ref string, data []byte, drop []int64) error {
	if err := rewriteArgs(ref, drop); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		g := keptGame(tx, ref)
		if g == nil {
			return ErrNotFound
		}
		for _, u := range drop {
			if err := g.Delete(reviewKey(u)); err != nil {
				return err
			}
		}
		return g.Put([]byte(keyGame), data)
	})
}

// DropKeptGame deletes a kept game with all its reviews and its people's
// index rows (see (*Redis).DropKeptGame).
func (b *Bolt) DropKeptGame(ctx context.Context, ref string) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error { return deleteGame(tx, ref) })
}

// KeptGame is the game kept under ref; ErrNotFound once expired or
// forgotten.
func (b *Bolt) KeptGame(ctx context.Context, ref string) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	var out []byte
	err := b.db.View(func(tx *bolt.Tx) error {
		g := keptGame(tx, ref)
		if g == nil {
			return ErrNotFound
		}
		out = clone(g.Get([]byte(keyGame)))
		return nil
	})
	return out, err
}

// KeptGames lists the refs kept for user, newest first, at most n (only
// games still kept).
func (b *Bolt) KeptGames(ctx context.Context, user int64, n int) ([]string, error) {
	if err := checkPerson("kept games", user); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	var out []string
	err := b.db.View(func(tx *bolt.Tx) error {
		prefix := u64(user)
		c := tx.Bucket([]byte(bucketKept)).Cursor()
		for k, _ := lastWithPrefix(c, prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < n; k, _ = c.Prev() {
			if ref := string(k[16:]); keptGame(tx, ref) != nil {
				out = append(out, ref)
			}
		}
		return nil
	})
	return out, err
}

// SetReview keeps user's review of the kept game ref (replacing theirs);
// ErrNotFound when the game is not kept (it expired or was forgotten): a
// review never outlives its game.
func (b *Bolt) SetReview(ctx context.Context, ref string, user int64, data []byte) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := checkPerson("review of "+ref, user); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		g := keptGame(tx, ref)
		if g == nil {
			return ErrNotFound
		}
		return g.Put(reviewKey(user), data)
	})
}

// Review is user's review of ref; ErrNotFound when there is none.
func (b *Bolt) Review(ctx context.Context, ref string, user int64) ([]byte, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	if err := checkPerson("review of "+ref, user); err != nil {
		return nil, err
	}
	var out []byte
	err := b.db.View(func(tx *bolt.Tx) error {
		g := keptGame(tx, ref)
		if g == nil {
			return ErrNotFound
		}
		v := g.Get(reviewKey(user))
		if v == nil {
			return ErrNotFound
		}
		out = clone(v)
		return nil
	})
	return out, err
}
