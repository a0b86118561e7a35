package store

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Results in the Bolt file (buckets; chat ids are 8-byte big-endian):
//
//	res/<chat>/         one bucket per group
//	    ids/   result id → recorded at (ms)           exactly-once markers
//	    idt/   recorded at (ms) + id → ""             the same in time order; entries
//	                                                  older than ResultRetention are
//	                                                  swept on each write to the group
//	    moved  the chat the group migrated to (a key; then the bucket holds nothing else)
//	    st/<game>/  player → stats (encodeStats)
//	    top/<game>/ sort value (−ordinal) + player → ""   ranked players, best first
//	    hist/  sequence → encoded result; the last HistoryLimit are kept
//	resu/<player>/      chat → ""   groups a person has results in
//
// Every method is one bbolt transaction, so RecordResult's check of the
// result id and everything it writes are atomic, and the rate function runs
// inside it (bbolt allows one writer at a time).
const (
	resBucket      = "res"
	resUsersBucket = "resu"
	resIDs         = "ids"
	resIDTimes     = "idt"
	resMoved       = "moved"
	resStats       = "st"
	resTop         = "top"
	resHist        = "hist"
)

// resGroup returns a group's bucket, or nil when it has none (and create is
// false).
func resGroup(tx *bolt.Tx, chat int64, create bool) (*bolt.Bucket, error) {
	if !create {
		root := tx.Bucket([]byte(resBucket))
		if root == nil {
			return nil, nil
		}
		return root.Bucket(u64(chat)), nil
	}
	root, err := tx.CreateBucketIfNotExists([]byte(resBucket))
	if err != nil {
		return nil, err
	}
	return root.CreateBucketIfNotExists(u64(chat))
}

// resNested returns bucket parent/name/sub, creating what is missing when
// create is set; without create it may return nil.
func resNested(parent *bolt.Bucket, name, sub string, create bool) (*bolt.Bucket, error) {
	if parent == nil {
		return nil, nil
	}
	if !create {
		b := parent.Bucket([]byte(name))
		if b == nil {
			return nil, nil
		}
		return b.Bucket([]byte(sub)), nil
	}
	b, err := parent.CreateBucketIfNotExists([]byte(name))
	if err != nil {
		return nil, err
	}
	return b.CreateBucketIfNotExists([]byte(sub))
}

// resFollowMoved returns the chat a group's results live in now, following
// MoveChat's markers.
func resFollowMoved(tx *bolt.Tx, chat int64) (int64, error) {
	for hops := 0; ; hops++ {
		g, _ := resGroup(tx, chat, false)
		if g == nil {
			return chat, nil
		}
		m := g.Get([]byte(resMoved))
		if m == nil {
			return chat, nil
		}
		if hops == movedHops {
			return 0, fmt.Errorf("store: group %d moved too often", chat)
		}
		chat = i64(m)
	}
}

// RecordResult records a finished game exactly once per (group, result id):
// it adds the result to the group's history and updates its seats' stats,
// ratings (from rate, which may be nil to keep them) and the game's
// leaderboard, all atomically, and indexes the group under each person. It
// returns false, changing nothing, when the id was recorded already. A
// result for a group that has moved (MoveChat) is recorded in the new group.
func (b *Bolt) RecordResult(ctx context.Context, res Result, rate RateFunc) (bool, error) {
	if err := res.check(); err != nil {
		return false, err
	}
	res.Seats = slices.Clone(res.Seats)
	var recorded bool
	err := b.db.Update(func(tx *bolt.Tx) error {
		recorded = false
		chat, err := resFollowMoved(tx, res.Chat)
		if err != nil {
			return err
		}
		res.Chat = chat
		g, err := resGroup(tx, chat, true)
		if err != nil {
			return err
		}
		ids, err := g.CreateBucketIfNotExists([]byte(resIDs))
		if err != nil {
			return err
		}
		if ids.Get([]byte(res.ID)) != nil {
			return nil
		}
		st, err := resNested(g, resStats, res.Game, true)
		if err != nil {
			return err
		}
		top, err := resNested(g, resTop, res.Game, true)
		if err != nil {
			return err
		}
		cur := make([]PlayerStats, len(res.Seats))
		for i, s := range res.Seats {
			if v := st.Get([]byte(s.Player)); v != nil {
				if cur[i], err = decodeStats(s.Player, v); err != nil {
					return err
				}
			}
			cur[i].Player, cur[i].Name = s.Player, s.Name
		}
		next, err := applyResult(&res, cur, rate)
		if err != nil {
			return err
		}
		for i, p := range next {
			if err := putStats(st, top, cur[i], p); err != nil {
				return err
			}
		}
		if err := appendHistory(g, &res); err != nil {
			return err
		}
		if err := b.markResult(g, res.ID); err != nil {
			return err
		}
		recorded = true
		if err := b.keepResults(tx, chat, res.players()); err != nil {
			return err
		}
		return indexChat(tx, chat, res.players())
	})
	if err != nil {
		return false, err
	}
	return recorded, nil
}

// putStats stores a player's new stats and moves their leaderboard entry.
func putStats(st, top *bolt.Bucket, old, p PlayerStats) error {
	if old.ranked() {
		if err := top.Delete(topKey(old)); err != nil {
			return err
		}
	}
	if err := st.Put([]byte(p.Player), encodeStats(p)); err != nil {
		return err
	}
	if p.ranked() {
		return top.Put(topKey(p), nil)
	}
	return nil
}

// appendHistory adds a result as the newest and drops all but the last
// HistoryLimit.
func appendHistory(g *bolt.Bucket, res *Result) error {
	h, err := g.CreateBucketIfNotExists([]byte(resHist))
	if err != nil {
		return err
	}
	seq, err := h.NextSequence()
	if err != nil {
		return err
	}
	if err := h.Put(u64(int64(seq)), encodeResult(res)); err != nil {
		return err
	}
	if seq <= HistoryLimit {
		return nil
	}
	// Sequences only grow, so everything below seq−limit+1 is older.
	keep := u64(int64(seq) - HistoryLimit + 1)
	c := h.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k, keep) < 0; k, _ = c.First() {
		if err := h.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// markResult remembers a recorded result id and sweeps the group's ids older
// than ResultRetention.
func (b *Bolt) markResult(g *bolt.Bucket, id string) error {
	now := b.now()
	return putMarkers(g, [][2][]byte{{[]byte(id), orderedMillis(now)}}, orderedMillis(now.Add(-ResultRetention)))
}

// putMarkers adds result-id markers (id, recorded at) to a group, keeping
// an existing one, and sweeps those recorded before cutoff.
func putMarkers(g *bolt.Bucket, marks [][2][]byte, cutoff []byte) error {
	ids, err := g.CreateBucketIfNotExists([]byte(resIDs))
	if err != nil {
		return err
	}
	byTime, err := g.CreateBucketIfNotExists([]byte(resIDTimes))
	if err != nil {
		return err
	}
	for _, m := range marks {
		if ids.Get(m[0]) != nil {
			continue
		}
		if err := ids.Put(m[0], m[1]); err != nil {
			return err
		}
		if err := byTime.Put(append(clone(m[1]), m[0]...), nil); err != nil {
			return err
		}
	}
	c := byTime.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], cutoff) < 0; k, _ = c.First() {
		if err := ids.Delete(k[8:]); err != nil {
			return err
		}
		if err := byTime.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// keepResults keeps a group's results, and each person's index, for
// Retention.Results from now (see expire_bolt.go).
func (b *Bolt) keepResults(tx *bolt.Tx, chat int64, players []string) error {
	until := b.now().Add(b.set.retention.Results)
	if err := expireAt(tx, expResults, u64(chat), until); err != nil {
		return err
	}
	for _, p := range humans(players) {
		if err := expireAt(tx, expPerson, []byte(p), until); err != nil {
			return err
		}
	}
	return nil
}

// indexChat adds chat to the chat index of each person among players.
func indexChat(tx *bolt.Tx, chat int64, players []string) error {
	hs := humans(players)
	if len(hs) == 0 {
		return nil
	}
	root, err := tx.CreateBucketIfNotExists([]byte(resUsersBucket))
	if err != nil {
		return err
	}
	for _, p := range hs {
		u, err := root.CreateBucketIfNotExists([]byte(p))
		if err != nil {
			return err
		}
		if err := u.Put(u64(chat), nil); err != nil {
			return err
		}
	}
	return nil
}

// Top returns the game's leaderboard in the group, best first (highest
// mu − 3σ; equal ones by player id), at most n players, each with at least
// RankedGames games.
func (b *Bolt) Top(ctx context.Context, chat int64, game string, n int) ([]PlayerStats, error) {
	if err := checkGame(game); err != nil || n <= 0 {
		return nil, err
	}
	var out []PlayerStats
	err := b.db.View(func(tx *bolt.Tx) error {
		g, _ := resGroup(tx, chat, false)
		top, _ := resNested(g, resTop, game, false)
		st, _ := resNested(g, resStats, game, false)
		if top == nil || st == nil {
			return nil
		}
		c := top.Cursor()
		for k, _ := c.First(); k != nil && len(out) < n; k, _ = c.Next() {
			player := string(k[8:])
			v := st.Get(k[8:])
			if v == nil {
				continue
			}
			p, err := decodeStats(player, v)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// Stats returns a player's stats for one game in the group; ok is false when
// they have none.
func (b *Bolt) Stats(ctx context.Context, chat int64, game, player string) (PlayerStats, bool, error) {
	if err := checkGame(game); err != nil {
		return PlayerStats{}, false, err
	}
	var p PlayerStats
	var found bool
	err := b.db.View(func(tx *bolt.Tx) error {
		g, _ := resGroup(tx, chat, false)
		st, _ := resNested(g, resStats, game, false)
		if st == nil {
			return nil
		}
		v := st.Get([]byte(player))
		if v == nil {
			return nil
		}
		var err error
		p, err = decodeStats(player, v)
		found = err == nil
		return err
	})
	return p, found, err
}

// PlayerGames returns a player's stats for every game they played in the
// group, by game id.
func (b *Bolt) PlayerGames(ctx context.Context, chat int64, player string) (map[string]PlayerStats, error) {
	out := make(map[string]PlayerStats)
	err := b.db.View(func(tx *bolt.Tx) error {
		g, _ := resGroup(tx, chat, false)
		if g == nil || g.Bucket([]byte(resStats)) == nil {
			return nil
		}
		return g.Bucket([]byte(resStats)).ForEachBucket(func(game []byte) error {
			v := g.Bucket([]byte(resStats)).Bucket(game).Get([]byte(player))
			if v == nil {
				return nil
			}
			p, err := decodeStats(player, v)
			if err != nil {
				return err
			}
			out[string(game)] = p
			return nil
		})
	})
	return out, err
}

// PlayerChats returns the groups a person has results in, in ascending order.
func (b *Bolt) PlayerChats(ctx context.Context, player string) ([]int64, error) {
	var out []int64
	err := b.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket([]byte(resUsersBucket))
		if root == nil || root.Bucket([]byte(player)) == nil {
			return nil
		}
		return root.Bucket([]byte(player)).ForEach(func(k, _ []byte) error {
			out = append(out, i64(k))
			return nil
		})
	})
	slices.Sort(out)
	return out, err
}

// History returns up to n of the group's latest results, newest first.
func (b *Bolt) History(ctx context.Context, chat int64, n int) ([]Result, error) {
	var out []Result
	err := b.db.View(func(tx *bolt.Tx) error {
		g, _ := resGroup(tx, chat, false)
		if g == nil || g.Bucket([]byte(resHist)) == nil {
			return nil
		}
		c := g.Bucket([]byte(resHist)).Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			r, err := decodeResult(v)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// SeasonResults returns the group's results that ended in [from, to),
// oldest first (by end time, then id): a season's games. It reads the
// history newest first until it is past from by SeasonSlack; what the
// history dropped (HistoryLimit) is not there.
func (b *Bolt) SeasonResults(ctx context.Context, chat int64, from, to time.Time) ([]Result, error) {
	if !from.Before(to) {
		return nil, nil
	}
	stop := from.Add(-SeasonSlack)
	var hist []Result
	err := b.db.View(func(tx *bolt.Tx) error {
		g, _ := resGroup(tx, chat, false)
		if g == nil || g.Bucket([]byte(resHist)) == nil {
			return nil
		}
		c := g.Bucket([]byte(resHist)).Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			r, err := decodeResult(v)
			if err != nil {
				return err
			}
			hist = append(hist, r)
			if r.Ended.Before(stop) {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return seasonWindow(hist, from, to), nil
}

// Forget deletes a person's stats and ratings in every group they played in
// (removing them from the leaderboards), blanks their player id and name in
// the stored history, and then drops their chat index. Repeating it is
// harmless. A result recorded for them afterwards counts anew.
func (b *Bolt) Forget(ctx context.Context, player string) error {
	if err := checkPlayer(player); err != nil {
		return err
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		root := tx.Bucket([]byte(resUsersBucket))
		if root == nil || root.Bucket([]byte(player)) == nil {
			return nil
		}
		var chats []int64
		err := root.Bucket([]byte(player)).ForEach(func(k, _ []byte) error {
			chats = append(chats, i64(k))
			return nil
		})
		if err != nil {
			return err
		}
		for _, chat := range chats {
			if chat, err = resFollowMoved(tx, chat); err != nil {
				return err
			}
			g, _ := resGroup(tx, chat, false)
			if err := forgetIn(g, player); err != nil {
				return err
			}
		}
		return root.DeleteBucket([]byte(player))
	})
}

// forgetIn removes a player from one group's stats, leaderboards and history.
func forgetIn(g *bolt.Bucket, player string) error {
	if g == nil {
		return nil
	}
	if st := g.Bucket([]byte(resStats)); st != nil {
		err := st.ForEachBucket(func(game []byte) error {
			s := st.Bucket(game)
			v := s.Get([]byte(player))
			if v == nil {
				return nil
			}
			old, err := decodeStats(player, v)
			if err != nil {
				return err
			}
			if top, _ := resNested(g, resTop, string(game), false); top != nil && old.ranked() {
				if err := top.Delete(topKey(old)); err != nil {
					return err
				}
			}
			return s.Delete([]byte(player))
		})
		if err != nil {
			return err
		}
	}
	h := g.Bucket([]byte(resHist))
	if h == nil {
		return nil
	}
	var keys, vals [][]byte
	err := h.ForEach(func(k, v []byte) error {
		r, err := decodeResult(v)
		if err != nil {
			return err
		}
		if scrub(&r, player) {
			keys, vals = append(keys, clone(k)), append(vals, encodeResult(&r))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range keys {
		if err := h.Put(keys[i], vals[i]); err != nil {
			return err
		}
	}
	return nil
}

// MoveChat moves a group's results to the chat id it migrated to (a group
// upgraded to a supergroup), merging them with any the new chat has already.
// Results recorded for the old id afterwards go to the new one. Repeating it
// is harmless.
func (b *Bolt) MoveChat(ctx context.Context, from, to int64) error {
	if err := checkResultChat(from); err != nil {
		return err
	}
	if err := checkResultChat(to); err != nil {
		return err
	}
	if from == to {
		return fmt.Errorf("store: move chat %d to itself", from)
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		target, err := resFollowMoved(tx, to)
		if err != nil {
			return err
		}
		if target == from {
			return fmt.Errorf("store: move chat %d: %d moved back to it", from, to)
		}
		src, _ := resGroup(tx, from, false)
		if src != nil && src.Get([]byte(resMoved)) == nil {
			if err := b.mergeGroup(tx, src, from, target); err != nil {
				return err
			}
		}
		if src != nil {
			if err := tx.Bucket([]byte(resBucket)).DeleteBucket(u64(from)); err != nil {
				return err
			}
		}
		g, err := resGroup(tx, from, true)
		if err != nil {
			return err
		}
		if err := g.Put([]byte(resMoved), u64(to)); err != nil {
			return err
		}
		// The marker is kept as long as Redis keeps its own; the merged
		// group as long as any group written to.
		now := b.now()
		if err := expireAt(tx, expResults, u64(from), now.Add(ResultRetention)); err != nil {
			return err
		}
		return expireNoSooner(tx, expResults, u64(target), now.Add(b.set.retention.Results))
	})
}

// mergeGroup folds group src (chat from) into group to: result ids, stats
// and leaderboards, history, and the people's chat indexes.
func (b *Bolt) mergeGroup(tx *bolt.Tx, src *bolt.Bucket, from, to int64) error {
	dst, err := resGroup(tx, to, true)
	if err != nil {
		return err
	}
	if ids := src.Bucket([]byte(resIDs)); ids != nil {
		var marks [][2][]byte
		err := ids.ForEach(func(k, v []byte) error {
			marks = append(marks, [2][]byte{clone(k), clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
		if err := putMarkers(dst, marks, orderedMillis(b.now().Add(-ResultRetention))); err != nil {
			return err
		}
	}
	var people []string
	if st := src.Bucket([]byte(resStats)); st != nil {
		err := st.ForEachBucket(func(game []byte) error {
			dstSt, err := resNested(dst, resStats, string(game), true)
			if err != nil {
				return err
			}
			dstTop, err := resNested(dst, resTop, string(game), true)
			if err != nil {
				return err
			}
			return st.Bucket(game).ForEach(func(k, v []byte) error {
				p, err := decodeStats(string(k), v)
				if err != nil {
					return err
				}
				var cur PlayerStats
				if old := dstSt.Get(k); old != nil {
					if cur, err = decodeStats(string(k), old); err != nil {
						return err
					}
				}
				if isHuman(p.Player) && !slices.Contains(people, p.Player) {
					people = append(people, p.Player)
				}
				return putStats(dstSt, dstTop, cur, mergeStats(cur, p))
			})
		})
		if err != nil {
			return err
		}
	}
	if err := mergeBoltHistory(src, dst, to); err != nil {
		return err
	}
	if len(people) == 0 {
		return nil
	}
	if err := indexChat(tx, to, people); err != nil {
		return err
	}
	root := tx.Bucket([]byte(resUsersBucket))
	for _, p := range people {
		if err := root.Bucket([]byte(p)).Delete(u64(from)); err != nil {
			return err
		}
	}
	return nil
}

// mergeBoltHistory rewrites dst's history as the merge of both groups'.
func mergeBoltHistory(src, dst *bolt.Bucket, to int64) error {
	read := func(g *bolt.Bucket) ([]Result, error) {
		var out []Result
		h := g.Bucket([]byte(resHist))
		if h == nil {
			return nil, nil
		}
		c := h.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			r, err := decodeResult(v)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	a, err := read(dst)
	if err != nil {
		return err
	}
	bs, err := read(src)
	if err != nil || len(bs) == 0 {
		return err
	}
	merged := mergeHistory(a, bs, to)
	if dst.Bucket([]byte(resHist)) != nil {
		if err := dst.DeleteBucket([]byte(resHist)); err != nil {
			return err
		}
	}
	for i := len(merged) - 1; i >= 0; i-- {
		if err := appendHistory(dst, &merged[i]); err != nil {
			return err
		}
	}
	return nil
}
