package bot_test

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

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
// in, one table's stored bytes are damaged, as a bad deploy, a codec
// change, a disk fault or a hand in Redis leaves them: its game's engine
// bytes (cut in half, or every byte but the first changed), or the table's
// whole record cut in half, so not even its chat or language can be read
// from it. Within seconds that group is told once that the game broke; a
// press of its game's buttons is answered so at once; the bytes are set
// aside for a person to look at; the table stops changing (nothing is
// retried); /newgame opens a lobby there again; the other group plays on
// to the end. And the bot says so briefly: the error lines about that
// table stop once it is fenced off (a quiet stretch proves it), so the
// policy allows no more than counted here in any five minutes: at most 30.
func TestBrokenTableIsFencedOff(t *testing.T) {
	scramble := func(b []byte) []byte {
		out := append([]byte(nil), b...)
		for i := 1; i < len(out); i++ {
			out[i] ^= 0x5a
		}
		return out
	}
	half := func(b []byte) []byte { return b[:len(b)/2] }
	for _, damage := range []struct {
		name          string
		state, record func([]byte) []byte
	}{
		{name: "cut in half", state: half},
		{name: "scrambled", state: scramble},
		{name: "record cut in half", record: half},
	} {
		t.Run(damage.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, time.Minute)
			// The bot's log, counted: its error lines naming the table.
			errs := &errorLines{}
			h.Stop()
			h.Log = zerolog.New(io.MultiWriter(zerolog.NewTestWriter(t), errs)).Level(zerolog.WarnLevel)
			h.MustStart()
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
			var tab *record.Table
			if damage.state != nil {
				tab = bottest.Rewrite(t, h.Redis, id, func(tab *record.Table) store.Change {
					tab.State = damage.state(tab.State)
					return store.Change{Dirty: view.All(tab), WakeAt: time.Now(), TimerAt: time.Now()}
				})
			} else {
				tab = rewriteBytes(t, h.Redis, id, damage.record)
			}
			damaged := time.Now()
			gameNo := tab.GameNo
			// Nobody needs to press: delivery cannot read the table (or
			// draw its hands), the timers cannot read it: it is fenced off.
			announce := h.Shown("broken.announce")
			if _, err := badGroup.WaitMessage(30*time.Second, bottest.Contains(announce)); err != nil {
				t.Fatalf("the group was not told: %v", err)
			}
			t.Logf("the group was told %v after the damage", time.Since(damaged).Round(time.Millisecond))
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
			// Nothing is retried: the table stays as it is, and the bot
			// says nothing more of it.
			_, v := h.Table(badGroup)
			said := errs.about(id)
			time.Sleep(3 * time.Second)
			if _, later := h.Table(badGroup); later != v {
				t.Errorf("the broken table kept changing: version %d → %d", v, later)
			}
			if more := errs.about(id); more != said || said > 30 {
				t.Errorf("%d error lines about the table until it was fenced off, %d more in the next 3 s; want at most 30, then none:\n%s",
					said, more-said, errs.lines(id))
			} else {
				t.Logf("%d error lines about the table, none once it was fenced off", said)
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

// rewriteBytes replaces the record stored under id by damage of its bytes,
// as a commit would (the views to redraw, the table due at once), and
// returns the table as it was.
func rewriteBytes(t *testing.T, st *store.Redis, id string, damage func([]byte) []byte) *record.Table {
	t.Helper()
	ctx := context.Background()
	for {
		rec, err := st.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := record.Decode(rec.Data)
		if err != nil {
			t.Fatal(err)
		}
		_, err = st.Commit(ctx, id, store.Change{Version: rec.Version, Data: damage(rec.Data), Dirty: view.All(tab),
			WakeAt: time.Now(), TimerAt: time.Now()})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
}

// errorLines counts the error lines of a bot's JSON log.
type errorLines struct {
	mu  sync.Mutex
	all []string
}

func (e *errorLines) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		if strings.Contains(line, `"level":"error"`) {
			e.all = append(e.all, line)
		}
	}
	return len(p), nil
}

// about counts the error lines that name table id.
func (e *errorLines) about(id string) int { return len(e.matching(id)) }

func (e *errorLines) matching(id string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, line := range e.all {
		if strings.Contains(line, `"`+id+`"`) || strings.Contains(line, `"`+id+`/`) {
			out = append(out, line)
		}
	}
	return out
}

// lines are those lines, for a failure's message.
func (e *errorLines) lines(id string) string {
	var b strings.Builder
	for _, line := range e.matching(id) {
		if len(line) > 300 {
			line = line[:300] + "…"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
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
