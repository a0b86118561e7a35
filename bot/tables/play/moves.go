// Package play is the tables' game on: what a move does to a table
// (moves.go), a finished game's result (result.go), a seat's buttons and
// hints (seats.go), the timers and the robots' moves (timers.go), long
// games' deadlines (long.go), first-game tips (tips.go), leaving a game
// (leave.go) and the «Стол» page's lease (pages.go).
package play

import (
	"fmt"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
)

// Moves is what a move does to a table, whoever made it (a person's press,
// the page, a robot, the bot for a person whose time ran out, the game's
// system): the engine applies it, the log records it, the seats' timers
// restart, the announcements it causes are queued, and a finished game
// leaves its result to record.
type Moves struct {
	views    *view.Renderer
	now      func() time.Time
	log      zerolog.Logger
	metrics  *metrics.Metrics // nil: not measured
	aiDelay  time.Duration    // pause before a robot (or the bot for a person) moves
	aiBudget time.Duration    // how long a searching robot may think
	tips     *Tips
}

// NewMoves builds the moves: views draw and time them, aiDelay and
// aiBudget pace the robots, tips teach a first game.
func NewMoves(views *view.Renderer, tips *Tips, aiDelay, aiBudget time.Duration, now func() time.Time, log zerolog.Logger, m *metrics.Metrics) *Moves {
	return &Moves{views: views, now: now, log: log, metrics: m, aiDelay: aiDelay, aiBudget: aiBudget, tips: tips}
}

// Apply runs one engine action for a seat (or the system) and records
// everything it causes: the log, the seat's nonce, announcements and the
// timers. A rule violation becomes a refusal with the engine's reason.
// A system move a person's move leaves due at once follows in the same
// change.
func (m *Moves) Apply(t *record.Table, ch *txn.Change, g adapter.Game, st game.State, seat game.Seat, a game.Action, auto bool) error {
	before, err := g.Decode(t.State)
	if err != nil {
		return txn.Broken(err)
	}
	if err := st.Apply(seat, a); err != nil {
		if code := game.CodeOf(err); code != "" {
			return m.ruleRefusal(t, g, before, seat, a, code)
		}
		return txn.Broken(fmt.Errorf("apply %d for seat %d: %w", a, seat, err)) // the engine contradicts itself
	}
	data, err := st.MarshalBinary()
	if err != nil {
		return txn.Broken(err)
	}
	t.State = data
	if mg, ok := g.(adapter.MemoryGame); ok {
		t.Memory = mg.Observe(t.Memory, st)
	}
	t.Log = append(t.Log, record.Move{Seat: seat, Action: a, Auto: auto})
	l := m.views.Loc(t.Lang)
	if s := t.Seat(seat); s != nil {
		s.Nonce++
		s.Draft = nil
		if !auto {
			s.Tip = "" // read: the person moved since
			s.Acted = m.now()
		}
		s.Due, s.Turn = time.Time{}, nil // acting again later means a fresh timer
		if s.Human() {
			s.Moved = &record.SeatMove{Nonce: s.Nonce, Name: view.MoveName(l, m.views.AdapterView(t), g, before, seat, a), Auto: auto}
		}
	}
	msgs := g.Announce(l, m.views.AdapterView(t), before, st)
	if st.Over() {
		// The result is recorded before anyone asks for /stats after the
		// final announcement, which gets the «play again» button.
		msgs = m.Finish(t, g, st, msgs)
	}
	for _, msg := range msgs {
		ch.Post(t, msg)
	}
	acting := st.ToAct()
	for i := range t.Seats {
		if game.Seat(i) != seat && slices.Contains(acting, game.Seat(i)) {
			// Their turn: a waiting view of theirs is no longer about
			// their last move (the confirmation).
			t.Seats[i].Moved = nil
		}
	}
	if st.Over() {
		t.Phase = record.PhaseIdle
		t.StopTimers()
		if t.Event != nil && t.Event.Key == "event.timeout" {
			t.Event = nil // the finished table shows the result, not a timeout long past
		}
		return nil
	}
	m.tips.Teach(t, g, before, st)
	m.Schedule(t, g, st, true)
	if !auto && !t.SystemAt.IsZero() && !t.SystemAt.After(m.now()) {
		// A person's move left the system's move due at once (in real
		// time: nobody can act, so the dealer deals): it is made in this
		// change rather than in one of its own once the timers get to the
		// table, which under load means after other tables, while the
		// players wait.
		return m.ActFor(t, ch, g, st, game.System)
	}
	return nil
}

// ruleRefusal explains an illegal action in the player's terms: the game's
// own text for the code, with details when the game can give them.
func (m *Moves) ruleRefusal(t *record.Table, g adapter.Game, st game.State, seat game.Seat, a game.Action, code game.Code) error {
	l := m.views.Loc(t.Lang)
	if ex, ok := g.(adapter.ExplainGame); ok && seat >= 0 {
		if text, ok := ex.Explain(l, m.views.AdapterView(t), st, int(seat), a, code); ok {
			return refusal.Rendered(text)
		}
	}
	return refusal.New(adapter.ErrorKey(l, g, code))
}

// Finish records the end of a game in the change: the result becomes the
// table's job (recorded before any results command asked after it), and
// the last announcement gets the «play again» button. It runs inside the
// transaction's closure: no I/O.
func (m *Moves) Finish(t *record.Table, g adapter.Game, st game.State, msgs []adapter.Message) []adapter.Message {
	job := record.Job{Result: ResultOf(t, g, st, m.now())}
	if f, ok := deal.FileOf(t); ok {
		job.DealFile = f.Encode()
	}
	if adapter.Reviewable(g) {
		job.Finished = t.Finished()
		job.Finished.Updated = m.now() // when it ended
	}
	t.Jobs = append(t.Jobs, job)
	l := m.views.Loc(t.Lang)
	msgs = slices.Clone(msgs)
	if len(msgs) == 0 {
		msgs = []adapter.Message{{Text: l.T("again.over")}}
	}
	last := &msgs[len(msgs)-1]
	last.Keyboard = slices.Clone(last.Keyboard)
	if m.views.Againable(t) {
		last.Keyboard = append(last.Keyboard, []adapter.Button{view.AgainButton(l, t, t.GameNo, t.GameID)})
	}
	if job.Finished != nil && view.PracticeChat(t.ChatID) {
		// A practice table's person has no private result: its review is
		// offered under the last word of the game.
		last.Keyboard = append(last.Keyboard, []adapter.Button{view.ReviewButton(l, t)})
	}
	return msgs
}

// Timers live in the table record, so any replica can fire them: each seat
// that must act has its own (Seat.Due), and the game's system seat has one
// more (Table.SystemAt). The store's timers queue holds the earliest.
//
// A person's timer runs while the seat stays to act and starts afresh when
// it acts; a robot's restarts with every move, so it reacts to the latest
// state after its reaction time, as a person would (in real time it must
// not grab a set a few milliseconds after it appeared); the system's timer
// restarts with every move too, so "deal after a quiet pause" means what
// it says. Without the ClockGame capability a person has the table's turn
// time, a robot (or a person the bot plays for) AIDelay, and the system
// moves at once.

// Schedule sets the timers after a change. moved reports that an action was
// applied (the system's quiet pause starts again).
func (m *Moves) Schedule(t *record.Table, g adapter.Game, st game.State, moved bool) {
	now := m.now()
	acting := st.ToAct()
	for i := range t.Seats {
		s := &t.Seats[i]
		if !slices.Contains(acting, game.Seat(i)) || moved && !s.Human() {
			s.Due, s.Turn = time.Time{}, nil
		}
		if !slices.Contains(acting, game.Seat(i)) || !s.Due.IsZero() {
			continue // nothing to do, or still running
		}
		if d, ok := m.delay(t, g, st, game.Seat(i)); ok {
			s.Due = now.Add(d)
			m.longTurn(t, g, i, now, d) // long.go
		}
	}
	if !slices.Contains(acting, game.System) {
		t.SystemAt = time.Time{}
		return
	}
	if moved || t.SystemAt.IsZero() {
		t.SystemAt = time.Time{}
		if d, ok := m.delay(t, g, st, game.System); ok {
			t.SystemAt = now.Add(d)
		}
	}
}

// delay is how long the bot waits before acting for seat s.
func (m *Moves) delay(t *record.Table, g adapter.Game, st game.State, s game.Seat) (time.Duration, bool) {
	ts := t.Seat(s)
	if c, ok := g.(adapter.ClockGame); ok {
		level := ""
		if ts != nil && !ts.Human() {
			level = ts.AI
		}
		return c.Delay(adapter.View(t), st, s, level, seatSeed(t)^uint64(s+2))
	}
	switch {
	case ts == nil:
		return 0, true // the system: at once
	case ts.Auto():
		return m.aiDelay, true
	}
	return m.views.TurnTime(t), true
}

// ActFor makes the bot's move for a due seat (a real-time robot may choose
// to wait instead).
func (m *Moves) ActFor(t *record.Table, ch *txn.Change, g adapter.Game, st game.State, seat game.Seat) error {
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return nil
	}
	s := t.Seat(seat)
	if seat == game.System {
		// The system's move is the first it may make (a deal, the next round).
		return m.Apply(t, ch, g, st, seat, legal[0], true)
	}
	m.metrics.Timeout()
	if !s.Auto() {
		s.Timeouts++
		t.Event = &record.Event{Key: "event.timeout", Seat: int(seat)}
		m.toldAuto(t, ch, int(seat)) // long.go
	}
	level := s.AI
	if s.Human() {
		level = "" // a person's timeout: the simplest player moves, quickly
	}
	a := legal[0]
	if r, ok := g.(adapter.RobotGame); ok {
		choice, move := r.Auto(st, seat, adapter.Decision{Level: level, Seed: seatSeed(t), Memory: t.Memory, Budget: m.aiBudget})
		if !move {
			// A real-time robot waits: it looks again after its reaction time.
			s.Due = time.Time{}
			return nil
		}
		a = choice
		if !slices.Contains(legal, a) {
			// A robot must never stall a game: fall back to a legal move.
			m.log.Error().Str("table", t.ID).Int("seat", int(seat)).Int("action", int(a)).Msg("robot chose an illegal move")
			a = legal[0]
		}
	}
	return m.Apply(t, ch, g, st, seat, a, true)
}

// seatSeed derives the seed of the bot's n-th automatic decision, so a game
// replays identically from its seed and log.
func seatSeed(t *record.Table) uint64 {
	x := t.DecisionBase() + uint64(len(t.Log)+1)*0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return x
}
