//go:build linux

package main

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestChekhardaSurvivesSIGKILL plays Чехарда, the real-time game, with
// five people pressing random buttons every 0.2–0.8 s, while the bot
// process is SIGKILLed every 10–16 s and started again, with Telegram's
// real limits (three kills fit in the shortest games seen, about a
// minute). The game must end; every press must be answered; each accepted
// press must be exactly one move in the log; the log replayed from the
// seed must give the stored state.
func TestChekhardaSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("a full real-time game with kills takes minutes")
	}
	t.Parallel()
	const minKills = 3
	seed := faultSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0xc4e))
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := newFake(t) // Telegram's limits
	rs := redistest.Start(t)
	rc := rs.Client(t)
	env := botEnv(srv.URL, rs.URL())
	p := startBot(t, env)

	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Даша"} {
		u := srv.NewUser(name)
		if err := greet(u); err != nil {
			t.Fatal(err)
		}
		people = append(people, u)
	}
	group := srv.NewGroup("Чехарда", people...)
	people[0].Send(group, "/newgame@"+srv.Bot().Username+" chekharda")
	lobby, err := group.WaitMessage(slow, bottest.HasButton(cat.T("ru", "lobby.join_button")))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range people[1:] {
		if ans, err := u.Press(lobby, cat.T("ru", "lobby.join_button")); err != nil || ans.Text != cat.T("ru", "lobby.joined") {
			t.Fatalf("%s joins: %v %v", u.User().FirstName, ans, err)
		}
	}
	if ans, err := people[0].Press(lobby, cat.T("ru", "lobby.start_button")); err != nil || ans.Text != cat.T("ru", "lobby.started") {
		t.Fatalf("start: %v %v", ans, err)
	}

	done := make(chan struct{})
	pace := bottest.Pace(200*time.Millisecond, 800*time.Millisecond, seed)
	var waits []func() bottest.Presses
	for i, u := range people {
		waits = append(waits, bottest.PressRandomly(u, done, pace, rand.New(rand.NewPCG(seed, uint64(i))), slow))
	}
	final := func(m *telegramtest.Message) bool {
		_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return strings.HasPrefix(b.CallbackData, "n:") })
		return ok
	}
	id := strconv.FormatInt(group.ID(), 10)
	start := time.Now()
	kills := 0
	var logs []string
	for group.Find(final) == nil && time.Since(start) < 10*time.Minute {
		wait := 10*time.Second + time.Duration(rng.Int64N(int64(6*time.Second)))
		srv.WaitFor(wait, func() bool { return group.Find(final) != nil })
		tab, err := loadTable(t.Context(), rc, botKeys(srv), id)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Phase != record.PhasePlaying {
			break
		}
		if p.exited() {
			t.Fatalf("the bot exited on its own:\n%s", p.out.String())
		}
		p.kill()
		kills++
		logs = append(logs, p.out.String())
		p = startBot(t, env)
	}
	_, err = group.WaitMessage(2*slow, final)
	close(done)
	var presses []bottest.Presses
	for _, w := range waits {
		presses = append(presses, w())
	}
	if err != nil {
		t.Fatalf("the game did not end after %d kills: %v\n%s", kills, err, p.out.String())
	}
	if kills < minKills {
		t.Errorf("the game ended after only %d kills, want at least %d", kills, minKills)
	}
	tab, err := loadTable(t.Context(), rc, botKeys(srv), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := bot.Replay(tab, games.All()...)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := st.MarshalBinary(); string(got) != string(tab.State) || !st.Over() || tab.Phase != record.PhaseIdle {
		t.Errorf("the replay of %d moves differs from the stored state (over=%v, phase %s)", len(tab.Log), st.Over(), tab.Phase)
	}
	accepted, made, unanswered := 0, 0, 0
	for _, pr := range presses {
		accepted += pr.Accepted
		made += pr.Made
		unanswered += pr.Unanswered
	}
	logged := 0
	for _, m := range tab.Log {
		if m.Seat != game.System && !m.Auto {
			logged++
		}
	}
	if unanswered > 0 {
		t.Errorf("%d of %d presses were not answered", unanswered, made)
	}
	if logged != accepted {
		t.Errorf("%d presses accepted, %d moves of people logged: a move lost or applied twice", accepted, logged)
	}
	explain429(t, srv)
	for _, l := range append(logs, p.out.String()) {
		if strings.Contains(l, "panic") || strings.Contains(l, "DATA RACE") {
			t.Errorf("a bot process reported a problem:\n%s", l)
		}
	}
	t.Logf("%d kills; %d moves (%d by people: %d presses, %d accepted); over after %v",
		kills, len(tab.Log), logged, made, accepted, time.Since(start).Round(time.Millisecond))
}
