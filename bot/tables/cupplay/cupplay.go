// Package cupplay is the tables' side of a group's cup (bot/cups,
// docs/bot.md «Cups»): the /cup command, the cup's buttons, the host's
// jobs (open a round's tables, hand a leaver's seat to a robot, stop the
// round), a finished cup table telling its cup, and /stop asking about a
// cup when nothing else runs. The cup lives on its host table
// (record.CupHost): every change of it is one transaction of that record,
// like any table's. The facade (bot/tables) routes to it; the lobby, the
// jobs and belonging call it through the small hooks they declare.
package cupplay

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Pointers is the store's part a cup uses: where an unreadable cup is
// set aside for a person.
type Pointers interface {
	SetPointer(ctx context.Context, key, value string) error
}

// Cups is the cups' runtime on the tables.
type Cups struct {
	tx      *txn.Txn
	views   *view.Renderer
	store   Pointers
	group   *lobby.Group
	names   *lobby.Names
	lobby   *lobby.Lobby
	leaving *play.Leaving
	now     func() time.Time
	log     zerolog.Logger
}

// New builds the cups' runtime.
func New(tx *txn.Txn, views *view.Renderer, st Pointers, group *lobby.Group, names *lobby.Names, lb *lobby.Lobby, leaving *play.Leaving, now func() time.Time, log zerolog.Logger) *Cups {
	c := &Cups{tx: tx, views: views, store: st, group: group, names: names, lobby: lb, leaving: leaving, now: now, log: log}
	tx.CupsFrom(c.Owner) // a round's table stays the cup's even when its record is lost
	return c
}

// env is what the cups runtime needs of the tables now; envAt also
// knows which tables above the limit the group's own games hold, which a
// round passes by.
func (c *Cups) env() cups.Env {
	return cups.Env{Games: c.views.Games(), Loc: c.views.Loc, Now: c.now(), TurnTime: c.views.TurnTime(nil), Limit: c.group.Limit()}
}

func (c *Cups) envAt(ctx context.Context) cups.Env {
	e := c.env()
	e.Taken = func(id string) bool {
		t, _, err := c.tx.Load(ctx, id)
		return err == nil && t.Phase != record.PhaseIdle && t.CupOf == nil
	}
	return e
}

// host is the id of the table hosting the cup of own's chat (and topic).
func host(own string) string { return record.Sibling(own, record.CupHost) }

// change applies a cups change to the host in its transaction: posts
// to the group, the toast, and an unreadable cup fenced off.
func (c *Cups) change(ctx context.Context, t *record.Table, ch *txn.Change, reply bool, fn func() (cups.Out, error)) error {
	out, err := fn()
	var bad *cups.Unreadable
	if errors.As(err, &bad) {
		return c.fence(ctx, t, ch, bad)
	}
	if err != nil {
		return err
	}
	n := len(ch.Outbox)
	for _, m := range out.Posts {
		ch.Post(t, m)
	}
	if reply {
		ch.Replies(n)
	}
	ch.Answer = out.Answer
	return nil
}

// fence ends a cup that cannot be read: its record is set aside for a
// person (store.BrokenKey), the host starts afresh and the group is told.
func (c *Cups) fence(ctx context.Context, t *record.Table, ch *txn.Change, bad error) error {
	if err := c.store.SetPointer(ctx, store.BrokenKey(t.ID, t.GameNo), string(t.Cup)); err != nil {
		return err
	}
	c.log.Error().Str("table", t.ID).Err(bad).Msg("cup fenced off: its state cannot be read")
	t.Broken = &record.Broken{GameNo: t.GameNo, At: c.now(), Reason: bad.Error()}
	t.GameNo++ // its buttons are stale
	t.Cup = nil
	t.Jobs = slices.DeleteFunc(t.Jobs, func(j record.Job) bool { return j.Cup != nil })
	l := c.views.Loc(t.Lang)
	t.Board = &record.Board{Text: l.T("cup.broken")}
	ch.Post(t, adapter.Message{Text: l.T("cup.broken")})
	ch.Answer = l.T("error.broken")
	return nil
}

// Rehome rewrites what t keeps of other tables' ids when its group became
// a supergroup: a round's table names its cup's host, a host its round's
// tables (id maps an old table id to its new one).
func (c *Cups) Rehome(t *record.Table, id func(string) string) error {
	if t.CupOf != nil {
		cp := *t.CupOf
		cp.Host = id(cp.Host)
		t.CupOf = &cp
	}
	return c.env().Rehome(t, id)
}
