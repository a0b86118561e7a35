package store_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/store"
)

// forgettingStore is what the runtime's side of forgetting a person uses
// besides ForgetUser: the kept games' copies rewritten or dropped, the
// dead letters that hold the person dropped, the broken tables' records
// read by their prefix.
type forgettingStore interface {
	forgetStore
	RewriteKeptGame(ctx context.Context, ref string, data []byte, drop []int64) error
	DropKeptGame(ctx context.Context, ref string) error
	DropDeadLetters(ctx context.Context, match func(store.DeadLetter) bool) (int, error)
	Pointers(ctx context.Context, prefix string) (map[string]string, error)
	KeepGame(ctx context.Context, ref string, people []int64, data []byte) error
	KeptGame(ctx context.Context, ref string) ([]byte, error)
	KeptGames(ctx context.Context, user int64, n int) ([]string, error)
	SetReview(ctx context.Context, ref string, user int64, data []byte) error
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
	DeadLetter(ctx context.Context, chat string, e store.InboxEntry, reason string) error
	DeadLetters(ctx context.Context, n int) ([]store.DeadLetter, error)
	DeadLetterCount(ctx context.Context) (int64, error)
}

var (
	_ forgettingStore = (*store.Redis)(nil)
	_ forgettingStore = (*store.Bolt)(nil)
)

// forgettingStores runs a test against Redis, a one-node Cluster and Bolt.
func forgettingStores(t *testing.T, test func(t *testing.T, s forgettingStore)) {
	forgetStores(t, store.Config{}, func(t *testing.T, s forgetStore, _ func()) { test(t, s.(forgettingStore)) })
}

// TestForgetInGames: a kept game's copy is rewritten in place — the
// reviews named go, the others and the game's index entries stay — and
// only while the game is kept; a game dropped goes with every review, out
// of everyone's index. Bad input writes nothing.
func TestForgetInGames(t *testing.T) {
	forgettingStores(t, func(t *testing.T, s forgettingStore) {
		ctx := t.Context()
		const ref, alone = "-100:1:1795000000", "-100:2:1795000100"
		ok(t, s.KeepGame(ctx, ref, []int64{42, 43, 44}, []byte("42 43 44")))
		ok(t, s.KeepGame(ctx, alone, []int64{42}, []byte("42")))
		for _, u := range []int64{42, 43, 44} {
			ok(t, s.SetReview(ctx, ref, u, []byte("review of "+string(rune('0'+u%10)))))
		}
		ok(t, s.SetReview(ctx, alone, 42, []byte("mine")))

		ok(t, s.RewriteKeptGame(ctx, ref, []byte("gone 43 44"), []int64{42, 44}))
		ok(t, s.RewriteKeptGame(ctx, ref, []byte("gone 43 44"), []int64{42, 44})) // again: the same
		if got := get(s.KeptGame(ctx, ref))(t); string(got) != "gone 43 44" {
			t.Errorf("the rewritten copy = %q", got)
		}
		for u, want := range map[int64]string{42: "", 43: "review of 3", 44: ""} {
			got, err := s.Review(ctx, ref, u)
			if want == "" {
				wantErr(t, err, store.ErrNotFound)
			} else if err != nil || string(got) != want {
				t.Errorf("%d's review after the rewrite = %q %v, want %q", u, got, err, want)
			}
		}
		for _, u := range []int64{43, 44} {
			if got := get(s.KeptGames(ctx, u, 10))(t); !slices.Equal(got, []string{ref}) {
				t.Errorf("KeptGames(%d) after the rewrite = %v", u, got)
			}
		}
		ok(t, s.SetReview(ctx, ref, 44, []byte("made again"))) // the game is still kept

		ok(t, s.DropKeptGame(ctx, alone))
		ok(t, s.DropKeptGame(ctx, alone)) // again: nothing to drop
		_, err := s.KeptGame(ctx, alone)
		wantErr(t, err, store.ErrNotFound)
		_, err = s.Review(ctx, alone, 42)
		wantErr(t, err, store.ErrNotFound)
		if got := get(s.KeptGames(ctx, 42, 10))(t); !slices.Equal(got, []string{ref}) {
			t.Errorf("KeptGames(42) after dropping a game = %v, want [%s]", got, ref)
		}
		// A game not kept is not made anew.
		wantErr(t, s.RewriteKeptGame(ctx, alone, []byte("x"), nil), store.ErrNotFound)
		_, err = s.KeptGame(ctx, alone)
		wantErr(t, err, store.ErrNotFound)

		for _, bad := range []string{"", "a b", "x{y", strings.Repeat("1", 201)} {
			if err := s.RewriteKeptGame(ctx, bad, []byte("x"), nil); err == nil || err == store.ErrNotFound {
				t.Errorf("RewriteKeptGame(%q) = %v, want a refusal", bad, err)
			}
			if err := s.DropKeptGame(ctx, bad); err == nil {
				t.Errorf("DropKeptGame(%q) accepted", bad)
			}
		}
		if err := s.RewriteKeptGame(ctx, ref, []byte("x"), []int64{43, 0}); err == nil {
			t.Error("RewriteKeptGame accepted user 0")
		}
		if got := get(s.KeptGame(ctx, ref))(t); string(got) != "gone 43 44" {
			t.Errorf("a refused rewrite wrote %q", got)
		}
	})
}

// TestDropDeadLetters: the dead letters match names go, in every chat; the
// others stay, with the count.
func TestDropDeadLetters(t *testing.T) {
	forgettingStores(t, func(t *testing.T, s forgettingStore) {
		ctx := t.Context()
		if n := get(s.DropDeadLetters(ctx, func(store.DeadLetter) bool { return true }))(t); n != 0 {
			t.Errorf("DropDeadLetters on no dead letters = %d", n)
		}
		letters := map[string][]store.InboxEntry{
			"-100": {{ID: 1, Data: []byte(`{"from":42}`)}, {ID: 2, Data: []byte(`{"from":43}`)}, {ID: 3, Data: []byte(`{"reply":42}`)}},
			"-200": {{ID: 4, Data: []byte(`{"from":42}`)}},
			"43":   {{ID: 5, Data: []byte(`{"from":43}`)}},
		}
		for chat, es := range letters {
			ok(t, s.Ingest(ctx, chat, es, base))
			for _, e := range es {
				ok(t, s.DeadLetter(ctx, chat, e, "panic"))
			}
		}
		var seen []string
		n := get(s.DropDeadLetters(ctx, func(d store.DeadLetter) bool {
			seen = append(seen, d.Chat)
			if d.Reason != "panic" || d.At.IsZero() {
				t.Errorf("dead letter as matched: %+v", d)
			}
			return strings.Contains(string(d.Entry.Data), "42")
		}))(t)
		if n != 3 || len(seen) != 5 {
			t.Errorf("DropDeadLetters = %d after matching %v, want 3 of 5", n, seen)
		}
		var left []int64
		for _, d := range get(s.DeadLetters(ctx, 10))(t) {
			left = append(left, d.Entry.ID)
		}
		slices.Sort(left)
		if !reflect.DeepEqual(left, []int64{2, 5}) {
			t.Errorf("dead letters left = %v, want [2 5]", left)
		}
		if c := get(s.DeadLetterCount(ctx))(t); c != 2 {
			t.Errorf("DeadLetterCount = %d, want 2", c)
		}
		// A dead letter of a chat emptied comes in again as before.
		ok(t, s.DeadLetter(ctx, "-200", store.InboxEntry{ID: 6, Data: []byte("x")}, "again"))
		if c := get(s.DeadLetterCount(ctx))(t); c != 3 {
			t.Errorf("DeadLetterCount after a new dead letter = %d, want 3", c)
		}
	})
}

// TestPointersByPrefix: the pointers whose key starts with a prefix, all of
// them and no other, values as set; reading them does not keep them.
func TestPointersByPrefix(t *testing.T) {
	forgettingStores(t, func(t *testing.T, s forgettingStore) {
		ctx := t.Context()
		if got := get(s.Pointers(ctx, "broken:"))(t); len(got) != 0 {
			t.Errorf("Pointers on an empty store = %v", got)
		}
		want := map[string]string{}
		for i, table := range []string{"-100", "-200_7", "-300*", "-4[a]"} {
			k := store.BrokenKey(table, i+1)
			v := `{"id":"` + table + `"}` + "\x00"
			ok(t, s.SetPointer(ctx, k, v))
			want[k] = v
		}
		ok(t, s.SetPointer(ctx, store.UserTableKey(42), "-100"))
		ok(t, s.SetPointer(ctx, "broken", "not under the prefix"))
		ok(t, s.SetPointer(ctx, "xbroken:1", "nor this"))
		if got := get(s.Pointers(ctx, "broken:"))(t); !reflect.DeepEqual(got, want) {
			t.Errorf("Pointers(broken:) = %v, want %v", got, want)
		}
		if got := get(s.Pointers(ctx, "broken:-3"))(t); len(got) != 1 {
			t.Errorf("Pointers(broken:-3) = %v, want one", got)
		}
	})
}
