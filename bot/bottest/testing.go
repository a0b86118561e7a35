package bottest

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// Speedup runs Telegram's rate limits this many times faster in the fake
// server and in the bot alike, so games finish quickly with limits on.
const Speedup = 20

// ScaledLimits are Telegram's limits for the fake server and the bot's own
// spacing, both Speedup times faster.
func ScaledLimits() (telegramtest.Limits, bot.Limits) {
	d := telegramtest.DefaultLimits()
	fake := telegramtest.Limits{
		Group:   telegramtest.Rate{N: d.Group.N, Per: d.Group.Per / Speedup},
		Private: telegramtest.Rate{N: d.Private.N, Per: d.Private.Per / Speedup},
		Global:  telegramtest.Rate{N: d.Global.N, Per: d.Global.Per / Speedup},
	}
	ours := bot.Limits{
		// A group's window is 3.3 s of the fake's 3 s here (production:
		// 62 s of 60): at 20× speed the 2 s that production leaves for calls
		// in flight are 100 ms, which a loaded machine running the race
		// detector overshoots now and then (a call admitted, then stalled
		// that long before it reaches the server, draws a 429).
		GroupInterval: 3300 * time.Millisecond / Speedup,
		// More slack than in production (1.1 s): at 20× speed a few ms of
		// scheduling jitter is a large part of the spacing.
		PrivateInterval: 1600 * time.Millisecond / Speedup,
		GlobalPerSecond: 25 * Speedup,
		GlobalSlice:     200 * time.Millisecond / Speedup,
		// People press at Speedup times their pace too.
		PressesPerSecond: 8 * Speedup,
		PressBurst:       16 * Speedup,
	}
	return fake, ours
}

// Test is a Harness for one test: a running bot with the given games over
// a real Redis store, against a fake Telegram with scaled limits, whose
// helpers fail the test instead of returning errors. The test binary's
// TestMain must run redistest.Main.
type Test struct {
	*Harness
	TB    testing.TB
	Redis *store.Redis
}

// NewTest starts a bot offering games over a fresh namespace of the test
// Redis server; it is stopped when the test ends.
func NewTest(t testing.TB, games []adapter.Game, turnTimeout time.Duration) *Test {
	t.Helper()
	return NewTestOn(t, store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{}), games, turnTimeout)
}

// NewTestOn is NewTest over a given Redis store.
func NewTestOn(t testing.TB, st *store.Redis, games []adapter.Game, turnTimeout time.Duration) *Test {
	t.Helper()
	return NewTestLimits(t, st, games, turnTimeout, nil)
}

// NewTestLimits is NewTestOn whose bot's scaled limits adjust changes
// first (a test of the flood limits puts them back to a person's pace).
func NewTestLimits(t testing.TB, st *store.Redis, games []adapter.Game, turnTimeout time.Duration, adjust func(*bot.Limits)) *Test {
	t.Helper()
	fake, ours := ScaledLimits()
	if adjust != nil {
		adjust(&ours)
	}
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	h := &Test{
		Harness: &Harness{Games: games,
			Srv:   srv,
			Store: st,
			// Reviews unpaced: the pace is a production guard whose cost
			// botbench press measures; here it would only slow the tests.
			Cfg: TestConfig(turnTimeout, ours),
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
		},
		TB:    t,
		Redis: st,
	}
	h.MustStart()
	t.Cleanup(h.Stop)
	return h
}

// TestConfig is the bot's configuration in tests: robots without a pause,
// reviews unpaced (the pace is a production guard whose cost botbench
// press measures; here it would only slow the tests), and limits.
func TestConfig(turnTimeout time.Duration, limits bot.Limits) bot.Config {
	return bot.Config{TurnTimeout: turnTimeout, AIDelay: 0, ReviewShare: 1, Limits: limits}
}

// MustStart is Start, failing the test on an error.
func (h *Test) MustStart() {
	h.TB.Helper()
	if err := h.Start(); err != nil {
		h.TB.Fatal(err)
	}
}

// MustBegin is Begin, failing the test on an error; it returns u.
func (h *Test) MustBegin(u *telegramtest.User) *telegramtest.User {
	h.TB.Helper()
	if err := h.Begin(u); err != nil {
		h.TB.Fatal(err)
	}
	return u
}

// MustLobby is Lobby, failing the test on an error.
func (h *Test) MustLobby(group *telegramtest.Chat, creator *telegramtest.User, others []*telegramtest.User, robots int) *telegramtest.Message {
	h.TB.Helper()
	lobby, err := h.Lobby(group, creator, others, robots)
	if err != nil {
		h.TB.Fatal(err)
	}
	return lobby
}

// MustStartGame is StartGame, failing the test on an error.
func (h *Test) MustStartGame(creator *telegramtest.User, lobby *telegramtest.Message) {
	h.TB.Helper()
	if err := h.StartGame(creator, lobby); err != nil {
		h.TB.Fatal(err)
	}
}

// MustPlayToEnd is PlayToEnd without a pick, failing the test (and
// logging the group's messages) on an error.
func (h *Test) MustPlayToEnd(group *telegramtest.Chat, people []*telegramtest.User, timeout time.Duration) *telegramtest.Message {
	h.TB.Helper()
	final, err := h.PlayToEnd(group, people, timeout, nil)
	if err != nil {
		h.DumpGroup(group)
		h.TB.Fatal(err)
	}
	return final
}

// DumpGroup logs every message of the group, to see why a test failed.
func (h *Test) DumpGroup(group *telegramtest.Chat) {
	for _, m := range group.Messages() {
		h.TB.Logf("group message %d:\n%s", m.ID, m.Text)
	}
}

// CheckLimits asserts the bot stayed inside Telegram's limits: no 429 in
// any chat, at most 20 group calls in any (scaled) minute.
func (h *Test) CheckLimits(group *telegramtest.Chat) {
	h.TB.Helper()
	for _, c := range h.Srv.Calls() {
		if c.ErrorCode != 429 {
			continue
		}
		h.TB.Errorf("a 429 in chat %d: %s %s", c.ChatID, c.Method, c.Description)
	}
	if peak := h.Srv.PeakCalls(group.ID(), time.Minute/Speedup); peak > 20 {
		h.TB.Errorf("%d calls to the group in one (scaled) minute, want ≤ 20", peak)
	}
}

// Table loads and decodes the group's table record and its version.
func (h *Test) Table(group *telegramtest.Chat) (*record.Table, int64) {
	h.TB.Helper()
	return h.TableAt(strconv.FormatInt(group.ID(), 10))
}

// TableAt loads and decodes table id's record and its version.
func (h *Test) TableAt(id string) (*record.Table, int64) {
	h.TB.Helper()
	rec, err := h.Redis.Load(context.Background(), id)
	// A Redis just restarted may still be loading its AOF: give it a moment.
	for deadline := time.Now().Add(10 * time.Second); err != nil && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		rec, err = h.Redis.Load(context.Background(), id)
	}
	if err != nil {
		h.TB.Fatal(err)
	}
	tab, err := record.Decode(rec.Data)
	if err != nil {
		h.TB.Fatal(err)
	}
	return tab, rec.Version
}

// Rewrite changes the table stored under id behind the bot's back, as a
// test's fault or set-up does: change alters the table as loaded and
// returns the commit's timers (Rewrite sets its Version and Data). The bot
// keeps committing meanwhile (robots, timers), so a rewrite that lost the
// compare-and-set to one of its commits is made again on the newer
// record. It returns the table as stored.
func Rewrite(t testing.TB, st *store.Redis, id string, change func(*record.Table) store.Change) *record.Table {
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
		c := change(tab)
		if c.Data, err = tab.Encode(); err != nil {
			t.Fatal(err)
		}
		c.Version = rec.Version
		_, err = st.Commit(ctx, id, c)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
}

// CheckReplay replays the group's finished game from its seed and log,
// compares it with the stored state and checks the seats counted every
// action of the log.
func (h *Test) CheckReplay(group *telegramtest.Chat) *record.Table {
	h.TB.Helper()
	tab, _ := h.Table(group)
	st, err := bot.Replay(tab, h.Games...)
	if err != nil {
		h.TB.Fatal(err)
	}
	got, _ := st.MarshalBinary()
	if !bytes.Equal(got, tab.State) || !st.Over() {
		h.TB.Fatalf("replay of %d moves differs from the stored state (over=%v)", len(tab.Log), st.Over())
	}
	nonces := 0
	for _, s := range tab.Seats {
		nonces += s.Nonce
	}
	if nonces != len(tab.Log) {
		h.TB.Errorf("seats counted %d actions, the log has %d", nonces, len(tab.Log))
	}
	return tab
}

// Version is the group's table record version: it changes with every
// committed change, so an unchanged version proves a press changed nothing.
func (h *Test) Version(group *telegramtest.Chat) int64 {
	h.TB.Helper()
	rec, err := h.Redis.Load(context.Background(), strconv.FormatInt(group.ID(), 10))
	if err != nil {
		h.TB.Fatal(err)
	}
	return rec.Version
}

// ExpectAnswer presses data on msg as u and wants exactly the answer want
// (a catalog text: h.T(key)).
func (h *Test) ExpectAnswer(u *telegramtest.User, msg *telegramtest.Message, data, want string) {
	h.TB.Helper()
	ans, err := u.PressData(msg, data)
	if err != nil {
		h.TB.Fatalf("press %q: %v", data, err)
	}
	if ans.Text != want {
		h.TB.Errorf("press %q by %s: answer %q, want %q", data, u.User().FirstName, ans.Text, want)
	}
}

// Catalog loads the real message catalogs, failing the test on an error.
func Catalog(t testing.TB) *locales.Catalog {
	t.Helper()
	c, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Offline is a bot with no store and no Telegram, its clock stopped at
// golden.Clock: it renders (b.Views) and judges presses in memory
// (b.Tables.PressDraft), for a game's tests.
func Offline(t testing.TB, games ...adapter.Game) *bot.Bot {
	return bot.New(bot.Params{Config: bot.Config{Username: "trickchefbot"}, Translator: Catalog(t), Games: games,
		Now: func() time.Time { return golden.Clock }})
}
