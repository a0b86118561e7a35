// Package chekharda adapts Чехарда (game/chekharda), the real-time game,
// to the platform: its Telegram rendering, lobby options, robots, clocks,
// live buttons and refusals that explain who was faster.
// cmd/games wires Game in.
package chekharda

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// chekhardaGame adapts Чехарда, the real-time set-stealing game, to the
// platform. There are no turns: every seat with a legal action has live
// buttons, a press is judged against the state as it is when it arrives,
// robots react after a human-like pause, and the system seat deals after a
// quiet pause that every action restarts (at once when nobody can act).
type chekhardaGame struct{}

// Game is «Чехарда», the real-time game of stealing sets, for 2–6
// players.
func Game() adapter.Game { return chekhardaGame{} }

func (chekhardaGame) ID() string            { return "chekharda" }
func (chekhardaGame) Aliases() []string     { return []string{"чехарда", "ruckus"} }
func (chekhardaGame) SeatRange() (int, int) { return ck.MinPlayers, ck.MaxPlayers }

// Lobby options: the target, the quiet pause before the dealer deals, and
// the variant «Хотите большего?». Value 0 is each one's default.
const (
	chekhardaOptTarget  = "target"
	chekhardaOptPause   = "pause"
	chekhardaOptVariant = "variant"
)

// chekhardaTargets are the target choices: the rulebook's game, a short one.
func chekhardaTargets() [2]int { return [2]int{ck.TargetFull, ck.TargetShort} }

// chekhardaPauses are the quiet-pause choices, the engine's default first.
func chekhardaPauses() [3]time.Duration {
	return [3]time.Duration{ck.QuietPause, 2 * time.Second, 5 * time.Second}
}

// chekhardaReadPause is how long the round's results stay up before the
// next round is dealt: long enough to read them in the group.
const chekhardaReadPause = 8 * time.Second

// Layout limits: what keeps the messages readable on a phone with six
// players.
const (
	chekhardaGroupLog  = 5  // grabs in the group message's log
	chekhardaSeatLog   = 3  // events in a private message
	chekhardaButtonRun = 12 // characters of a name on a button
)

func (g chekhardaGame) Options() []adapter.GameOption {
	return []adapter.GameOption{
		{Key: chekhardaOptTarget, Values: len(chekhardaTargets()), Label: func(l adapter.Loc, v int) string {
			return l.T("chekharda.option.target", "Count", chekhardaTargets()[v])
		}},
		{Key: chekhardaOptPause, Values: len(chekhardaPauses()), Label: func(l adapter.Loc, v int) string {
			return l.T("chekharda.option.pause", "Count", int(chekhardaPauses()[v]/time.Second))
		}},
		{Key: chekhardaOptVariant, Values: 2, Label: func(l adapter.Loc, v int) string {
			state := l.T("chekharda.option_off")
			if v == 1 {
				state = l.T("chekharda.option_on")
			}
			return l.T("chekharda.option.variant", "State", state)
		}},
	}
}

func (g chekhardaGame) quietPause(t adapter.TableView) time.Duration {
	return chekhardaPauses()[adapter.OptionValue(t, g, chekhardaOptPause)]
}

// Start deals round 1. The first dealer comes from the seed, so over many
// games nobody is always first to get cards.
func (g chekhardaGame) Start(t adapter.TableView) (game.State, error) {
	n := t.Seats()
	dealer := game.Seat(0)
	if n > 0 {
		dealer = game.Seat(t.Seed() % uint64(n))
	}
	return ck.New(ck.Config{
		Players:     n,
		Target:      chekhardaTargets()[adapter.OptionValue(t, g, chekhardaOptTarget)],
		DrawForSelf: adapter.OptionValue(t, g, chekhardaOptVariant) == 1,
		Dealer:      dealer,
		Seed:        t.Seed(),
	})
}

func (chekhardaGame) Decode(data []byte) (game.State, error) { return ck.Unmarshal(data) }

func (chekhardaGame) Levels() []string {
	return []string{string(ck.Novice), string(ck.Cook), string(ck.Shef)}
}

// Auto lets a robot look at the table: it acts, or waits (ok=false) and
// looks again after its reaction time. A decision depends only on the
// view and the seed, and neither changes while everybody waits; so when
// no deal will come (deck empty, or the variant) a robot that chose to
// wait would wait for ever. Then it plays one of its moves instead (only
// a novice's coin flip can choose to wait there).
func (chekhardaGame) Auto(st game.State, seat game.Seat, d adapter.Decision) (game.Action, bool) {
	level := ck.Level(d.Level)
	if d.Level == "" {
		level = ck.Cook
	}
	v := st.(*ck.State).SeatView(seat)
	a, ok := ck.Decide(level, v, d.Seed)
	if !ok && len(v.Legal) > 0 && v.Phase == ck.PhasePlay && (v.Deck == 0 || v.DrawForSelf) {
		return v.Legal[d.Seed%uint64(len(v.Legal))], true
	}
	return a, ok
}

// chekhardaAwayAfter is how long a person may make no move before the
// table marks them 💤: a round is seconds of pressing, so half a minute
// of silence means they are not looking.
const chekhardaAwayAfter = 30 * time.Second

// chekhardaIdleTimeout is how long a person who could act may stall a round
// in which no deal will come.
const chekhardaIdleTimeout = 45 * time.Second

// Delay sets the clocks of real time: people do not time out while the
// dealer keeps the game going (otherwise after chekhardaIdleTimeout), robots react
// after their level's human-like time (jittered by the seed), the dealer
// deals after the quiet pause (at once when nobody can act), and the next
// round comes after a pause for reading the results.
func (g chekhardaGame) Delay(t adapter.TableView, st game.State, s game.Seat, level string, seed uint64) (time.Duration, bool) {
	cs := st.(*ck.State)
	switch {
	case s == game.System && cs.Phase() == ck.PhaseRoundEnd:
		return chekhardaReadPause, true
	case s == game.System && cs.Stuck():
		return 0, true
	case s == game.System:
		return g.quietPause(t), true
	case level == "" && slices.Contains(cs.ToAct(), game.System):
		return 0, false // the dealer keeps the game going
	case level == "":
		// No deal will come (the deck is empty, or players draw for
		// themselves): a person who can act but walked away would hold up
		// the round for good, so after a while the bot acts for them.
		return chekhardaIdleTimeout, true
	}
	return ck.ReactionTime(ck.Level(level), seed), true
}

// LiveButtons: a button drawn before other moves still means the same
// move ("steal 🐷 from Оля") and is judged on the current state.
func (chekhardaGame) LiveButtons() bool { return true }

// Explain tells a refused player what happened meanwhile, from the
// engine's event log: who was faster, where their set went, or that
// their card is already played. Toasts are plain text: names unescaped.
func (chekhardaGame) Explain(l adapter.Loc, t adapter.TableView, st game.State, seat int, a game.Action, code game.Code) (string, bool) {
	m, ok := ck.Decode(a)
	cs, isState := st.(*ck.State)
	if !ok || !isState || !m.Kind.Valid() {
		return "", false
	}
	v := cs.PublicView()
	me := game.Seat(seat)
	switch code {
	case ck.CodeSetGone:
		if e, ok := v.LastSteal(m.Kind, m.Victim); ok && e.Seat != me && e.Round == v.Round {
			return l.T("chekharda.explain.beaten", "Name", chekhardaName(t, e.Seat), "Emoji", m.Kind.Emoji(),
				"Victim", chekhardaName(t, m.Victim)), true
		}
		return l.T("chekharda.explain.gone", "Emoji", m.Kind.Emoji(), "Victim", chekhardaName(t, m.Victim)), true
	case ck.CodeNoOwnSet:
		if e, ok := v.LastSteal(m.Kind, me); ok && e.Round == v.Round {
			return l.T("chekharda.explain.own_stolen", "Emoji", m.Kind.Emoji(), "Name", chekhardaName(t, e.Seat)), true
		}
	case ck.CodeNoSingleCard:
		for i := len(v.Events) - 1; i >= 0; i-- {
			e := v.Events[i]
			if e.Round != v.Round || e.Seat != me || e.Kind != m.Kind {
				continue
			}
			switch e.Type {
			case ck.EventSteal, ck.EventAdd:
				return l.T("chekharda.explain.played", "Emoji", m.Kind.Emoji()), true
			case ck.EventLay:
				return l.T("chekharda.explain.paired", "Emoji", m.Kind.Emoji()), true
			}
			break
		}
	}
	return "", false
}

// chekhardaName is a seat's name for plain text (toasts, buttons).
func chekhardaName(t adapter.TableView, s game.Seat) string {
	if ts, ok := t.Seat(s); ok {
		return ts.Name()
	}
	return "?"
}

// chekhardaShortName cuts a name for a button, so a row of them fits a phone.
func chekhardaShortName(t adapter.TableView, s game.Seat) string {
	name := chekhardaName(t, s)
	if utf8.RuneCountInString(name) <= chekhardaButtonRun {
		return name
	}
	r := []rune(name)
	return string(r[:chekhardaButtonRun-1]) + "…"
}

// chekhardaSet is a set as the table shows it: "🐷×3".
func chekhardaSet(k ck.Kind, n int) string { return k.Emoji() + "×" + strconv.Itoa(n) }

func chekhardaSets(sets []ck.Set) string {
	if len(sets) == 0 {
		return "—"
	}
	parts := make([]string, len(sets))
	for i, s := range sets {
		parts[i] = chekhardaSet(s.Kind, s.Size)
	}
	return strings.Join(parts, " ")
}

func chekhardaKindName(l adapter.Loc, k ck.Kind) string { return l.T("chekharda.kind." + k.ID()) }

// chekhardaEvent is one line of the log.
func chekhardaEvent(l adapter.Loc, t adapter.TableView, e ck.Event) string {
	name := adapter.SeatName(t, e.Seat)
	switch e.Type {
	case ck.EventSteal:
		// The victim loses this kind's set only, and may hold others.
		return l.T("chekharda.ev.steal", "Name", name, "Set", chekhardaSet(e.Kind, e.N), "Victim", adapter.SeatName(t, e.Victim),
			"Kind", chekhardaKindName(l, e.Kind), "Emoji", e.Kind.Emoji())
	case ck.EventAdd:
		return l.T("chekharda.ev.add", "Name", name, "Emoji", e.Kind.Emoji(), "Set", chekhardaSet(e.Kind, e.Size))
	case ck.EventLay:
		return l.T("chekharda.ev.lay", "Name", name, "Set", chekhardaSet(e.Kind, e.N))
	case ck.EventDeal:
		if e.N < t.Seats() {
			return l.T("chekharda.ev.deal_last", "Name", name, "Cards", l.T("chekharda.count.cards", "Count", e.N))
		}
		return l.T("chekharda.ev.deal", "Name", name)
	case ck.EventDraw:
		return l.T("chekharda.ev.draw", "Name", name)
	case ck.EventRound:
		return l.T("chekharda.ev.round", "Round", e.Round, "Name", name)
	case ck.EventOut:
		return l.T("chekharda.ev.out", "Name", name)
	case ck.EventDeadlock:
		return l.T("chekharda.ev.deadlock")
	}
	return ""
}

// chekhardaRecent are the newest events of the current round of the given
// types, at most n, oldest first.
func chekhardaRecent(v ck.Public, n int, types ...ck.EventType) []ck.Event {
	var out []ck.Event
	for i := len(v.Events) - 1; i >= 0 && len(out) < n; i-- {
		e := v.Events[i]
		if e.Round != v.Round {
			break
		}
		if slices.Contains(types, e.Type) {
			out = append(out, e)
		}
	}
	slices.Reverse(out)
	return out
}

// chekhardaGrabs are the events the group log shows: who took what.
func chekhardaGrabs() []ck.EventType {
	return []ck.EventType{ck.EventSteal, ck.EventAdd, ck.EventDraw, ck.EventOut, ck.EventDeadlock}
}

// chekhardaSeatEvents are the events a private message shows: everything that
// changed the table, so a player sees why their buttons changed.
func chekhardaSeatEvents() []ck.EventType {
	return []ck.EventType{ck.EventSteal, ck.EventAdd, ck.EventLay, ck.EventDeal, ck.EventDraw, ck.EventOut, ck.EventDeadlock}
}

// tableLines lists every seat: name, total, cards in hand and sets. you
// marks the reader's own seat (-1 in the group).
func (g chekhardaGame) tableLines(l adapter.Loc, t adapter.TableView, v ck.Public, you game.Seat) string {
	var b strings.Builder
	for i, sp := range v.Seats {
		s := game.Seat(i)
		name := "<b>" + adapter.SeatName(t, s) + "</b>"
		if s == you {
			name = l.T("chekharda.you", "Name", name)
		}
		b.WriteString(l.T("chekharda.seat_line", "Name", name, "Points", l.T("chekharda.count.points", "Count", sp.Total),
			"Hand", sp.Hand, "Sets", chekhardaSets(sp.Sets)) + chekhardaMark(t, s, v.Phase == ck.PhaseOver) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// chekhardaMark is the platform's mark of a seat (⚠️, 💤 while the bot
// plays for them), or 💤 for a person who has made no move for
// chekhardaAwayAfter: with no turns, nothing else tells the table who
// walked away. It shows from the next redraw, which a busy table has soon.
func chekhardaMark(t adapter.TableView, s game.Seat, over bool) string {
	if m := adapter.SeatMark(t, s, over); m != "" || over {
		return m
	}
	if adapter.IdleFor(t, s) >= chekhardaAwayAfter {
		return " 💤"
	}
	return ""
}

// rulesLine says how cards come: the dealer after a quiet pause, or the
// variant's draws.
func (g chekhardaGame) rulesLine(l adapter.Loc, t adapter.TableView, v ck.Public) string {
	if v.DrawForSelf {
		return l.T("chekharda.variant_line")
	}
	return l.T("chekharda.pause_line", "Pause", l.T("chekharda.count.pause", "Count", int(g.quietPause(t)/time.Second)))
}

func (g chekhardaGame) RenderTable(l adapter.Loc, t adapter.TableView, st game.State) adapter.Message {
	v := st.(*ck.State).PublicView()
	var b strings.Builder
	if v.Phase == ck.PhaseOver {
		b.WriteString(l.T("chekharda.header_over", "Title", adapter.Title(l, g)) + "\n\n")
		b.WriteString(g.tableLines(l, t, v, -1) + "\n")
		if e := adapter.EventLine(l, t); e != "" {
			b.WriteString("\n" + e + "\n")
		}
		b.WriteString("\n" + l.T("chekharda.game_over"))
		return adapter.Message{Text: b.String()}
	}
	b.WriteString(l.T("chekharda.header", "Title", adapter.Title(l, g), "Round", v.Round,
		"Target", l.T("chekharda.count.upto", "Count", v.Target)) + "\n")
	if v.Phase == ck.PhasePlay {
		b.WriteString(l.T("chekharda.deck_line", "Cards", l.T("chekharda.count.cards", "Count", v.Deck)) + " · " + g.rulesLine(l, t, v) + "\n")
	}
	b.WriteString("\n" + g.tableLines(l, t, v, -1) + "\n")
	if log := chekhardaRecent(v, chekhardaGroupLog, chekhardaGrabs()...); len(log) > 0 {
		b.WriteString("\n" + l.T("chekharda.log_title") + "\n")
		for _, e := range log {
			b.WriteString(chekhardaEvent(l, t, e) + "\n")
		}
	}
	if e := adapter.EventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	if t.Playing() && v.Phase == ck.PhaseRoundEnd {
		b.WriteString("\n" + l.T("chekharda.round_end_table", "Round", v.Round))
	}
	return adapter.Message{Text: strings.TrimRight(b.String(), "\n")}
}

func (g chekhardaGame) RenderSeat(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Message {
	v := st.(*ck.State).SeatView(game.Seat(seat))
	var b strings.Builder
	b.WriteString(l.T("chekharda.hand_header", "Title", adapter.Title(l, g), "Chat", adapter.Esc(t.Title()), "Round", v.Round) + "\n")
	switch {
	case v.Phase == ck.PhaseOver:
		b.WriteString(l.T("hand.over"))
		return adapter.Message{Text: b.String()}
	case !t.Playing():
		b.WriteString(l.T("hand.stopped"))
		return adapter.Message{Text: b.String()}
	case v.Phase == ck.PhaseRoundEnd:
		if r := v.Last; r != nil && seat < len(r.Seats) {
			b.WriteString("\n" + l.T("chekharda.hand_round_over", "Round", r.Round,
				"Score", l.T("chekharda.count.points", "Count", r.Seats[seat].Score), "Total", l.T("chekharda.count.points", "Count", v.Seats[seat].Total)))
		}
		return adapter.Message{Text: b.String()}
	}
	hand := make([]string, len(v.Hand))
	for i, k := range v.Hand {
		hand[i] = k.Emoji()
	}
	b.WriteString("\n" + l.T("chekharda.hand_mine", "Cards", strings.Join(hand, " ")) + "\n")
	b.WriteString("\n" + l.T("chekharda.table_title", "Cards", l.T("chekharda.count.cards", "Count", v.Deck)) + "\n")
	b.WriteString(g.tableLines(l, t, v.Public, v.Seat) + "\n")
	if log := chekhardaRecent(v.Public, chekhardaSeatLog, chekhardaSeatEvents()...); len(log) > 0 {
		b.WriteString("\n")
		for _, e := range log {
			b.WriteString(chekhardaEvent(l, t, e) + "\n")
		}
	}
	kb := g.seatKeyboard(l, t, seat, v)
	b.WriteString("\n" + g.seatPrompt(l, t, v, len(kb) > 0))
	// Ping: the first message of a round notifies (a fresh message);
	// every later change of the round is an edit, which does not.
	return adapter.Message{Text: b.String(), Keyboard: kb, Ping: true}
}

// seatPrompt tells a seat in a round what to do now: press (or draw), or
// wait for the deal or for the others.
func (g chekhardaGame) seatPrompt(l adapter.Loc, t adapter.TableView, v ck.SeatView, buttons bool) string {
	switch {
	case buttons && slices.Contains(v.Legal, ck.DrawAction()):
		return l.T("chekharda.hand_draw")
	case buttons:
		return l.T("chekharda.hand_act")
	case v.Deck > 0 && !v.DrawForSelf:
		return l.T("chekharda.hand_wait_deal", "Pause", l.T("chekharda.count.pause", "Count", int(g.quietPause(t)/time.Second)))
	}
	return l.T("chekharda.hand_wait")
}

// seatKeyboard has a button per legal move: steals two to a row (they
// carry a name), adds four to a row, then the draw. The order follows
// Legal (kind, then victim), so a button keeps its place while it lasts.
func (chekhardaGame) seatKeyboard(l adapter.Loc, t adapter.TableView, seat int, v ck.SeatView) [][]adapter.Button {
	var steals, adds, draw []adapter.Button
	for _, a := range v.Legal {
		m, ok := ck.Decode(a)
		if !ok {
			continue
		}
		switch m.Type {
		case ck.MoveSteal:
			steals = append(steals, adapter.ActionButton(t, seat, l.T("chekharda.steal_button",
				"Set", chekhardaSet(m.Kind, v.SetOf(m.Victim, m.Kind)), "Victim", chekhardaShortName(t, m.Victim)), a))
		case ck.MoveAdd:
			adds = append(adds, adapter.ActionButton(t, seat, l.T("chekharda.add_button",
				"Emoji", m.Kind.Emoji(), "Set", chekhardaSet(m.Kind, v.SetOf(v.Seat, m.Kind))), a))
		case ck.MoveDraw:
			draw = append(draw, adapter.ActionButton(t, seat, l.T("chekharda.draw_button"), a))
		}
	}
	kb := adapter.Rows(steals, 2)
	kb = append(kb, adapter.Rows(adds, 4)...)
	return append(kb, adapter.Rows(draw, 1)...)
}

func (g chekhardaGame) Announce(l adapter.Loc, t adapter.TableView, before, after game.State) []adapter.Message {
	b, a := before.(*ck.State).PublicView(), after.(*ck.State).PublicView()
	var out []adapter.Message
	if r := a.Last; r != nil && a.Phase != ck.PhasePlay && (b.Last == nil || b.Last.Round < r.Round) {
		out = append(out, adapter.Message{Text: chekhardaRoundResult(l, t, a, r)})
	}
	if a.Phase == ck.PhaseOver && b.Phase != ck.PhaseOver {
		res := after.Result()
		text := adapter.WinnerLine(l, t, res) + "\n\n" + adapter.ResultTable(l, t, res, func(s game.Seat) string {
			return l.T("chekharda.count.points", "Count", res.Scores[s])
		})
		out = append(out, adapter.Message{Text: text})
	}
	return out
}

// roundPoints is a part of a round's score with its sign: «+28» for the
// sets, «−2» for the cards left in the hand (a penalty), «0».
func roundPoints(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// chekhardaRoundResult is a finished round's scoring: who went out, then each
// seat's score and total, best total first.
func chekhardaRoundResult(l adapter.Loc, t adapter.TableView, v ck.Public, r *ck.RoundScore) string {
	var b strings.Builder
	b.WriteString(l.T("chekharda.round_over", "Round", r.Round) + "\n")
	if r.Out >= 0 {
		b.WriteString(l.T("chekharda.round_out", "Name", adapter.SeatName(t, r.Out)) + "\n")
	} else {
		b.WriteString(l.T("chekharda.round_deadlock") + "\n")
	}
	order := make([]int, len(r.Seats))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(v.Seats[y].Total, v.Seats[x].Total) })
	for _, i := range order {
		sc := r.Seats[i]
		bonus := ""
		if sc.Bonus > 0 {
			bonus = l.T("chekharda.round_bonus", "Bonus", sc.Bonus)
		}
		b.WriteString("\n" + l.T("chekharda.round_line", "Name", adapter.SeatName(t, game.Seat(i)), "Score", sc.Score,
			"Total", l.T("chekharda.count.points", "Count", v.Seats[i].Total),
			"Sets", roundPoints(sc.SetCards), "Hand", roundPoints(-sc.HandCards), "Bonus", bonus))
	}
	return b.String()
}

// Deal tells a round's deal: who dealt, every seat's hand and the sets
// laid from it, and the deck in the order the dealer deals it. Each round
// is shuffled from the generator the seed starts and nothing else draws
// from it, so every round's deal follows from the reveal alone (how many
// rounds there were, from the moves).
func (chekhardaGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*ck.State)
	p := s.PublicView()
	lines := []string{l.T("chekharda.deal.round", "Round", s.Round(), "Dealer", adapter.SeatPlainName(t, s.Dealer()))}
	for i := range s.Seats() {
		v := s.SeatView(game.Seat(i))
		hand := make([]string, len(v.Hand))
		for j, k := range v.Hand {
			hand[j] = k.Emoji()
		}
		var sets []ck.Set
		for _, set := range p.Sets {
			if set.Owner == game.Seat(i) {
				sets = append(sets, set)
			}
		}
		lines = append(lines, l.T("chekharda.deal.hand", "Name", adapter.SeatPlainName(t, game.Seat(i)),
			"Cards", strings.Join(hand, " "), "Sets", chekhardaSets(sets)))
	}
	lines = append(lines, l.T("chekharda.deal.deck", "Cards", deckText(s)))
	return strings.Join(lines, "\n")
}

// deckText is the deck, top first, as emoji.
func deckText(s *ck.State) string {
	kinds, _ := deckKinds(s)
	if len(kinds) == 0 {
		return "—"
	}
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.Emoji()
	}
	return strings.Join(out, " ")
}

// deckKinds is the deck, top first: read from the engine's full notation,
// the one place the deck's order shows.
func deckKinds(s *ck.State) ([]ck.Kind, bool) {
	_, deck, ok := strings.Cut(s.Notation(), "; deck ")
	var out []ck.Kind
	for i := 0; i < len(deck); i++ {
		if k, ok := ck.ParseKind(deck[i]); ok {
			out = append(out, k)
		}
	}
	return out, ok
}

// Shuffled: a new round was dealt.
func (chekhardaGame) Shuffled(before, after game.State) bool {
	return after.(*ck.State).Round() != before.(*ck.State).Round()
}
