package chekharda_test

// End-to-end tests of Чехарда, the real-time game, through the fake Bot
// API with Telegram's limits on and a real Redis: whole games with people
// pressing random buttons at random instants (and robots), and races of
// two presses for one set across two bot replicas.

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/ingest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// chekhardaSetup is a lobby's settings: option presses and robot levels.
type chekhardaSetup struct {
	short   bool     // a game to 30
	pause2  bool     // a quiet pause of 2 s
	variant bool     // «Хотите большего?»
	robots  []string // levels of the robots to add, in order
}

// chekhardaTable opens a Чехарда lobby in the group, seats the others,
// sets the options and robots through the lobby's buttons (found by their
// catalog texts) and starts the game.
func chekhardaTable(t *testing.T, h *bottest.Harness, group *telegramtest.Chat, creator *telegramtest.User, others []*telegramtest.User, setup chekhardaSetup) {
	t.Helper()
	cat := bottest.Catalog(t)
	lobby, err := h.LobbyFor("chekharda", group, creator, others, 0)
	if err != nil {
		t.Fatal(err)
	}
	press := func(label string) {
		t.Helper()
		if _, err := creator.Press(lobby, label); err != nil {
			t.Fatal(err)
		}
	}
	if setup.short {
		press(cat.T("ru", "chekharda.option.target", "Count", ck.TargetFull))
	}
	if setup.pause2 {
		press(cat.T("ru", "chekharda.option.pause", "Count", 3))
	}
	if setup.variant {
		press(cat.T("ru", "chekharda.option.variant", "State", cat.T("ru", "chekharda.option_off")))
	}
	level := string(ck.Novice)
	for _, want := range setup.robots {
		for level != want {
			press(cat.T("ru", "lobby.level_button", "Level", cat.T("ru", "chekharda.level."+level)))
			next := map[string]string{"novice": "cook", "cook": "shef", "shef": "novice"}[level]
			wantLabel := cat.T("ru", "lobby.level_button", "Level", cat.T("ru", "chekharda.level."+next))
			if _, err := group.WaitMessage(10*time.Second, bottest.HasButton(wantLabel)); err != nil {
				t.Fatalf("the level did not change to %s: %v", next, err)
			}
			level = next
		}
		press(cat.T("ru", "lobby.ai_button"))
	}
	want := []string{}
	if setup.short {
		want = append(want, cat.T("ru", "chekharda.option.target", "Count", ck.TargetShort))
	}
	if setup.pause2 {
		want = append(want, cat.T("ru", "chekharda.option.pause", "Count", 2))
	}
	if setup.variant {
		want = append(want, cat.T("ru", "chekharda.option.variant", "State", cat.T("ru", "chekharda.option_on")))
	}
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		for _, w := range want {
			if _, ok := m.Button(w); !ok {
				return false
			}
		}
		return strings.Count(m.Text, "🤖") == len(setup.robots)
	}); err != nil {
		t.Fatalf("the lobby does not show the options and robots: %v", err)
	}
	if err := h.StartGame(creator, lobby); err != nil {
		t.Fatal(err)
	}
}

// chekhardaFinal matches the final result: the announcement with «play again».
func chekhardaFinal(m *telegramtest.Message) bool {
	_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return strings.HasPrefix(b.CallbackData, "n:") })
	return ok
}

// quickPeople press every 0.2–0.8 s: faster than any robot reacts.
var quickPeople = [2]time.Duration{200 * time.Millisecond, 800 * time.Millisecond}

// playChekharda runs a random presser per person, pressing every
// pace[0]–pace[1], until the group shows the final result, and returns it
// with every presser's counts.
func playChekharda(t *testing.T, group *telegramtest.Chat, people []*telegramtest.User, seed uint64, pace [2]time.Duration, timeout time.Duration) (*telegramtest.Message, []bottest.Presses) {
	t.Helper()
	done := make(chan struct{})
	next := bottest.Pace(pace[0], pace[1], seed)
	var waits []func() bottest.Presses
	for i, u := range people {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		waits = append(waits, bottest.PressRandomly(u, done, next, rng, 10*time.Second))
	}
	final, err := group.WaitMessage(timeout, chekhardaFinal)
	close(done)
	var presses []bottest.Presses
	for _, w := range waits {
		presses = append(presses, w())
	}
	if err != nil {
		for _, m := range group.Messages() {
			t.Logf("group message %d:\n%s", m.ID, m.Text)
		}
		t.Fatalf("the game did not end: %v", err)
	}
	return final, presses
}

// checkChekharda audits a finished game: every press answered, each
// accepted press exactly one logged move, the replay equal to the stored
// state, the winners named in the final message, no 429.
func checkChekharda(t *testing.T, h *harness, group *telegramtest.Chat, final *telegramtest.Message, presses []bottest.Presses) *record.Table {
	t.Helper()
	tab, _ := h.Table(group)
	accepted, made := 0, 0
	for i, p := range presses {
		if p.Unanswered > 0 {
			t.Errorf("person %d: %d presses unanswered", i, p.Unanswered)
		}
		accepted += p.Accepted
		made += p.Made
	}
	people := 0
	for _, m := range tab.Log {
		if m.Seat != game.System && !m.Auto {
			people++
		}
	}
	if people != accepted {
		t.Errorf("%d presses accepted, %d moves of people logged: a move lost or applied twice", accepted, people)
	}
	st, err := bot.Replay(tab, allGames()...)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := st.MarshalBinary()
	if !bytes.Equal(got, tab.State) || !st.Over() || tab.Phase != record.PhaseIdle {
		t.Fatalf("replay of %d moves differs from the stored state (over=%v, phase %s)", len(tab.Log), st.Over(), tab.Phase)
	}
	for _, w := range st.Result().Winners {
		if !strings.Contains(final.Text, tab.Seats[w].Name) {
			t.Errorf("the final message does not name the winner %s:\n%s", tab.Seats[w].Name, final.Text)
		}
	}
	h.CheckLimits(group)
	t.Logf("%d moves (%d by people: %d presses, %d accepted); group calls %d", len(tab.Log), people, made, accepted,
		h.Srv.CallsPerChat()[group.ID()])
	return tab
}

// TestChekhardaFivePeople: five people press random buttons every
// 0.2–0.8 s until a short game ends.
func TestChekhardaFivePeople(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Даша"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Чехарда", people...)
	chekhardaTable(t, h.Harness, group, people[0], people[1:], chekhardaSetup{short: true, pause2: true})
	final, presses := playChekharda(t, group, people, 1, quickPeople, 4*time.Minute)
	tab := checkChekharda(t, h, group, final, presses)
	if len(tab.Seats) != 5 {
		t.Errorf("%d seats, want 5", len(tab.Seats))
	}
}

// TestChekhardaPeopleAndRobots: two people and two robots (cook, shef)
// play a short game; the robots move through the same path. The people
// think 1.5–3 s between presses, about as long as these robots react
// (1–3 s), so each side wins some races:
// people quicker than any robot could end the game before a robot's first
// move, as a loaded CI machine once showed.
func TestChekhardaPeopleAndRobots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Чехарда с роботами", a, b)
	chekhardaTable(t, h.Harness, group, a, []*telegramtest.User{b}, chekhardaSetup{short: true, pause2: true, robots: []string{"cook", "shef"}})
	final, presses := playChekharda(t, group, []*telegramtest.User{a, b}, 2, [2]time.Duration{1500 * time.Millisecond, 3 * time.Second}, 4*time.Minute)
	tab := checkChekharda(t, h, group, final, presses)
	robotMoves := 0
	for _, m := range tab.Log {
		if m.Auto && m.Seat >= 2 {
			robotMoves++
		}
	}
	t.Logf("robots made %d moves", robotMoves)
	if robotMoves == 0 || tab.Seats[2].AI != "cook" || tab.Seats[3].AI != "shef" {
		t.Errorf("robots %q, %q made %d moves", tab.Seats[2].AI, tab.Seats[3].AI, robotMoves)
	}
}

// TestChekhardaVariant: three people play «Хотите большего?»: no dealer's
// deal, whoever cannot move draws with a button.
func TestChekhardaVariant(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Хотите большего", people...)
	chekhardaTable(t, h.Harness, group, people[0], people[1:], chekhardaSetup{short: true, variant: true})
	final, presses := playChekharda(t, group, people, 3, quickPeople, 4*time.Minute)
	tab := checkChekharda(t, h, group, final, presses)
	draws := 0
	for _, m := range tab.Log {
		switch {
		case m.Action == ck.DrawAction():
			draws++
		case m.Seat == game.System && m.Action != ck.NextRoundAction():
			t.Errorf("the dealer dealt (%d) in the variant", m.Action)
		}
	}
	if draws == 0 {
		t.Error("nobody drew a card")
	}
}

// chekhardaReplicas are bot processes on one store, fed by one poller that hands
// each update to one of them (alternately, by update id) without waiting:
// presses of different people are handled at the same time.
type chekhardaReplicas struct {
	bots   []*bot.Bot
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func startChekhardaReplicas(t *testing.T, srv *telegramtest.Server, st bot.Store, n int, limits bot.Limits) *chekhardaReplicas {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &chekhardaReplicas{cancel: cancel}
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)
	for i := 0; i < n; i++ {
		tg, err := tgbot.New(bottest.Token, tgbot.WithServerURL(srv.URL), tgbot.WithSkipGetMe())
		if err != nil {
			t.Fatal(err)
		}
		b := bot.New(bot.Params{Config: bot.Config{TurnTimeout: time.Minute, Limits: limits}, Store: st, Telegram: tg,
			Translator: bottest.Catalog(t), Games: allGames(), Log: log.With().Int("replica", i).Logger()})
		if err := b.Init(ctx); err != nil {
			t.Fatal(err)
		}
		r.bots = append(r.bots, b)
		r.wg.Add(1)
		go func() { defer r.wg.Done(); b.Run(ctx) }()
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		p := &ingest.Poller{APIURL: srv.URL, Token: bottest.Token, Timeout: time.Second}
		var offset int64
		for ctx.Err() == nil {
			ups, err := p.GetUpdates(ctx, offset)
			if err != nil {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			for _, u := range ups {
				b := r.bots[int(u.ID)%len(r.bots)]
				r.wg.Add(1)
				go func() {
					defer r.wg.Done()
					if err := b.Tables.Handle(context.WithoutCancel(ctx), u); err != nil {
						t.Errorf("update %d: %v", u.ID, err)
					}
				}()
				offset = u.ID + 1
			}
		}
	}()
	t.Cleanup(func() { r.cancel(); r.wg.Wait() })
	return r
}

// chekhardaRaceTable is the race: Аня (seat 0) has a set of three 🐷, Борис and
// Вера each hold one 🐷 (and another card, so stealing does not end the
// round).
const chekhardaRaceTable = "C / PPP | PT | PM"

// setChekhardaRace stores the race state in the table, with the dealer's timer far
// away, and returns the table as stored.
func setChekhardaRace(t *testing.T, st *store.Redis, id string, seed uint64) *record.Table {
	t.Helper()
	return bottest.Rewrite(t, st, id, func(tab *record.Table) store.Change {
		race, err := ck.NewFromDeal(ck.Config{Players: 3, Target: ck.TargetFull, Seed: seed}, chekhardaRaceTable)
		if err != nil {
			t.Fatal(err)
		}
		if tab.State, err = race.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		tab.Log = nil
		tab.SystemAt = time.Now().Add(time.Hour)
		for i := range tab.Seats {
			tab.Seats[i].Due = time.Time{}
		}
		return store.Change{}
	})
}

// handsSettled waits until each of seats' hands, as the bot last drew
// it, is the last message of its person's private chat: a hand the
// bot sends anew (a seat whose turn comes is pinged with a fresh message)
// must have arrived, or a press on the one before lands on a replaced
// message and is rightly answered «stale».
func handsSettled(t *testing.T, srv *telegramtest.Server, st *store.Redis, id string, gameNo int, people []*telegramtest.User, seats []game.Seat) {
	t.Helper()
	ctx := context.Background()
	if err := srv.WaitFor(10*time.Second, func() bool {
		recs, err := st.Messages(ctx, id)
		if err != nil {
			return false
		}
		for _, s := range seats {
			msgs := people[s].PrivateChat().Messages()
			r := view.ParseMessageRecord(recs[view.Hand(gameNo, int(s))])
			if len(msgs) == 0 || r.ID != msgs[len(msgs)-1].ID {
				return false
			}
		}
		return true
	}); err != nil {
		t.Fatalf("a hand the bot drew is not its person's last message: %v", err)
	}
}

// TestChekhardaRacesAcrossReplicas: Борис and Вера press «steal 🐷 from
// Аня» within microseconds of each other, a thousand times, through two
// bot replicas on one Redis. Each time exactly one steal is applied, both
// presses are answered, and the loser is told who was faster (Explain's
// text, looked up by its key).
func TestChekhardaRacesAcrossReplicas(t *testing.T) {
	t.Parallel()
	races := 1000
	if chekhardaRace {
		races = 400
	}
	fake, ours := bottest.ScaledLimits()
	srv := telegramtest.NewServer(telegramtest.WithLimits(fake), telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	st := store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{})
	counted := &chekhardaConflicts{Redis: st}
	startChekhardaReplicas(t, srv, counted, 2, ours)
	h := &bottest.Harness{Srv: srv}
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		u := srv.NewUser(name)
		if err := h.Begin(u); err != nil {
			t.Fatal(err)
		}
		people = append(people, u)
	}
	group := srv.NewGroup("Гонки", people...)
	chekhardaTable(t, h, group, people[0], people[1:], chekhardaSetup{})
	id := strconv.FormatInt(group.ID(), 10)
	cat := bottest.Catalog(t)
	steal := ck.StealAction(ck.Pig, 0)
	wins := map[game.Seat]int{}
	firstWon := 0
	for i := 0; i < races; i++ {
		tab := setChekhardaRace(t, st, id, uint64(i))
		racers := []game.Seat{1, 2}
		if i%2 == 1 {
			racers = []game.Seat{2, 1}
		}
		handsSettled(t, srv, st, id, tab.GameNo, people, racers)
		var queries []*telegramtest.Query
		for _, s := range racers {
			u := people[s]
			msgs := u.PrivateChat().Messages()
			q, err := u.PressDataAsync(msgs[len(msgs)-1], bot.ActionPayload(tab, int(s), steal))
			if err != nil {
				t.Fatal(err)
			}
			queries = append(queries, q)
		}
		answers := map[game.Seat]string{}
		for k, q := range queries {
			ans, err := q.Wait(10 * time.Second)
			if err != nil {
				t.Fatalf("race %d: the press of seat %d was not answered: %v", i, racers[k], err)
			}
			answers[racers[k]] = ans.Text
		}
		after, _ := chekhardaLoad(t, st, id)
		v := chekhardaState(t, after).SeatView(0)
		if len(after.Log) != 1 || after.Log[0].Action != steal || v.SetOf(0, ck.Pig) != 0 {
			t.Fatalf("race %d: log %+v, Аня's 🐷 set %d: want exactly one steal", i, after.Log, v.SetOf(0, ck.Pig))
		}
		winner := after.Log[0].Seat
		loser := 3 - winner
		if v.SetOf(winner, ck.Pig) != 4 || v.SetOf(loser, ck.Pig) != 0 {
			t.Fatalf("race %d: 🐷 sets %d and %d after the steal by seat %d", i, v.SetOf(winner, ck.Pig), v.SetOf(loser, ck.Pig), winner)
		}
		want := cat.T(after.Lang, "chekharda.explain.beaten", "Name", after.Seats[winner].Name,
			"Emoji", ck.Pig.Emoji(), "Victim", after.Seats[0].Name)
		// The winner's toast names the steal as a move made: Аня's set of
		// three, before it moved.
		won := cat.T(after.Lang, "move.toast", "Move", cat.T(after.Lang, "chekharda.move.steal",
			"Set", ck.Pig.Emoji()+"×3", "Victim", after.Seats[0].Name))
		if answers[winner] != won || answers[loser] != want {
			t.Fatalf("race %d: winner %d answered %q, loser %d answered %q (want %q)", i, winner, answers[winner], loser, answers[loser], want)
		}
		wins[winner]++
		if winner == racers[0] {
			firstWon++
		}
	}
	t.Logf("%d races: Борис won %d, Вера %d; the first to press won %d; %d commits lost a compare-and-set and were judged again",
		races, wins[1], wins[2], firstWon, counted.n.Load())
	if n, _ := srv.PeakCallsAnyChat(time.Minute / bottest.Speedup); srv.TooManyRequestsCount() > 0 {
		t.Errorf("%d answers were 429 (peak %d calls in a scaled minute)", srv.TooManyRequestsCount(), n)
	}
}

// chekhardaConflicts counts the commits that lost a compare-and-set: presses that
// were judged against a state another replica had just replaced.
type chekhardaConflicts struct {
	*store.Redis
	n atomic.Int64
}

func (c *chekhardaConflicts) Commit(ctx context.Context, table string, ch store.Change) (int64, error) {
	v, err := c.Redis.Commit(ctx, table, ch)
	if errors.Is(err, store.ErrConflict) {
		c.n.Add(1)
	}
	return v, err
}

// chekhardaLoad reads a table record.
func chekhardaLoad(t *testing.T, st bot.Store, id string) (*record.Table, int64) {
	t.Helper()
	rec, err := st.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := record.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return tab, rec.Version
}

func chekhardaState(t *testing.T, tab *record.Table) *ck.State {
	t.Helper()
	st, err := bot.State(tab, allGames()...)
	if err != nil {
		t.Fatal(err)
	}
	cs, ok := st.(*ck.State)
	if !ok {
		t.Fatalf("table plays %q", tab.GameID)
	}
	return cs
}
