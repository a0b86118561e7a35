package tables

import (
	"testing"

	"github.com/trickchef/trickchef/bot/callback"
)

// TestEveryOpInTheOneTable: every op a button can carry is in the op
// table, each either answered by itself or a change of its table, never
// both; the page's ops and the seats' are changes.
func TestEveryOpInTheOneTable(t *testing.T) {
	tb := newTables(t, nil, nil)
	for _, op := range callback.Ops() {
		o, ok := tb.presses.ops[op]
		switch {
		case !ok:
			t.Errorf("op %q is not in the op table", op)
		case (o.answer == nil) == (o.change == nil):
			t.Errorf("op %q: answered by itself %v, a change %v; want one of them", op, o.answer != nil, o.change != nil)
		case (o.page || o.seat || o.hand || o.menu) && o.change == nil:
			t.Errorf("op %q is pressed on a table but changes none", op)
		}
	}
	if len(tb.presses.ops) != len(callback.Ops()) {
		t.Errorf("the op table has %d ops, callback declares %d", len(tb.presses.ops), len(callback.Ops()))
	}
}
