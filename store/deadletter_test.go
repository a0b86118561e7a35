package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestDeadLetterBounds: the store keeps the dead letters within their
// bounds whatever gives up how much — a chat's newest few, the chats with
// the newest, none past its retention (each on its own: a later one of
// the same chat keeps it no longer).
func TestDeadLetterBounds(t *testing.T) {
	cfg := store.Config{DeadLettersPerChat: 2, DeadLetterChats: 3, Retention: store.Retention{DeadLetters: time.Second}}
	for _, s := range []struct {
		name string
		new  func(t *testing.T) tableStore
	}{
		{"Redis", func(t *testing.T) tableStore {
			return store.NewRedis(redistest.Client(t), redistest.Prefix(t), cfg)
		}},
		{"Cluster", func(t *testing.T) tableStore {
			return store.NewRedis(redistest.StartCluster(t).ClusterClient(t), t.Name()+":", cfg)
		}},
		{"Bolt", func(t *testing.T) tableStore { return newBoltWith(t, cfg) }},
	} {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			st, ctx := s.new(t), t.Context()
			give := func(chat string, id int64) {
				t.Helper()
				ok(t, st.DeadLetter(ctx, chat, store.InboxEntry{ID: id, Data: []byte("u")}, "r"))
				time.Sleep(3 * time.Millisecond) // the next is newer
			}
			// Chat -1 gives up three: its oldest goes.
			for id := int64(1); id <= 3; id++ {
				give("-1", id)
			}
			have := func() map[string][]int64 {
				t.Helper()
				out := map[string][]int64{}
				for _, d := range get(st.DeadLetters(ctx, 100))(t) {
					out[d.Chat] = append(out[d.Chat], d.Entry.ID)
				}
				return out
			}
			if got := fmt.Sprint(have()); got != "map[-1:[3 2]]" {
				t.Fatalf("after three of one chat: %s, want its newest two", got)
			}
			// Three more chats: the chat whose last is oldest goes.
			give("-2", 4)
			give("-3", 5)
			give("-4", 6)
			if got := fmt.Sprint(have()); got != "map[-2:[4] -3:[5] -4:[6]]" {
				t.Fatalf("after four chats: %s, want the three newest chats", got)
			}
			if n := get(st.DeadLetterCount(ctx))(t); n != 3 {
				t.Fatalf("DeadLetterCount = %d, want 3", n)
			}
			// Past its retention a dead letter is gone, though its chat
			// gave up another since.
			time.Sleep(700 * time.Millisecond)
			give("-4", 7)
			time.Sleep(500 * time.Millisecond)
			if got := fmt.Sprint(have()); got != "map[-4:[7]]" {
				t.Fatalf("a second later: %s, want the one given up since", got)
			}
			if n := get(st.DeadLetterCount(ctx))(t); n != 1 {
				t.Fatalf("DeadLetterCount = %d, want 1", n)
			}
		})
	}
}
