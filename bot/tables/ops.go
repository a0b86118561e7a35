package tables

import (
	"context"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/cupplay"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// press is one press as an op's change sees it: its button's data, who
// pressed, and, from the chat, its callback query (nil from the «Стол»
// page) and whether the presser administers the group (asked only where
// the op says it matters).
type press struct {
	p     callback.Data
	who   *models.User
	q     *models.CallbackQuery
	admin bool
}

// op is what one button op does, and where and by whom it may be
// pressed: every button's op is in the one table (presses.ops), the
// chat's presses and the page's alike.
type op struct {
	// answer answers a press outside any table's transaction: an op that
	// changes no table, or not the one its button names. nil: change.
	answer func(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error
	// change is what the op does to the table its button names, inside
	// the transaction.
	change func(ctx context.Context, t *record.Table, ch *txn.Change, pr press) error
	// settle follows a refused change of the chat's press (nil: nothing).
	settle func(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data, err error) error
	// admin reports whether the presser's adminship matters to a press
	// (asked of Telegram before the transaction, which stays pure).
	admin func(p callback.Data) bool
	// seat: a seat's button (a hand's, the 💤 message's), shown in its
	// person's private chat only (belong.go).
	seat bool
	// hand: a button of a hand message, whose message record is read
	// with the table (pressedOn).
	hand bool
	// page: the «Стол» page may send it.
	page bool
	// menu: a menu button, which changes the group it was posted in and
	// no other; practice also lets its person press it in their own
	// private chat.
	menu, practice bool
	// ownMessage: it changes the very message it came from, which must
	// carry a button of the same op (fromItsMessage); needsMessage: it
	// cannot do without that message (a rules page cannot be turned).
	ownMessage, needsMessage bool
}

// opTable is every op a button can carry.
func (pr *presses) opTable() map[callback.Op]op {
	always := func(callback.Data) bool { return true }
	return map[callback.Op]op{
		callback.Action: {seat: true, hand: true, page: true, change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.seats.OnAction(t, ch, ps.p, ps.who.ID)
		}},
		callback.Draft: {seat: true, hand: true, page: true, change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.seats.OnDraft(t, ch, ps.p, ps.who.ID)
		}},
		callback.Back: {seat: true, hand: true, page: true, change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.seats.OnBack(t, ch, ps.p, ps.who.ID)
		}},
		callback.Hint: {seat: true, hand: true, page: true, change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.seats.OnHint(t, ch, ps.p, ps.who.ID)
		}},
		callback.Leave: {seat: true, change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.leaving.OnLeave(t, ch, ps.p, ps.who.ID)
		}},
		callback.Choose: {change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.lobby.OnChooseGame(t, ch, ps.p, ps.who.ID)
		}},
		callback.Lobby: {admin: lobbyCancel, change: func(ctx context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.lobby.OnLobby(ctx, t, ch, ps.p, ps.who, ps.admin)
		}},
		callback.Again: {page: true, change: pr.again},
		callback.Open:  {menu: true, practice: true, change: pr.open},
		callback.Lang: {menu: true, admin: always, change: func(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.menus.OnLang(t, ch, ps.p, ps.who.ID, ps.admin)
		}},
		callback.Stop: {ownMessage: true, admin: always, change: pr.stop, settle: pr.settleStop},
		callback.Cup: {admin: cupplay.NeedsAdmin, change: func(ctx context.Context, t *record.Table, ch *txn.Change, ps press) error {
			return pr.cups.OnPress(ctx, t, ch, ps.p, ps.q, ps.admin)
		}},
		callback.MyHand:  {change: pr.myHand},
		callback.Info:    {answer: pr.onInfo},
		callback.TipsOff: {answer: pr.onTipsOff},
		callback.Rules:   {ownMessage: true, needsMessage: true, answer: pr.menus.OnRulesPage},
		callback.Forget:  {ownMessage: true, answer: pr.forget.OnForget},
		callback.Review:  {answer: pr.reviews.OnReview},
	}
}

// lobbyCancel reports whether a lobby press is «cancel», which an admin
// may press for the creator.
func lobbyCancel(p callback.Data) bool { return len(p.Args) > 0 && p.Args[0] == callback.LobbyCancel }

// again is «🔁 Сыграть ещё»; from the page it is for those who played:
// anyone may open a table's page, only the group sees its lobby. At a
// group's table past its limit (a game opened before the limit was
// lowered; a forged press) no new game opens, as ▶️ opens none there
// (route.go): a cup's round may take that table. A cup's table says why
// itself (OnAgain).
func (pr *presses) again(ctx context.Context, t *record.Table, ch *txn.Change, ps press) error {
	if t.CupOf == nil && !pr.views.Againable(t) {
		return refusal.New("error.stale")
	}
	if ps.q == nil && t.SeatOf(ps.who.ID) < 0 {
		return refusal.New("error.not_yours")
	}
	return pr.lobby.OnAgain(ctx, t, ch, ps.p, ps.who)
}

// open is ▶️ under /help or a picker: a lobby of its game.
func (pr *presses) open(ctx context.Context, t *record.Table, ch *txn.Change, ps press) error {
	if err := pr.group.FollowOwn(ctx, t); err != nil { // a table 2 and on (route.go)
		return err
	}
	return pr.lobby.OnOpen(t, ch, ps.p, ps.who, pr.tx.HasStarted(ctx, ps.who.ID))
}

// stop answers /stop's question, or the question which game to stop. A
// cup's table is never asked about (route.go): a press naming one is
// forged, and refused — stopped, it would leave its round waiting for a
// result that never comes (/cup stop stops the cup's tables). A press
// of an older game's question there is stale, as anywhere (settleStop
// disarms it).
func (pr *presses) stop(_ context.Context, t *record.Table, ch *txn.Change, ps press) error {
	if pr.group.CupsOwn(t) && ps.p.GameNo == t.GameNo {
		return refusal.New("cup.stop_table")
	}
	msg := ps.q.Message.Message
	if ps.p.Args[0] == callback.StopAsk {
		return pr.lobby.OnStopAsk(t, ch, ps.p, ps.who, ps.admin, msg)
	}
	if err := pr.lobby.OnStop(t, ch, ps.p, ps.who, ps.admin); err != nil {
		return err
	}
	// The question turns into its answer with the same commit.
	if msg != nil {
		ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: msg.Chat.ID, Edit: msg.ID, Message: adapter.Message{Text: ch.Answer}, Reply: true})
	}
	return nil
}

// onTipsOff turns tips off for the presser.
func (pr *presses) onTipsOff(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	text, err := pr.tips.OnTipsOff(ctx, updateID, q.From.ID, p)
	if err != nil {
		return err
	}
	pr.answer(ctx, q, text, false, "")
	return nil
}
