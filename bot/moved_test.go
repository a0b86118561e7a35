package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/game"
)

// TestMoveConfirmedWhereItWasMade: in every game a person's press is
// answered with a toast naming the move (every adapter names its moves),
// the seat keeps the named move, and a turn-based game's waiting hand
// turns into that move and who plays next, with nothing to press. The
// same when the bot moved for the person.
func TestMoveConfirmedWhereItWasMade(t *testing.T) {
	b, _ := resultsBot(t, nil)
	confirmed := map[string]bool{}
	for i, g := range testGames() {
		for _, auto := range []bool{false, true} {
			tab, st := fixtures.Table(t, g, 3, 0, "", uint64(40+i), nil)
			l := b.loc(tab.Lang)
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
			ch := &change{}
			var a game.Action
			if auto {
				if err := b.actFor(tab, ch, g, st, seat); err != nil {
					t.Fatal(err)
				}
				a = tab.Log[len(tab.Log)-1].Action
			} else {
				a = st.Legal(seat)[0]
				p := callback.Data{Op: 'a', Table: tab.ID, GameNo: tab.GameNo, Args: []int{int(seat), tab.Seats[seat].Nonce, int(a)}}
				if err := b.onAction(tab, ch, p, tab.Seats[seat].UserID); err != nil {
					t.Fatalf("%s: %v", g.ID(), err)
				}
			}
			name := g.(adapter.MoveGame).MoveName(l, adapter.View(tab), before, seat, a)
			if name == "" {
				t.Errorf("%s: move %d has no name", g.ID(), a)
			}
			mv := movedNote(&tab.Seats[seat])
			if mv == nil || mv.Name != name || mv.Auto != auto {
				t.Errorf("%s auto=%v: the seat's note %+v, want the move %q", g.ID(), auto, mv, name)
			}
			if !auto && ch.answer != l.T("move.toast", "Move", name) {
				t.Errorf("%s: toast %q", g.ID(), ch.answer)
			}
			if slices.Contains(st.ToAct(), seat) {
				continue // the seat moves again: its hand asks again
			}
			hand := g.RenderSeat(l, b.adapterView(tab), st, int(seat))
			if !hand.Lazy {
				continue // a real-time hand stays live
			}
			m, err := b.SeatMessage(tab, int(seat))
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
	for _, id := range []string{"trickchef", "sausages", "chef"} {
		if !confirmed[id] {
			t.Errorf("%s: no waiting hand confirmed a move", id)
		}
	}
}

// TestConfirmingEditIsMadeOnce: a waiting hand whose message still shows
// the buttons of the move just made is edited once into the confirmation
// (and its record stops saying it pinged, so the next turn is a fresh
// message even if the edit had to wait); once the message shows none,
// later waiting hands cost nothing until the next prompt.
func TestConfirmingEditIsMadeOnce(t *testing.T) {
	b, _ := resultsBot(t, nil)
	g := testGame(t, "trickchef")
	tab, st := fixtures.Table(t, g, 3, 0, "", 3, nil)
	seat := st.ToAct()[0]
	if err := b.apply(tab, &change{}, g, st, seat, st.Legal(seat)[0], false); err != nil {
		t.Fatal(err)
	}
	view := handView(tab.GameNo, int(seat))
	asked := msgRecord{ID: 7, Digest: "asked", Ping: true, Buttons: true}
	j, ok, err := b.delivery.renderView(tab, view, asked)
	if err != nil || !ok || j.quiet || !j.m.Lazy || len(j.m.Keyboard) != 0 || j.patience != handPatience || j.rec.Ping {
		t.Fatalf("the asking message: job %+v ok=%v err=%v, want an edit without buttons", j, ok, err)
	}
	waiting := msgRecord{ID: 7, Digest: "older", Ping: false, Buttons: false}
	if j, ok, _ := b.delivery.renderView(tab, view, waiting); !ok || !j.quiet {
		t.Errorf("a message that already waits: job %+v, want no call", j)
	}
}

// TestGoldenMoveConfirmed pins, for every game and language, the toast of
// a person's move and the message that asked for it once they wait, after
// their own move and after the bot's for them (go test ./bot -run Golden
// -update; read the diff as a player would).
func TestGoldenMoveConfirmed(t *testing.T) {
	b, _ := resultsBot(t, nil)
	b.setClock(func() time.Time { return fixtures.Clock })
	var sb strings.Builder
	for _, lang := range b.tr.Langs() {
		for i, g := range testGames() {
			for _, auto := range []bool{false, true} {
				tab, st := fixtures.Table(t, g, 3, 0, "", uint64(40+i), nil)
				tab.Lang = lang
				seat := st.ToAct()[0]
				ch := &change{}
				if auto {
					if err := b.actFor(tab, ch, g, st, seat); err != nil {
						t.Fatal(err)
					}
				} else {
					p := callback.Data{Op: 'a', Table: tab.ID, GameNo: tab.GameNo, Args: []int{int(seat), tab.Seats[seat].Nonce, int(st.Legal(seat)[0])}}
					if err := b.onAction(tab, ch, p, tab.Seats[seat].UserID); err != nil {
						t.Fatal(err)
					}
				}
				m, err := b.SeatMessage(tab, int(seat))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&sb, "════ %s: %s, %s (toast %q)\n%s\n", lang, g.ID(), map[bool]string{false: "own move", true: "the bot's move"}[auto], ch.answer, fixtures.Show(m))
			}
		}
	}
	fixtures.Check(t, "moved", sb.String())
}

// TestMoveNoteEndsWithTheNextTurn: once a person's turn comes again, their
// last move's note is gone, so a prompt that stops asking without their
// move is not taken for a confirmation of an older one.
func TestMoveNoteEndsWithTheNextTurn(t *testing.T) {
	b, _ := resultsBot(t, nil)
	g := testGame(t, "trickchef")
	tab, st := fixtures.Table(t, g, 3, 0, "", 3, nil)
	first := st.ToAct()[0]
	if err := b.apply(tab, &change{}, g, st, first, st.Legal(first)[0], false); err != nil {
		t.Fatal(err)
	}
	if movedNote(&tab.Seats[first]) == nil {
		t.Fatal("no note after the move")
	}
	for !slices.Contains(st.ToAct(), first) {
		s := st.ToAct()[0]
		if err := b.apply(tab, &change{}, g, st, s, st.Legal(s)[0], false); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(st.ToAct(), first) && movedNote(&tab.Seats[first]) == nil {
			t.Fatal("the note went while the seat waited")
		}
	}
	if tab.Seats[first].Moved != nil {
		t.Errorf("the seat's turn came again and the note stayed: %+v", tab.Seats[first].Moved)
	}
}
