package pace

import (
	"slices"
	"sort"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// press is one applied move made by a simulated person: when they pressed
// the button, and when the bot's answer (sent after the commit) came back.
type press struct {
	at, answered time.Time
}

// kindCalls counts Bot API calls to one kind of chat, by method.
type kindCalls struct {
	Send   int `json:"send"`
	Edit   int `json:"edit"`
	Delete int `json:"delete"`
}

func (k kindCalls) total() int { return k.Send + k.Edit + k.Delete }

// callCounts are the calls Telegram saw: the rate-limited ones by chat kind
// and method, answerCallbackQuery apart (it is not rate-limited), and the
// calls refused with 429 (not counted above). Ephemeral are the group's
// calls that sent, edited or deleted an ephemeral message: counted in
// Group too, whose limit they count against.
type callCounts struct {
	Group     kindCalls `json:"group"`
	Ephemeral kindCalls `json:"group_ephemeral"`
	Private   kindCalls `json:"private"`
	Answers   int       `json:"answer_callback"`
	TooMany   int       `json:"http_429"`
}

// perKind is kindCalls divided by the number of moves.
type perKind struct {
	Send   float64 `json:"send"`
	Edit   float64 `json:"edit"`
	Delete float64 `json:"delete"`
}

// perMove is callCounts divided by the number of moves.
type perMove struct {
	Group     perKind `json:"group"`
	Ephemeral perKind `json:"group_ephemeral"` // in Group too
	Private   perKind `json:"private"`
	// Limited is every rate-limited call (group and private) per move.
	Limited float64 `json:"rate_limited"`
	Answers float64 `json:"answer_callback"`
}

// countCalls classifies the calls made in [from, to]: group chats have
// negative ids, private chats positive ones; an ephemeral call is its
// group's, and counted apart too.
func countCalls(calls []telegramtest.Call, from, to time.Time) callCounts {
	var c callCounts
	for _, call := range calls {
		if call.Time.Before(from) || call.Time.After(to) {
			continue
		}
		if call.ErrorCode == 429 {
			c.TooMany++
			continue
		}
		if call.Method == "answerCallbackQuery" {
			c.Answers++
			continue
		}
		k := &c.Private
		if call.ChatID < 0 {
			k = &c.Group
		} else if call.ChatID == 0 {
			continue
		}
		kinds := []*kindCalls{k}
		if call.Ephemeral {
			kinds = append(kinds, &c.Ephemeral)
		}
		for _, k := range kinds {
			switch call.Method {
			case "sendMessage":
				k.Send++
			case "editMessageText", "editMessageReplyMarkup", "editEphemeralMessageText", "editEphemeralMessageReplyMarkup":
				k.Edit++
			case "deleteMessage", "deleteMessages", "deleteEphemeralMessage":
				k.Delete++
			}
		}
	}
	return c
}

func (c callCounts) perMove(moves int) perMove {
	if moves == 0 {
		return perMove{}
	}
	m := float64(moves)
	per := func(k kindCalls) perKind {
		return perKind{Send: float64(k.Send) / m, Edit: float64(k.Edit) / m, Delete: float64(k.Delete) / m}
	}
	return perMove{
		Group:     per(c.Group),
		Ephemeral: per(c.Ephemeral),
		Private:   per(c.Private),
		Limited:   float64(c.Group.total()+c.Private.total()) / m,
		Answers:   float64(c.Answers) / m,
	}
}

// promptLatencies measures, for every prompt (a person's first sight of a
// new set of playable buttons in their private chat), the time since the
// last move at the table before it. Prompts with no move before them (the
// first of the game) are skipped.
func promptLatencies(presses []press, prompts []time.Time) []time.Duration {
	at := make([]time.Time, len(presses))
	for i, p := range presses {
		at[i] = p.at
	}
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	var out []time.Duration
	for _, p := range prompts {
		i := sort.Search(len(at), func(i int) bool { return !at[i].Before(p) })
		if i == 0 {
			continue
		}
		out = append(out, p.Sub(at[i-1]))
	}
	return out
}

// tableLatencies measures, for every move, the time from the press to the
// first edit of the group's message that reached Telegram after the bot had
// answered the press (the answer follows the commit, and the table is always
// drawn from the latest state, so that edit shows the move). draws must be
// sorted. A move with no later edit is skipped.
func tableLatencies(presses []press, draws []time.Time) []time.Duration {
	var out []time.Duration
	for _, p := range presses {
		i := sort.Search(len(draws), func(i int) bool { return !draws[i].Before(p.answered) })
		if i < len(draws) {
			out = append(out, draws[i].Sub(p.at))
		}
	}
	return out
}

// groupDraws lists the successful edits of messages in a group chat, in order.
func groupDraws(calls []telegramtest.Call, group int64) []time.Time {
	var out []time.Time
	for _, c := range calls {
		if c.ChatID == group && c.OK && c.Method == "editMessageText" {
			out = append(out, c.Time)
		}
	}
	return out
}

func sortDurations(d []time.Duration) []time.Duration {
	slices.Sort(d)
	return d
}

// spread summarises one per-table figure (a p99) across the tables: the
// slowest table's against the median table's, which is what a fair
// scheduler should bring together.
type spread struct {
	SlowestMs float64 `json:"slowest_table_ms"`
	MedianMs  float64 `json:"median_table_ms"`
}

func spreadOf(perTable []float64) spread {
	if len(perTable) == 0 {
		return spread{}
	}
	s := slices.Clone(perTable)
	slices.Sort(s)
	return spread{SlowestMs: s[len(s)-1], MedianMs: s[len(s)/2]}
}
