package view

import (
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// Deep-link payloads of /start: JoinPrefix seats the user at a table (the
// lobby's link), RulesPrefix shows a game's rules (the «📖 Правила» link).
const (
	JoinPrefix  = "j"
	RulesPrefix = "r"
)

// DeepLink opens the private chat with the bot and sends /start payload.
func (r *Renderer) DeepLink(payload string) string {
	return "https://t.me/" + r.cfg.Username + "?start=" + payload
}

// ChatLink opens the private chat with the bot.
func (r *Renderer) ChatLink() string { return "https://t.me/" + r.cfg.Username }

// AddToGroupLink lets a person add the bot to one of their groups.
func (r *Renderer) AddToGroupLink() string { return "https://t.me/" + r.cfg.Username + "?startgroup=1" }

// RulesLink opens the private chat with g's rules: in a group, reading
// them disturbs nobody's messages and costs the group nothing.
func (r *Renderer) RulesLink(text string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: text, URL: r.DeepLink(RulesPrefix + g.ID())}
}

// Againable reports whether t's result offers «play again»: not at a
// cup's table, whose next game is the cup's next round, nor at a group's
// table past its limit (opened before the limit was lowered), where no
// new game opens (bot/tables: the press is refused as stale).
func (r *Renderer) Againable(t *record.Table) bool {
	return t.CupOf == nil && (PracticeChat(t.ChatID) || record.TableNo(t.ID) <= record.Limit(r.cfg.MaxTables))
}

// AgainButton opens the next game with the same players («Ещё партию»)
// after finished game gameNo of t's game.
func AgainButton(l adapter.Loc, t *record.Table, gameNo int, gameID string) adapter.Button {
	return adapter.Button{Text: l.T("again.button"), Data: callback.Data{Op: callback.Again, Table: t.ID, GameNo: gameNo, Word: gameID}.String()}
}

// PracticeButton opens a practice lobby of g in the private chat whose
// table is tableID («🎓 Потренироваться» under the rules, «🎓 Сосиски» in
// /help and the /start greeting).
func PracticeButton(text, tableID string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: callback.Open, Table: tableID, Word: g.ID()}.String()}
}

// PracticeChat reports whether a chat is a person's private chat (where
// practice tables are), not a group.
func PracticeChat(chat int64) bool { return chat > 0 }

// ReviewButton asks for the top robot's review of t's game («🔍 Разбор»):
// its press names the game for good (record.RefOf), so it works for as
// long as the game is kept, whatever the table plays since.
func ReviewButton(l adapter.Loc, t *record.Table) adapter.Button {
	return ReviewButtonOf(l.T("review.button"), t.ID, t.GameNo, t.Started)
}

// ReviewButtonOf is a review button with its own text, for the game gameNo
// of table id dealt at started (/history lists several).
func ReviewButtonOf(text, id string, gameNo int, started time.Time) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: callback.Review, Table: id, GameNo: gameNo, Args: []int{int(started.Unix())}}.String()}
}

// Ago says how long ago a game ended, «3 часа назад»: true wherever
// the reader is, unlike a clock time (players' time zones are unknown).
func Ago(l adapter.Loc, d time.Duration) string {
	switch {
	case d < time.Minute:
		return l.T("history.ago_now")
	case d < time.Hour:
		return l.T("history.ago_minutes", "Count", int(d/time.Minute))
	case d < 24*time.Hour:
		return l.T("history.ago_hours", "Count", int(d/time.Hour))
	}
	return l.T("history.ago_days", "Count", int(d/(24*time.Hour)))
}
