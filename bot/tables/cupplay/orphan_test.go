package cupplay

import (
	"context"
	"slices"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// TestCupPassesAGameAboveTheLimitBy: a lobby left open at table 5 from
// before the group's limit was lowered to 4 is the group's, not the
// cup's: a cup of six takes tables 6 and 7 for its round and leaves it as
// it is (before, the cup's round closed it without a word). A cup that
// would need the taken table too is refused at its start, changing
// nothing.
func TestCupPassesAGameAboveTheLimitBy(t *testing.T) {
	ctx := context.Background()
	tb := newRig(t, testBolt(t))
	const chat = -100778
	host := record.TableID(chat, 0, record.CupHost)
	orphan := record.TableID(chat, 0, tb.limit+1)
	if _, _, err := tb.tx.Transact(ctx, orphan, 0, func(t *record.Table, ch *txn.Change) error {
		lobby.OpenLobby(t, "trickchef", record.Seat{UserID: 99, Name: "Яна"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	_, before, err := tb.tx.Load(ctx, orphan)
	if err != nil {
		t.Fatal(err)
	}
	h := startCupOfSix(t, tb, host)
	if err := tb.jobs.Run(ctx, h); err != nil {
		t.Fatal(err)
	}
	s := stateOf(t, tb, host)
	for _, id := range s.Tables {
		if id == orphan {
			t.Errorf("the cup's round %v takes table %s, where the group's lobby is", s.Tables, orphan)
		}
		if tab := tb.load(t, id); tab.CupOf == nil || tab.Phase != record.PhasePlaying {
			t.Errorf("the cup's table %s: %+v", id, tab)
		}
	}
	tab, after, err := tb.tx.Load(ctx, orphan)
	if err != nil || after != before || tab.Phase != record.PhaseLobby || tab.SeatOf(99) < 0 || tab.CupOf != nil {
		t.Errorf("the group's lobby at table %s: version %d → %d, %v %+v", orphan, before, after, err, tab)
	}

	// Every table above the limit but one taken: a cup of six does not
	// start (it would close the group's lobbies), and nothing changes.
	const chat2 = -100779
	host2 := record.TableID(chat2, 0, record.CupHost)
	for n := tb.limit + 2; n < record.CupHost; n++ {
		if _, _, err := tb.tx.Transact(ctx, record.TableID(chat2, 0, n), 0, func(t *record.Table, ch *txn.Change) error {
			lobby.OpenLobby(t, "trickchef", record.Seat{UserID: 99, Name: "Яна"})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	gatherCupOfSix(t, tb, host2)
	_, v1, err := tb.tx.Load(ctx, host2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cupChangeAt(t, tb, host2, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Press(h, h.GameNo, cups.Start, cups.Person{User: 1}, false, true)
	})
	if key, _ := refusal.Key(err); key != "cup.no_room" {
		t.Errorf("a cup with one free table starts: %v", err)
	}
	if _, v2, _ := tb.tx.Load(ctx, host2); v2 != v1 {
		t.Errorf("the refused start changed the host: version %d → %d", v1, v2)
	}
}

// TestEveryoneLeavesACupTableByItsButton: the three people of a cup's
// table, with no robot from the start, each press «🚪 Выйти из игры»
// there (not /cup quit): the table ends with no one to rank, and its cup
// is told everyone shares its last place, so the round goes on (before,
// the cup waited for that table for ever).
func TestEveryoneLeavesACupTableByItsButton(t *testing.T) {
	tb := newRig(t, testBolt(t))
	const chat = -100780
	host := record.TableID(chat, 0, record.CupHost)
	id := startedCup(t, tb, host)
	tab := tb.load(t, id)
	everyoneLeaves(t, tb, id, tab)
	tellsItsCup(t, tb, host, id)
}

// TestBrokenCupTableTellsItsCup: a cup's table whose game cannot go on is
// fenced off (txn's quarantine: its state unreadable, or its changes
// panicking again and again); its cup is told everyone there shares the
// last place, as when everyone left, so the round goes on (before, it
// waited for that table for ever).
func TestBrokenCupTableTellsItsCup(t *testing.T) {
	ctx := context.Background()
	tb := newRig(t, testBolt(t))
	const chat = -100781
	host := record.TableID(chat, 0, record.CupHost)
	id := startedCup(t, tb, host)
	if err := tb.tx.Unreadable(ctx, id, "a state nobody can read", nil); err != nil {
		t.Fatal(err)
	}
	if tab := tb.load(t, id); tab.Phase != record.PhaseIdle || tab.Broken == nil {
		t.Fatalf("the broken table was not fenced off: %+v", tab)
	}
	tellsItsCup(t, tb, host, id)
}

// TestUnreadableCupTableTellsItsCup: a round's table whose whole record
// cannot be read is fenced off as it is loaded, and rebuilt from what the
// store keeps beside it; its place in the cup comes from the cup's host,
// so the cup is told and its round goes on. Before, the rebuilt record
// had no cup, and the round waited until /cup stop.
func TestUnreadableCupTableTellsItsCup(t *testing.T) {
	ctx := context.Background()
	st := testBolt(t)
	tb := newRig(t, st)
	const chat = -100785
	host := record.TableID(chat, 0, record.CupHost)
	id := startedCup(t, tb, host)
	want := *tb.load(t, id).CupOf
	spoil(t, st, id)
	tab := tb.load(t, id) // fences it off
	if tab.Phase != record.PhaseIdle || tab.Broken == nil || tab.CupOf == nil || *tab.CupOf != want {
		t.Fatalf("the unreadable cup table was not fenced off as the cup's: %+v (cup %+v)", tab, tab.CupOf)
	}
	tellsItsCup(t, tb, host, id)
	// The host itself, unreadable, is no table of its own cup.
	if ct, ok := tb.cups.Owner(ctx, host); ok {
		t.Errorf("the host is told a table of its cup: %+v", ct)
	}
}

// TestLeavingTheGroupLeavesATopicsCup: in a forum, a person playing a
// cup's round in a topic leaves the group: they leave that topic's cup
// (never paired again) and a robot takes their seat at its table. Before,
// only the cup of the group's main topic was told, and the topic's cup
// kept them, their seat waiting out every turn.
func TestLeavingTheGroupLeavesATopicsCup(t *testing.T) {
	ctx := context.Background()
	tb := newRig(t, testBolt(t))
	const chat, topic = -100783, 7
	host := record.TableID(chat, topic, record.CupHost)
	id := startedCup(t, tb, host)
	user := tb.load(t, id).Seats[0].UserID
	left := &models.ChatMemberUpdated{Chat: models.Chat{ID: chat, Type: models.ChatTypeSupergroup, IsForum: true},
		NewChatMember: models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{User: &models.User{ID: user}}}}
	if err := tb.belong.OnChatMember(ctx, 70, left); err != nil {
		t.Fatal(err)
	}
	if err := tb.jobs.Run(ctx, tb.load(t, host)); err != nil {
		t.Fatal(err)
	}
	s := stateOf(t, tb, host)
	if i := slices.IndexFunc(s.Cup.People, func(p cup.Entrant) bool { return p.ID == cups.PersonID(user) }); i < 0 || !s.Cup.People[i].Left {
		t.Errorf("the topic's cup keeps the person who left the group: %+v", s.Cup.People)
	}
	tab := tb.load(t, id)
	if seat := tab.SeatOf(user); seat >= 0 && tab.Seats[seat].Leaver == nil {
		t.Errorf("the person who left the group keeps their seat at the topic's cup table: %+v", tab.Seats)
	}
}

// startedCup opens a cup of six people at host, starts it and opens its
// round's tables: the first one's id.
func startedCup(t *testing.T, tb *rig, host string) string {
	t.Helper()
	ctx := context.Background()
	h := startCupOfSix(t, tb, host)
	if err := tb.jobs.Run(ctx, h); err != nil {
		t.Fatal(err)
	}
	id := stateOf(t, tb, host).Tables[0]
	if tab := tb.load(t, id); tab.CupOf == nil || tab.Phase != record.PhasePlaying {
		t.Fatalf("the cup's table: %+v", tab)
	}
	return id
}

// everyoneLeaves has every person at table id press «🚪 Выйти из игры».
func everyoneLeaves(t *testing.T, tb *rig, id string, tab *record.Table) {
	t.Helper()
	ctx := context.Background()
	for seat, st := range tab.Seats {
		if !st.Human() {
			t.Fatalf("seat %d is a robot: the test wants people only", seat)
		}
		for _, arg := range []int{callback.LeaveAsk, callback.LeaveYes} {
			p := callback.Data{Op: callback.Leave, Table: id, GameNo: tab.GameNo, Args: []int{seat, arg}}
			if _, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
				return tb.cups.leaving.OnLeave(t, ch, p, st.UserID)
			}); err != nil {
				t.Fatalf("seat %d leaves (%d): %v", seat, arg, err)
			}
		}
	}
	if tab := tb.load(t, id); tab.Phase != record.PhaseIdle {
		t.Fatalf("everyone left, the table is %s", tab.Phase)
	}
}

// tellsItsCup runs the jobs of table id, a cup's whose game ended with
// nobody ranked, three times (served again after a crash), and checks its
// cup at host was told, once, that everyone there shares the place.
func tellsItsCup(t *testing.T, tb *rig, host, id string) {
	t.Helper()
	ctx := context.Background()
	tab := tb.load(t, id)
	for range 3 { // served again after a crash: told once
		if err := tb.jobs.Run(ctx, tb.load(t, id)); err != nil {
			t.Fatal(err)
		}
	}
	if jobs := tb.load(t, id).Jobs; len(jobs) != 0 {
		t.Errorf("the table's jobs are left: %+v", jobs)
	}
	s := stateOf(t, tb, host)
	r, ok := s.Cup.Current()
	if !ok || r.No != 1 || r.Tables[tab.CupOf.Table-1].Places == nil {
		t.Fatalf("the cup was not told that table %d ended: round %d %+v", tab.CupOf.Table, r.No, r.Tables)
	}
	for i, p := range r.Tables[tab.CupOf.Table-1].Places {
		if p.Place != 1 {
			t.Errorf("seat %d placed %d: everyone shares the place", i, p.Place)
		}
	}
}

// TestCupLeavesAGameAtItsHostBe: a lobby (or game) the previous version
// opened at table 26 under MAX_TABLES=26 is the group's: /cup does not
// close it without a word to take the table for the cup's host, but says
// a game is on there, changing nothing (/stop finds that game).
func TestCupLeavesAGameAtItsHostBe(t *testing.T) {
	ctx := context.Background()
	tb := newRig(t, testBolt(t))
	host := record.TableID(-100782, 0, record.CupHost)
	if _, _, err := tb.tx.Transact(ctx, host, 0, func(t *record.Table, ch *txn.Change) error {
		lobby.OpenLobby(t, "trickchef", record.Seat{UserID: 99, Name: "Яна"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	g := testGame(t, "trickchef")
	h, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Open(h, g, 2, cups.Person{User: 1, Name: "Аня"}, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	if h.Phase != record.PhaseLobby || h.SeatOf(99) < 0 || h.Cup != nil {
		t.Errorf("/cup took the table of the group's lobby at 26: %s, cup %s", h.Phase, h.Cup)
	}
}
