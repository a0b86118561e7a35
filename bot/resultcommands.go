package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// finish records the end of a game in the change: the result entry goes
// into the outbox ahead of the final announcements (so a /stats answered
// after them counts the game), and the last announcement gets the «play
// again» button. It runs inside update's closure: no I/O.
func (b *Bot) finish(t *record.Table, ch *change, g adapter.Game, st game.State, msgs []adapter.Message) []adapter.Message {
	ch.outbox = append(ch.outbox, outMsg{ChatID: t.ChatID, Thread: t.Thread, Result: b.results.resultOf(t, g, st, b.now())})
	l := b.loc(t.Lang)
	msgs = slices.Clone(msgs)
	if len(msgs) == 0 {
		msgs = []adapter.Message{{Text: l.T("again.over")}}
	}
	last := &msgs[len(msgs)-1]
	last.Keyboard = append(slices.Clone(last.Keyboard), []adapter.Button{againButton(l, t)})
	return msgs
}

// resolveOut does the results work of an outbox entry when the worker
// reaches it: a result is recorded and the players' private results are
// queued (skip: nothing to send), a results command's answer is rendered
// into the message. An error means "retry later": the entry stays queued.
func (b *Bot) resolveOut(ctx context.Context, t *record.Table, m *outMsg) (skip bool, err error) {
	switch {
	case m.Result != nil:
		changes, err := b.results.record(ctx, m.Result)
		if err != nil {
			return true, err
		}
		return true, b.queuePrivateResults(ctx, t.ID, m.Result, changes)
	case m.Query != nil:
		m.Message = b.results.answerQuery(ctx, t, m.Query)
	}
	return false, nil
}

// moveResults follows a group upgraded to a supergroup: results still
// queued at the old table (which is about to be deleted) are recorded
// first, then the store merges the group's results into the new chat.
// Both steps are idempotent, so a migration retried after a crash is safe.
func (b *Bot) moveResults(ctx context.Context, oldID string, oldChat, newChat int64) error {
	rs := b.results.store
	if rs == nil {
		return nil
	}
	envs, err := b.store.Outbox(ctx, oldID, 100)
	if err != nil {
		return err
	}
	for _, e := range envs {
		if m, err := decodeOutMsg(e.Data); err == nil && m.Result != nil {
			if _, err := b.results.record(ctx, m.Result); err != nil {
				return err
			}
		}
	}
	return rs.MoveChat(ctx, oldChat, newChat)
}

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
			ch.outbox = append(ch.outbox, outMsg{ChatID: user, Message: b.results.privateResult(t, e, i, rc)})
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

// resultsCommand queues the answer to a results command in a group. It
// runs inside update's closure: no I/O.
func (b *Bot) resultsCommand(t *record.Table, ch *change, m *models.Message, cmd command) error {
	l := b.loc(t.Lang)
	q := &resultQuery{Cmd: cmd.name, User: m.From.ID, Name: userName(m.From)}
	switch cmd.name {
	case "forgetme":
		ch.post(t, adapter.Message{Text: l.T("forget.private_only"),
			Keyboard: [][]adapter.Button{{{Text: l.T("lobby.open_chat_button"), URL: "https://t.me/" + b.cfg.Username}}}})
		return nil
	case "top":
		q.Game = t.GameID
		if len(cmd.args) > 0 {
			g, ok := b.games.find(strings.Join(cmd.args, " "))
			if !ok {
				ch.post(t, adapter.Message{Text: l.T("top.unknown", "Games", b.gameList(l, "/top"))})
				return nil
			}
			q.Game = g.ID()
		}
	}
	ch.outbox = append(ch.outbox, outMsg{ChatID: t.ChatID, Thread: t.Thread, Query: q})
	return nil
}

// privateStats answers /stats in private: the user's results summed over
// every group they played in.
func (b *Bot) privateStats(ctx context.Context, updateID int64, m *models.Message, l adapter.Loc) error {
	rs := b.results.store
	if rs == nil {
		return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("stats.unavailable")})
	}
	player := humanPlayer(m.From.ID)
	chats, err := rs.PlayerChats(ctx, player)
	if err != nil {
		return err
	}
	sums, practice := map[string]store.PlayerStats{}, map[string]store.PlayerStats{}
	groups := 0
	for _, chat := range chats {
		games, err := rs.PlayerGames(ctx, chat, player)
		if err != nil {
			return err
		}
		if practiceChat(chat) {
			for id, s := range games {
				practice[id] = addStats(practice[id], s)
			}
			continue
		}
		if len(games) > 0 {
			groups++
		}
		for id, s := range games {
			sums[id] = addStats(sums[id], s)
		}
	}
	msg := b.results.renderStats(l, adapter.Esc(userName(m.From)), true, groups, sums)
	if line := b.results.practiceLine(l, practice); line != "" {
		if groups == 0 {
			msg.Text = l.T("practice.stats_no_groups", "Name", adapter.Esc(userName(m.From)))
		}
		msg.Text += "\n\n" + line
	}
	return b.reply(ctx, updateID, m.Chat.ID, msg)
}

// askForget asks for a confirmation of /forgetme. The buttons carry the
// asker and the time of the question, so only they can confirm, and only
// for a while.
func (b *Bot) askForget(ctx context.Context, updateID int64, m *models.Message, l adapter.Loc) error {
	btn := func(text string, yes int) adapter.Button {
		return adapter.Button{Text: text, Data: callback.Data{Op: 'f', Table: record.ID(m.Chat.ID, 0), GameNo: int(b.now().Unix()), Args: []int{yes}}.String()}
	}
	return b.reply(ctx, updateID, m.Chat.ID, adapter.Message{Text: l.T("forget.confirm"), Keyboard: [][]adapter.Button{{
		btn(l.T("forget.yes"), 1), btn(l.T("forget.no"), 0),
	}}})
}

// onForget handles the /forgetme confirmation: the user's results are
// deleted everywhere, and the question is replaced by the outcome so its
// buttons are gone. Forgetting twice is harmless.
func (b *Bot) onForget(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	l := b.loc(b.userLang(&q.From))
	user, _, _ := record.ParseID(p.Table) // parsePayload checked it
	asked := time.Unix(int64(p.GameNo), 0)
	switch {
	case user != q.From.ID:
		b.answer(ctx, q, l.T("error.not_yours"), false, "")
		return nil
	case p.Args[0] != 0 && p.Args[0] != 1:
		b.answer(ctx, q, l.T("error.bad_button"), false, "")
		return nil
	case b.now().Sub(asked) > forgetWindow || asked.After(b.now().Add(time.Minute)):
		b.answer(ctx, q, l.T("error.stale"), false, "")
		return nil
	}
	text := l.T("forget.kept")
	if p.Args[0] == 1 {
		if rs := b.results.store; rs != nil {
			if err := rs.Forget(ctx, humanPlayer(user)); err != nil {
				return err // not answered: the redelivered press tries again
			}
		}
		text = l.T("forget.done")
	}
	b.answer(ctx, q, "", false, "")
	// The question turns into its outcome; sent anew when Telegram sent
	// the press without its message (too old).
	out := outMsg{ChatID: user, Message: adapter.Message{Text: text}, Reply: true}
	if msg := q.Message.Message; msg != nil {
		out.Edit = msg.ID
	}
	return b.queue(ctx, record.ID(user, 0), updateID, out)
}
