package bot

import (
	"context"
	"errors"
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

// queuePrivateResults queues one private message per person of a recorded
// result, once per result id.
func (b *Bot) queuePrivateResults(ctx context.Context, table string, e *resultEntry, changes []ratingChange) error {
	if !e.valid() || e.GameNo == 0 {
		return nil // malformed, or queued before private results existed
	}
	if chat, _, err := record.ParseID(table); err == nil && practiceChat(chat) {
		return nil // a practice table's chat is the person's: it saw the result
	}
	_, _, err := b.transact(ctx, table, 0, func(t *record.Table, ch *change) error {
		if t.ResultsSent == e.ID {
			return errNoChange
		}
		t.ResultsSent = e.ID
		t.WebRatings = webRatings(e, changes)
		for i, s := range e.Seats {
			user, ok := personOf(s.Player)
			if !ok || s.Left {
				continue
			}
			if seat := t.SeatOf(user); seat >= 0 && t.Seats[seat].Unreachable {
				continue // the bot cannot write to them: a call for nothing
			}
			var rc *ratingChange
			if i < len(changes) {
				rc = &changes[i]
			}
			ch.outbox = append(ch.outbox, outMsg{ChatID: user, Message: b.privateResult(t, e, i, rc)})
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

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
func (b *Bot) privateResult(t *record.Table, e *resultEntry, i int, rc *ratingChange) adapter.Message {
	l := b.loc(t.Lang)
	s := e.Seats[i]
	shared := 0
	for _, o := range e.Seats {
		if o.Place == s.Place {
			shared++
		}
	}
	players := max(e.Players, len(e.Seats))
	lines := []string{
		l.T("private.title", "Game", b.gameTitle(l, e.Game), "Title", adapter.Esc(t.Title)),
		l.T("private.place", "Place", adapter.PlaceRange(s.Place, shared), "Players", players, "Score", b.scoreText(l, e.Game, s.Score)),
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
