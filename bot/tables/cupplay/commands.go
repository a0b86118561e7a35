package cupplay

import (
	"context"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// Sender is who wrote a group's command, and whether they administer
// the group (the commands' router asks Telegram).
type Sender func(ctx context.Context, m *models.Message) (user int64, admin bool)

// Command is /cup in a group: «/cup <game> [rounds]» opens a cup's
// lobby, «/cup history» lists the group's cups, «/cup stop» asks to stop
// the one running. Its answer is posted by the host's change; the
// group's table 1 (where the router sends it) does not change. own is
// the group's (or topic's) table 1.
func (c *Cups) Command(ctx context.Context, r txn.Request, own string, sender Sender) func(t *record.Table, ch *txn.Change) error {
	h := host(own)
	if h == "" {
		return c.say("command.group_only")
	}
	word := ""
	if len(r.Args) > 0 {
		word = strings.ToLower(r.Args[0])
	}
	switch word {
	case "":
		return c.say("cup.usage", "Games", c.gameIDs())
	case "history":
		return func(t *record.Table, ch *txn.Change) error {
			ht, _, err := c.tx.Load(ctx, h)
			if err != nil {
				return err
			}
			ht.Lang = t.Lang
			ch.PostGroup(t, c.envAt(ctx).History(ht))
			return nil
		}
	case "stop":
		user, admin := sender(ctx, r.Msg)
		return func(t *record.Table, ch *txn.Change) error { return c.askStop(ctx, t, ch, h, user, admin) }
	}
	return c.open(ctx, r, h, word)
}

// open is «/cup <game> [rounds]»: the cup's lobby, on its host.
func (c *Cups) open(ctx context.Context, r txn.Request, h, word string) func(t *record.Table, ch *txn.Change) error {
	g, ok := c.views.Games().Find(word)
	if !ok {
		return c.say("cup.bad_game", "Games", c.gameIDs())
	}
	rounds := 0
	if len(r.Args) > 1 {
		n, err := strconv.Atoi(r.Args[1])
		if err != nil || n < 1 || n > cup.MaxRounds || len(r.Args) > 2 {
			return c.say("cup.bad_rounds", "Max", cup.MaxRounds)
		}
		rounds = n
	}
	if cups.Slots(c.group.Limit()) < 2 {
		return c.say("cup.no_room")
	}
	creator, started := cups.Person{}, false
	if r.Msg.SenderChat == nil {
		creator = cups.Person{User: r.Msg.From.ID, Name: c.names.Person(r.Msg.From)}
		started = c.tx.HasStarted(ctx, r.Msg.From.ID)
	}
	env := c.envAt(ctx)
	return func(t *record.Table, ch *txn.Change) error {
		// Table 1 stays as it is; the host's change answers, once: it is
		// recorded with the update.
		_, _, err := c.tx.Transact(ctx, h, r.UpdateID, func(ht *record.Table, hch *txn.Change) error {
			ht.Lang, ht.Title, ht.Zone = t.Lang, t.Title, t.Zone // the group's, from its table 1
			return c.change(ctx, ht, hch, true, func() (cups.Out, error) {
				return env.Open(ht, g, rounds, creator, started)
			})
		})
		if err := refusal.Settle(err); err != nil {
			return err
		}
		return refusal.ErrNoChange
	}
}

// say is a change that posts one text to the group.
func (c *Cups) say(key string, args ...any) func(t *record.Table, ch *txn.Change) error {
	return func(t *record.Table, ch *txn.Change) error {
		ch.PostGroup(t, adapter.Message{Text: c.views.Loc(t.Lang).T(key, args...)})
		return nil
	}
}

// gameIDs lists the games a cup can be played in, by their ids.
func (c *Cups) gameIDs() string {
	var ids []string
	for _, g := range c.views.Games() {
		ids = append(ids, "<code>"+g.ID()+"</code>")
	}
	return strings.Join(ids, ", ")
}

// askStop asks, at the group's table t, whether to stop the cup running
// at h; only its creator or an admin is asked.
func (c *Cups) askStop(ctx context.Context, t *record.Table, ch *txn.Change, h string, user int64, admin bool) error {
	ht, _, err := c.tx.Load(ctx, h)
	if err != nil {
		return err
	}
	l := c.views.Loc(t.Lang)
	ht.Lang = t.Lang
	q, ok := c.envAt(ctx).StopQuestion(ht)
	if !ok {
		ch.PostGroup(t, adapter.Message{Text: l.T("cup.none")})
		return nil
	}
	if creator := creatorOf(ht); !admin && (user == 0 || user != creator) {
		ch.PostGroup(t, adapter.Message{Text: l.T("cup.creator_only")})
		return nil
	}
	ch.PostGroup(t, q)
	return nil
}

// creatorOf is who runs the host's cup (0: nobody, or unreadable).
func creatorOf(h *record.Table) int64 {
	s, err := cups.Decode(h.Cup)
	if err != nil {
		return 0
	}
	return s.Creator
}

// StopFallback is /stop's question about the group's cup when the table
// /stop was routed to is idle: nil when no cup runs there. own is the
// group's (or topic's) table 1.
func (c *Cups) StopFallback(ctx context.Context, r txn.Request, own string, user int64, admin bool) func(t *record.Table, ch *txn.Change) error {
	h := host(own)
	if h == "" || len(r.Args) > 0 {
		return nil
	}
	ht, _, err := c.tx.Load(ctx, h)
	if err != nil {
		return nil
	}
	if s, err := cups.Decode(ht.Cup); err != nil || !s.Running() {
		return nil
	}
	return func(t *record.Table, ch *txn.Change) error { return c.askStop(ctx, t, ch, h, user, admin) }
}

// OnPress is a press of a cup's button, on its host.
func (c *Cups) OnPress(ctx context.Context, t *record.Table, ch *txn.Change, p callback.Data, q *models.CallbackQuery, admin bool) error {
	if t.Board == nil || record.TableNo(t.ID) != record.CupHost {
		return refusal.New("error.stale")
	}
	who := cups.Person{User: q.From.ID, Name: c.names.Person(&q.From)}
	started := c.tx.HasStarted(ctx, q.From.ID)
	err := c.change(ctx, t, ch, false, func() (cups.Out, error) {
		return c.envAt(ctx).Press(t, p.GameNo, p.Args[0], who, admin, started)
	})
	if err == nil && (p.Args[0] == cups.StopYes || p.Args[0] == cups.StopNo) {
		// The question turns into its answer with the same commit.
		if msg := q.Message.Message; msg != nil {
			ch.Outbox = append(ch.Outbox, outbox.Entry{ChatID: msg.Chat.ID, Thread: t.Thread, Edit: msg.ID, Message: adapter.Message{Text: ch.Answer}, Reply: true})
		}
	}
	return err
}

// NeedsAdmin reports whether a press is a cup's button that its creator
// or an admin may press: only then is Telegram asked.
func NeedsAdmin(p callback.Data) bool {
	return p.Op == callback.Cup && len(p.Args) > 0 && cups.NeedsAdmin(p.Args[0])
}
