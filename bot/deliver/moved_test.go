package deliver

import (
	"context"
	"slices"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// TestConfirmingEditIsMadeOnce: a waiting hand whose message still shows
// the buttons of the move just made is edited once into the confirmation
// (and its record stops saying it pinged, so the next turn is a fresh
// message even if the edit had to wait); once the message shows none,
// later waiting hands cost nothing until the next prompt.
//
// The move is the person's press applied by the tables (here through the
// page's press, the same change as the chat's), to the table committed to
// the store: delivery has no moves of its own.
func TestConfirmingEditIsMadeOnce(t *testing.T) {
	st := testBolt(t)
	b := newBot(t, st, nil, Limits{}, clockAt(golden.Clock))
	ctx := context.Background()
	g, _ := testGames().Get("trickchef")
	tab, gs := golden.Table(t, g, 3, 0, "", 3, nil)
	data, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit(ctx, tab.ID, store.Change{Data: data}); err != nil {
		t.Fatal(err)
	}
	seat := gs.ToAct()[0]
	press := callback.Data{Op: callback.Action, Table: tab.ID, GameNo: tab.GameNo, Args: []int{int(seat), tab.Seats[seat].Nonce, int(gs.Legal(seat)[0])}}
	tab, _, err = b.tables.PagePress(ctx, tab.ID, 0, models.User{ID: tab.Seats[seat].UserID}, press)
	if err != nil {
		t.Fatal(err)
	}
	hand := view.Hand(tab.GameNo, int(seat))
	asked := view.MessageRecord{ID: 7, Digest: "asked", Ping: true, Buttons: true}
	j, ok, err := b.delivery.renderView(tab, hand, asked)
	if err != nil || !ok || j.quiet || !j.m.Lazy || len(j.m.Keyboard) != 0 || j.patience != handPatience || j.rec.Ping {
		t.Fatalf("the asking message: job %+v ok=%v err=%v, want an edit without buttons", j, ok, err)
	}
	waiting := view.MessageRecord{ID: 7, Digest: "older", Ping: false, Buttons: false}
	if j, ok, _ := b.delivery.renderView(tab, hand, waiting); !ok || !j.quiet {
		t.Errorf("a message that already waits: job %+v, want no call", j)
	}
}

// BenchmarkRenderWaitingHand measures a waiting player's hand redrawn
// after a move (the most frequent render: a lazy view, whose record is
// checked for a platform state before it is left as it was).
func BenchmarkRenderWaitingHand(bm *testing.B) {
	d := New(Params{Views: golden.Views(bm, testGames()...), Translator: golden.Catalog(bm), Now: clockAt(golden.Clock), Log: testLog(bm)})
	g, _ := testGames().Get("trickchef")
	tab, st := golden.Table(bm, g, 4, 0, "", 3, nil)
	seat := -1
	for i := range tab.Seats {
		if !slices.Contains(st.ToAct(), game.Seat(i)) {
			seat = i
		}
	}
	rec := view.MessageRecord{ID: 7, Digest: "old"}
	for bm.Loop() {
		if j, ok, err := d.renderView(tab, view.Hand(tab.GameNo, seat), rec); err != nil || !ok || !j.quiet {
			bm.Fatalf("%+v %v %v", j, ok, err)
		}
	}
}
