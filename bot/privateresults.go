package bot

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// Private results: when a game's result is recorded, each person who
// played it to the end gets their own in private — place, score, rating
// change — with «Ещё партию», which works as the group's button does. The
// rating change is known only once the store rated the game, so the
// worker queues these messages right after recording (queuePrivateResults),
// in a change of the table that remembers the result id: a retry after a
// crash queues them once. A retry that finds the game recorded already
// cannot know the change and leaves that line out. People who left get
// nothing: their message already says they left.

// personOf is the user id of a person's results player id.
func personOf(player string) (int64, bool) {
	id, ok := strings.CutPrefix(player, "u")
	if !ok {
		return 0, false
	}
	user, err := strconv.ParseInt(id, 10, 64)
	return user, err == nil && user > 0
}

// privateResult is seat i's own result of e: the game and the group, the
// place (shared places as «2–3»), the score, and the rating change (rc nil:
// not known) or why the game was not rated.
func (res *results) privateResult(t *record.Table, e *resultEntry, i int, rc *ratingChange) adapter.Message {
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
		lines = append(lines, l.T("private.rating", "Rating", decimal(l, rc.After), "Change", signed(l, rc.After-rc.Before)))
	}
	again := adapter.Button{Text: l.T("again.button"), Data: callback.Data{Op: 'n', Table: t.ID, GameNo: e.GameNo, Word: e.Game}.String()}
	return adapter.Message{Text: strings.Join(lines, "\n"), Keyboard: [][]adapter.Button{{again}}}
}

// signed shows a rating change with its sign as the ratings are shown
// (one decimal): «+1,8», «−0,4», «±0,0».
func signed(l adapter.Loc, x float64) string {
	d := decimal(l, x)
	switch {
	case d == decimal(l, 0):
		return "±" + d
	case strings.HasPrefix(d, "−"):
		return d
	}
	return "+" + d
}
