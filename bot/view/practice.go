package view

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// A practice table is played in a person's private chat: the table and the
// hand are one message, so a move costs one edit of that chat.

// PracticeHand composes a practice table's one message while the game
// runs: the table, then the person's hand with its buttons. It is redrawn
// after every move (never lazy): the table part is what the person follows.
func (r *Renderer) PracticeHand(t *record.Table, hand adapter.Message) adapter.Message {
	table := r.Group(t)
	if t.Phase != record.PhasePlaying {
		return table // over or stopped: the table says it all
	}
	m := hand
	m.Text = table.Text + "\n\n" + hand.Text
	m.Lazy = false
	return m
}

// PracticeTable is what a practice table's own message (its lobby) shows
// once the game is dealt: a pointer to the composed message below, which
// never changes and so costs no calls.
func (r *Renderer) PracticeTable(t *record.Table) adapter.Message {
	l := r.Loc(t.Lang)
	title := ""
	if g, ok := r.games.Get(t.GameID); ok {
		title = adapter.Title(l, g)
	}
	return adapter.Message{Text: l.T("practice.playing", "Game", title)}
}
