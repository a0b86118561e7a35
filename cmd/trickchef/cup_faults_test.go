//go:build linux

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestCupSurvivesSIGKILL plays a group's cup (/cup trickchef 2, five
// people, every round at two tables at once) while the bot process is
// SIGKILLed every 8–14 s and started again, and once more each time the
// cup moves on to its next round or ends (its host's record says so before
// the group has read it), with Telegram's real limits. The cup must end
// with one message naming its winner, someone who played; every table's
// game must end and be recorded, the last round's replay from its seed;
// every announcement (a table's round results and final result, a cup
// round's start, the cup's winner) must be in the group once.
func TestCupSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("a cup of two rounds with kills takes a minute or more")
	}
	t.Parallel()
	const rounds = 2
	seed := faultSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0xc0b))
	x := texts(t)
	srv := newFake(t) // Telegram's limits
	rs := redistest.Start(t)
	rc := rs.Client(t)
	keys := botKeys(srv)
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
	group := srv.NewGroup("Кубок", people...)
	people[0].Send(group, "/cup@"+srv.Bot().Username+" trickchef "+strconv.Itoa(rounds))
	lobby, err := group.WaitMessage(slow, bottest.HasButton(x.T("cup.join_button")))
	if err != nil {
		t.Fatalf("no cup lobby: %v\n%s", err, p.out.String())
	}
	for _, u := range people[1:] {
		// An empty answer is a duplicate delivery's (openTable).
		if ans, err := u.Press(lobby, x.T("cup.join_button")); err != nil || ans.Text != x.T("cup.joined") && ans.Text != "" {
			t.Fatalf("%s joins the cup: %v %+v", u.User().FirstName, err, ans)
		}
	}
	if ans, err := people[0].Press(lobby, x.T("cup.start_button")); err != nil || ans.Text != x.T("cup.started_toast") {
		t.Fatalf("starting the cup: %v %+v", err, ans)
	}
	start := time.Now()

	title := x.T("trickchef.title")
	oneWinner, _ := x.Around("cup.winner", "Names", "Game", title)
	manyWinners, _ := x.Around("cup.winners", "Names", "Game", title)
	cupWon := func(text string) bool {
		return strings.HasPrefix(text, oneWinner) || strings.HasPrefix(text, manyWinners)
	}
	ended := func(m *telegramtest.Message) bool { text, _ := x.Unmarked(m.Text); return cupWon(text) }

	// People press their first playable card at a quick human pace; the
	// bot plays a turn they miss.
	var thinkMu sync.Mutex
	thinkRng := rand.New(rand.NewPCG(seed, 0x7c))
	think := func() time.Duration {
		thinkMu.Lock()
		defer thinkMu.Unlock()
		return 50*time.Millisecond + time.Duration(thinkRng.Int64N(int64(250*time.Millisecond)))
	}
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		_, wait := person(x, srv, u, 1000, think, done)
		waits = append(waits, wait)
	}

	host := record.TableID(group.ID(), 0, record.CupHost)
	cupState := func() (*cups.State, error) {
		tab, err := loadTable(t.Context(), rc, keys, host)
		if err != nil {
			return nil, err
		}
		return cups.Decode(tab.Cup)
	}
	interval := func() time.Duration { return 8*time.Second + time.Duration(rng.Int64N(int64(6*time.Second))) }

	// Kill every 8–14 s, and at once when the host's record shows the
	// next round paired or the cup over.
	var killedAt []time.Time
	var logs []string
	var whilePlaying, atRoundEnd int
	next := time.Now().Add(interval())
	seenRound, seenOver := 1, false
	for group.Find(ended) == nil && time.Since(start) < 4*time.Minute {
		time.Sleep(100 * time.Millisecond)
		s, err := cupState()
		if err != nil {
			t.Fatal(err)
		}
		if s.Phase != cups.Playing && s.Phase != cups.Over {
			t.Fatalf("the cup is %s", s.Phase)
		}
		r, _ := s.Cup.Current()
		over := s.Phase == cups.Over
		roundEnd := r.No != seenRound || over && !seenOver
		if !roundEnd && (over || time.Now().Before(next)) {
			continue
		}
		playing := 0
		for _, id := range s.Tables {
			if tab, err := loadTable(t.Context(), rc, keys, id); err == nil && tab.Phase == record.PhasePlaying && tab.CupOf != nil && tab.CupOf.Round == r.No {
				playing++
			}
		}
		if p.exited() {
			t.Fatalf("the bot exited on its own:\n%s", p.out.String())
		}
		killedAt = append(killedAt, time.Now())
		p.kill()
		logs = append(logs, p.out.String())
		switch {
		case roundEnd && over:
			atRoundEnd++
			t.Logf("kill %d at %v: the cup just over", len(killedAt), time.Since(start).Round(time.Millisecond))
		case roundEnd:
			atRoundEnd++
			t.Logf("kill %d at %v: round %d just paired, %d of its tables playing",
				len(killedAt), time.Since(start).Round(time.Millisecond), r.No, playing)
		case playing > 0:
			whilePlaying++
			t.Logf("kill %d at %v: round %d, %d tables playing", len(killedAt), time.Since(start).Round(time.Millisecond), r.No, playing)
		default:
			t.Logf("kill %d at %v: round %d, no table playing", len(killedAt), time.Since(start).Round(time.Millisecond), r.No)
		}
		seenRound, seenOver = r.No, over
		p = startBot(t, env)
		next = time.Now().Add(interval())
	}
	_, err = group.WaitMessage(2*slow, ended)
	close(done)
	var refusals []string
	for _, w := range waits {
		refusals = append(refusals, w()...)
	}
	if err != nil {
		t.Fatalf("the cup did not end after %d kills: %v\n%s", len(killedAt), err, p.out.String())
	}
	over := time.Since(start)
	for _, r := range refusals {
		if strings.HasPrefix(r, "error: ") {
			t.Errorf("a press was not answered: %s", r)
		}
	}
	if whilePlaying < 1 || atRoundEnd < 1 {
		t.Errorf("%d kills while tables played, %d as a round ended: want at least one of each", whilePlaying, atRoundEnd)
	}

	s, err := cupState()
	if err != nil {
		t.Fatal(err)
	}
	if s.Phase != cups.Over || len(s.Cup.Played) != rounds {
		t.Fatalf("the cup after its end: %s, %d rounds", s.Phase, len(s.Cup.Played))
	}
	checkCupDelivered(t, x, srv, rc, group, s, killedAt)
	var winner *telegramtest.Message
	for _, m := range group.Messages() {
		if ended(m) {
			winner = m
			break
		}
	}
	head, _, _ := strings.Cut(winner.Text, "\n")
	named := false
	for _, u := range people {
		named = named || strings.Contains(head, u.User().FirstName)
	}
	if !named {
		t.Errorf("the winner's message names nobody who played: %q", head)
	}

	// Every table of every round played its game to the end and recorded
	// it; the last round's tables hold theirs, which replays.
	tables := 0
	for _, r := range s.Cup.Played {
		tables += len(r.Tables)
	}
	st := store.NewRedis(rc, keys, store.Config{})
	var hist []store.Result
	if err := srv.WaitFor(30*time.Second, func() bool {
		hist, err = st.History(context.Background(), group.ID(), 2*tables)
		return err == nil && len(hist) >= tables
	}); err != nil || len(hist) != tables {
		t.Errorf("%d games of the cup in the group's history, want %d", len(hist), tables)
	}
	moves := 0
	for _, id := range s.Tables {
		if tab := checkReplayOf(t, rc, keys, id); tab != nil {
			moves += len(tab.Log)
		}
	}
	explain429(t, srv)
	for _, l := range append(logs, p.out.String()) {
		if strings.Contains(l, "panic") || strings.Contains(l, "DATA RACE") {
			t.Errorf("a bot process reported a problem:\n%s", l)
		}
	}
	t.Logf("%d kills (%d while tables played, %d as a round ended); %d tables, %d moves in the last round; %d refused presses; cup over %v after its start",
		len(killedAt), whilePlaying, atRoundEnd, tables, moves, len(refusals), over.Round(time.Millisecond))
}

// checkCupDelivered checks a cup's group after its end: nothing queued at
// the host or its tables, each round's start and the cup's winner posted
// once, and each cup table's round results and final result once per cup
// round it played (round 2 reuses round 1's table numbers, and a cup
// table's message begins with its name), with the allowance checkDelivered
// makes: a copy more, marked as a possible repeat, only where a kill
// landed within killGap after the copy before it.
func checkCupDelivered(t *testing.T, x *bottest.Texts, srv *telegramtest.Server, rc *redis.Client, group *telegramtest.Chat, s *cups.State, kills []time.Time) {
	t.Helper()
	keys := botKeys(srv)
	base := record.TableNo(s.Tables[0])
	played := map[int]int{} // cup rounds each table number played
	for _, r := range s.Cup.Played {
		for k := range r.Tables {
			played[base+k]++
		}
	}
	ids := []string{record.TableID(group.ID(), 0, record.CupHost)}
	names := map[string]int{}
	for n := range played {
		ids = append(ids, record.TableID(group.ID(), 0, n))
		names[x.Shown("table.number", "N", n)] = n
	}
	err := srv.WaitFor(slow, func() bool {
		for _, id := range ids {
			if n, err := rc.ZCard(context.Background(), keys+"t:{"+id+"}:out").Result(); err != nil || n != 0 {
				return false
			}
		}
		return true
	})
	if err != nil {
		t.Errorf("announcements still queued: %v", err)
	}

	title := x.T("trickchef.title")
	oneWinner, _ := x.Around("cup.winner", "Names", "Game", title)
	manyWinners, _ := x.Around("cup.winners", "Names", "Game", title)
	started := map[int]string{}
	for r := 1; r <= len(s.Cup.Played); r++ {
		started[r], _ = x.Around("cup.round_started", "Tables", "Round", r, "Rounds", len(s.Cup.Played), "Game", title)
	}
	before, after := x.Around("trickchef.round_over", "Round")
	roundOver := func(line string) bool {
		n, ok := strings.CutPrefix(line, before)
		n, ok2 := strings.CutSuffix(n, after)
		_, err := strconv.Atoi(n)
		return ok && ok2 && err == nil
	}
	won := x.Won()
	posted := map[string][]copyOf{}
	gameRounds := map[int]map[string]bool{} // round results seen by table number
	for _, m := range group.Messages() {
		text, marked := x.Unmarked(m.Text)
		c := copyOf{m.Date, marked}
		if strings.HasPrefix(text, oneWinner) || strings.HasPrefix(text, manyWinners) {
			posted["the cup's winner"] = append(posted["the cup's winner"], c)
			continue
		}
		for r, prefix := range started {
			if strings.HasPrefix(text, prefix) {
				what := fmt.Sprintf("the start of cup round %d", r)
				posted[what] = append(posted[what], c)
			}
		}
		name, rest, _ := strings.Cut(text, "\n")
		n, ok := names[name]
		if !ok {
			continue
		}
		if line, _, _ := strings.Cut(rest, "\n"); roundOver(line) {
			what := name + ": " + strconv.Quote(line)
			posted[what] = append(posted[what], c)
			if gameRounds[n] == nil {
				gameRounds[n] = map[string]bool{}
			}
			gameRounds[n][line] = true
		} else if won(&telegramtest.Message{Text: rest}) {
			posted[name+": the final result"] = append(posted[name+": the final result"], c)
		}
	}
	times := func(what string, want int) {
		copies := posted[what]
		repeats := 0
		for i := 1; i < len(copies); i++ {
			if copies[i].marked && killedRightAfter(kills, copies[i-1].at) {
				repeats++
				t.Logf("%s posted again, marked as a possible repeat, after a SIGKILL landed %v after the copy before (the documented gap)",
					what, killGapOf(kills, copies[i-1].at))
			}
		}
		if len(copies)-repeats != want {
			t.Errorf("%s posted %d times %v, want %d (kills at %v)", what, len(copies), copies, want, kills)
		}
	}
	times("the cup's winner", 1)
	for r := range started {
		times(fmt.Sprintf("the start of cup round %d", r), 1)
	}
	for name, n := range names {
		times(name+": the final result", played[n])
		if len(gameRounds[n]) != 3 {
			t.Errorf("%s: round results %v, want 3 rounds", name, gameRounds[n])
		}
		for line := range gameRounds[n] {
			times(name+": "+strconv.Quote(line), played[n])
		}
	}
	if peak := srv.PeakCalls(group.ID(), time.Minute); peak > 20 {
		t.Errorf("%d calls to the group in one minute, Telegram allows 20", peak)
	}
}
