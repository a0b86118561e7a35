package cupplay

import (
	"context"
	"testing"

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
	g := testGame(t, "trickchef")
	if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Open(h, g, 2, cups.Person{User: 1, Name: "Аня"}, true)
	}); err != nil {
		t.Fatal(err)
	}
	for u := int64(2); u <= 6; u++ {
		if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
			return env.Press(h, h.GameNo, cups.Join, cups.Person{User: u, Name: "P"}, false, true)
		}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Press(h, h.GameNo, cups.Start, cups.Person{User: 1}, false, true)
	})
	if err != nil {
		t.Fatal(err)
	}
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
	if _, err := cupChangeAt(t, tb, host2, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Open(h, g, 2, cups.Person{User: 1, Name: "Аня"}, true)
	}); err != nil {
		t.Fatal(err)
	}
	for u := int64(2); u <= 6; u++ {
		if _, err := cupChangeAt(t, tb, host2, func(h *record.Table, env cups.Env) (cups.Out, error) {
			return env.Press(h, h.GameNo, cups.Join, cups.Person{User: u, Name: "P"}, false, true)
		}); err != nil {
			t.Fatal(err)
		}
	}
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
