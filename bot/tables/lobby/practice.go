package lobby

import (
	"context"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// Practice tables. A person's private chat has a table record too
// (record.ID(user, 0)): /newgame there opens a lobby for them and robots
// with the group's settings, and the game is played in that one chat. The
// table and the hand are composed into one message (view's PracticeHand),
// so a move costs one edit of the chat, within its about one message a
// second. Presses name their table, so a person who plays in groups
// meanwhile reaches each table with its own buttons. Results are recorded
// under the private chat like a group of one: never in a group's rating,
// /top or /history; /stats in private shows them on their own line.
type Practice struct {
	tx    *txn.Txn
	views *view.Renderer
	lobby *Lobby
}

// NewPractice builds the practice tables' commands.
func NewPractice(tx *txn.Txn, views *view.Renderer, lobby *Lobby) *Practice {
	return &Practice{tx: tx, views: views, lobby: lobby}
}

// Command runs /newgame, /stop and /table in a private chat against the
// chat's practice table.
func (pr *Practice) Command(ctx context.Context, r txn.Request, _ adapter.Loc) error {
	m := r.Msg
	id := record.ID(m.Chat.ID, 0)
	l := pr.views.Loc(pr.tx.UserLang(m.From))
	_, _, err := pr.tx.Transact(ctx, id, r.UpdateID, func(t *record.Table, ch *txn.Change) error {
		if t.Phase == record.PhaseIdle {
			t.Lang = l.Lang()
		}
		t.Title = pr.views.Loc(t.Lang).T("practice.title")
		n := len(ch.Outbox)
		var err error
		switch r.Name {
		case "newgame":
			opened := t.Phase == record.PhaseIdle
			err = pr.lobby.NewGame(ctx, t, ch, m, r.Args)
			if err == nil && opened && t.Phase == record.PhaseLobby {
				pr.lobby.OpenPractice(t, m.From)
			}
		case "stop":
			err = pr.lobby.AskStop(t, ch, m.From.ID, false)
		case "table":
			if t.Phase == record.PhaseIdle {
				ch.Post(t, adapter.Message{Text: pr.views.Loc(t.Lang).T("practice.none")})
				break
			}
			v := view.Table(t.GameNo)
			if t.Phase == record.PhasePlaying {
				v = view.Hand(t.GameNo, t.SeatOf(m.From.ID))
			}
			t.Repost(v)
		}
		ch.Replies(n)
		return err
	})
	return refusal.Settle(err)
}
