package view

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
)

// A deal anyone can check (bot/deal): from the deal on, the table message
// shows the commitment, sixteen hex digits of the SHA-256 of the reveal;
// once the game is over — finished, stopped, broken, or closed when the
// bot left the group — it shows the reveal itself and how to check it, and
// keeps it while it shows that game. Both are drawn here, for every game
// alike; a game never sees the salt.

// dealLines are the table's deal lines as it stands: the commitment while
// the game runs, the reveal and its explanation once it is over, nothing
// for a table with no dealt game or one dealt before there were salts.
func dealLines(l adapter.Loc, t *record.Table) string {
	if t.Salt == 0 {
		return ""
	}
	reveal := deal.Reveal(t, t.Salt)
	switch t.Phase {
	case record.PhasePlaying:
		return l.T("review.deal_commit", "Commitment", deal.Commitment(reveal))
	case record.PhaseIdle:
		return l.T("review.deal_reveal", "Reveal", reveal) + "\n" + l.T("review.deal_explain")
	}
	return "" // a lobby: nothing dealt yet
}

// addDeal puts the deal lines at the bottom of a table message's text,
// one blank line under it.
func addDeal(l adapter.Loc, t *record.Table, m *adapter.Message) {
	if line := dealLines(l, t); line != "" {
		m.Text = strings.TrimRight(m.Text, "\n") + "\n\n" + line
	}
}
