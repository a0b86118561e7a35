package bot

import (
	"context"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// A game's player guide is the locale message "<id>.rules". A long guide is
// split into pages at lines holding only "---", shown one at a time in one
// message with ◀/▶ buttons that edit it in place: a group pays for the
// pages someone actually turns, not for the whole guide at once.

const rulesPageBreak = "\n---\n"

// rulesText is g's guide for a table whose time for a move is turn: the
// guide names it as «{{.Turn}}», the deadline a hand shows at the start of
// a move as «{{.Left}}» and the lobby's choices as «{{.Turns}}».
func rulesText(l adapter.Loc, g adapter.Game, turn time.Duration) string {
	return l.T(g.ID()+".rules", "Turn", TurnTimeText(l, turn), "Left", adapter.DeadlineLeft(l, turn), "Turns", turnChoicesText(l))
}

// rulesPages splits a guide into its pages.
func rulesPages(text string) []string {
	return strings.Split(text, rulesPageBreak)
}

// rulesPage renders page n of g's guide for a chat (tableID names it in
// the buttons) at the bot's time for a move; a nil game gives the list of
// games to choose from.
func (b *Bot) rulesPage(l adapter.Loc, tableID string, g adapter.Game, n int) adapter.Message {
	return b.rulesPageAt(l, tableID, g, n, b.cfg.TurnTimeout)
}

// rulesPageAt is rulesPage for a table whose time for a move is turn.
func (b *Bot) rulesPageAt(l adapter.Loc, tableID string, g adapter.Game, n int, turn time.Duration) adapter.Message {
	if g == nil {
		return b.rulesPicker(l, tableID)
	}
	pages := rulesPages(rulesText(l, g, turn))
	n = max(0, min(n, len(pages)-1))
	text := pages[n]
	var practice [][]adapter.Button
	if chat, _, err := record.ParseID(tableID); err == nil && practiceChat(chat) && len(adapter.Levels(g)) > 0 {
		practice = [][]adapter.Button{{practiceButton(l, tableID, g)}}
	}
	if len(pages) == 1 {
		return adapter.Message{Text: text, Keyboard: practice}
	}
	text += "\n\n" + l.T("rules.page", "Page", n+1, "Pages", len(pages))
	btn := func(label string, page int) adapter.Button {
		return adapter.Button{Text: label, Data: callback.Data{Op: 'r', Table: tableID, Word: g.ID(), Args: []int{page}}.String()}
	}
	var row []adapter.Button
	if n > 0 {
		row = append(row, btn("◀", n-1))
	}
	if n < len(pages)-1 {
		row = append(row, btn("▶", n+1))
	}
	return adapter.Message{Text: text, Keyboard: append([][]adapter.Button{row}, practice...)}
}

// onRulesPage turns a page of the rules message the button sits on.
func (b *Bot) onRulesPage(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	lang, turn := b.userLang(&q.From), b.cfg.TurnTimeout
	if chat, _, err := record.ParseID(p.Table); err == nil && chat < 0 {
		if t, _, err := b.load(ctx, p.Table); err == nil {
			lang, turn = t.Lang, b.turnTime(t)
		}
	}
	l := b.loc(lang)
	g, ok := b.games.get(p.Word)
	msg := q.Message.Message
	if !ok || msg == nil {
		b.answer(ctx, q, l.T("error.bad_button"), false, "")
		return nil
	}
	b.answer(ctx, q, "", false, "")
	// The page turns through the outbox of the chat it is in, as a reply
	// (a group's reader is not kept behind the table's edits).
	page := outMsg{ChatID: msg.Chat.ID, Edit: msg.ID, Message: b.rulesPageAt(l, p.Table, g, p.Args[0], turn), Reply: true}
	return b.queue(ctx, tableIn(p.Table, msg.Chat.ID), updateID, page)
}
