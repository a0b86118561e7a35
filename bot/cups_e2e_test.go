package bot_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// A group's cup (docs/bot.md «Cups») played as people would, through the
// fake Bot API.

// cupWinner matches the message that names a cup's winner (or winners) of
// game title.
func (h *harness) cupWinner(title string) func(*telegramtest.Message) bool {
	one, _ := h.Around("cup.winner", "Names", "Game", title)
	many, _ := h.Around("cup.winners", "Names", "Game", title)
	return func(m *telegramtest.Message) bool {
		return strings.HasPrefix(m.Text, one) || strings.HasPrefix(m.Text, many)
	}
}

// openCup sends /cup in group as creator, joins the others and returns the
// cup's message.
func (h *harness) openCup(group *telegramtest.Chat, creator *telegramtest.User, others []*telegramtest.User, args string) *telegramtest.Message {
	h.TB.Helper()
	creator.Send(group, "/cup@"+h.Srv.Bot().Username+" "+args)
	lobby, err := group.WaitMessage(10*time.Second, hasButton(h.T("cup.join_button")))
	if err != nil {
		h.DumpGroup(group)
		h.TB.Fatal("no cup lobby: ", err)
	}
	for _, u := range others {
		if ans, err := u.Press(lobby, h.T("cup.join_button")); err != nil || ans.Text != h.T("cup.joined") {
			h.TB.Fatalf("%s joining the cup: %v %+v", u.User().FirstName, err, ans)
		}
	}
	return lobby
}

// cupState reads the cup hosted in group.
func (h *harness) cupState(group *telegramtest.Chat) *cups.State {
	h.TB.Helper()
	tab, err := h.loadTable(record.TableID(group.ID(), 0, record.CupHost))
	if err != nil {
		h.TB.Fatal(err)
	}
	s, err := cups.Decode(tab.Cup)
	if err != nil {
		h.TB.Fatal(err)
	}
	return s
}

// cupTablesPlaying waits until the first table of the cup hosted in
// group plays, and returns the round's tables.
func (h *harness) cupTablesPlaying(group *telegramtest.Chat) []string {
	h.TB.Helper()
	var tables []string
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tables = h.cupState(group).Tables
		if len(tables) == 0 {
			return false
		}
		tab, err := h.loadTable(tables[0])
		return err == nil && tab.Phase == record.PhasePlaying
	}); err != nil {
		h.TB.Fatal("the cup's table did not start")
	}
	return tables
}

// playCup runs people (pressing any table's buttons) until the cup's
// winner is announced, and returns that message.
func (h *harness) playCup(group *telegramtest.Chat, people []*telegramtest.User, during func()) *telegramtest.Message {
	h.TB.Helper()
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.Player(u, done, nil))
	}
	if during != nil {
		during()
	}
	final, err := group.WaitMessage(8*time.Minute, h.cupWinner(h.T("trickchef.title")))
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		h.DumpGroup(group)
		h.TB.Fatal("the cup did not end: ", err)
	}
	return final
}

// startCup opens /cup trickchef 2 in group for people (the first its
// creator) and starts it.
func (h *harness) startCup(group *telegramtest.Chat, people []*telegramtest.User) {
	h.TB.Helper()
	lobby := h.openCup(group, people[0], people[1:], "trickchef 2")
	if ans, err := people[0].Press(lobby, h.T("cup.start_button")); err != nil || ans.Text != h.T("cup.started_toast") {
		h.TB.Fatalf("starting the cup: %v %+v", err, ans)
	}
}

// fourPeople are four people who have started the bot in private.
func (h *harness) fourPeople() []*telegramtest.User {
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	return people
}

// checkWinnerPlayed checks the winner's message is the only one, and
// names someone of people.
func (h *harness) checkWinnerPlayed(group *telegramtest.Chat, final *telegramtest.Message, people []*telegramtest.User) {
	h.TB.Helper()
	n := 0
	for _, m := range group.Messages() {
		if strings.Contains(m.Text, "Победител") && strings.Contains(m.Text, "кубка") {
			n++
		}
	}
	if n != 1 {
		h.TB.Errorf("%d messages name a cup's winner, want 1", n)
	}
	// A cup's table offers no «play again»: the cup starts its next round.
	chats := []*telegramtest.Chat{group}
	for _, u := range people {
		chats = append(chats, u.PrivateChat())
	}
	for _, c := range chats {
		for _, m := range c.Messages() {
			for _, row := range m.Keyboard {
				for _, b := range row {
					if b.Text == h.T("again.button") {
						h.TB.Errorf("a cup's result offers «%s»: %q", b.Text, m.Text)
					}
				}
			}
		}
	}
	head, _, _ := strings.Cut(final.Text, "\n")
	named := false
	for _, u := range people {
		named = named || strings.Contains(head, u.User().FirstName)
	}
	if !named {
		h.TB.Errorf("the winner's message names nobody who played: %q", head)
	}
}

// TestCupSixPeople: six people of a group play /cup trickchef 2 to its
// end: each round seats them at two tables at once, bad input changes
// nothing, every press is answered, no call is refused (429), and the
// winner's message names someone who played. Every game counts.
func TestCupSixPeople(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	stranger := h.MustBegin(h.Srv.NewUser("Чужой"))
	group := h.Srv.NewGroup("Кубок", people...)
	bot := "/cup@" + h.Srv.Bot().Username

	// Bad input: a game nobody offers, a number of rounds out of range.
	people[0].Send(group, bot+" chess")
	badGame, _ := h.Around("cup.bad_game", "Games")
	if _, err := group.WaitMessage(10*time.Second, contains(badGame)); err != nil {
		t.Fatal("/cup chess: ", err)
	}
	people[0].Send(group, bot+" trickchef 99")
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("cup.bad_rounds", "Max", 10))); err != nil {
		t.Fatal("/cup trickchef 99: ", err)
	}

	lobby := h.openCup(group, people[0], people[1:], "trickchef 2")
	if ans, err := stranger.Press(lobby, h.T("cup.join_button")); err != nil || ans.Text != h.T("error.not_member") {
		t.Errorf("a stranger joining: %v %+v", err, ans)
	}
	if ans, err := people[1].Press(lobby, h.T("cup.start_button")); err != nil || ans.Text != h.T("cup.creator_only") {
		t.Errorf("someone else starting: %v %+v", err, ans)
	}
	if ans, err := people[1].Press(lobby, h.T("cup.join_button")); err != nil || ans.Text != h.T("cup.already_joined") {
		t.Errorf("joining twice: %v %+v", err, ans)
	}
	if ans, err := people[0].Press(lobby, h.T("cup.start_button")); err != nil || ans.Text != h.T("cup.started_toast") {
		t.Fatalf("starting the cup: %v %+v", err, ans)
	}
	// A stale button of the lobby: answered, nothing changes.
	if ans, err := people[2].PressData(lobby, lobby.Buttons()[0].CallbackData); err != nil || ans.Text != h.T("cup.started") {
		t.Errorf("joining a cup that started: %v %+v", err, ans)
	}

	// Two tables at once in each round: watched in the store.
	atOnce := map[int]int{}
	watch := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-watch:
				return
			case <-time.After(50 * time.Millisecond):
			}
			tab, err := h.loadTable(record.TableID(group.ID(), 0, record.CupHost))
			if err != nil {
				continue
			}
			s, err := cups.Decode(tab.Cup)
			if err != nil || s.Cup == nil {
				continue
			}
			r, _ := s.Cup.Current()
			playing := 0
			for _, id := range s.Tables {
				if t, err := h.loadTable(id); err == nil && t.Phase == record.PhasePlaying && t.CupOf != nil && t.CupOf.Round == r.No {
					playing++
				}
			}
			atOnce[r.No] = max(atOnce[r.No], playing)
		}
	}()
	final := h.playCup(group, people, nil)
	close(watch)
	<-watched
	if atOnce[1] != 2 || atOnce[2] != 2 {
		t.Errorf("tables played at once by round: %v, want 2 in rounds 1 and 2", atOnce)
	}
	h.checkWinnerPlayed(group, final, people)

	s := h.cupState(group)
	if s.Phase != cups.Over || len(s.Cup.Played) != 2 || len(s.History) != 1 {
		t.Errorf("the cup after its end: %s, %d rounds, %d in history", s.Phase, len(s.Cup.Played), len(s.History))
	}
	for _, r := range s.Cup.Played {
		if len(r.Tables) != 2 {
			t.Errorf("round %d had %d tables, want 2", r.No, len(r.Tables))
		}
	}
	// Every game of the cup counts: four results in the group's history.
	if err := h.Srv.WaitFor(20*time.Second, func() bool {
		hist, err := h.Redis.History(context.Background(), group.ID(), 10)
		return err == nil && len(hist) == 4
	}); err != nil {
		t.Error("the cup's four games are not all in the group's history")
	}
	// The winners carry 🏆 as a month's champions do: on the group's table.
	winners := s.Cup.Winners()
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		own, err := h.loadTable(record.TableID(group.ID(), 0, 1))
		return err == nil && len(winners) > 0 && own.Champion(cups.UserOf(winners[0].ID), "trickchef", time.Now())
	}); err != nil {
		t.Errorf("the cup's winners %v carry no 🏆", winners)
	}
	// /cup history lists it, with its winner.
	people[3].Send(group, bot+" history")
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("cup.history_title"))); err != nil {
		t.Error("/cup history: ", err)
	}
	h.CheckLimits(group)
}

// TestCupLeaverFinishes: of three people, one leaves the cup during the
// first round (pressing twice); a robot finishes their table, the second
// round seats the two others with a robot, and the cup ends with the
// leaver placed by their points.
func TestCupLeaverFinishes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Кубок", people...)
	lobby := h.openCup(group, people[0], people[1:], "trickchef 2")
	if ans, err := people[0].Press(lobby, h.T("cup.start_button")); err != nil || ans.Text != h.T("cup.started_toast") {
		t.Fatalf("starting the cup: %v %+v", err, ans)
	}
	leaver, stay := people[2], people[:2]
	msg, err := group.WaitMessage(10*time.Second, hasButton(h.T("cup.quit_button")))
	if err != nil {
		t.Fatal(err)
	}
	if ans, err := leaver.Press(msg, h.T("cup.quit_button")); err != nil || ans.Text != h.T("cup.quit_confirm") {
		t.Fatalf("leaving, asked: %v %+v", err, ans)
	}
	if ans, err := leaver.Press(msg, h.T("cup.quit_button")); err != nil || ans.Text != h.T("cup.quit_done") {
		t.Fatalf("leaving, confirmed: %v %+v", err, ans)
	}
	if ans, err := leaver.Press(msg, h.T("cup.quit_button")); err != nil || ans.Text != h.T("cup.not_in") {
		t.Errorf("leaving twice: %v %+v", err, ans)
	}
	final := h.playCup(group, stay, nil)
	h.checkWinnerPlayed(group, final, stay)
	s := h.cupState(group)
	if len(s.Cup.Played) != 2 {
		t.Fatalf("%d rounds played, want 2", len(s.Cup.Played))
	}
	r2 := s.Cup.Played[1]
	if len(r2.Tables) != 1 || slices.Contains(r2.Tables[0].Seats, cups.PersonID(leaver.ID())) || !slices.Contains(r2.Tables[0].Seats, "") {
		t.Errorf("round 2 seats %v: the leaver is out, a robot fills", r2.Tables)
	}
	left := false
	for _, st := range s.Cup.Standings() {
		left = left || st.Left && st.Person.ID == cups.PersonID(leaver.ID())
	}
	if !left {
		t.Error("the leaver is not in the standings as gone")
	}
	h.CheckLimits(group)
}

// TestCupSurvivesRestart: the bot is stopped in the middle of a round
// and started again; the cup goes on from its store and ends once.
func TestCupSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	people := h.fourPeople()
	group := h.Srv.NewGroup("Кубок", people...)
	h.startCup(group, people)
	final := h.playCup(group, people, func() {
		// A few moves into the first round, the process dies and comes
		// back. The moves are waited for, not slept for: on a loaded
		// machine the round's table may not even be playing after 2 s.
		if err := h.Srv.WaitFor(time.Minute, func() bool {
			s := h.cupState(group)
			if len(s.Tables) == 0 {
				return false
			}
			tab, err := h.loadTable(s.Tables[0])
			return err == nil && tab.Phase == record.PhasePlaying && len(tab.Log) >= 3
		}); err != nil {
			t.Fatal("the first round's table made no moves")
		}
		h.Stop()
		s := h.cupState(group)
		if r, ok := s.Cup.Current(); s.Phase != cups.Playing || !ok || r.No != 1 {
			t.Errorf("stopped at %s, round %d: not in the middle of round 1", s.Phase, r.No)
		} else if tab, err := h.loadTable(s.Tables[0]); err != nil || tab.Phase != record.PhasePlaying {
			t.Errorf("stopped with the round's table not playing: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
		if err := h.Start(); err != nil {
			t.Fatal(err)
		}
	})
	h.checkWinnerPlayed(group, final, people)
	if s := h.cupState(group); s.Phase != cups.Over || len(s.Cup.Played) != 2 {
		t.Errorf("the cup after its end: %s, %d rounds", s.Phase, len(s.Cup.Played))
	}
}

// TestCupStop: /stop in a group where only a cup runs asks about the cup;
// someone else's «yes» is refused, the creator's stops every table of
// the round, and nobody is named the winner.
func TestCupStop(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Кубок", people...)
	lobby := h.openCup(group, people[0], people[1:], "trickchef")
	if ans, err := people[0].Press(lobby, h.T("cup.start_button")); err != nil || ans.Text != h.T("cup.started_toast") {
		t.Fatalf("starting the cup: %v %+v", err, ans)
	}
	tables := h.cupTablesPlaying(group)
	people[1].Send(group, "/stop@"+h.Srv.Bot().Username)
	if _, err := group.WaitMessage(10*time.Second, contains(h.Shown("cup.creator_only"))); err != nil {
		t.Error("/stop by someone else: ", err)
	}
	people[0].Send(group, "/stop@"+h.Srv.Bot().Username)
	q, err := group.WaitMessage(10*time.Second, contains(h.Shown("cup.stop_confirm")))
	if err != nil {
		t.Fatal("/stop does not ask about the cup: ", err)
	}
	if ans, err := people[1].Press(q, h.T("stop.yes")); err != nil || ans.Text != h.T("cup.creator_only") {
		t.Errorf("someone else confirming: %v %+v", err, ans)
	}
	if ans, err := people[0].Press(q, h.T("stop.yes")); err != nil || ans.Text != h.T("cup.stop_done") {
		t.Fatalf("confirming: %v %+v", err, ans)
	}
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		for _, id := range tables {
			if tab, err := h.loadTable(id); err != nil || tab.Phase != record.PhaseIdle {
				return false
			}
		}
		return true
	}); err != nil {
		t.Error("the cup's tables were not stopped")
	}
	if s := h.cupState(group); s.Phase != cups.Stopped || len(s.History) != 1 || !s.History[0].Stopped {
		t.Errorf("the cup after /stop: %s %+v", s.Phase, s.History)
	}
	if m := group.Find(h.cupWinner(h.T("trickchef.title"))); m != nil {
		t.Errorf("a stopped cup named a winner: %s", m.Text)
	}
	h.CheckLimits(group)
}

// TestCupSurvivesUpgradeToSupergroup: a basic group becomes a supergroup
// (a new chat id) in the middle of a cup's first round. The cup's host and
// its round's tables move together and still name each other, so the
// round ends, the next one starts, and the winner is named in the
// supergroup.
func TestCupSurvivesUpgradeToSupergroup(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	people := h.fourPeople()
	group := h.Srv.NewBasicGroup("Старый кубок", people...)
	h.startCup(group, people)
	playing := func() bool {
		s := h.cupState(group)
		if s.Phase != cups.Playing || len(s.Tables) == 0 {
			return false
		}
		tab, err := h.loadTable(s.Tables[0])
		return err == nil && tab.Phase == record.PhasePlaying
	}
	for deadline := time.Now().Add(10 * time.Second); !playing(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			h.DumpGroup(group)
			t.Fatal("the cup's first round did not start")
		}
	}
	super := group.Migrate()
	final := h.playCup(super, people, nil)
	h.checkWinnerPlayed(super, final, people)
	s := h.cupState(super)
	if s.Phase != cups.Over || len(s.Cup.Played) != 2 {
		t.Errorf("the cup after its end: %s, %d rounds", s.Phase, len(s.Cup.Played))
	}
	if _, err := h.loadTable(record.TableID(group.ID(), 0, record.CupHost)); err == nil {
		t.Error("the old group's cup host is still stored")
	}
}
