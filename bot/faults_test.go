package bot_test

// Fault tests of the bot in process: Redis killed and restarted mid-game,
// the same update handled twice or out of order, fifty presses of one
// button at once, and a full game on a three-node Redis Cluster. See
// docs/faults.md.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/record"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// newHarnessOn runs a bot over a given Redis store (newHarness gives it a
// fresh namespace of the shared test server).
func newHarnessOn(t *testing.T, st *store.Redis, turnTimeout time.Duration) *harness {
	t.Helper()
	return &harness{bottest.NewTestOn(t, st, allGames(), turnTimeout)}
}

// audit waits for the game in group to end, stops its players (closing
// done) and checks it: it replays from its log, and every announcement is
// in the group once. It returns the table.
func (h *harness) audit(group *telegramtest.Chat, done chan struct{}, players []func() []string) *record.Table {
	h.TB.Helper()
	_, err := group.WaitMessage(3*time.Minute, h.Won())
	close(done)
	for i, w := range players {
		if ans := w(); len(ans) > 0 {
			h.TB.Logf("player %d got answers %q", i, ans)
		}
	}
	if err != nil {
		h.DumpGroup(group)
		h.TB.Fatal(err)
	}
	tab := h.CheckReplay(group)
	h.checkAnnouncedOnce(group)
	return tab
}

// checkAnnouncedOnce checks each round result and the final result are in
// the group exactly once: a copy marked as a possible repeat counts.
func (h *harness) checkAnnouncedOnce(group *telegramtest.Chat) {
	h.TB.Helper()
	finals, rounds := 0, map[string]int{}
	won, isRoundOver := h.Won(), roundOver(h.Harness)
	for _, m := range group.Messages() {
		if won(m) {
			finals++
		}
		text, _ := h.Unmarked(m.Text)
		if line, _, _ := strings.Cut(text, "\n"); isRoundOver(line) {
			rounds[line]++
		}
	}
	if finals != 1 || len(rounds) != 3 {
		h.TB.Errorf("final result posted %d times, round results %v: want each once", finals, rounds)
	}
	for r, n := range rounds {
		if n != 1 {
			h.TB.Errorf("%q posted %d times", r, n)
		}
	}
}

// reached matches the group table once the game is at least at trick
// trick of round round (of Трик-н-Шеф's three).
func reached(h *bottest.Harness, round, trick int) func(*telegramtest.Message) bool {
	var in []func(*telegramtest.Message) (int, bool) // by round, from round on
	for r := round; r <= 3; r++ {
		in = append(in, trickIn(h, r))
	}
	return func(m *telegramtest.Message) bool {
		for i, trickOf := range in {
			if tn, ok := trickOf(m); ok {
				return i > 0 || tn >= trick
			}
		}
		return false
	}
}

// TestRedisKilledAndRestartedMidGame kills the Redis server (SIGKILL) twice
// during a game of two people and a robot and restarts it from its
// append-only file after a pause. The people keep pressing through the
// outages. The game must go on and end, and its log must replay to the
// stored state.
func TestRedisKilledAndRestartedMidGame(t *testing.T) {
	t.Parallel()
	// appendfsync always: every acknowledged write survives the kill. With
	// the default (everysec) up to a second of moves may be lost.
	rs := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	rc := rs.Client(t)
	h := newHarnessOn(t, store.NewRedis(rc, "tc:", store.Config{}), time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Без базы", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)

	done := make(chan struct{})
	waits := []func() []string{h.Player(a, done, nil), h.Player(b, done, nil)}
	start := time.Now()
	// The longest time the table did not change, Redis outages included.
	// A pause over 10 s is described (whose turn, what the hands show).
	longest := make(chan time.Duration, 1)
	var stuck string
	go func() {
		var last int64
		var best time.Duration
		since := time.Now()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				longest <- max(best, time.Since(since))
				return
			case <-tick.C:
			}
			id := strconv.FormatInt(group.ID(), 10)
			rec, err := h.Redis.Load(context.Background(), id)
			if err == nil && rec.Version != last {
				best, last, since = max(best, time.Since(since)), rec.Version, time.Now()
			}
			if err == nil && stuck == "" && time.Since(since) > 10*time.Second {
				tab, _ := record.Decode(rec.Data)
				dirty, _ := h.Redis.Dirty(context.Background(), id)
				wake, werr := rc.ZScore(context.Background(), "tc:wake", id).Result()
				var sb strings.Builder
				fmt.Fprintf(&sb, "version %d unchanged for 10 s; phase %s; system at %v (now %v); dirty %v; seats %+v\n",
					rec.Version, tab.Phase, tab.SystemAt.Format(time.StampMilli),
					time.Now().Format(time.StampMilli), dirty, tab.Seats)
				fmt.Fprintf(&sb, "wake-up %v (%v)\n", time.UnixMilli(int64(wake)).Format(time.StampMilli), werr)
				for _, u := range []*telegramtest.User{a, b} {
					for _, m := range u.PrivateChat().Messages() {
						fmt.Fprintf(&sb, "%s msg %d: %.80q %v\n", u.User().FirstName, m.ID, m.Text, m.Buttons())
					}
				}
				stuck = sb.String()
			}
		}
	}()
	var outages []string
	for _, at := range [][2]int{{1, 3}, {2, 5}} {
		// Two minutes: under load the table sometimes stands still for about
		// a minute (see docs/faults.md, findings); the pause is logged below.
		if _, err := group.WaitMessage(2*time.Minute, reached(h.Harness, at[0], at[1])); err != nil {
			close(done)
			h.DumpGroup(group)
			t.Fatal(err)
		}
		_, v := h.Table(group)
		if err := rs.Kill(); err != nil {
			t.Fatal(err)
		}
		down := time.Now()
		time.Sleep(1500 * time.Millisecond)
		if err := rs.Restart(); err != nil {
			t.Fatal(err)
		}
		_, after := h.Table(group)
		if after < v {
			t.Errorf("the restart lost committed changes: version %d before the kill, %d after", v, after)
		}
		// How long until the game moved again.
		err := h.Srv.WaitFor(time.Minute, func() bool {
			rec, err := h.Redis.Load(context.Background(), strconv.FormatInt(group.ID(), 10))
			return err == nil && rec.Version > after
		})
		if err != nil {
			t.Errorf("the game did not move for a minute after Redis came back (round %d)", at[0])
		}
		outages = append(outages, fmt.Sprintf("round %d trick ≥%d: down %v, moving again %v after the kill",
			at[0], at[1], 1500*time.Millisecond, time.Since(down).Round(time.Millisecond)))
	}
	tab := h.audit(group, done, waits)
	if stuck != "" {
		t.Logf("the table stood still:\n%s", stuck)
	}
	t.Logf("%d moves; %s; longest pause of the table %v; game over %v after the start",
		len(tab.Log), strings.Join(outages, "; "), (<-longest).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// update ids the tests make up themselves, far from the fake server's.
var nextUpdateID struct {
	sync.Mutex
	n int64
}

func newUpdateID() int64 {
	nextUpdateID.Lock()
	defer nextUpdateID.Unlock()
	nextUpdateID.n++
	return 900000000 + nextUpdateID.n
}

// press builds the update Telegram sends for a button press by u on msg.
func press(id int64, u *telegramtest.User, msg *telegramtest.Message, chat models.Chat, data string) *models.Update {
	return &models.Update{ID: id, CallbackQuery: &models.CallbackQuery{
		ID:           "fault-" + strconv.FormatInt(id, 10),
		From:         u.User(),
		ChatInstance: "1",
		Data:         data,
		Message: models.MaybeInaccessibleMessage{
			Type:    models.MaybeInaccessibleMessageTypeMessage,
			Message: &models.Message{ID: msg.ID, Chat: chat, Date: int(time.Now().Unix())},
		},
	}}
}

// TestDuplicateAndReorderedUpdates hands updates to the bot directly:
// the same update twice, at once, and late after a newer one, and two
// different updates of one table in the opposite order.
func TestDuplicateAndReorderedUpdates(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	group := h.Srv.NewGroup("Дубли", a, b, c)
	chat := group.Chat()
	a.Send(group, "/newgame trickchef")
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	handle := func(u *models.Update) {
		t.Helper()
		if err := h.Bot.Tables.Handle(ctx, u); err != nil {
			t.Fatalf("update %d: %v", u.ID, err)
		}
	}
	seats := func() (robots, people int, v int64) {
		tab, v := h.Table(group)
		for _, s := range tab.Seats {
			if s.Human() {
				people++
			} else {
				robots++
			}
		}
		return robots, people, v
	}

	// Adding a robot is not idempotent by nature: only the update id
	// keeps a redelivery from adding a second one.
	_, _, v0 := seats()
	add := press(newUpdateID(), a, lobby, chat, data(lobby, h.T("lobby.ai_button")))
	handle(add)
	handle(add)
	if r, _, v := seats(); r != 1 || v != v0+1 {
		t.Errorf("one add-robot update handled twice: %d robots, version %d → %d", r, v0, v)
	}

	// The same update ten times at once (replicas racing).
	_, _, v0 = seats()
	add = press(newUpdateID(), a, lobby, chat, data(lobby, h.T("lobby.ai_button")))
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = h.Bot.Tables.Handle(ctx, add) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Errorf("concurrent copy: %v", err)
		}
	}
	if r, _, v := seats(); r != 2 || v != v0+1 {
		t.Errorf("one add-robot update handled ten times at once: %d robots, version %d → %d", r, v0, v)
	}
	// «Remove a robot» shows once there are robots: the lobby as redrawn.
	withRobots, err := group.WaitMessage(10*time.Second, hasButton(h.T("lobby.kick_button")))
	if err != nil {
		t.Fatal(err)
	}
	handle(press(newUpdateID(), a, withRobots, chat, data(withRobots, h.T("lobby.kick_button"))))
	if r, _, _ := seats(); r != 1 {
		t.Fatalf("kick robot: %d robots left, want 1", r)
	}

	// Join, leave, then the join again, late (a redelivery after a newer
	// update): Борис must stay out.
	join := press(newUpdateID(), b, lobby, chat, data(lobby, h.T("lobby.join_button")))
	leave := press(newUpdateID(), b, lobby, chat, data(lobby, h.T("lobby.leave_button")))
	handle(join)
	handle(leave)
	_, _, v0 = seats()
	handle(join)
	if tab, v := h.Table(group); tab.SeatOf(b.ID()) >= 0 || v != v0 {
		t.Errorf("a join redelivered after the leave seated Борис again (version %d → %d)", v0, v)
	}

	// Two different updates in the opposite order: Вера's leave (newer id)
	// comes before her join. The leave is refused (she is not seated), the
	// join applies; the state is a valid lobby either way.
	join = press(newUpdateID(), c, lobby, chat, data(lobby, h.T("lobby.join_button")))
	leave = press(newUpdateID(), c, lobby, chat, data(lobby, h.T("lobby.leave_button")))
	handle(leave)
	handle(join)
	tab, _ := h.Table(group)
	ids := map[int64]int{}
	for _, s := range tab.Seats {
		if s.Human() {
			ids[s.UserID]++
		}
	}
	if tab.Phase != record.PhaseLobby || tab.Creator != a.ID() || ids[a.ID()] != 1 || ids[c.ID()] != 1 || ids[b.ID()] != 0 || len(tab.Seats) != 3 {
		t.Errorf("after reordered updates: phase %s, creator %d, seats %+v", tab.Phase, tab.Creator, tab.Seats)
	}
	// The lobby message converges on the stored seats.
	lo, hi := trickchef.Game().SeatRange()
	seated := h.Shown("lobby.seats", "Count", 3, "Min", lo, "Max", hi)
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == lobby.ID && strings.Contains(m.Text, ". Вера") && !strings.Contains(m.Text, "Борис") &&
			strings.Contains(m.Text, "🤖") && strings.Contains(m.Text, seated)
	}); err != nil {
		h.DumpGroup(group)
		t.Errorf("the lobby message does not show the stored seats: %v", err)
	}

	// A game move handled twice: one move.
	h.MustStartGame(a, lobby)
	hand, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("trickchef.hand_pick")))
	if err != nil {
		t.Fatal(err)
	}
	// (The robot may move right after; count Аня's moves only.)
	mine := func(tab *record.Table) (n int) {
		seat := tab.SeatOf(a.ID())
		for _, m := range tab.Log {
			if int(m.Seat) == seat && !m.Auto {
				n++
			}
		}
		return n
	}
	before, _ := h.Table(group)
	move := press(newUpdateID(), a, hand, a.PrivateChat().Chat(), hand.Keyboard[0][0].CallbackData)
	handle(move)
	handle(move)
	after, _ := h.Table(group)
	seat := after.SeatOf(a.ID())
	if mine(after) != mine(before)+1 || after.Seats[seat].Nonce != before.Seats[seat].Nonce+1 {
		t.Errorf("one move handled twice: Аня's moves %d → %d, nonce %d → %d",
			mine(before), mine(after), before.Seats[seat].Nonce, after.Seats[seat].Nonce)
	}
}

// TestFiftyPressesOfOneButtonAtOnce presses the player's move button fifty
// times at once: thirty times by the player (in their private chat) and
// twenty times by four strangers (on the group table, with the same data).
// Exactly one press may be applied; every press must be answered (the
// player's flood, past the first presses, as too fast).
func TestFiftyPressesOfOneButtonAtOnce(t *testing.T) {
	t.Parallel()
	h := newFloodHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	var strangers []*telegramtest.User
	for i := range 4 {
		strangers = append(strangers, h.MustBegin(h.Srv.NewUser(fmt.Sprintf("Зевака%d", i+1))))
	}
	group := h.Srv.NewGroup("Полсотни", append([]*telegramtest.User{a, b, c}, strangers...)...)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b, c}, 0)
	h.MustStartGame(a, lobby)
	hand, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("trickchef.hand_pick")))
	if err != nil {
		t.Fatal(err)
	}
	table, err := group.WaitMessage(10*time.Second, inRound(h.Harness, 1))
	if err != nil {
		t.Fatal(err)
	}
	pick := hand.Keyboard[0][0].CallbackData
	before, v0 := h.Table(group)

	type result struct {
		owner bool
		q     *telegramtest.Query
		err   error
	}
	results := make([]result, 50)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			if i%5 < 3 {
				q, err := a.PressDataAsync(hand, pick)
				results[i] = result{owner: true, q: q, err: err}
				return
			}
			q, err := strangers[i%4].PressDataAsync(table, pick)
			results[i] = result{q: q, err: err}
		}()
	}
	close(gate)
	wg.Wait()
	applied, stale, notYours, tooFast := 0, 0, 0, 0
	// The hand is the latest message and its owner waits: stale presses
	// say the move was made; thirty at once are a flood, and past the
	// first ones they are refused as too fast before reaching the table.
	staleText, notYoursText, tooFastText := h.T("error.stale_done_wait"), h.T("error.not_yours"), h.T("error.too_fast")
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("press %d: %v", i, r.err)
		}
		ans, err := r.q.Wait(15 * time.Second)
		if err != nil {
			t.Errorf("press %d (owner %v) not answered: %v", i, r.owner, err)
			continue
		}
		switch {
		case r.owner && h.Accepted(ans.Text):
			applied++
		case r.owner && ans.Text == staleText:
			stale++
		case r.owner && ans.Text == tooFastText:
			tooFast++
		case !r.owner && ans.Text == notYoursText:
			notYours++
		default:
			t.Errorf("press %d (owner %v) answered %q", i, r.owner, ans.Text)
		}
	}
	after, v := h.Table(group)
	if applied != 1 || stale+tooFast != 29 || tooFast == 0 || notYours != 20 {
		t.Errorf("answers: %d applied, %d stale, %d too fast, %d not yours; want 1, 29 stale or too fast (some too fast), 20",
			applied, stale, tooFast, notYours)
	}
	if v != v0+1 || len(after.Log) != len(before.Log)+1 {
		t.Errorf("fifty presses: version %d → %d, log %d → %d; want one change", v0, v, len(before.Log), len(after.Log))
	}
}

// TestRepeatedCoinChoiceIsAnswered presses a coin button whose choice is
// already made: what a double tap on «✖️ Без монет» sends (the second
// finds no coins chosen). Nothing changes, but the press must be answered
// and the bot must go on handling updates.
func TestRepeatedCoinChoiceIsAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Монетки", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	hand, err := a.PrivateChat().WaitMessage(10*time.Second, contains(h.Shown("trickchef.hand_pick")))
	if err != nil {
		t.Fatal(err)
	}
	// a:<table>:<game>:<seat>:<nonce>:<action> → m:<table>:<game>:<seat>:<nonce>:0
	parts := strings.Split(hand.Keyboard[0][0].CallbackData, ":")
	parts[0], parts[5] = "m", "0"
	reset := strings.Join(parts, ":")
	_, v0 := h.Table(group)
	q1, err1 := a.PressDataAsync(hand, reset)
	q2, err2 := a.PressDataAsync(hand, reset)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for i, q := range []*telegramtest.Query{q1, q2} {
		if _, err := q.Wait(5 * time.Second); err != nil {
			t.Errorf("coin press %d (%s) not answered: %v", i+1, reset, err)
		}
	}
	if _, v := h.Table(group); v != v0 {
		t.Errorf("a repeated coin choice changed the table: version %d → %d", v0, v)
	}
	// Аня's next press in the same chat must still be handled: the bot
	// applies a chat's updates in order, so an update that fails for good
	// blocks every later one of that chat.
	q, err := a.PressDataAsync(hand, hand.Keyboard[0][0].CallbackData)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := q.Wait(5 * time.Second)
	if err != nil {
		t.Errorf("Аня's chef pick after the coin press: %v", err)
	} else if !h.Accepted(ans.Text) {
		t.Errorf("Аня's chef pick after the coin press answered %q", ans.Text)
	}
}

// TestFullGameOnARedisCluster plays a game of two people and two robots
// with the store on a real three-master Redis Cluster, where the table's
// keys, the wake-up set and the rate-limit keys live on different nodes.
func TestFullGameOnARedisCluster(t *testing.T) {
	t.Parallel()
	cl := redistest.StartCluster3(t)
	h := newHarnessOn(t, store.NewRedis(cl.Client(t), "tc:", store.Config{}), time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Кластер", a, b)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 2)
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	h.CheckReplay(group)
	h.checkAnnouncedOnce(group)
	h.CheckLimits(group)
	per, err := cl.KeysPerNode(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	used := 0
	for _, n := range per {
		if n > 0 {
			used++
		}
	}
	if used < 2 {
		t.Errorf("keys per node %v: the game did not use the cluster's nodes", per)
	}
	t.Logf("keys per node: %v", per)
}

// slowCommit is store.Redis with the gap its Commit has between setting
// the wake-up (a ZADD of its own, in another slot) and the commit script
// widened to 600 ms, longer than the worker's idle poll: what a slow
// network or a busy Redis does now and then.
type slowCommit struct {
	*store.Redis
	gap time.Duration
}

func (s slowCommit) Commit(ctx context.Context, table string, c store.Change) (int64, error) {
	if !c.WakeAt.IsZero() {
		if err := s.Schedule(ctx, store.Deliveries, table, c.WakeAt); err != nil {
			return 0, err
		}
		time.Sleep(s.gap)
	}
	return s.Redis.Commit(ctx, table, c) // which wakes the table again once written
}

// TestChangeCommittedWhileItsWakeUpIsServiced: a worker that takes the
// wake-up of a change before the change is written serves the old state
// and releases the table until the old deadline. The change must still be
// delivered at once, not when a turn times out a minute later.
func TestChangeCommittedWhileItsWakeUpIsServiced(t *testing.T) {
	t.Parallel()
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	fake, ours := bottest.ScaledLimits()
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	h := &harness{&bottest.Test{Harness: &bottest.Harness{Games: allGames(), Srv: srv, Store: slowCommit{st, 600 * time.Millisecond},
		Cfg: bot.Config{TurnTimeout: time.Minute, Limits: ours},
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)}, TB: t, Redis: st}}
	h.MustStart()
	t.Cleanup(h.Stop)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	group := h.Srv.NewGroup("Гонка", a, b, c)
	// Even the first commit (the lobby) is exposed: the worker finds no
	// table, releases it with no wake-up at all, and the lobby that is
	// written 600 ms later is never posted.
	lobby := h.MustLobby(group, a, []*telegramtest.User{b, c}, 0)
	h.MustStartGame(a, lobby)
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range []*telegramtest.User{a, b, c} {
		waits = append(waits, h.Player(u, done, nil))
	}
	// Three people pressing at once: every move must reach the next player
	// well within the one-minute turn.
	_, err := group.WaitMessage(30*time.Second, reached(h.Harness, 1, 3))
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		tab, v := h.Table(group)
		dirty, _ := st.Dirty(context.Background(), tab.ID)
		t.Fatalf("the game stood still (version %d, dirty views %v, seats %+v): %v",
			v, dirty, tab.Seats, err)
	}
}

// failingStore is store.Redis whose read of dirty views (Views) fails
// while failDirty > 0
// and whose Commit always loses the compare-and-set race while
// conflictAll is set: faults injected into the real store.
type failingStore struct {
	*store.Redis
	failDirty   *atomic.Int32
	conflictAll *atomic.Bool
}

func (s failingStore) Views(ctx context.Context, table string) (map[string]string, map[string]int64, error) {
	if s.failDirty.Add(-1) >= 0 {
		return nil, nil, errors.New("injected: dirty views unreadable")
	}
	return s.Redis.Views(ctx, table)
}

func (s failingStore) Commit(ctx context.Context, table string, c store.Change) (int64, error) {
	if s.conflictAll.Load() {
		return 0, store.ErrConflict
	}
	return s.Redis.Commit(ctx, table, c)
}

func newFailingHarness(t *testing.T) (*harness, failingStore) {
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	fs := failingStore{Redis: st, failDirty: new(atomic.Int32), conflictAll: new(atomic.Bool)}
	fake, ours := bottest.ScaledLimits()
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	h := &harness{&bottest.Test{Harness: &bottest.Harness{Games: allGames(), Srv: srv, Store: fs,
		Cfg: bot.Config{TurnTimeout: time.Minute, Limits: ours},
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel + 1)}, TB: t, Redis: st}}
	h.MustStart()
	t.Cleanup(h.Stop)
	return h, fs
}

// TestDeliveryOutlivesAFailedDirtyRead: when reading a table's dirty views
// fails, the worker must come back soon, not release the table until its
// next timer (here a one-minute turn) — the cards must still arrive.
func TestDeliveryOutlivesAFailedDirtyRead(t *testing.T) {
	t.Parallel()
	h, fs := newFailingHarness(t)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	group := h.Srv.NewGroup("Сбой", a, b, c)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b, c}, 0)
	fs.failDirty.Store(3) // the start's delivery finds the store failing
	h.MustStartGame(a, lobby)
	for _, u := range []*telegramtest.User{a, b, c} {
		if _, err := u.PrivateChat().WaitMessage(15*time.Second, func(m *telegramtest.Message) bool {
			return slices.ContainsFunc(m.Buttons(), func(b telegramtest.Button) bool { // a hand, not the greeting's practice and rules
				return b.CallbackData != "" && !strings.HasPrefix(b.CallbackData, "o:") && !strings.HasPrefix(b.CallbackData, "r:")
			})
		}); err != nil {
			t.Fatalf("%s got no cards after the dirty read failed: %v", u.User().FirstName, err)
		}
	}
	if n := fs.failDirty.Load(); n >= 0 {
		t.Fatalf("the injected failures were not all hit (%d left)", n+1)
	}
}

// TestBusyTableAnswersTryAgain: a press whose compare-and-set keeps losing
// is answered «try again» (error.busy), not dropped, and changes nothing.
func TestBusyTableAnswersTryAgain(t *testing.T) {
	t.Parallel()
	h, fs := newFailingHarness(t)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Толпа", a, b)
	lobby := h.MustLobby(group, a, nil, 0)
	_, before := h.Table(group)
	fs.conflictAll.Store(true)
	ans, err := b.Press(lobby, h.T("lobby.join_button"))
	fs.conflictAll.Store(false)
	if err != nil {
		t.Fatal(err)
	}
	if want := h.T("error.busy"); ans.Text != want {
		t.Fatalf("answer %q, want the «try again» toast %q", ans.Text, want)
	}
	if _, after := h.Table(group); after != before {
		t.Fatalf("version %d → %d: a refused press changed the table", before, after)
	}
}
