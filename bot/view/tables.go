package view

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// A group holds several tables at once (record.TableID): a long game and
// quick ones beside it, or a cup's rounds. Table 1 is the group's own and
// names no number, so a group that plays one game at a time reads what it
// always did (unless its lobby opened while another table was taken:
// Numbered); every message of table 2 and on begins with its name, «Стол 2».

// TableName is the line that names table t among its group's: «Стол 2»;
// "" for table 1 (and a practice table) unless it opened beside another
// (record.Table.Numbered).
func TableName(l adapter.Loc, t *record.Table) string {
	if t.Board != nil {
		return "" // a cup's message names its cup
	}
	if n := record.TableNo(t.ID); n > 1 || t.Numbered {
		return l.T("table.number", "N", n)
	}
	return ""
}

// Named is text with table t's name before it (TableName): what a message
// of table 2 and on says. Empty text stays empty.
func Named(l adapter.Loc, t *record.Table, text string) string {
	name := TableName(l, t)
	if name == "" || text == "" || strings.HasPrefix(text, name) {
		return text
	}
	return name + "\n" + text
}

// StopChoice asks which of a group's games /stop is to stop: a button for
// each, naming its table (the number the table's message shows) and its
// game.
func (r *Renderer) StopChoice(l adapter.Loc, tables ...*record.Table) adapter.Message {
	var kb [][]adapter.Button
	for _, t := range tables {
		title := ""
		if g, ok := r.games.Get(t.GameID); ok {
			title = adapter.Title(l, g)
		}
		kb = append(kb, []adapter.Button{{Text: l.T("stop.which_button", "N", record.TableNo(t.ID), "Game", title),
			Data: callback.Data{Op: callback.Stop, Table: t.ID, GameNo: t.GameNo, Args: []int{callback.StopAsk}}.String()}})
	}
	return adapter.Message{Text: l.T("stop.which", "Count", len(tables)), Keyboard: kb}
}
