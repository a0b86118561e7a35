package view

import (
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// BoardMessage is what a table's Board shows (a cup's message, drawn by
// bot/cups when the cup changes): its text and buttons as they are.
func BoardMessage(b *record.Board) adapter.Message {
	m := adapter.Message{Text: b.Text}
	for _, row := range b.Rows {
		var r []adapter.Button
		for _, x := range row {
			r = append(r, adapter.Button{Text: x.Text, Data: x.Data})
		}
		m.Keyboard = append(m.Keyboard, r)
	}
	return m
}

// ToBoard is the Board that shows m.
func ToBoard(m adapter.Message) *record.Board {
	b := &record.Board{Text: m.Text}
	for _, row := range m.Keyboard {
		var r []record.BoardButton
		for _, x := range row {
			r = append(r, record.BoardButton{Text: x.Text, Data: x.Data})
		}
		b.Rows = append(b.Rows, r)
	}
	return b
}
