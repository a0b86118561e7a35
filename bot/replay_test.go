package bot_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// TestReplayGivesTheStoredState plays a game (people and a robot) and
// checks the stored state is exactly the seed plus the logged moves.
func TestReplayGivesTheStoredState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.begin(h.srv.NewUser("Аня"))
	b := h.begin(h.srv.NewUser("Борис"))
	group := h.srv.NewGroup("Повтор", a, b)
	lobby := h.lobby(group, a, []*telegramtest.User{b}, 1)
	h.startGame(group, a, lobby)
	h.playToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	rec, err := h.store.Load(context.Background(), strconv.FormatInt(group.ID(), 10))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := bot.DecodeTable(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := bot.Replay(tab, allGames()...)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := st.MarshalBinary()
	if !bytes.Equal(got, tab.Game) || !st.Over() {
		t.Fatalf("replay of %d moves differs from the stored state (over=%v)", len(tab.Log), st.Over())
	}
	if len(tab.Log) < 90 {
		t.Errorf("only %d moves logged for a full game", len(tab.Log))
	}
}
