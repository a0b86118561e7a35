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

// Attacks on the several tables of a group, the seasons and /forgetme:
// each test is a hole found in review, played as an attacker would.

// TestAttackForgedOpenBeyondLimit: a member forges «▶️» (callback.Open)
// naming table 5 or table 26 of their own group, pressed in that group,
// with the group's limit at 4. A real ▶️ names table 1 (or a table the
// group may hold), so the forged press must open nothing: a table past
// the limit is one /table and /stop never list, and a group could hold
// 26 games at once.
func TestAttackForgedOpenBeyondLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Клуб", a)
	lobby := h.MustLobby(group, a, nil, 2)
	for _, n := range []int{5, 26} {
		id := record.TableID(group.ID(), 0, n)
		forged := callback.Data{Op: callback.Open, Table: id, Word: "trickchef"}.String()
		if _, err := a.PressData(lobby, forged); err != nil {
			t.Fatal(err)
		}
		if tab, err := h.loadTable(id); err == nil && tab.Phase != record.PhaseIdle {
			t.Errorf("a forged ▶️ opened table %d past the limit of 4: phase %v", n, tab.Phase)
		}
	}
}

// TestAttackForgetLeavesSeasonChampion: /forgetme promises that nothing
// about the person stays, and record.Table.Forget takes them out of a
// group's Season champions — so forget must reach the group's table 1,
// where the Season is kept, though the champion's games were at table 2
// (or in a forum topic, or older than the kept games): the groups they
// have results in lead it there. Else their Telegram id stays, and 🏆 at
// their (now forgotten) name.
func TestAttackForgetLeavesSeasonChampion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Клуб", a)
	own := record.TableID(group.ID(), 0, 1)
	tab := &record.Table{ID: own, ChatID: group.ID(), Title: "Клуб", Lang: "ru",
		Season: &record.Season{Month: "2026-11", Until: time.Now().Add(30 * 24 * time.Hour),
			Champions: map[string][]int64{"trickchef": {a.ID()}}}}
	data, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Redis.Commit(context.Background(), own, store.Change{Data: data}); err != nil {
		t.Fatal(err)
	}
	// The month she won she played here: her results are the group's.
	won := time.Now().AddDate(0, -1, 0)
	res := store.Result{ID: "won-last-month", Game: "trickchef", Chat: group.ID(), Started: won, Ended: won.Add(time.Hour),
		Seats: []store.ResultSeat{{Player: record.PersonPlayer(a.ID()), Name: "Аня", Place: 1, Score: 30}, {Player: "rnovice", Name: "Робот 1", Place: 2, Score: 20}}}
	if ok, err := h.Redis.RecordResult(context.Background(), res, nil); err != nil || !ok {
		t.Fatal(ok, err)
	}
	h.forgetMe(a)
	got, err := h.loadTable(own)
	if err != nil {
		t.Fatal(err)
	}
	if got.Season != nil && slices.Contains(got.Season.Champions["trickchef"], a.ID()) {
		t.Errorf("after /forgetme the group's season still names %d a champion: %+v", a.ID(), got.Season)
	}
}

// TestAttackForgetMissesOtherTable: Аня plays at table 1 and, while it
// runs, sits down in table 2's lobby (her pointer, store.UserTableKey,
// now names table 2). /forgetme visits that table and the tables of her
// kept games only, so table 1's running game keeps her seat, her name
// and her Telegram id, and she plays on as herself: its result records
// her again after she was forgotten, against «дальше за вас хожу я».
func TestAttackForgetMissesOtherTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Клуб", a)
	own, two := record.TableID(group.ID(), 0, 1), record.TableID(group.ID(), 0, 2)
	lobby1 := h.MustLobby(group, a, nil, 2)
	h.MustStartGame(a, lobby1)
	startedTable(t, h, group, lobby1)
	lobby2 := h.MustLobby(group, a, nil, 2)
	if got := tablesOf(lobby2); !slices.Equal(got, []string{two}) {
		t.Fatalf("the second lobby names %v", got)
	}
	h.forgetMe(a)
	for _, id := range []string{own, two} {
		tab, err := h.loadTable(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tab.Seats {
			if s.UserID == a.ID() {
				t.Errorf("after /forgetme table %s still seats Аня as herself: %+v", id, s)
			}
		}
	}
}

// TestAttackGroupAnswersNamedTable1: table 1 whose lobby opened beside
// another table is Numbered, and stays so after its game ends, until it
// opens alone. Every change of table 1 then begins what it posts with
// «Стол 1» (nameTable), though table 1 also carries the group's own
// messages: /season, /top, /stats and /history answers, the month-end
// recap, «every table is taken», «which game to stop?». They are the
// group's, not table 1's, and must not say «Стол 1».
func TestAttackGroupAnswersNamedTable1(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Клуб", a)
	own := record.TableID(group.ID(), 0, 1)
	// Table 1 as its Numbered game left it: idle, still Numbered.
	tab := &record.Table{ID: own, ChatID: group.ID(), Title: "Клуб", Lang: "ru", Phase: record.PhaseIdle, GameNo: 1, Numbered: true}
	data, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Redis.Commit(context.Background(), own, store.Change{Data: data}); err != nil {
		t.Fatal(err)
	}
	a.Send(group, "/season")
	m, err := group.WaitMessage(20*time.Second, contains("🗓"))
	if err != nil {
		t.Fatal("no answer to /season: ", err)
	}
	if name := h.Shown("table.number", "N", 1); strings.HasPrefix(bottest.Plain(m.Text), name) {
		t.Errorf("the group's /season answer is named %q:\n%s", name, m.Text)
	}
}

// TestAttackForgedTablePresses: presses forged against another group's
// table 2, another table's lobby, or a stale game of a table are refused
// and change nothing. (Guards: they hold today.)
func TestAttackForgedTablePresses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	m := h.MustBegin(h.Srv.NewUser("Мила"))
	x := h.Srv.NewGroup("Икс", a)
	y := h.Srv.NewGroup("Игрек", m)
	lobby1 := h.MustLobby(x, a, nil, 2)
	h.MustStartGame(a, lobby1)
	startedTable(t, h, x, lobby1)
	h.MustLobby(x, a, nil, 0)
	two := record.TableID(x.ID(), 0, 2)
	tab, err := h.loadTable(two)
	if err != nil {
		t.Fatal(err)
	}
	hers := h.MustLobby(y, m, nil, 0)
	before, err := h.Redis.Load(context.Background(), two)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data callback.Data
	}{
		{"X's table 2 join from Y", callback.Data{Op: callback.Lobby, Table: two, GameNo: tab.GameNo, Args: []int{callback.LobbyJoin}}},
		{"X's table 2 start from Y", callback.Data{Op: callback.Lobby, Table: two, GameNo: tab.GameNo, Args: []int{callback.LobbyStart}}},
		{"X's table 2 ▶️ from Y", callback.Data{Op: callback.Open, Table: two, Word: "trickchef"}},
		{"X's table 3 ▶️ from Y", callback.Data{Op: callback.Open, Table: record.TableID(x.ID(), 0, 3), Word: "trickchef"}},
		{"X's table 2, an old game", callback.Data{Op: callback.Lobby, Table: two, GameNo: tab.GameNo - 1, Args: []int{callback.LobbyJoin}}},
	} {
		if _, err := m.PressData(hers, tc.data.String()); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	after, err := h.Redis.Load(context.Background(), two)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version {
		t.Errorf("forged presses from another group changed X's table 2: version %d → %d", before.Version, after.Version)
	}
	if tab3, err := h.loadTable(record.TableID(x.ID(), 0, 3)); err == nil && tab3.Phase != record.PhaseIdle {
		t.Errorf("a press from Y opened X's table 3: %v", tab3.Phase)
	}
}

// TestAttackChampionAtTable2: last month's champion carries 🏆 at the
// lobbies of the group's game «the whole next month» (season.recap_next),
// but the Season is kept on table 1 only (record.Season, PostSeason) and
// the lobby marks from its own table's record: at table 2 and on (and at
// a forum topic's table) the champion shows no 🏆.
func TestAttackChampionAtTable2(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Клуб", a, b)
	own := record.TableID(group.ID(), 0, 1)
	lobby1 := h.MustLobby(group, b, nil, 2)
	h.MustStartGame(b, lobby1)
	startedTable(t, h, group, lobby1)
	rec, err := h.Redis.Load(context.Background(), own)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := record.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	tab.Season = &record.Season{Month: "2026-11", Until: time.Now().Add(30 * 24 * time.Hour),
		Champions: map[string][]int64{"trickchef": {a.ID()}}}
	data, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Redis.Commit(context.Background(), own, store.Change{Version: rec.Version, Data: data}); err != nil {
		t.Fatal(err)
	}
	lobby2 := h.MustLobby(group, a, nil, 0)
	if got := tablesOf(lobby2); !slices.Equal(got, []string{record.TableID(group.ID(), 0, 2)}) {
		t.Fatalf("the second lobby names %v", got)
	}
	if !strings.Contains(lobby2.Text, "🏆") {
		t.Errorf("the champion's lobby at table 2 shows no 🏆:\n%s", lobby2.Text)
	}
}

// TestAttackAgainReseatsLeaver: only members sit down at a group's table
// (mayPress, the join link). «🔁 Сыграть ещё» seats the last game's
// players again without asking: in a group that hides its joined/left
// messages, with the bot no administrator, Борис who left after the game
// is seated again at the new lobby (and would get its hands) because Аня
// pressed 🔁.
func TestAttackAgainReseatsLeaver(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Клуб", a, b)
	group.HideMemberMessages()
	own := record.TableID(group.ID(), 0, 1)
	lobby := h.MustLobby(group, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby)
	final, err := playAt(t, h, group, own, []*telegramtest.User{a, b})
	if err != nil {
		t.Fatal(err)
	}
	b.Leave(group)
	if ans, err := a.Press(final, h.T("again.button")); err != nil {
		t.Fatalf("🔁: %v %+v", err, ans)
	}
	tab, err := h.loadTable(own)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Phase != record.PhaseLobby {
		t.Fatalf("🔁 opened no lobby: %v", tab.Phase)
	}
	if tab.SeatOf(b.ID()) >= 0 {
		t.Errorf("Борис, no longer in the group, is seated again: %+v", tab.Seats)
	}
}

// TestAttackLeaverKeepsTopicSeat: someone who leaves a group loses their
// seat at every table of it (belong.go gone) — but gone visits the
// group's tables outside topics and the one table their pointer names. In
// a forum, Борис plays at a topic's table 1 and then sits down at its
// table 2's lobby; he leaves the group: the game at table 1 keeps him
// seated as a person, and he plays on.
func TestAttackLeaverKeepsTopicSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	forum := h.Srv.NewForum("Клуб", a, b)
	topic := forum.NewTopic("Карты")
	one := record.TableID(forum.ID(), topic.ThreadID(), 1)
	lobby1 := h.MustLobby(topic, a, []*telegramtest.User{b}, 1)
	h.MustStartGame(a, lobby1)
	startedTable(t, h, topic, lobby1)
	lobby2 := h.MustLobby(topic, b, nil, 0)
	if got := tablesOf(lobby2); !slices.Equal(got, []string{record.TableID(forum.ID(), topic.ThreadID(), 2)}) {
		t.Fatalf("the topic's second lobby names %v", got)
	}
	b.Leave(forum)
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tab, err := h.loadTable(record.TableID(forum.ID(), topic.ThreadID(), 2))
		return err == nil && tab.SeatOf(b.ID()) < 0
	}); err != nil {
		t.Fatal("Борис kept his seat at the topic's table 2 (his pointer's)")
	}
	tab, err := h.loadTable(one)
	if err != nil {
		t.Fatal(err)
	}
	if tab.SeatOf(b.ID()) >= 0 {
		t.Errorf("Борис left the group but still plays at the topic's table 1: %+v", tab.Seats)
	}
}

// TestAttackForgottenLeavesSeason: a person forgotten (/forgetme) is gone
// from the month's standings of every group they played in, and nobody
// takes their place under their name. (Guard: holds today.)
func TestAttackForgottenLeavesSeason(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	names := map[*telegramtest.User]string{a: "Аня", b: "Борис"}
	group := h.Srv.NewGroup("Сезонники", a, b)
	ended := time.Now().Add(-3 * time.Minute)
	for i := range 3 {
		if _, err := h.Bot.Results.Record(ctx, seasonResult("f"+strconv.Itoa(i), group.ID(), ended.Add(time.Duration(i)*time.Minute), names, a, b)); err != nil {
			t.Fatal(err)
		}
	}
	h.askResults(b, group, "/season", "Аня", "Борис")
	h.forgetMe(a)
	m := h.askResults(b, group, "/season", "Борис")
	if strings.Contains(m.Text, "Аня") || strings.Contains(m.Text, h.T("history.forgotten")) {
		t.Errorf("the season after Аня was forgotten:\n%s", m.Text)
	}
}

// TestAttackZoneAtTable2: a long game's lobby asks for «часовой пояс
// группы» (lobby.zone_pick), and the group's zone is what its seasons end
// by and what every later lobby starts from — but one picked in table 2's
// lobby stays on table 2's record: table 1, where the group's settings
// live, keeps the old zone, and table 2's next lobby takes it back
// (followOwn).
func TestAttackZoneAtTable2(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Дача", a)
	lobby1 := h.MustLobby(group, a, nil, 2)
	h.MustStartGame(a, lobby1)
	startedTable(t, h, group, lobby1)
	lobby2 := h.MustLobby(group, a, nil, 2)
	if got := tablesOf(lobby2); !slices.Equal(got, []string{record.TableID(group.ID(), 0, 2)}) {
		t.Fatalf("the second lobby names %v", got)
	}
	for range 3 { // 1 min → 3 min → 1 h → 12 h
		h.pressData(a, lobby2, lobbyData(t, lobby2, callback.LobbyTurn))
	}
	h.pressData(a, lobby2, lobbyData(t, lobby2, callback.LobbyZone))
	picker, err := group.WaitMessage(10*time.Second, hasButton(h.T("zone.yekaterinburg")))
	if err != nil {
		t.Fatalf("no zones: %v", err)
	}
	if ans, err := a.Press(picker, h.T("zone.yekaterinburg")); err != nil || ans.Text != h.T("lobby.zone_set", "Zone", h.T("zone.yekaterinburg")) {
		t.Fatalf("picking Екатеринбург: %v %+v", err, ans)
	}
	own, err := h.loadTable(record.TableID(group.ID(), 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if own.Zone != "Asia/Yekaterinburg" {
		t.Errorf("the group's zone picked at table 2 is not the group's: table 1 keeps %q", own.Zone)
	}
}

// TestAttackLimitThenFree: with every table taken, /stop 3 frees table 3
// and the next /newgame opens there. (Guard: holds today.)
func TestAttackLimitThenFree(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Hour)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	group := h.Srv.NewGroup("Четыре стола", a)
	for range 4 {
		lobby := h.MustLobby(group, a, nil, 2)
		h.MustStartGame(a, lobby)
		startedTable(t, h, group, lobby)
	}
	three := record.TableID(group.ID(), 0, 3)
	a.Send(group, "/stop 3")
	asked, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return strings.Contains(bottest.Plain(m.Text), h.Shown("stop.confirm")) && slices.Equal(tablesOf(m), []string{three})
	})
	if err != nil {
		t.Fatal("/stop 3 asked nothing: ", err)
	}
	if _, err := a.Press(asked, h.T("stop.yes")); err != nil {
		t.Fatal(err)
	}
	if err := h.Srv.WaitFor(10*time.Second, func() bool {
		tab, err := h.loadTable(three)
		return err == nil && tab.Phase == record.PhaseIdle
	}); err != nil {
		t.Fatal("table 3 was not stopped")
	}
	lobby := h.MustLobby(group, a, nil, 2)
	if got := tablesOf(lobby); !slices.Equal(got, []string{three}) {
		t.Errorf("with table 3 free, /newgame opened at %v", got)
	}
}

// TestAttackForgedStopAtCupTable: a group admin forges /stop's buttons
// (callback.Stop) with the id of a table playing a cup's round, on the
// question /stop asked about the group's own lobby. The cup's table is
// the cup's: stopped, its round would wait for ever for a result that
// never comes (only /cup stop stops a cup). Both presses are refused
// with a word and change nothing.
func TestAttackForgedStopAtCupTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	admin := h.MustBegin(h.Srv.NewUser("Админ"))
	group := h.Srv.NewGroup("Кубок", append(slices.Clone(people), admin)...)
	group.MakeAdmin(admin)
	h.startCup(group, people)
	tables := h.cupTablesPlaying(group)
	h.MustLobby(group, admin, nil, 1)
	admin.Send(group, "/stop@"+h.Srv.Bot().Username)
	q, err := group.WaitMessage(10*time.Second, contains(h.Shown("stop.confirm")))
	if err != nil {
		t.Fatal("/stop does not ask about the lobby: ", err)
	}
	cupTable, before := h.TableAt(tables[0])
	for _, arg := range []int{callback.StopAsk, 1} {
		forged := callback.Data{Op: callback.Stop, Table: cupTable.ID, GameNo: cupTable.GameNo, Args: []int{arg}}.String()
		if ans, err := admin.PressData(q, forged); err != nil || ans.Text != h.T("cup.stop_table") {
			t.Errorf("a forged stop (%d) at the cup's table: %v %+v", arg, err, ans)
		}
	}
	if tab, after := h.TableAt(tables[0]); after != before || tab.Phase != record.PhasePlaying {
		t.Errorf("the cup's table changed: version %d → %d, %s", before, after, tab.Phase)
	}
}
