package tables

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/store"
)

// Forgetting a person (/forgetme) forgets them, not their friends. What the
// store cannot read — tables, kept games, reviews, dead letters, broken
// tables' records — the tables go through first, renaming the person
// where others still need the game and dropping what holds nothing else;
// then the store forgets the rest (store.ForgetUser, through the results),
// removing the pointers and the index everything was found by. Every step
// is idempotent, so a press that failed halfway (not answered: it comes
// again) finishes the job.
//
//   - The tables they sit or sat at (every table of the chats and topics
//     of their pointer, their kept games and their results): a lobby's seat is given up; a game's seat is renamed
//     «игрок удалён» with their user id replaced (record.Table.Forget), and
//     while the game runs I play that seat at once (nobody can press for
//     it any more), the game ending when no person is left in it; a
//     finished game waiting to be recorded loses their seat.
//   - Their kept games: each other player's copy is rewritten with the
//     seat renamed; the person's review goes, and so does another player's
//     review that names them (it is made again, with the new name, when
//     asked for); a game no one else played, or whose copy cannot be read,
//     goes whole.
//   - The broken tables' records set aside (store.BrokenKey) that hold
//     them: renamed the same way, or dropped when they cannot be read or
//     still hold their id.
//   - The dead letters, of any chat, whose update holds their id.
//
// «Holds their id» is judged on the JSON: any number equal to it, or their
// player id ("u<id>"), wherever it is. A number that merely equals it drops
// a dead letter or a record for nothing: forgetting errs on the side of the
// person.

// forget forgets user everywhere (see above).
func (sd *standing) forget(ctx context.Context, user int64) error {
	seated, err := sd.store.Pointer(ctx, store.UserTableKey(user))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	refs, err := sd.store.KeptGames(ctx, user, store.KeptPerPerson)
	if err != nil {
		return err
	}
	tables, err := sd.tablesOf(ctx, user, append([]string{seated}, refTables(refs)...))
	if err != nil {
		return err
	}
	for _, id := range tables {
		if err := sd.forgetSeat(ctx, id, user); err != nil {
			return err
		}
	}
	for _, ref := range refs {
		if err := sd.forgetInGame(ctx, ref, user); err != nil {
			return err
		}
	}
	if err := sd.forgetBroken(ctx, user); err != nil {
		return err
	}
	n, err := sd.store.DropDeadLetters(ctx, func(d store.DeadLetter) bool { return holds(d.Entry.Data, user) })
	if err != nil {
		return err
	}
	sd.log.Info().Int("tables", len(tables)).Int("kept_games", len(refs)).Int("dead_letters", n).Msg("a person forgotten")
	return sd.results.Forget(ctx, user)
}

// tablesOf are the tables user may sit or have sat at: every table a chat
// (or topic) can hold, of the chats and topics of known (their pointer's
// table, their kept games'), and of every group they have results in —
// where a game they play at another table, or a month they won (the
// group's season, kept at its table 1), may name them. The practice
// table is not among them: the store deletes it.
func (sd *standing) tablesOf(ctx context.Context, user int64, known []string) ([]string, error) {
	chats, err := sd.store.PlayerChats(ctx, record.PersonPlayer(user))
	if err != nil {
		return nil, err
	}
	var places []string // record.ID of each chat or topic
	addPlace := func(p string) {
		if !slices.Contains(places, p) {
			places = append(places, p)
		}
	}
	for _, id := range known {
		if chat, thread, _, err := record.ParseTable(id); err == nil && chat < 0 {
			addPlace(record.ID(chat, thread))
		}
	}
	for _, chat := range chats {
		addPlace(record.ID(chat, 0))
	}
	var out []string
	for _, p := range places {
		for n := 1; n <= record.MaxTables; n++ {
			out = append(out, record.Sibling(p, n))
		}
	}
	return out, nil
}

// refTables are the tables of kept games.
func refTables(refs []string) []string {
	var out []string
	for _, ref := range refs {
		if id, _, _, ok := record.ParseRef(ref); ok {
			out = append(out, id)
		}
	}
	return out
}

// forgetSeat takes a forgotten person off table id: a lobby's seat is
// given up (as «Выйти» would), and every other trace of them is renamed
// as the history names them (record.Table.Forget). A game they still play
// goes on with me playing their seat at once; when no person is left in
// it, it ends as when the last person leaves.
func (sd *standing) forgetSeat(ctx context.Context, id string, user int64) error {
	_, _, err := sd.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		changed := false
		if t.Phase == record.PhaseLobby {
			for i := len(t.Seats) - 1; i >= 0; i-- {
				if t.Seats[i].Human() && t.Seats[i].UserID == user {
					leaveLobby(t, i)
					changed = true
				}
			}
		}
		seat := -1
		if t.Phase == record.PhasePlaying {
			seat = t.SeatOf(user)
		}
		if t.Forget(user, sd.loc(t.Lang).T("history.forgotten")) {
			changed = true
		}
		if seat >= 0 {
			sd.playFor(t, seat)
		}
		if !changed {
			return refusal.ErrNoChange
		}
		return nil
	})
	if errors.Is(err, refusal.ErrNoChange) {
		return nil
	}
	return err
}

// playFor makes me play a forgotten person's seat of a running game at
// once, as for a person who let two turns run out; a game left with no
// person in it ends.
func (sd *standing) playFor(t *record.Table, seat int) {
	s := &t.Seats[seat]
	s.Timeouts = max(s.Timeouts, 2)
	s.Due, s.Turn, s.LeaveAsked, s.Web = time.Time{}, nil, false, time.Time{}
	g, st, err := sd.views.Decode(t)
	if err != nil {
		return // a game that cannot go on is fenced off by its next change
	}
	if !slices.ContainsFunc(t.Seats, func(s record.Seat) bool { return s.Human() && s.UserID > 0 }) {
		sd.leaving.allLeft(t, g, st)
		return
	}
	sd.moves.schedule(t, g, st, false)
}

// forgetInGame takes a forgotten person out of the kept game ref (see
// above).
func (sd *standing) forgetInGame(ctx context.Context, ref string, user int64) error {
	data, err := sd.store.KeptGame(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	f, err := record.Decode(data)
	if err != nil {
		return sd.store.DropKeptGame(ctx, ref) // it cannot be read to rename them
	}
	names := seatNames(f, user)
	f.Forget(user, sd.loc(f.Lang).T("history.forgotten"))
	others := f.People()
	if len(others) == 0 {
		return sd.store.DropKeptGame(ctx, ref) // no one else can ask for it
	}
	renamed, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if holds(renamed, user) {
		return sd.store.DropKeptGame(ctx, ref)
	}
	drop := []int64{user}
	for _, u := range others {
		r, err := sd.store.Review(ctx, ref, u)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if reviewNames(r, names) {
			drop = append(drop, u)
		}
	}
	err = sd.store.RewriteKeptGame(ctx, ref, renamed, drop)
	if errors.Is(err, store.ErrNotFound) {
		return nil // expired meanwhile
	}
	return err
}

// seatNames are the names user played f under.
func seatNames(f *record.Table, user int64) []string {
	var out []string
	for _, s := range f.Seats {
		if s.Human() && s.UserID == user {
			out = append(out, s.Name)
		}
		if s.Leaver != nil && s.Leaver.UserID == user {
			out = append(out, s.Leaver.Name)
		}
	}
	return out
}

// reviewNames reports whether a kept review's texts name any of names (a
// review that cannot be read is taken to).
func reviewNames(data []byte, names []string) bool {
	var r review.Report
	if err := r.UnmarshalBinary(data); err != nil {
		return true
	}
	for _, m := range r.Moments {
		for _, text := range []string{m.Judged.Moment, m.Judged.Played, m.Judged.Best, m.Judged.Cost} {
			for _, name := range names {
				if name != "" && (strings.Contains(text, name) || strings.Contains(text, adapter.Esc(name))) {
					return true
				}
			}
		}
	}
	return false
}

// brokenPrefix starts every store.BrokenKey.
const brokenPrefix = "broken:"

// forgetBroken renames a forgotten person in the broken tables' records
// set aside, or drops a record that cannot be read or still holds them.
func (sd *standing) forgetBroken(ctx context.Context, user int64) error {
	recs, err := sd.store.Pointers(ctx, brokenPrefix)
	if err != nil {
		return err
	}
	for key, v := range recs {
		if !holds([]byte(v), user) {
			continue
		}
		if t, err := record.Decode([]byte(v)); err == nil && t.Forget(user, sd.loc(t.Lang).T("history.forgotten")) {
			if renamed, err := t.Encode(); err == nil && !holds(renamed, user) {
				if err := sd.store.SetPointer(ctx, key, string(renamed)); err != nil {
					return err
				}
				continue
			}
		}
		if err := sd.store.DeletePointer(ctx, key, v); err != nil {
			return err
		}
	}
	return nil
}

// holds reports whether data (JSON) holds user: a number equal to their
// id, or their player id ("u<id>") as a key or a value, anywhere in it.
// Bytes that are not JSON hold them when their id's digits appear.
func holds(data []byte, user int64) bool {
	id := strconv.FormatInt(user, 10)
	player := record.PersonPlayer(user)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			return bytes.Contains(data, []byte(id))
		}
		switch v := tok.(type) {
		case json.Number:
			if v.String() == id {
				return true
			}
		case string:
			if v == player {
				return true
			}
		}
	}
}
