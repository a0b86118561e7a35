package view

import (
	"runtime/debug"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// Groups play at their own pace: the lobby's creator picks the time for a
// move from TurnChoices, and the choice stays with the group's table for
// the next games. Every text that names the time (the lobby, the deadline
// on the table and in the hand, the rules) reads it from the table.

// TurnChoices are the times for a move the lobby offers, in its order.
func TurnChoices() []time.Duration {
	return []time.Duration{20 * time.Second, time.Minute, 3 * time.Minute, time.Hour, 12 * time.Hour, 24 * time.Hour}
}

// TurnTime is the table's time for a person's move.
func (r *Renderer) TurnTime(t *record.Table) time.Duration {
	if t != nil && t.TurnTime > 0 {
		return t.TurnTime
	}
	return r.cfg.TurnTimeout
}

// DefaultTurnTime is the bot's time for a move where no table chose one.
func (r *Renderer) DefaultTurnTime() time.Duration { return r.cfg.TurnTimeout }

// HasTurnTime reports whether people of game g have a time for a move: a
// game with its own clocks (ClockGame) sets its people's timers itself.
func HasTurnTime(g adapter.Game) bool {
	_, own := g.(adapter.ClockGame)
	return !own
}

// TurnTimeText names a time for a move in the nominative: «20 секунд»,
// «1 минута», «3 минуты», «24 часа».
func TurnTimeText(l adapter.Loc, d time.Duration) string {
	if d%time.Hour == 0 {
		return l.T("count.hours", "Count", int(d/time.Hour))
	}
	if d%time.Minute == 0 {
		return l.T("count.minutes", "Count", int(d/time.Minute))
	}
	return l.T("count.seconds", "Count", int((d+time.Second-1)/time.Second))
}

// turnChoicesText lists the lobby's choices: «20 секунд, 1 минута, 3 минуты».
func turnChoicesText(l adapter.Loc) string {
	var parts []string
	for _, d := range TurnChoices() {
		parts = append(parts, TurnTimeText(l, d))
	}
	return strings.Join(parts, ", ")
}

// RulesPageBreak splits a game's guide into pages: a line holding only "---".
const RulesPageBreak = "\n---\n"

// RulesText is g's guide (the locale message "<id>.rules") for a table
// whose time for a move is turn: the guide names it as «{{.Turn}}», the
// deadline a hand shows at the start of a move as «{{.Left}}» (for a long
// turn, the look of its clock time), the lobby's choices as «{{.Turns}}»,
// and, for a long turn only, its night and reminder as «{{.Night}}» (a
// sentence of its own after «{{.Left}}»'s). Every game's guide ends with
// the same last page: how to check the deal the table committed to
// (review.deal_rules, bot/deal), which the table's 🔒 and 🔓 lines point
// to. With groupHands (the server offers the hand in the group,
// HandInGroup.Offered) a quick game's guide tells of «🖐 Мои карты» as
// «{{.GroupHand}}»; otherwise it is empty.
func RulesText(l adapter.Loc, g adapter.Game, turn time.Duration, groupHands bool) string {
	left, night := adapter.DeadlineLeft(l, turn), ""
	if record.Long(turn) {
		left = l.T("table.deadline_until", "Until", l.T("until.today", "Time", "21:40"))
		night = " " + l.T("rules.night", "Night", NightText(record.DefaultNight()))
	}
	hand := ""
	if groupHands && !record.Long(turn) {
		hand = " " + l.T("rules.group_hand")
	}
	own := l.T(g.ID()+".rules", "Turn", TurnTimeText(l, turn), "Left", left, "Turns", turnChoicesText(l), "Night", night,
		"GroupHand", hand)
	return own + RulesPageBreak + l.T("review.deal_rules", "Repo", Repository, "Version", dealVersion(l, readBuildInfo))
}

// Repository is where the bot's source code is, with the deal's checking
// program (cmd/aibench deal): the module's own address.
const Repository = "https://github.com/trickchef/trickchef"

func readBuildInfo() (*debug.BuildInfo, bool) { return debug.ReadBuildInfo() }

// dealVersion names the version that deals, as the build recorded it: the
// module's version (a tagged build), else the commit it was built from
// (a build in a checkout), else — "(devel)" with no commit, as in tests —
// a plain word that it was not recorded.
func dealVersion(l adapter.Loc, info func() (*debug.BuildInfo, bool)) string {
	bi, ok := info()
	if !ok {
		return l.T("review.deal_version_unknown")
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return l.T("review.deal_version", "Version", v)
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) < 12 {
		return l.T("review.deal_version_unknown")
	}
	if rev = rev[:12]; dirty {
		rev += "+"
	}
	return l.T("review.deal_version", "Version", rev)
}
