package trickchef_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	tc "github.com/trickchef/trickchef/game/trickchef"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// games are the games the tests' bot offers: this one.
func games() []adapter.Game { return []adapter.Game{trickchef.Game()} }

// TestRestartInTheMiddleOfATrick stops the bot (as a crash would) while a
// card lies on the table and starts it again over the same store: the
// players finish the game with the messages they have.
func TestRestartInTheMiddleOfATrick(t *testing.T) {
	t.Parallel()
	h := bottest.NewTest(t, games(), time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Перезапуск", people...)
	lobby := h.MustLobby(group, people[0], people[1:], 0)
	h.MustStartGame(people[0], lobby)

	// Play until the stored game is in the middle of a trick (a card on the
	// table, after the first trick), then stop the bot at once, as a crash
	// would: presses made meanwhile wait at Telegram for the new process.
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.Player(u, done, nil))
	}
	id := strconv.FormatInt(group.ID(), 10)
	// cards counts the cards on the table, -1 outside a trick.
	cards := func() int {
		rec, err := h.Redis.Load(context.Background(), id)
		if err != nil {
			return -1
		}
		tab, err := record.Decode(rec.Data)
		if err != nil || tab.State == nil {
			return -1
		}
		st, err := bot.State(tab, games()...)
		if err != nil {
			return -1
		}
		v := st.(*tc.State).PublicView()
		if st.Over() || (v.Round == 1 && v.Trick < 2) || len(v.CurrentTrick) == 0 {
			return -1
		}
		return len(v.CurrentTrick)
	}
	midTrick := func() bool { return cards() > 0 }
	// Stop at a trick's first card: a move that lands between the look
	// and the stop (the players press on, and a loaded machine may be
	// slow to stop) still leaves the trick unfinished. Stopped at its
	// second card, one more move could finish the trick.
	deadline := time.Now().Add(time.Minute)
	for cards() != 1 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	h.Stop()
	close(done)
	for _, w := range waits {
		w()
	}
	if !midTrick() {
		h.DumpGroup(group)
		t.Fatal("the game never stood in the middle of a trick")
	}
	h.MustStart()
	// Everybody keeps playing with the hand messages they already have.
	h.MustPlayToEnd(group, people, 3*time.Minute)
	h.CheckLimits(group)
}
