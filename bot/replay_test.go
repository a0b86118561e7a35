package bot_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/record"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// TestReplayGivesTheStoredState plays a game (people and a robot) and
// checks the stored state is exactly the seed plus the logged moves.
func TestReplayGivesTheStoredState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Повтор", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	rec, err := h.Redis.Load(context.Background(), strconv.FormatInt(group.ID(), 10))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := record.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := bot.Replay(tab, allGames()...)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := st.MarshalBinary()
	if !bytes.Equal(got, tab.State) || !st.Over() {
		t.Fatalf("replay of %d moves differs from the stored state (over=%v)", len(tab.Log), st.Over())
	}
	if len(tab.Log) < 90 {
		t.Errorf("only %d moves logged for a full game", len(tab.Log))
	}
}
