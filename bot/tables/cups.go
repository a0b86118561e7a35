package tables

import (
	"context"
	"errors"
	"slices"
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
	"github.com/trickchef/trickchef/store"
)

// A group's cup (bot/cups, docs/bot.md «Cups»): the tables' side of it is
// this file and a few hooks — the /cup command, the cup's buttons, the
// host's jobs (open a round's tables, hand a leaver's seat to a robot,
// stop the round), a finished cup table telling its cup, «play again»
// refused at a cup's table and /stop asking about a cup when nothing else
// runs. The cup lives on its host table (record.CupHost): every change of
// it is one transaction of that record, like any table's.

// cupEnv is what the cups runtime needs of the tables now.
func (c *core) cupEnv() cups.Env {
	return cups.Env{Games: c.games, Loc: c.loc, Now: c.now(), TurnTime: c.views.TurnTime(nil), Limit: c.limit()}
}

// cupHost is the id of the table hosting the cup of own's chat (and topic).
func cupHost(own string) string { return record.Sibling(own, record.CupHost) }

// cupChange applies a cups change to the host in its transaction: posts
// to the group, the toast, and an unreadable cup fenced off.
func (c *core) cupChange(ctx context.Context, t *record.Table, ch *change, reply bool, fn func() (cups.Out, error)) error {
	out, err := fn()
	var bad *cups.Unreadable
	if errors.As(err, &bad) {
		return c.fenceCup(ctx, t, ch, bad)
	}
	if err != nil {
		return err
	}
	n := len(ch.outbox)
	for _, m := range out.Posts {
		ch.post(t, m)
	}
	if reply {
		ch.replies(n)
	}
	ch.answer = out.Answer
	return nil
}

// fenceCup ends a cup that cannot be read: its record is set aside for a
// person (store.BrokenKey), the host starts afresh and the group is told.
func (c *core) fenceCup(ctx context.Context, t *record.Table, ch *change, bad error) error {
	if err := c.store.SetPointer(ctx, store.BrokenKey(t.ID, t.GameNo), string(t.Cup)); err != nil {
		return err
	}
	c.log.Error().Str("table", t.ID).Err(bad).Msg("cup fenced off: its state cannot be read")
	t.Broken = &record.Broken{GameNo: t.GameNo, At: c.now(), Reason: bad.Error()}
	t.GameNo++ // its buttons are stale
	t.Cup = nil
	t.Jobs = slices.DeleteFunc(t.Jobs, func(j record.Job) bool { return j.Cup != nil })
	l := c.loc(t.Lang)
	t.Board = &record.Board{Text: l.T("cup.broken")}
	ch.post(t, adapter.Message{Text: l.T("cup.broken")})
	ch.answer = l.T("error.broken")
	return nil
}

// groupCup is /cup in a group: «/cup <game> [rounds]» opens a cup's lobby,
// «/cup history» lists the group's cups, «/cup stop» asks to stop the one
// running. Its answer is posted by the host's change; the group's table 1
// (where the router sends it) does not change.
func (c *commands) groupCup(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	own := record.ID(r.msg.Chat.ID, threadOf(r.msg))
	host := cupHost(own)
	say := func(key string, args ...any) func(t *record.Table, ch *change) error {
		return func(t *record.Table, ch *change) error {
			ch.post(t, adapter.Message{Text: c.loc(t.Lang).T(key, args...)})
			return nil
		}
	}
	if host == "" {
		return say("command.group_only")
	}
	env := c.cupEnv()
	word := ""
	if len(r.args) > 0 {
		word = strings.ToLower(r.args[0])
	}
	switch word {
	case "":
		return say("cup.usage", "Games", c.cupGames())
	case "history":
		return func(t *record.Table, ch *change) error {
			h, _, err := c.load(ctx, host)
			if err != nil {
				return err
			}
			h.Lang = t.Lang
			ch.post(t, env.History(h))
			return nil
		}
	case "stop":
		user, admin := c.sender(ctx, r.msg)
		return func(t *record.Table, ch *change) error { return c.askCupStop(ctx, t, ch, host, user, admin) }
	}
	g, ok := c.games.Find(word)
	if !ok {
		return say("cup.bad_game", "Games", c.cupGames())
	}
	rounds := 0
	if len(r.args) > 1 {
		n, err := strconv.Atoi(r.args[1])
		if err != nil || n < 1 || n > cup.MaxRounds || len(r.args) > 2 {
			return say("cup.bad_rounds", "Max", cup.MaxRounds)
		}
		rounds = n
	}
	if cups.Slots(c.limit()) < 2 {
		return say("cup.no_room")
	}
	creator, started := cups.Person{}, false
	if r.msg.SenderChat == nil {
		creator = cups.Person{User: r.msg.From.ID, Name: c.names.person(r.msg.From)}
		started = c.hasStarted(ctx, r.msg.From.ID)
	}
	return func(t *record.Table, ch *change) error {
		// Table 1 stays as it is; the host's change answers, once: it is
		// recorded with the update.
		_, _, err := c.transact(ctx, host, r.updateID, func(h *record.Table, hch *change) error {
			h.Lang, h.Title, h.Zone = t.Lang, t.Title, t.Zone // the group's, from its table 1
			return c.cupChange(ctx, h, hch, true, func() (cups.Out, error) {
				return env.Open(h, g, rounds, creator, started)
			})
		})
		if err := refusal.Settle(err); err != nil {
			return err
		}
		return refusal.ErrNoChange
	}
}

// cupGames lists the games a cup can be played in, by their ids.
func (c *commands) cupGames() string {
	var ids []string
	for _, g := range c.games {
		ids = append(ids, "<code>"+g.ID()+"</code>")
	}
	return strings.Join(ids, ", ")
}

// askCupStop asks, at the group's table t, whether to stop the cup
// running at host; only its creator or an admin is asked.
func (c *core) askCupStop(ctx context.Context, t *record.Table, ch *change, host string, user int64, admin bool) error {
	h, _, err := c.load(ctx, host)
	if err != nil {
		return err
	}
	l := c.loc(t.Lang)
	h.Lang = t.Lang
	q, ok := c.cupEnv().StopQuestion(h)
	if !ok {
		ch.post(t, adapter.Message{Text: l.T("cup.none")})
		return nil
	}
	if creator := cupCreator(h); !admin && (user == 0 || user != creator) {
		ch.post(t, adapter.Message{Text: l.T("cup.creator_only")})
		return nil
	}
	ch.post(t, q)
	return nil
}

// cupCreator is who runs the host's cup (0: nobody, or unreadable).
func cupCreator(h *record.Table) int64 {
	s, err := cups.Decode(h.Cup)
	if err != nil {
		return 0
	}
	return s.Creator
}

// cupStopFallback is /stop's question about the group's cup when the
// table /stop was routed to is idle: nil when no cup runs there.
func (c *commands) cupStopFallback(ctx context.Context, r request, user int64, admin bool) func(t *record.Table, ch *change) error {
	host := cupHost(record.ID(r.msg.Chat.ID, threadOf(r.msg)))
	if host == "" || len(r.args) > 0 {
		return nil
	}
	h, _, err := c.load(ctx, host)
	if err != nil {
		return nil
	}
	if s, err := cups.Decode(h.Cup); err != nil || !s.Running() {
		return nil
	}
	return func(t *record.Table, ch *change) error { return c.askCupStop(ctx, t, ch, host, user, admin) }
}

// onCup is a press of a cup's button, on its host.
func (pr *presses) onCup(ctx context.Context, t *record.Table, ch *change, p callback.Data, q *models.CallbackQuery, admin bool) error {
	if t.Board == nil || record.TableNo(t.ID) != record.CupHost {
		return refusal.New("error.stale")
	}
	who := cups.Person{User: q.From.ID, Name: pr.names.person(&q.From)}
	started := pr.hasStarted(ctx, q.From.ID)
	err := pr.cupChange(ctx, t, ch, false, func() (cups.Out, error) {
		return pr.cupEnv().Press(t, p.GameNo, p.Args[0], who, admin, started)
	})
	if err == nil && (p.Args[0] == cups.StopYes || p.Args[0] == cups.StopNo) {
		// The question turns into its answer with the same commit.
		if msg := q.Message.Message; msg != nil {
			ch.outbox = append(ch.outbox, outbox.Entry{ChatID: msg.Chat.ID, Thread: t.Thread, Edit: msg.ID, Message: adapter.Message{Text: ch.answer}, Reply: true})
		}
	}
	return err
}

// cupRunner does a cup's host jobs and tells a cup that one of its tables
// ended: the only parts that change other tables than the host.
type cupRunner struct {
	*core
	lobby   *lobby
	leaving *leaving
}

// run does one of the host's cup jobs; each step is a change of one table
// that finds it done already when it was (a crash in between does it
// again).
func (cr *cupRunner) run(ctx context.Context, host *record.Table, job record.Job) error {
	cj, env := job.Cup, cr.cupEnv()
	switch {
	case cj.Crown:
		if game, users, ok := env.Winners(host, cj.Cup); ok {
			_, _, err := cr.transact(ctx, record.Sibling(host.ID, 1), 0, func(t *record.Table, ch *change) error {
				t.Crown(game, users, cr.now())
				return nil
			})
			if err := refusal.Settle(err); err != nil {
				return err
			}
		}
	case cj.Stop:
		for _, id := range env.Tables(host, cj.Cup, cj.Round) {
			if err := cr.stopCupTable(ctx, id, host, cj); err != nil {
				return err
			}
		}
	case cj.Leaver != 0:
		if id, _ := env.Seat(host, cj.Cup, cj.Round, cj.Leaver); id != "" {
			if err := cr.leaveCupTable(ctx, id, host, cj); err != nil {
				return err
			}
		}
	default:
		specs, _ := env.Round(host, cj.Cup, cj.Round)
		for _, sp := range specs {
			if err := cr.openCupTable(ctx, host, sp); err != nil {
				return err
			}
		}
	}
	return cr.dropCupJob(ctx, host.ID, job)
}

// dropCupJob drops a done job from the host (jobs.done's way).
func (cr *cupRunner) dropCupJob(ctx context.Context, id string, job record.Job) error {
	return (&jobs{core: cr.core}).done(ctx, id, job, nil)
}

// openCupTable opens and deals a table of a cup's round, once: a table
// above the group's limit is the cup's, so whatever was left there is
// closed first.
func (cr *cupRunner) openCupTable(ctx context.Context, host *record.Table, sp cups.Spec) error {
	_, _, err := cr.transact(ctx, sp.ID, 0, func(t *record.Table, ch *change) error {
		if t.CupOf != nil && *t.CupOf == sp.CupOf {
			return refusal.ErrNoChange // opened already
		}
		if t.Phase != record.PhaseIdle {
			closeTable(t)
		}
		openLobby(t, sp.Game, record.Seat{})
		t.Seats = slices.Clone(sp.Seats)
		t.Lang, t.Title, t.Zone = host.Lang, host.Title, host.Zone
		t.TurnTime, t.AILevel = sp.TurnTime, sp.Level
		cupOf := sp.CupOf
		t.CupOf = &cupOf
		return cr.lobby.startGame(ctx, t, ch)
	})
	return refusal.Settle(err)
}

// stopCupTable stops a cup's table still playing its round.
func (cr *cupRunner) stopCupTable(ctx context.Context, id string, host *record.Table, cj *record.CupJob) error {
	_, _, err := cr.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		if t.CupOf == nil || t.CupOf.Host != host.ID || t.CupOf.Cup != cj.Cup || t.CupOf.Round != cj.Round || t.Phase != record.PhasePlaying {
			return refusal.ErrNoChange
		}
		closeTable(t)
		t.Event = &record.Event{Key: "event.cup_stopped"}
		return nil
	})
	return refusal.Settle(err)
}

// leaveCupTable hands a person who left the cup their seat at the
// round's table to a robot. A table nobody is left at that had no robot
// ends with no result (leave.go); its cup is told everyone shares its
// last place, so the round goes on.
func (cr *cupRunner) leaveCupTable(ctx context.Context, id string, host *record.Table, cj *record.CupJob) error {
	var ended *record.CupTable
	var seats int
	_, _, err := cr.transact(ctx, id, 0, func(t *record.Table, ch *change) error {
		ended = nil
		if t.CupOf == nil || t.CupOf.Host != host.ID || t.CupOf.Cup != cj.Cup || t.CupOf.Round != cj.Round || t.Phase != record.PhasePlaying {
			return refusal.ErrNoChange
		}
		seat := t.SeatOf(cj.Leaver)
		if seat < 0 {
			return refusal.ErrNoChange
		}
		g, st, err := cr.decode(t)
		if err != nil {
			return err
		}
		jobs := len(t.Jobs)
		if err := cr.leaving.leave(t, ch, g, st, seat); err != nil {
			return err
		}
		if t.Phase == record.PhaseIdle && len(t.Jobs) == jobs {
			ended, seats = t.CupOf, len(t.Seats)
		}
		return nil
	})
	if err := refusal.Settle(err); err != nil || ended == nil {
		return err
	}
	return cr.tellCup(ctx, *ended, make([]cup.Place, seats))
}

// ended tells the cup that table t, one of its round's, finished game e:
// its places in seat order. Done before the result is recorded, in the
// same job, so a crash tells it again (the cup takes the same result
// twice as once).
func (cr *cupRunner) ended(ctx context.Context, t *record.Table, e *record.Result) error {
	if cr == nil || t.CupOf == nil || e == nil || e.GameNo != t.GameNo {
		return nil
	}
	g, st, err := cr.decode(t)
	if err != nil {
		return nil // a broken table: nothing to tell
	}
	places := make([]cup.Place, len(t.Seats))
	for _, f := range adapter.FinalList(adapter.View(t), st.Result(), st.Over()) {
		if f.Seat >= 0 && f.Seat < len(places) {
			places[f.Seat] = cup.Place{Place: f.Place, Score: f.Score}
		}
	}
	_ = g
	return cr.tellCup(ctx, *t.CupOf, places)
}

// tellCup records a table's places with its cup.
func (cr *cupRunner) tellCup(ctx context.Context, ct record.CupTable, places []cup.Place) error {
	for i := range places {
		if places[i].Place == 0 {
			places[i].Place = 1 // nobody ranked: everyone shares the place
		}
	}
	_, _, err := cr.transact(ctx, ct.Host, 0, func(h *record.Table, ch *change) error {
		return cr.cupChange(ctx, h, ch, false, func() (cups.Out, error) {
			return cr.cupEnv().Ended(h, ct, places)
		})
	})
	return refusal.Settle(err)
}

// cupGone takes a person who left the group out of its cup (belong.go's
// gone): the tables of the cup's round were theirs up to the limit only.
func (c *core) cupGone(ctx context.Context, updateID, chat, user int64) error {
	_, _, err := c.transact(ctx, cupHost(record.ID(chat, 0)), updateID, func(h *record.Table, ch *change) error {
		if h.Cup == nil {
			return refusal.ErrNoChange
		}
		return c.cupChange(ctx, h, ch, false, func() (cups.Out, error) { return c.cupEnv().Gone(h, user) })
	})
	return refusal.Settle(err)
}

// cupNeedsAdmin reports whether a press is a cup's button that its
// creator or an admin may press: only then is Telegram asked.
func cupNeedsAdmin(p callback.Data) bool {
	return p.Op == callback.Cup && len(p.Args) > 0 && cups.NeedsAdmin(p.Args[0])
}
