package bot

import (
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
)

// Groups play at their own pace: the lobby's creator picks the time for a
// move from turnChoices, and the choice stays with the group's table for
// the next games. Every text that names the time (the lobby, the deadline
// on the table and in the hand, the rules) reads it from the table.

// turnChoices are the times for a move the lobby offers, in its order.
var turnChoices = [...]time.Duration{20 * time.Second, time.Minute, 3 * time.Minute}

// turnTime is the table's time for a person's move.
func (b *Bot) turnTime(t *record.Table) time.Duration {
	if t != nil && t.TurnTime > 0 {
		return t.TurnTime
	}
	return b.cfg.TurnTimeout
}

// nextTurnTime is the choice after cur: the next longer one, round to the
// shortest (a TURN_TIMEOUT among none of them goes to the next longer).
func nextTurnTime(cur time.Duration) time.Duration {
	for _, d := range turnChoices {
		if d > cur {
			return d
		}
	}
	return turnChoices[0]
}

// hasTurnTime reports whether people of game g have a time for a move: a
// game with its own clocks (ClockGame) sets its people's timers itself.
func hasTurnTime(g adapter.Game) bool {
	_, own := g.(adapter.ClockGame)
	return !own
}

// TurnTimeText names a time for a move in the nominative: «20 секунд»,
// «1 минута», «3 минуты».
func TurnTimeText(l adapter.Loc, d time.Duration) string {
	if d%time.Minute == 0 {
		return l.T("count.minutes", "Count", int(d/time.Minute))
	}
	return l.T("count.seconds", "Count", int((d+time.Second-1)/time.Second))
}

// turnChoicesText lists the lobby's choices: «20 секунд, 1 минута, 3 минуты».
func turnChoicesText(l adapter.Loc) string {
	parts := make([]string, 0, len(turnChoices))
	for _, d := range turnChoices {
		parts = append(parts, TurnTimeText(l, d))
	}
	return strings.Join(parts, ", ")
}
