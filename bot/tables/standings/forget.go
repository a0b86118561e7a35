package standings

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

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
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

// Forgetting is /forgetme: the question, its answer, and forgetting.
type Forgetting struct {
	store   ForgetStore
	results Forgetter
	tx      *txn.Txn
	views   *view.Renderer
	moves   *play.Moves
	leaving *play.Leaving
	answer  lobby.Answer
	now     func() time.Time
	log     zerolog.Logger
}

// ForgetStore is what forgetting reads and rewrites in the store itself.
type ForgetStore interface {
	Pointer(ctx context.Context, key string) (string, error)
	SetPointer(ctx context.Context, key, value string) error
	Pointers(ctx context.Context, prefix string) (map[string]string, error)
	DeletePointer(ctx context.Context, key, value string) error
	KeptGame(ctx context.Context, ref string) ([]byte, error)
	KeptGames(ctx context.Context, user int64, n int) ([]string, error)
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
	RewriteKeptGame(ctx context.Context, ref string, data []byte, drop []int64) error
	DropKeptGame(ctx context.Context, ref string) error
	DropDeadLetters(ctx context.Context, match func(store.DeadLetter) bool) (int, error)
	// PlayerChats are the groups a person has results in: forgetting
	// visits their tables (a group's season is kept at its table 1).
	PlayerChats(ctx context.Context, player string) ([]int64, error)
}

// Forgetter is the results role forgetting a person.
type Forgetter interface {
	// Forget deletes a person's results and ratings everywhere.
	Forget(ctx context.Context, user int64) error
}

// NewForgetting builds /forgetme; answer answers its presses.
func NewForgetting(st ForgetStore, res Forgetter, tx *txn.Txn, views *view.Renderer, moves *play.Moves, leaving *play.Leaving,
	answer lobby.Answer, now func() time.Time, log zerolog.Logger) *Forgetting {
	return &Forgetting{store: st, results: res, tx: tx, views: views, moves: moves, leaving: leaving, answer: answer, now: now, log: log}
}

// Forget forgets user everywhere (see above).
func (sd *Forgetting) Forget(ctx context.Context, user int64) error {
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
		if err := sd.ForgetSeat(ctx, id, user); err != nil {
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
	n, err := sd.store.DropDeadLetters(ctx, func(d store.DeadLetter) bool { return Holds(d.Entry.Data, user) })
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
func (sd *Forgetting) tablesOf(ctx context.Context, user int64, known []string) ([]string, error) {
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

// ForgetSeat takes a forgotten person off table id: a lobby's seat is
// given up (as «Выйти» would), and every other trace of them is renamed
// as the history names them (record.Table.Forget). A game they still play
// goes on with me playing their seat at once; when no person is left in
// it, it ends as when the last person leaves.
func (sd *Forgetting) ForgetSeat(ctx context.Context, id string, user int64) error {
	_, _, err := sd.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		changed := false
		if t.Phase == record.PhaseLobby {
			for i := len(t.Seats) - 1; i >= 0; i-- {
				if t.Seats[i].Human() && t.Seats[i].UserID == user {
					lobby.LeaveLobby(t, i)
					changed = true
				}
			}
		}
		seat := -1
		if t.Phase == record.PhasePlaying {
			seat = t.SeatOf(user)
		}
		if t.Forget(user, sd.views.Loc(t.Lang).T("history.forgotten")) {
			changed = true
		}
		if seat >= 0 {
			sd.playFor(t, seat)
			// Their hand in the group, if they had one, goes too.
			ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: t.ChatID, Thread: t.Thread,
				HandGone: &outbox.Hand{Seat: seat, User: user, GameNo: t.GameNo}})
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
func (sd *Forgetting) playFor(t *record.Table, seat int) {
	s := &t.Seats[seat]
	s.Timeouts = max(s.Timeouts, 2)
	s.Due, s.Turn, s.LeaveAsked, s.Web = time.Time{}, nil, false, time.Time{}
	g, st, err := sd.views.Decode(t)
	if err != nil {
		return // a game that cannot go on is fenced off by its next change
	}
	if !slices.ContainsFunc(t.Seats, func(s record.Seat) bool { return s.Human() && s.UserID > 0 }) {
		sd.leaving.AllLeft(t, g, st)
		return
	}
	sd.moves.Schedule(t, g, st, false)
}

// forgetInGame takes a forgotten person out of the kept game ref (see
// above).
func (sd *Forgetting) forgetInGame(ctx context.Context, ref string, user int64) error {
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
	f.Forget(user, sd.views.Loc(f.Lang).T("history.forgotten"))
	others := f.People()
	if len(others) == 0 {
		return sd.store.DropKeptGame(ctx, ref) // no one else can ask for it
	}
	renamed, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if Holds(renamed, user) {
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

// BrokenPrefix starts every store.BrokenKey.
const BrokenPrefix = "broken:"

// forgetBroken renames a forgotten person in the broken tables' records
// set aside, or drops a record that cannot be read or still holds them.
func (sd *Forgetting) forgetBroken(ctx context.Context, user int64) error {
	recs, err := sd.store.Pointers(ctx, BrokenPrefix)
	if err != nil {
		return err
	}
	for key, v := range recs {
		if !Holds([]byte(v), user) {
			continue
		}
		if t, err := record.Decode([]byte(v)); err == nil && t.Forget(user, sd.views.Loc(t.Lang).T("history.forgotten")) {
			if renamed, err := t.Encode(); err == nil && !Holds(renamed, user) {
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

// Holds reports whether data (JSON) holds user: a number equal to their
// id, or their player id ("u<id>") as a key or a value, anywhere in it.
// Bytes that are not JSON hold them when their id's digits appear.
func Holds(data []byte, user int64) bool {
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

// forgetWindow is how long a /forgetme confirmation button stays valid.
const forgetWindow = 10 * time.Minute

// AskForget asks for a confirmation of /forgetme. The buttons carry the
// asker and the time of the question, so only they can confirm, and only
// for a while.
func (sd *Forgetting) AskForget(ctx context.Context, r txn.Request, l adapter.Loc) error {
	return sd.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, sd.ForgetQuestion(l, r.Msg.Chat.ID))
}

// ForgetQuestion is /forgetme's question in user's private chat: what
// forgetting deletes and what it leaves to the others, and the two
// buttons.
func (sd *Forgetting) ForgetQuestion(l adapter.Loc, user int64) adapter.Message {
	btn := func(text string, yes int) adapter.Button {
		return adapter.Button{Text: text, Data: callback.Data{Op: callback.Forget, Table: record.ID(user, 0), GameNo: int(sd.now().Unix()), Args: []int{yes}}.String()}
	}
	return adapter.Message{Text: l.T("forget.confirm"), Keyboard: [][]adapter.Button{{
		btn(l.T("forget.yes"), 1), btn(l.T("forget.no"), 0),
	}}}
}

// OnForget handles the /forgetme confirmation: the person is forgotten
// everywhere (forget.go), and the question is replaced by the outcome so
// its buttons are gone. Forgetting twice is harmless.
func (sd *Forgetting) OnForget(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	l := sd.views.Loc(sd.tx.UserLang(&q.From))
	user, _, _ := record.ParseID(p.Table) // callback.Parse checked it
	asked := time.Unix(int64(p.GameNo), 0)
	switch {
	case user != q.From.ID:
		sd.answer(ctx, q, l.T("error.not_yours"), false, "")
		return nil
	case p.Args[0] != 0 && p.Args[0] != 1:
		sd.answer(ctx, q, l.T("error.bad_button"), false, "")
		return nil
	case sd.now().Sub(asked) > forgetWindow || asked.After(sd.now().Add(time.Minute)):
		sd.answer(ctx, q, l.T("error.stale"), false, "")
		return nil
	}
	text := l.T("forget.kept")
	if p.Args[0] == 1 {
		if err := sd.Forget(ctx, user); err != nil {
			return err // not answered: the redelivered press tries again
		}
		text = l.T("forget.done")
	}
	sd.answer(ctx, q, "", false, "")
	// The question turns into its outcome; sent anew when Telegram sent
	// the press without its message (too old).
	out := outbox.Entry{ChatID: user, Message: adapter.Message{Text: text}, Reply: true}
	if msg := q.Message.Message; msg != nil {
		out.Edit = msg.ID
	}
	return sd.tx.Queue(ctx, record.ID(user, 0), updateID, out)
}
