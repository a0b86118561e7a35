package bot_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter/example"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// TestBrokenTableIsFencedOff: two groups play Трик-н-Шеф; twenty moves
// in, one table's engine bytes are damaged, as a bad deploy, a codec
// change or a disk fault leaves them (cut in half, or every byte but the
// first changed). That group is told once that the game broke; a press of
// its game's buttons is answered so at once; the record is set aside for a
// person to look at; the table stops changing (nothing is retried); and
// /newgame opens a lobby there again. The other group plays on to the end.
func TestBrokenTableIsFencedOff(t *testing.T) {
	for _, damage := range []struct {
		name string
		do   func([]byte) []byte
	}{
		{"cut in half", func(b []byte) []byte { return b[:len(b)/2] }},
		{"scrambled", func(b []byte) []byte {
			out := append([]byte(nil), b...)
			for i := 1; i < len(out); i++ {
				out[i] ^= 0x5a
			}
			return out
		}},
	} {
		t.Run(damage.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, time.Minute)
			ok := h.MustBegin(h.Srv.NewUser("Оля"))
			bad := h.MustBegin(h.Srv.NewUser("Боря"))
			okGroup := h.Srv.NewGroup("Целые", ok)
			badGroup := h.Srv.NewGroup("Сломанные", bad)
			for _, g := range []struct {
				group *telegramtest.Chat
				u     *telegramtest.User
			}{{okGroup, ok}, {badGroup, bad}} {
				h.MustStartGame(g.u, h.MustLobby(g.group, g.u, nil, 2))
			}
			done := make(chan struct{})
			waitOK := h.Player(ok, done, nil)
			// Боря plays until the record holds a few moves, then stops.
			moves := 0
			for moves < 4 {
				msg, btn, found := bottest.Playable(bad)
				if found {
					if ans, err := bad.PressData(msg, btn.CallbackData); err == nil && h.Accepted(ans.Text) {
						moves++
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			id := strconv.FormatInt(badGroup.ID(), 10)
			ctx := context.Background()
			// The damaged bytes come as a bad version's commit would bring
			// them: with the table's views to redraw.
			tab := bottest.Rewrite(t, h.Redis, id, func(tab *record.Table) store.Change {
				tab.State = damage.do(tab.State)
				return store.Change{Dirty: view.All(tab), WakeAt: time.Now(), TimerAt: time.Now()}
			})
			gameNo := tab.GameNo
			// Nobody needs to press: delivery cannot draw the hands, the
			// tables find the state unreadable and fence the table off.
			announce := h.Shown("broken.announce")
			if _, err := badGroup.WaitMessage(30*time.Second, bottest.Contains(announce)); err != nil {
				t.Fatalf("the group was not told: %v", err)
			}
			// A press of any button of the broken game says it broke.
			seat := tab.SeatOf(bad.ID())
			if msg, _, found := bottest.Playable(bad); found {
				ans, err := bad.PressData(msg, bot.ActionPayload(tab, seat, 0))
				if err != nil || ans.Text != h.T("error.broken") {
					t.Errorf("a press at the broken table answered %q (%v), want %q", ans.Text, err, h.T("error.broken"))
				}
			}
			set, err := h.Redis.Pointer(ctx, store.BrokenKey(id, gameNo))
			if err != nil || set == "" {
				t.Errorf("the broken record was not set aside: %v", err)
			}
			// Nothing is retried: the table stays as it is.
			_, v := h.Table(badGroup)
			time.Sleep(2 * time.Second)
			if _, later := h.Table(badGroup); later != v {
				t.Errorf("the broken table kept changing: version %d → %d", v, later)
			}
			if msg, btn, found := bottest.Playable(bad); found {
				ans, _ := bad.PressData(msg, btn.CallbackData)
				if ans.Text != h.T("error.broken") {
					t.Errorf("a later press answered %q, want %q", ans.Text, h.T("error.broken"))
				}
			}
			n := 0
			for _, m := range badGroup.Messages() {
				if m.Text == announce {
					n++
				}
			}
			if n != 1 {
				t.Errorf("the group was told %d times, want once", n)
			}
			// /newgame works there again.
			if _, err := h.Lobby(badGroup, bad, nil, 2); err != nil {
				t.Errorf("no new lobby at the broken table: %v", err)
			}
			// The other group plays to the end.
			if _, err := okGroup.WaitMessage(3*time.Minute, h.Won()); err != nil {
				h.DumpGroup(okGroup)
				t.Errorf("the other group's game did not end: %v", err)
			}
			close(done)
			waitOK()
		})
	}
}

// panicky is «Старшая карта» whose private message panics at the table
// titled «Сломанные» once on is set: a bug of a game's rendering, hit at
// every delivery of that table.
type panicky struct {
	adapter.Game
	on *atomic.Bool
}

func (p panicky) RenderSeat(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Message {
	if p.on.Load() && t.Title() == "Сломанные" {
		panic("a rendering bug")
	}
	return p.Game.RenderSeat(l, t, st, seat)
}

// TestPanickingTableIsFencedOff: a game whose rendering panics at one
// table takes neither the process nor the other tables down: delivery
// recovers each panic (logged with its stack), the table is fenced off
// after a few, its group is told, and the other group plays on.
func TestPanickingTableIsFencedOff(t *testing.T) {
	t.Parallel()
	on := &atomic.Bool{}
	h := &harness{bottest.NewTest(t, []adapter.Game{trickchef.Game(), panicky{Game: example.Game(), on: on}}, time.Minute)}
	a, b := h.MustBegin(h.Srv.NewUser("Аня")), h.MustBegin(h.Srv.NewUser("Борис"))
	ok := h.MustBegin(h.Srv.NewUser("Оля"))
	badGroup := h.Srv.NewGroup("Сломанные", a, b)
	okGroup := h.Srv.NewGroup("Целые", ok)
	lobby, err := h.LobbyFor("highcard", badGroup, a, []*telegramtest.User{b}, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	h.MustStartGame(ok, h.MustLobby(okGroup, ok, nil, 2))
	done := make(chan struct{})
	waitOK := h.Player(ok, done, nil)
	var msg *telegramtest.Message
	var btn telegramtest.Button
	if err := h.Srv.WaitFor(30*time.Second, func() bool {
		var found bool
		msg, btn, found = bottest.Playable(a)
		return found
	}); err != nil {
		t.Fatal("Аня has no move")
	}
	// From now on the table's hands panic when drawn; a move makes them be
	// drawn again.
	on.Store(true)
	if _, err := a.PressData(msg, btn.CallbackData); err != nil {
		t.Fatal(err)
	}
	if _, err := badGroup.WaitMessage(30*time.Second, bottest.Contains(h.Shown("broken.announce"))); err != nil {
		t.Fatalf("the group of the panicking table was not told: %v", err)
	}
	if _, err := okGroup.WaitMessage(3*time.Minute, h.Won()); err != nil {
		h.DumpGroup(okGroup)
		t.Errorf("the other group's game did not end: %v", err)
	}
	close(done)
	waitOK()
}
