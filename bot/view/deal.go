package view

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
)

// A deal anyone can check (bot/deal): the table message shows the
// commitment — from the lobby on in a v2 deal (32 hex digits of the
// SHA-256 of the reveal), from the deal on in a v1 one (16) — and once the
// game is over — finished, stopped, broken, or closed when the bot left
// the group — the reveal itself and how to check it, and keeps it while it
// shows that game. Both are drawn here, for every game alike; a game never
// sees the secret.

// dealLines are the table's deal lines as it stands: the commitment while
// the lobby waits (v2) and the game runs, the reveal and its explanation
// once it is over, nothing for a table with no dealt game or one dealt
// before there were commitments.
func dealLines(l adapter.Loc, t *record.Table) string {
	reveal := deal.TableReveal(t)
	if reveal == "" {
		return ""
	}
	switch t.Phase {
	case record.PhaseLobby:
		if t.Secret == "" {
			return "" // v1: nothing drawn before the deal
		}
		return l.T("review.deal_commit", "Commitment", deal.Commitment(reveal))
	case record.PhasePlaying:
		return l.T("review.deal_commit", "Commitment", deal.Commitment(reveal))
	case record.PhaseIdle:
		if t.Secret != "" && t.Drawn == nil {
			return "" // a lobby cancelled: nothing was dealt
		}
		return l.T("review.deal_reveal", "Reveal", reveal) + "\n" + l.T("review.deal_explain")
	}
	return ""
}

// addDeal puts the deal lines at the bottom of a table message's text,
// one blank line under it.
func addDeal(l adapter.Loc, t *record.Table, m *adapter.Message) {
	if line := dealLines(l, t); line != "" {
		m.Text = strings.TrimRight(m.Text, "\n") + "\n\n" + line
	}
}
