package adapter

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// SeatName is a seat's display name, HTML-escaped.
func SeatName(v TableView, s game.Seat) string {
	t := v.t
	ts := t.Seat(s)
	if ts == nil {
		return "?"
	}
	return Esc(ts.Name)
}

// Mention names a seat so that Telegram notifies the person.
func Mention(v TableView, s game.Seat) string {
	t := v.t
	ts := t.Seat(s)
	if ts == nil || !ts.Human() || ts.UserID <= 0 { // a robot, or a person forgotten
		return "<b>" + SeatName(v, s) + "</b>"
	}
	return fmt.Sprintf(`<a href="tg://user?id=%d">%s</a>`, ts.UserID, SeatName(v, s))
}

// SeatNames lists seats by name: "Оля, Серёжа".
func SeatNames(v TableView, seats []game.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = SeatName(v, s)
	}
	return strings.Join(parts, ", ")
}

// Mentions lists seats so that Telegram notifies each person.
func Mentions(v TableView, seats []game.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = Mention(v, s)
	}
	return strings.Join(parts, ", ")
}

// SeatMark is the status suffix of a seat line: ⚠️ when the bot cannot
// write to the player, 💤 while the bot plays for them.
func SeatMark(v TableView, s game.Seat, over bool) string {
	t := v.t
	ts := t.Seat(s)
	switch {
	case ts == nil:
		return ""
	case ts.Unreachable:
		return " ⚠️"
	case ts.Human() && ts.Auto() && !over:
		return " 💤"
	}
	return ""
}

// IdleFor is how long a person has not made a move themselves in the
// running game (since their last move, or since the deal), at the view's
// clock: a real-time game's table may mark who seems to be away. 0 for a
// robot, a game not running or a view without a clock.
func IdleFor(v TableView, s game.Seat) time.Duration {
	t := v.t
	ts := t.Seat(s)
	if ts == nil || !ts.Human() || t.Phase != record.PhasePlaying || v.now.IsZero() {
		return 0
	}
	since := t.Started
	if ts.Acted.After(since) {
		since = ts.Acted
	}
	if since.IsZero() || !v.now.After(since) {
		return 0
	}
	return v.now.Sub(since)
}

// DeadlineText is " ⏳ осталось не больше минуты" for a person's running
// turn timer, or "". A table message is edited rarely (its group's budget
// is shared) and a waiting hand not at all, so a countdown would go stale:
// the text is an upper bound of the time left, rounded up (DeadlineLeft),
// which stays true until the message is next drawn. A long turn (an hour
// or more a move) says until when instead, on the group's clock: « ⏳ ход
// до 21:40», and « — ночь не считается» when a night lies before it
// (clock.go). It is "" in a view without a clock and once the time is up
// (the timeout's own notice follows).
func DeadlineText(l Loc, v TableView, s game.Seat) string {
	t := v.t
	ts := t.Seat(s)
	if ts == nil || ts.Due.IsZero() || !ts.Human() || ts.Auto() || t.Phase != record.PhasePlaying || v.now.IsZero() {
		return ""
	}
	left := ts.Due.Sub(v.now)
	if left <= 0 {
		return ""
	}
	if text, ok := longDeadline(l, v, ts); ok {
		return " " + text
	}
	return " " + DeadlineLeft(l, left)
}

// DeadlineLeft says "at most" the time left: never less than is left.
func DeadlineLeft(l Loc, left time.Duration) string {
	key, count, _ := deadlineBound(left)
	if count == 0 {
		return l.T(key)
	}
	return l.T(key, "Count", count)
}

// deadlineStep is how finely a deadline under a minute is said: a table
// may give 20 s a move, and «at most a minute» would then say three times
// too much.
const deadlineStep = 5 * time.Second

// deadlineBound rounds the time left up: to 5 seconds under a minute, to a
// minute, to whole minutes up to an hour, to whole hours past it. It gives
// the text's key, its count (0 for the key without one) and the bound the
// text states.
func deadlineBound(left time.Duration) (key string, count int, bound time.Duration) {
	switch {
	case left <= time.Minute-deadlineStep:
		n := int((left + deadlineStep - 1) / deadlineStep)
		return "table.deadline_seconds", n * int(deadlineStep/time.Second), time.Duration(n) * deadlineStep
	case left <= time.Minute:
		return "table.deadline_minute", 0, time.Minute
	case left <= time.Hour:
		n := int((left + time.Minute - 1) / time.Minute)
		return "table.deadline_minutes", n, time.Duration(n) * time.Minute
	}
	n := int((left + time.Hour - 1) / time.Hour)
	return "table.deadline_hours", n, time.Duration(n) * time.Hour
}

// EventLine is the table's last notice («Оля, Серёжа: время вышло»), or "".
func EventLine(l Loc, v TableView) string {
	t := v.t
	if t.Event == nil {
		return ""
	}
	return l.T(t.Event.Key, "Name", eventNames(v, t.Event))
}

// eventNames names who an event is about: its seats, or a person without
// one.
func eventNames(v TableView, e *record.Event) string {
	if e.Name != "" {
		return Esc(e.Name)
	}
	seats := []game.Seat{game.Seat(e.Seat)}
	for _, s := range e.Also {
		seats = append(seats, game.Seat(s))
	}
	return SeatNames(v, seats)
}

// Standing is one line of the final results.
type Standing struct {
	Seat  game.Seat
	Place int // 1 = best; equal places are shared
	Score int
}

// Standings orders a finished game's seats best first: the winners share
// place 1 (the game's own tie-break chose them), then the others by score,
// equal scores sharing a place.
func Standings(r game.Result) []Standing {
	out := make([]Standing, len(r.Scores))
	for i, sc := range r.Scores {
		out[i] = Standing{Seat: game.Seat(i), Score: sc}
	}
	won := func(s game.Seat) bool { return slices.Contains(r.Winners, s) }
	sort.SliceStable(out, func(i, j int) bool {
		wi, wj := won(out[i].Seat), won(out[j].Seat)
		if wi != wj {
			return wi
		}
		return out[i].Score > out[j].Score
	})
	for i := range out {
		switch {
		case won(out[i].Seat):
			out[i].Place = 1
		case i > 0 && !won(out[i-1].Seat) && out[i-1].Score == out[i].Score:
			out[i].Place = out[i-1].Place
		default:
			out[i].Place = i + 1
		}
	}
	return out
}

// PlaceLabel is place p held by n players: "2." alone, "2–3." shared by
// two.
func PlaceLabel(p, n int) string { return PlaceRange(p, n) + "." }

// PlaceRange is place p shared by n seats: «2», or «2–3» for two.
func PlaceRange(p, n int) string {
	if n > 1 {
		return strconv.Itoa(p) + "–" + strconv.Itoa(p+n-1)
	}
	return strconv.Itoa(p)
}

// ResultTable is the «Итоги» block: the game's one result list (see
// finalList), best first, one line per seat with the game's own detail
// (score, rounds); a person who left is last, marked 🚪, without one.
func ResultTable(l Loc, v TableView, r game.Result, detail func(s game.Seat) string) string {
	var sb strings.Builder
	sb.WriteString(l.T("result.title") + "\n")
	list := FinalList(v, r, true)
	left := false
	for _, f := range list {
		line := PlaceLabel(f.Place, SharedBy(list, f.Place)) + " "
		switch {
		case f.Left:
			line += Esc(f.Name) + " " + LeftMark
			left = true
		case f.Place == 1:
			line += "🏆 " + SeatName(v, game.Seat(f.Seat)) + " — " + detail(game.Seat(f.Seat))
		default:
			line += SeatName(v, game.Seat(f.Seat)) + " — " + detail(game.Seat(f.Seat))
		}
		sb.WriteString(line + "\n")
	}
	if left {
		sb.WriteString(l.T("history.legend_left"))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// WinnerLine announces the winner or winners of a finished game: first
// place of its one result list (a robot that finished for someone who
// left does not win in their name).
func WinnerLine(l Loc, v TableView, r game.Result) string {
	var winners []game.Seat
	for _, f := range FinalList(v, r, true) {
		if f.Place == 1 && !f.Left {
			winners = append(winners, game.Seat(f.Seat))
		}
	}
	if len(winners) == 1 {
		return l.T("result.winner", "Name", Mention(v, winners[0]))
	}
	return l.T("result.winners", "Names", Mentions(v, winners))
}

// LeftMark marks a person who left in a list of results: in «Итоги» and
// in /history.
const LeftMark = "🚪"
