package cupplay

import (
	"context"
	"errors"
	"testing"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/store"
)

// spoil writes a record nobody can read at table id.
func spoil(t *testing.T, st *store.Bolt, id string) {
	t.Helper()
	ctx := context.Background()
	for {
		var version int64
		rec, err := st.Load(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			t.Fatal(err)
		default:
			version = rec.Version
		}
		_, err = st.Commit(ctx, id, store.Change{Version: version, Data: []byte("{\"not\": a record")})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
}

// TestUnreadableTableBeforeItsRoundOpens: a round is paired onto a table
// whose record cannot be read (left over from before: a codec change, a
// disk fault), and the host's job opens the round's tables. The table is
// fenced off as it is loaded, and then opened for the round: its broken
// record was never the round's game. Before, the rebuilt record took its
// place in the round from the host, the job found it «opened already»,
// and its people were never dealt: the cup was told they all shared the
// last place without a card played.
func TestUnreadableTableBeforeItsRoundOpens(t *testing.T) {
	ctx := context.Background()
	st := testBolt(t)
	tb := newRig(t, st)
	host := record.TableID(-100786, 0, record.CupHost)
	startCupOfSix(t, tb, host)
	id := stateOf(t, tb, host).Tables[0]
	spoil(t, st, id)
	for range 2 { // the host's job, served again after a crash
		if err := tb.jobs.Run(ctx, tb.load(t, host)); err != nil {
			t.Fatal(err)
		}
	}
	tab := tb.load(t, id)
	if tab.Phase != record.PhasePlaying || tab.CupOf == nil || tab.CupOf.Round != 1 || tab.CupOf.Table != 1 {
		t.Fatalf("the round's table was not opened: %s, cup %+v, jobs %+v", tab.Phase, tab.CupOf, tab.Jobs)
	}
	if err := tb.jobs.Run(ctx, tab); err != nil {
		t.Fatal(err)
	}
	r, _ := stateOf(t, tb, host).Cup.Current()
	if r.No != 1 || r.Tables[0].Places != nil {
		t.Errorf("the cup recorded the table before it was played: round %d %+v", r.No, r.Tables)
	}
}

// TestUnrankedTableReopenedBeforeItsJob: everyone leaves a cup's table
// (no robot), and a lobby opens there before the table's job tells its
// cup (the limit raised since the cup started puts the table within it,
// and the job waited on a busy host). The job still tells the cup, from
// its host: the round goes on. Before, the lobby had taken the table's
// mark of the cup, the job found nothing to tell and was dropped, and the
// round waited for that table until /cup stop.
func TestUnrankedTableReopenedBeforeItsJob(t *testing.T) {
	ctx := context.Background()
	tb := newRig(t, testBolt(t))
	host := record.TableID(-100787, 0, record.CupHost)
	id := startedCup(t, tb, host)
	tab := tb.load(t, id)
	ct := *tab.CupOf
	everyoneLeaves(t, tb, id, tab)
	if _, _, err := tb.tx.Transact(ctx, id, 0, func(t *record.Table, ch *txn.Change) error {
		lobby.OpenLobby(t, "trickchef", record.Seat{UserID: 99, Name: "Яна"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := tb.jobs.Run(ctx, tb.load(t, id)); err != nil {
		t.Fatal(err)
	}
	r, _ := stateOf(t, tb, host).Cup.Current()
	if r.No != ct.Round || r.Tables[ct.Table-1].Places == nil {
		t.Errorf("the cup was not told that table %d ended: round %d %+v", ct.Table, r.No, r.Tables)
	}
}
