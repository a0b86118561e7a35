package tables

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/tables/standings"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// The people of the forgetting tests: real-looking ids, so no other number
// of a record (a game number, a seat) passes for one.
const (
	olya     int64 = 700000001 // asks to be forgotten
	seryozha int64 = 700000002
	masha    int64 = 700000003
)

// forgetTestStore is the tables' store and what the tests seed it with.
type forgetTestStore interface {
	Store
	SetReview(ctx context.Context, ref string, user int64, data []byte) error
	DeadLetter(ctx context.Context, chat string, e store.InboxEntry, reason string) error
	DeadLetters(ctx context.Context, n int) ([]store.DeadLetter, error)
}

// forgetTestStores are the stores the forgetting tests run over.
func forgetTestStores(t *testing.T) map[string]forgetTestStore {
	return map[string]forgetTestStore{
		"Bolt":  testBolt(t),
		"Redis": store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{}),
	}
}

// finishedCopy is a finished game of table id as kept for its reviews:
// seats of people (user ids, names) and a robot; the first person opened
// the table.
func finishedCopy(id string, gameNo int, people ...int64) *record.Table {
	chat, _, _ := record.ParseID(id)
	f := &record.Table{ID: id, ChatID: chat, Lang: "ru", Phase: record.PhaseIdle, GameNo: gameNo, GameID: "trickchef",
		Creator: people[0], Seed: 77, Started: golden.Clock.Add(-time.Duration(gameNo) * time.Hour)}
	names := map[int64]string{olya: "Оля", seryozha: "Серёжа", masha: "Маша"}
	for _, u := range people {
		f.Seats = append(f.Seats, record.Seat{UserID: u, Name: names[u]})
	}
	f.Seats = append(f.Seats, record.Seat{Name: "Робот 1", AI: "novice"})
	return f
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reviewOf is a review whose moment reads moment.
func reviewOf(t *testing.T, moment string) []byte {
	t.Helper()
	b, err := review.Report{Game: "trickchef", Level: "pro", Accuracy: 90, Judged: 4,
		Moments: []review.Moment{{Move: 3, Loss: 0.1, Judged: adapter.Judged{Moment: moment, Played: "карта 5", Best: "карта 7", Cost: "−10%"}}}}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestForgetMeForgetsThePersonNotTheirFriends: Оля asks to be forgotten.
// The game she plays goes on with her seat renamed and played by me; the
// kept games she shared stay for the others, her seat renamed and no id of
// hers in them, Серёжа's review as it was — but one that names her, which
// goes; her own reviews, her practice game and a game no one else played
// go. The dead letters holding her updates (hers, or one quoting her) go,
// the others stay; a broken table's record naming her is renamed, one
// that cannot be read is dropped, one without her is untouched. Her
// pointers and index go; nothing of the others changes.
func TestForgetMeForgetsThePersonNotTheirFriends(t *testing.T) {
	for name, st := range forgetTestStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			tb := newTables(t, st, clockAt(golden.Clock))
			forgotten := tb.views.Loc("ru").T("history.forgotten")

			// A game she plays in a group, and opened.
			g := testGame(t, "trickchef")
			running, _ := golden.Table(t, g, 3, 0, "", 5, nil)
			for i, u := range []int64{olya, seryozha, masha} {
				running.Seats[i].UserID = u
			}
			running.Creator = olya
			running.Seats[0].Name = "Оля"
			if _, err := st.Commit(ctx, running.ID, store.Change{Data: marshal(t, running)}); err != nil {
				t.Fatal(err)
			}
			if err := st.SetPointer(ctx, store.UserTableKey(olya), running.ID); err != nil {
				t.Fatal(err)
			}

			// Kept games: two she shared with Серёжа, her practice game, a
			// group game no one else played, and one she was not in.
			shared, named := finishedCopy("-200", 1, olya, seryozha), finishedCopy("-200", 2, seryozha, olya)
			practice, alone, theirs := finishedCopy(record.ID(olya, 0), 1, olya), finishedCopy("-201", 1, olya), finishedCopy("-202", 1, seryozha, masha)
			for _, f := range []*record.Table{shared, named, practice, alone, theirs} {
				if err := st.KeepGame(ctx, record.GameRef(f), f.People(), marshal(t, f)); err != nil {
					t.Fatal(err)
				}
			}
			plain, naming := reviewOf(t, "Ход 3, на столе 🂠 4"), reviewOf(t, "Ход 3: следующей ходит Оля")
			reviews := []struct {
				f    *record.Table
				user int64
				data []byte
			}{{shared, olya, plain}, {shared, seryozha, plain}, {named, seryozha, naming}, {named, olya, plain}, {practice, olya, plain},
				{theirs, seryozha, naming}}
			for _, r := range reviews {
				if err := st.SetReview(ctx, record.GameRef(r.f), r.user, r.data); err != nil {
					t.Fatal(err)
				}
			}

			// Dead letters in the group's chat: her press, Серёжа's reply to
			// her, Серёжа's own message.
			letters := map[int64]string{
				10: `{"update_id":10,"callback_query":{"id":"5","from":{"id":700000001,"is_bot":false,"first_name":"Оля"},"data":"x"}}`,
				11: `{"update_id":11,"message":{"message_id":3,"from":{"id":700000002,"first_name":"Серёжа"},"chat":{"id":-100123,"type":"supergroup"},"date":1795000000,"text":"ага","reply_to_message":{"message_id":2,"from":{"id":700000001,"first_name":"Оля"},"chat":{"id":-100123,"type":"supergroup"},"date":1795000000,"text":"/newgame"}}}`,
				12: `{"update_id":12,"message":{"message_id":4,"from":{"id":700000002,"first_name":"Серёжа"},"chat":{"id":-100123,"type":"supergroup"},"date":1795000000,"text":"/table"}}`,
			}
			for id, u := range letters {
				if err := st.DeadLetter(ctx, "-100123", store.InboxEntry{ID: id, Data: []byte(u)}, "panic"); err != nil {
					t.Fatal(err)
				}
			}

			// Broken tables' records: one naming her, one cut short, one
			// without her.
			brokenShared := finishedCopy("-300", 4, seryozha, olya)
			brokenShared.Phase, brokenShared.State = record.PhasePlaying, []byte("\x00scrambled")
			cut := marshal(t, finishedCopy("-301", 1, olya, masha))
			cut = cut[:bytes.Index(cut, []byte(`"name":"Оля"`))]
			without := string(marshal(t, finishedCopy("-302", 1, seryozha, masha)))
			for key, v := range map[string]string{store.BrokenKey("-300", 4): string(marshal(t, brokenShared)),
				store.BrokenKey("-301", 1): string(cut), store.BrokenKey("-302", 1): without} {
				if err := st.SetPointer(ctx, key, v); err != nil {
					t.Fatal(err)
				}
			}

			for range 2 { // twice: harmless
				if err := tb.forget.Forget(ctx, olya); err != nil {
					t.Fatal(err)
				}
			}

			// The running game: her seat renamed, no id of hers, played by me.
			rec, err := st.Load(ctx, running.ID)
			if err != nil {
				t.Fatal(err)
			}
			if standings.Holds(rec.Data, olya) {
				t.Errorf("the running game still holds her id:\n%s", rec.Data)
			}
			tab, _ := record.Decode(rec.Data)
			if s := tab.Seats[0]; s.Name != forgotten || s.UserID != record.ForgottenUser(0) || !s.Auto() || tab.Phase != record.PhasePlaying ||
				tab.Creator != record.ForgottenUser(0) || tab.Seats[1].UserID != seryozha || tab.Seats[1].Name != running.Seats[1].Name {
				t.Errorf("the running game's seats after forgetting: %+v, creator %d", tab.Seats, tab.Creator)
			}

			// Kept games.
			for _, f := range []*record.Table{shared, named} {
				ref := record.GameRef(f)
				data, err := st.KeptGame(ctx, ref)
				if err != nil {
					t.Fatalf("the game %s she shared: %v", ref, err)
				}
				if standings.Holds(data, olya) || strings.Contains(string(data), "Оля") {
					t.Errorf("the kept game %s still holds her:\n%s", ref, data)
				}
				k, _ := record.Decode(data)
				seat := slices.IndexFunc(f.Seats, func(s record.Seat) bool { return s.UserID == olya })
				if k.Seats[seat].Name != forgotten || k.Seats[seat].UserID != record.ForgottenUser(seat) || k.PlayedBy(seryozha) < 0 ||
					len(k.Seats) != len(f.Seats) || k.Seed != f.Seed || (f.Creator == olya) != (k.Creator == record.ForgottenUser(0)) {
					t.Errorf("the kept game %s: %+v, creator %d", ref, k.Seats, k.Creator)
				}
				if _, err := st.Review(ctx, ref, olya); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("her review of %s: %v", ref, err)
				}
			}
			if r, err := st.Review(ctx, record.GameRef(shared), seryozha); err != nil || !bytes.Equal(r, plain) {
				t.Errorf("Серёжа's review of the game they shared: %v, changed: %v", err, !bytes.Equal(r, plain))
			}
			if _, err := st.Review(ctx, record.GameRef(named), seryozha); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Серёжа's review naming her: %v, want it gone (made again when asked)", err)
			}
			if r, err := st.Review(ctx, record.GameRef(theirs), seryozha); err != nil || !bytes.Equal(r, naming) {
				t.Errorf("a review of a game she did not play: %v", err)
			}
			for _, f := range []*record.Table{practice, alone} {
				if _, err := st.KeptGame(ctx, record.GameRef(f)); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("the game %s no one else played: %v, want it gone", record.GameRef(f), err)
				}
			}
			if refs, _ := st.KeptGames(ctx, olya, 10); len(refs) != 0 {
				t.Errorf("her index: %v", refs)
			}
			want := []string{record.GameRef(theirs), record.GameRef(named), record.GameRef(shared)}
			if refs, _ := st.KeptGames(ctx, seryozha, 10); !slices.Equal(refs, want) {
				t.Errorf("Серёжа's index: %v, want %v", refs, want)
			}

			// Dead letters.
			dead, err := st.DeadLetters(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(dead) != 1 || dead[0].Entry.ID != 12 {
				t.Errorf("dead letters left: %+v, want only Серёжа's own (12)", dead)
			}

			// Broken records.
			recs, err := st.Pointers(ctx, standings.BrokenPrefix)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 || recs[store.BrokenKey("-302", 1)] != without {
				t.Errorf("broken records: %v", recs)
			}
			kept := recs[store.BrokenKey("-300", 4)]
			b, err := record.Decode([]byte(kept))
			if err != nil || standings.Holds([]byte(kept), olya) || strings.Contains(kept, "Оля") || b.Seats[1].Name != forgotten ||
				b.Seats[0].Name != "Серёжа" || !bytes.Equal(b.State, brokenShared.State) {
				t.Errorf("the broken record naming her: %v\n%s", err, kept)
			}
			if _, err := st.Pointer(ctx, store.UserTableKey(olya)); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("her pointer: %v", err)
			}
		})
	}
}

// TestForgettingTheLastPersonEndsTheGame: a game whose only person is
// forgotten ends as when the last person leaves (robots playing on for no
// one would spend the group's calls), and its result records only the
// robots: the results keep nothing of a person forgotten.
func TestForgettingTheLastPersonEndsTheGame(t *testing.T) {
	st := testBolt(t)
	tb := newTables(t, st, clockAt(golden.Clock))
	ctx := t.Context()
	g := testGame(t, "trickchef")
	tab, _ := golden.Table(t, g, 3, 2, "novice", 9, nil)
	tab.Seats[0].UserID, tab.Creator = olya, olya
	if _, err := st.Commit(ctx, tab.ID, store.Change{Data: marshal(t, tab)}); err != nil {
		t.Fatal(err)
	}
	if err := tb.forget.ForgetSeat(ctx, tab.ID, olya); err != nil {
		t.Fatal(err)
	}
	got, _, err := tb.tx.Load(ctx, tab.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Phase != record.PhaseIdle || got.Event == nil || got.Event.Key != "event.all_left" || len(got.Jobs) != 1 || got.Jobs[0].Result == nil {
		t.Fatalf("the game after its last person was forgotten: phase %s, event %+v, jobs %+v", got.Phase, got.Event, got.Jobs)
	}
	for _, s := range got.Jobs[0].Result.Seats {
		if _, person := record.PlayerUser(s.Player); person || s.Name == got.Seats[0].Name {
			t.Errorf("the result keeps the forgotten seat: %+v", got.Jobs[0].Result.Seats)
		}
	}
	if len(got.Jobs[0].Result.Seats) == 0 {
		t.Error("the result has no seat: the robots' are recorded")
	}
}
