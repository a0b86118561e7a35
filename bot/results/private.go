package results

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
)

// Private results: when a game's result is recorded, each person who
// played it to the end gets their own in private — place, score, rating
// change — with «Ещё партию», which works as the group's button does. The
// rating change is known only once the store rated the game, so the
// tables queue these messages right after recording, in a change of the
// table that remembers the result id: a retry after a crash queues them
// once. A retry that finds the game recorded already
// cannot know the change and leaves that line out. People who left get
// nothing: their message already says they left.

// PrivateResult is seat i's own result of e: the game and the group, the
// place (shared places as «2–3»), the score, and the rating change (rc nil:
// not known) or why the game was not rated; again offers «🔁 Сыграть
// ещё» (view.Renderer.Againable, which the caller asks).
func (res *Results) PrivateResult(t *record.Table, e *record.Result, i int, rc *record.RatingChange, again bool) adapter.Message {
	l := res.loc(t.Lang)
	s := e.Seats[i]
	shared := 0
	for _, o := range e.Seats {
		if o.Place == s.Place {
			shared++
		}
	}
	players := max(e.Players, len(e.Seats))
	lines := []string{
		l.T("private.title", "Game", res.gameTitle(l, e.Game), "Title", adapter.Esc(t.Title)),
		l.T("private.place", "Place", adapter.PlaceRange(s.Place, shared), "Players", players, "Score", res.scoreText(l, e.Game, s.Score)),
	}
	switch {
	case s.Hinted:
		lines = append(lines, l.T("hints.unrated"))
	case s.Unrated:
		lines = append(lines, l.T("private.unrated"))
	case rc != nil:
		lines = append(lines, view.RatingText(l, rc.Before, rc.After))
		if strings.HasPrefix(view.Decimal(l, rc.After), "−") {
			lines = append(lines, l.T("private.rating_below_zero")) // shown below zero: say why that is normal
		}
	}
	m := adapter.Message{Text: strings.Join(lines, "\n")}
	if again {
		m.Keyboard = [][]adapter.Button{{view.AgainButton(l, t, e.GameNo, e.Game)}}
	}
	return m
}
