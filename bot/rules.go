package bot

import (
	"context"
	"strings"

	"github.com/go-telegram/bot/models"
)

// A game's player guide is the locale message "<id>.rules". A long guide is
// split into pages at lines holding only "---", shown one at a time in one
// message with ◀/▶ buttons that edit it in place: a group pays for the
// pages someone actually turns, not for the whole guide at once.

const rulesPageBreak = "\n---\n"

// rulesPages splits a guide into its pages.
func rulesPages(text string) []string {
	return strings.Split(text, rulesPageBreak)
}

// rulesPage renders page n of g's guide for a chat (tableID names it in
// the buttons); a nil game gives the list of games to choose from.
func (b *Bot) rulesPage(l Loc, tableID string, g Game, n int) Message {
	if g == nil {
		return b.rulesPicker(l, tableID)
	}
	pages := rulesPages(l.T(g.ID() + ".rules"))
	n = max(0, min(n, len(pages)-1))
	text := pages[n]
	var practice [][]Button
	if chat, _, err := parseTableID(tableID); err == nil && practiceChat(chat) && len(levels(g)) > 0 {
		practice = [][]Button{{practiceButton(l, tableID, g)}}
	}
	if len(pages) == 1 {
		return Message{Text: text, Keyboard: practice}
	}
	text += "\n\n" + l.T("rules.page", "Page", n+1, "Pages", len(pages))
	btn := func(label string, page int) Button {
		return Button{Text: label, Data: payload{Op: 'r', Table: tableID, Word: g.ID(), Args: []int{page}}.String()}
	}
	var row []Button
	if n > 0 {
		row = append(row, btn("◀", n-1))
	}
	if n < len(pages)-1 {
		row = append(row, btn("▶", n+1))
	}
	return Message{Text: text, Keyboard: append([][]Button{row}, practice...)}
}

// onRulesPage turns a page of the rules message the button sits on.
func (b *Bot) onRulesPage(ctx context.Context, updateID int64, q *models.CallbackQuery, p payload) error {
	lang := b.userLang(&q.From)
	if chat, _, err := parseTableID(p.Table); err == nil && chat < 0 {
		if t, _, err := b.load(ctx, p.Table); err == nil {
			lang = t.Lang
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
	page := outMsg{ChatID: msg.Chat.ID, Edit: msg.ID, Message: b.rulesPage(l, p.Table, g, p.Args[0]), Reply: true}
	return b.queue(ctx, tableIn(p.Table, msg.Chat.ID), updateID, page)
}
