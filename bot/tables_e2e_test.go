package bot_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// A group holds several tables at once (record.TableID): these tests play
// them as people would.

// tablesOf are the tables the buttons of m name, in their order.
func tablesOf(m *telegramtest.Message) []string {
	var out []string
	for _, b := range m.Buttons() {
		if p, err := callback.Parse(b.CallbackData); err == nil && !slices.Contains(out, p.Table) {
			out = append(out, p.Table)
		}
	}
	return out
}

// finalAt matches the final message of a game at table id: the one with
// «play again» for that table.
func finalAt(h *harness, id string) func(*telegramtest.Message) bool {
	again := h.T("again.button")
	return func(m *telegramtest.Message) bool {
		b, ok := m.Button(again)
		if !ok {
			return false
		}
		p, err := callback.Parse(b.CallbackData)
		return err == nil && p.Table == id
	}
}

// playAt runs people at table id until its final message, and returns it.
func playAt(t *testing.T, h *harness, group *telegramtest.Chat, id string, people []*telegramtest.User) (*telegramtest.Message, error) {
	t.Helper()
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.PlayerAt(u, id, done, nil))
	}
	final, err := group.WaitMessage(4*time.Minute, finalAt(h, id))
	close(done)
	for _, w := range waits {
		w()
	}
	return final, err
}

// startedTable waits until lobby turned into its game's table.
func startedTable(t *testing.T, h *harness, group *telegramtest.Chat, lobby *telegramtest.Message) {
	t.Helper()
	if err := h.Srv.WaitFor(10*time.Second, func() bool { return !hasButton(h.T("lobby.join_button"))(group.Message(lobby.ID)) }); err != nil {
		t.Fatal("the lobby did not turn into its table")
	}
}

// TestTwoGamesInOneGroup: in one group three people start Трик-н-Шеф and,
// while it runs, three others start another at table 2, whose messages
// say «Стол 2». /stop asks which table (and /stop 2 names one); both games
// finish, each with its own table message, final message and result.
func TestTwoGamesInOneGroup(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	first, second := people[:3], people[3:]
	group := h.Srv.NewGroup("Клуб", people...)
	own, two := record.TableID(group.ID(), 0, 1), record.TableID(group.ID(), 0, 2)

	lobby1 := h.MustLobby(group, first[0], first[1:], 0)
	if got := tablesOf(lobby1); !slices.Equal(got, []string{own}) {
		t.Fatalf("the first lobby's buttons name %v, want table 1", got)
	}
	h.MustStartGame(first[0], lobby1)
	startedTable(t, h, group, lobby1)

	lobby2 := h.MustLobby(group, second[0], second[1:], 0)
	if got := tablesOf(lobby2); !slices.Equal(got, []string{two}) {
		t.Fatalf("the second lobby's buttons name %v, want table 2", got)
	}
	name := h.Shown("table.number", "N", 2)
	if !strings.HasPrefix(bottest.Plain(lobby2.Text), name+"\n") {
		t.Errorf("table 2's lobby does not begin with %q:\n%s", name, lobby2.Text)
	}
	h.MustStartGame(second[0], lobby2)
	startedTable(t, h, group, lobby2)

	// /stop: which table? Both are offered; Аня asks to stop hers, and
	// keeps it. /stop 2 by Дина asks about table 2 alone.
	first[0].Send(group, "/stop@"+h.Srv.Bot().Username)
	which, err := group.WaitMessage(10*time.Second, contains(h.Shown("stop.which")))
	if err != nil {
		t.Fatal(err)
	}
	if got := tablesOf(which); !slices.Equal(got, []string{own, two}) {
		t.Fatalf("/stop offers %v, want tables 1 and 2", got)
	}
	if ans, err := first[1].PressData(which, which.Buttons()[1].CallbackData); err != nil || ans.Text != h.T("stop.not_allowed") {
		t.Errorf("Борис stopping Дина's game: %v %+v", err, ans)
	}
	h.pressData(first[0], which, which.Buttons()[0].CallbackData)
	confirm, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == which.ID && strings.Contains(m.Text, h.Shown("stop.confirm"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if ans, err := first[0].Press(confirm, h.T("stop.no")); err != nil || ans.Text != h.T("stop.kept") {
		t.Fatalf("keeping the game: %v %+v", err, ans)
	}
	second[0].Send(group, "/stop@"+h.Srv.Bot().Username+" 2")
	asked, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return strings.HasPrefix(bottest.Plain(m.Text), name+"\n"+h.Shown("stop.confirm")) && slices.Equal(tablesOf(m), []string{two})
	})
	if err != nil {
		t.Fatal("/stop 2 did not ask about table 2: ", err)
	}
	if ans, err := second[0].Press(asked, h.T("stop.no")); err != nil || ans.Text != h.T("stop.kept") {
		t.Fatalf("keeping table 2's game: %v %+v", err, ans)
	}

	// Both play to the end at once, each through its own buttons.
	finals := make(chan *telegramtest.Message, 2)
	errs := make(chan error, 2)
	for _, tc := range []struct {
		id     string
		people []*telegramtest.User
	}{{own, first}, {two, second}} {
		go func() {
			final, err := playAt(t, h, group, tc.id, tc.people)
			finals <- final
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		<-finals
	}
	final1, final2 := group.Find(finalAt(h, own)), group.Find(finalAt(h, two))
	if final1 == nil || final2 == nil || final1.ID == final2.ID {
		t.Fatalf("final messages: %v, %v", final1, final2)
	}
	if strings.HasPrefix(bottest.Plain(final1.Text), name) || !strings.HasPrefix(bottest.Plain(final2.Text), name+"\n") {
		t.Errorf("the final messages do not name their tables:\n%s\n---\n%s", final1.Text, final2.Text)
	}
	// Each table kept its own message: table 1's names no number, table
	// 2's begins with its name.
	if m := group.Message(lobby1.ID); m == nil || strings.HasPrefix(bottest.Plain(m.Text), h.Shown("table.number", "N", 1)) || strings.HasPrefix(bottest.Plain(m.Text), name) {
		t.Errorf("table 1's message: %v", m)
	}
	if m := group.Message(lobby2.ID); m == nil || !strings.HasPrefix(bottest.Plain(m.Text), name+"\n") {
		t.Errorf("table 2's message: %v", m)
	}
	// Both results are the group's, each with its own players.
	var hist []store.Result
	if err := h.Srv.WaitFor(20*time.Second, func() bool {
		hist, err = h.Redis.History(context.Background(), group.ID(), 5)
		return err == nil && len(hist) == 2
	}); err != nil {
		t.Fatalf("the group's results: %d, %v", len(hist), err)
	}
	sat := map[string]bool{}
	for _, r := range hist {
		var who []string
		for _, s := range r.Seats {
			who = append(who, s.Player)
		}
		slices.Sort(who)
		sat[strings.Join(who, ",")] = true
	}
	for _, ps := range [][]*telegramtest.User{first, second} {
		var who []string
		for _, u := range ps {
			who = append(who, store.UserPlayer(u.ID()))
		}
		slices.Sort(who)
		if !sat[strings.Join(who, ",")] {
			t.Errorf("no result of %v among %v", who, sat)
		}
	}
	h.CheckLimits(group)
}

// TestTablesLimit: a group holds 4 tables by default: /newgame opens
// tables 1 to 4 one after another; with four games on, /newgame
// says every table is taken and opens nothing; /table 9 and /stop x name
// no table and change nothing; /table 3 posts table 3 anew.
func TestTablesLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Четыре стола", a)
	for n := 1; n <= 4; n++ {
		lobby := h.MustLobby(group, a, nil, 2)
		if got := tablesOf(lobby); !slices.Equal(got, []string{record.TableID(group.ID(), 0, n)}) {
			t.Fatalf("lobby %d's buttons name %v", n, got)
		}
		h.MustStartGame(a, lobby)
		startedTable(t, h, group, lobby)
	}
	versions := func() []int64 {
		var out []int64
		for n := 1; n <= 5; n++ {
			rec, err := h.Redis.Load(context.Background(), record.TableID(group.ID(), 0, n))
			if err != nil {
				out = append(out, 0)
				continue
			}
			out = append(out, rec.Version)
		}
		return out
	}
	before := versions()
	if before[4] != 0 {
		t.Fatalf("a fifth table exists: %v", before)
	}
	a.Send(group, "/newgame@"+h.Srv.Bot().Username+" trickchef")
	h.expectReply(group, "newgame.full")
	for _, cmd := range []string{"/table 9", "/stop x", "/table 0", "/stop 5"} {
		n := countIn(group, contains(h.Shown("table.bad_number", "Max", 4)))
		a.Send(group, cmd)
		if err := h.Srv.WaitFor(10*time.Second, func() bool {
			return countIn(group, contains(h.Shown("table.bad_number", "Max", 4))) == n+1
		}); err != nil {
			t.Errorf("%s: no answer that names no table", cmd)
		}
	}
	after := versions()
	for n := 1; n <= 4; n++ {
		tab, err := h.loadTable(record.TableID(group.ID(), 0, n))
		if err != nil || tab.Phase != record.PhasePlaying {
			t.Errorf("table %d after the refusals: %v, %v", n, tab, err)
		}
	}
	if after[4] != 0 || after[1] != before[1] || after[2] != before[2] || after[3] != before[3] {
		t.Errorf("the refusals changed tables 2–5: %v → %v", before, after)
	}
	moved := countIn(group, contains(h.Shown("table.moved")))
	a.Send(group, "/table 3")
	if err := h.Srv.WaitFor(20*time.Second, func() bool {
		return countIn(group, contains(h.Shown("table.moved"))) == moved+1
	}); err != nil {
		t.Errorf("/table 3 did not post one table anew")
	}
	if _, err := group.WaitMessage(20*time.Second, func(m *telegramtest.Message) bool {
		return strings.HasPrefix(bottest.Plain(m.Text), h.Shown("table.number", "N", 3)+"\n") && !strings.Contains(m.Text, h.Shown("table.moved"))
	}); err != nil {
		t.Error("table 3's message is not there")
	}
}

// legacySecondRecord is a group's second table as the bot stored it before
// a group held more than two (id "<chat>b"): a game of Меню шефа's lobby
// beside a long one, byte for byte but for the chat's id.
func legacySecondRecord(chat int64) string {
	c := strconv.FormatInt(chat, 10)
	return `{"id":"` + c + `b","chat":` + c + `,"title":"Клуб","lang":"ru","phase":"lobby","game_no":1,` +
		`"kind":"chef","creator":0,"turn_time":20000000000,"updated":"2026-11-23T12:00:00Z"}`
}

// TestLegacySecondTable: a second table stored by yesterday's bot is
// table 2 today: /stop with the group's own game on asks which, /table 2
// posts it (its message says «Стол 2»), its lobby fills and plays to the
// end, and then /newgame opens there again.
func TestLegacySecondTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Клуб", a, b)
	lobby := h.MustLobby(group, a, nil, 2)
	h.MustStartGame(a, lobby)
	startedTable(t, h, group, lobby)
	two := record.TableID(group.ID(), 0, 2)
	if _, err := h.Redis.Commit(context.Background(), two, store.Change{Data: []byte(legacySecondRecord(group.ID()))}); err != nil {
		t.Fatal(err)
	}

	a.Send(group, "/stop@"+h.Srv.Bot().Username)
	which, err := group.WaitMessage(10*time.Second, contains(h.Shown("stop.which")))
	if err != nil {
		t.Fatal(err)
	}
	if got := tablesOf(which); !slices.Equal(got, []string{record.TableID(group.ID(), 0, 1), two}) {
		t.Fatalf("/stop offers %v", got)
	}
	b.Send(group, "/table@"+h.Srv.Bot().Username+" 2")
	name := h.Shown("table.number", "N", 2)
	old, err := group.WaitMessage(20*time.Second, func(m *telegramtest.Message) bool {
		return strings.HasPrefix(bottest.Plain(m.Text), name+"\n") && hasButton(h.T("lobby.join_button"))(m)
	})
	if err != nil {
		t.Fatal("/table 2 did not post the old second table's lobby: ", err)
	}
	if got := tablesOf(old); !slices.Equal(got, []string{two}) {
		t.Fatalf("its buttons name %v", got)
	}
	if ans, err := b.Press(old, h.T("lobby.join_button")); err != nil || ans.Text != h.T("lobby.joined") {
		t.Fatalf("joining the old lobby: %v %+v", err, ans)
	}
	if _, err := b.Press(old, h.T("lobby.ai_button")); err != nil {
		t.Fatalf("a robot at the old lobby: %v", err)
	}
	h.MustStartGame(b, old)
	if _, err := playAt(t, h, group, two, []*telegramtest.User{b}); err != nil {
		t.Fatal(err)
	}
	a.Send(group, "/newgame@"+h.Srv.Bot().Username+" trickchef")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return slices.Equal(tablesOf(m), []string{two}) && hasButton(h.T("lobby.join_button"))(m)
	}); err != nil {
		t.Error("with table 2 free again, /newgame did not open there: ", err)
	}
}
