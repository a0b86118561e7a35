package tables

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// TestMoveConfirmedWhereItWasMade: in every game a person's press is
// answered with a toast naming the move (every adapter names its moves),
// the seat keeps the named move, and a turn-based game's waiting hand
// turns into that move and who plays next, with nothing to press. The
// same when the bot moved for the person. (That the message which asked
// for the move is edited once into it is delivery's:
// TestConfirmingEditIsMadeOnce there.)
func TestMoveConfirmedWhereItWasMade(t *testing.T) {
	tb := newTables(t, nil, nil)
	confirmed := map[string]bool{}
	for i, g := range testGames() {
		for _, auto := range []bool{false, true} {
			tab, st := golden.Table(t, g, 3, 0, "", uint64(40+i), nil)
			l := tb.views.Loc(tab.Lang)
			seat := game.System
			for _, s := range st.ToAct() {
				if s != game.System && len(st.Legal(s)) > 0 {
					seat = s
					break
				}
			}
			if seat == game.System {
				t.Fatalf("%s: nobody to act at the start", g.ID())
			}
			before, err := g.Decode(tab.State)
			if err != nil {
				t.Fatal(err)
			}
			ch := &txn.Change{}
			var a game.Action
			if auto {
				if err := tb.moves.ActFor(tab, ch, g, st, seat); err != nil {
					t.Fatal(err)
				}
				a = tab.Log[len(tab.Log)-1].Action
			} else {
				a = st.Legal(seat)[0]
				p := callback.Data{Op: callback.Action, Table: tab.ID, GameNo: tab.GameNo, Args: []int{int(seat), tab.Seats[seat].Nonce, int(a)}}
				if err := tb.seats.OnAction(tab, ch, p, tab.Seats[seat].UserID); err != nil {
					t.Fatalf("%s: %v", g.ID(), err)
				}
			}
			name := g.(adapter.MoveGame).MoveName(l, adapter.View(tab), before, seat, a)
			if name == "" {
				t.Errorf("%s: move %d has no name", g.ID(), a)
			}
			mv := view.MovedNote(&tab.Seats[seat])
			if mv == nil || mv.Name != name || mv.Auto != auto {
				t.Errorf("%s auto=%v: the seat's note %+v, want the move %q", g.ID(), auto, mv, name)
			}
			if !auto && ch.Answer != l.T("move.toast", "Move", name) {
				t.Errorf("%s: toast %q", g.ID(), ch.Answer)
			}
			if slices.Contains(st.ToAct(), seat) {
				continue // the seat moves again: its hand asks again
			}
			hand := g.RenderSeat(l, tb.views.AdapterView(tab), st, int(seat))
			if !hand.Lazy {
				continue // a real-time hand stays live
			}
			m, err := tb.views.Seat(tab, int(seat))
			if err != nil {
				t.Fatal(err)
			}
			key := "move.done"
			if auto {
				key = "move.done_auto"
			}
			first, rest, _ := strings.Cut(m.Text, "\n")
			if first != l.T(key, "Move", adapter.Esc(name)) || len(m.Keyboard) != 0 || !m.Lazy || m.Ping {
				t.Errorf("%s auto=%v: the waiting hand %+v", g.ID(), auto, m)
			}
			var next []string
			for _, s := range st.ToAct() {
				if s != game.System {
					next = append(next, adapter.SeatName(adapter.View(tab), s))
				}
			}
			if len(next) == 1 && !strings.HasPrefix(rest, l.T("move.next_one", "Name", next[0])) {
				t.Errorf("%s: who plays next: %q, want %v", g.ID(), rest, next)
			}
			confirmed[g.ID()] = true
		}
	}
	for _, g := range testGames() {
		if lg, ok := g.(adapter.LiveGame); ok && lg.LiveButtons() {
			continue // a real-time hand stays live: nothing waits
		}
		if !confirmed[g.ID()] {
			t.Errorf("%s: no waiting hand confirmed a move", g.ID())
		}
	}
}

// TestGoldenMoveConfirmed pins, for every game and language, the toast of
// a person's move and the message that asked for it once they wait, after
// their own move and after the bot's for them (go test ./bot/... -run
// Golden -update; read the diff as a player would).
func TestGoldenMoveConfirmed(t *testing.T) {
	tb := goldenTables(t)
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		for i, g := range testGames() {
			for _, auto := range []bool{false, true} {
				tab, st := golden.Table(t, g, 3, 0, "", uint64(40+i), nil)
				tab.Lang = lang
				seat := st.ToAct()[0]
				ch := &txn.Change{}
				if auto {
					if err := tb.moves.ActFor(tab, ch, g, st, seat); err != nil {
						t.Fatal(err)
					}
				} else {
					p := callback.Data{Op: callback.Action, Table: tab.ID, GameNo: tab.GameNo, Args: []int{int(seat), tab.Seats[seat].Nonce, int(st.Legal(seat)[0])}}
					if err := tb.seats.OnAction(tab, ch, p, tab.Seats[seat].UserID); err != nil {
						t.Fatal(err)
					}
				}
				m, err := tb.views.Seat(tab, int(seat))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&sb, "════ %s: %s, %s (toast %q)\n%s\n", lang, g.ID(), map[bool]string{false: "own move", true: "the bot's move"}[auto], ch.Answer, golden.Show(m))
			}
		}
	}
	golden.Check(t, "moved", sb.String())
}

// TestMoveNoteEndsWithTheNextTurn: once a person's turn comes again, their
// last move's note is gone, so a prompt that stops asking without their
// move is not taken for a confirmation of an older one.
func TestMoveNoteEndsWithTheNextTurn(t *testing.T) {
	tb := newTables(t, nil, nil)
	g := testGame(t, "trickchef")
	tab, st := golden.Table(t, g, 3, 0, "", 3, nil)
	first := st.ToAct()[0]
	if err := tb.moves.Apply(tab, &txn.Change{}, g, st, first, st.Legal(first)[0], false); err != nil {
		t.Fatal(err)
	}
	if view.MovedNote(&tab.Seats[first]) == nil {
		t.Fatal("no note after the move")
	}
	for !slices.Contains(st.ToAct(), first) {
		s := st.ToAct()[0]
		if err := tb.moves.Apply(tab, &txn.Change{}, g, st, s, st.Legal(s)[0], false); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(st.ToAct(), first) && view.MovedNote(&tab.Seats[first]) == nil {
			t.Fatal("the note went while the seat waited")
		}
	}
	if tab.Seats[first].Moved != nil {
		t.Errorf("the seat's turn came again and the note stayed: %+v", tab.Seats[first].Moved)
	}
}
