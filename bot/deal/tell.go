package deal

import (
	"errors"
	"fmt"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// ErrNoDeal is returned for a game that cannot tell its deals.
var ErrNoDeal = errors.New("deal: the game does not tell its deals")

// Tell is every deal of the game d was made from, in words (l): the first
// deal from d alone, then, replaying the game's moves (log, as the table
// record keeps it), every later shuffle as it happened. With no log only
// the first deal is told. A reveal names no one: the seats are «Игрок 1»,
// «Игрок 2»… It fails for another game than g, or a log that does not
// replay.
func Tell(g adapter.Game, d Deal, log record.MoveLog, l adapter.Loc) ([]string, error) {
	t := d.Table()
	for i := range t.Seats {
		t.Seats[i].Name = l.T("review.deal_seat", "N", i+1)
	}
	return TellTable(g, t, log, l)
}

// TellTable is Tell for the table a reveal and a file give (File.Table):
// the seats named as the file names them.
func TellTable(g adapter.Game, t *record.Table, log record.MoveLog, l adapter.Loc) ([]string, error) {
	dg, ok := g.(adapter.DealGame)
	if !ok {
		return nil, ErrNoDeal
	}
	if g.ID() != t.GameID {
		return nil, fmt.Errorf("deal: a reveal of %s, not %s", t.GameID, g.ID())
	}
	view := adapter.View(t)
	st, err := g.Start(view)
	if err != nil {
		return nil, fmt.Errorf("deal: %w", err)
	}
	out := []string{dg.Deal(l, view, st)}
	for i, m := range log {
		data, err := st.MarshalBinary()
		if err != nil {
			return nil, err
		}
		before, err := g.Decode(data)
		if err != nil {
			return nil, err
		}
		if err := st.Apply(m.Seat, m.Action); err != nil {
			return nil, fmt.Errorf("deal: move %d (seat %d, action %d): %w", i, m.Seat, m.Action, err)
		}
		if dg.Shuffled(before, st) {
			out = append(out, dg.Deal(l, view, st))
		}
	}
	return out, nil
}
