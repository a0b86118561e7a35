// Package sausages adapts Сосиски (game/sausages) to the platform: its
// Telegram rendering, robots and the private info alert. cmd/games
// wires Game in.
package sausages

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// sausagesGame adapts Сосиски to the platform.
type sausagesGame struct{}

// Game is Сосиски, the Skull-like bluffing game for 3–6 players.
func Game() adapter.Game { return sausagesGame{} }

func (sausagesGame) ID() string            { return "sausages" }
func (sausagesGame) Aliases() []string     { return []string{"сосиски", "сосиска", "skull"} }
func (sausagesGame) SeatRange() (int, int) { return ss.MinPlayers, ss.MaxPlayers }

func (sausagesGame) Start(t adapter.TableView) (game.State, error) {
	return ss.New(ss.Config{Players: t.Seats(), First: 0, Seed: t.Seed()})
}

func (sausagesGame) Decode(data []byte) (game.State, error) { return ss.Unmarshal(data) }

func (sausagesGame) Levels() []string { return []string{"novice", "sly", "sharp"} }

// Auto plays the easy AI for novices and timed-out people, the counting one
// for the middle level and the one that reads the table and bluffs on
// purpose for the top level.
func (sausagesGame) Auto(st game.State, seat game.Seat, d adapter.Decision) (game.Action, bool) {
	v := st.(*ss.State).SeatView(seat)
	switch d.Level {
	case "", "novice":
		return ss.Baseline(v, d.Seed), true
	case "sharp":
		return ss.Sharp(v, d.Seed), true
	}
	return ss.Sly(v, d.Seed), true
}

func cardEmoji(c ss.Card) string {
	if c == ss.Boot {
		return "🥾"
	}
	return "🌭"
}

func revealsText(t adapter.TableView, rs []ss.Reveal) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, adapter.SeatName(t, r.Seat)+" "+cardEmoji(r.Card))
	}
	return strings.Join(parts, ", ")
}

func (k sausagesGame) RenderTable(l adapter.Loc, t adapter.TableView, st game.State) adapter.Message {
	v := st.(*ss.State).PublicView()
	var b strings.Builder
	if v.Phase == ss.PhaseOver {
		b.WriteString(l.T("sausages.header_over", "Title", adapter.Title(l, k)) + "\n")
	} else {
		b.WriteString(l.T("sausages.header", "Title", adapter.Title(l, k), "Round", v.Round) + "\n")
		b.WriteString(l.T("sausages.on_boards", "Count", v.Total) + "\n")
	}
	acting := map[game.Seat]bool{}
	for _, s := range v.ToAct {
		acting[s] = true
	}
	b.WriteString("\n" + l.T("sausages.players") + "\n")
	for i, sp := range v.Seats {
		marker := "  "
		if acting[game.Seat(i)] {
			marker = "👉 "
		}
		var line string
		if sp.Out {
			line = l.T("sausages.seat_out", "Name", adapter.SeatName(t, game.Seat(i)))
		} else {
			line = l.T("sausages.seat_line", "Name", adapter.SeatName(t, game.Seat(i)), "Wins", winsText(l, sp.Side),
				"Stack", l.T("count.cards", "Count", sp.Stack), "Owned", l.T("count.cards", "Count", sp.Owned))
			if sp.Passed {
				line += " · " + l.T("sausages.passed")
			}
		}
		b.WriteString(marker + line + adapter.SeatMark(t, game.Seat(i), v.Phase == ss.PhaseOver) + "\n")
	}
	if len(v.Bids) > 0 && v.Phase != ss.PhaseOver {
		var bids []string
		for _, e := range v.Bids {
			if e.Pass() {
				bids = append(bids, adapter.SeatName(t, e.Seat)+" — "+l.T("sausages.pass_word"))
			} else {
				bids = append(bids, adapter.SeatName(t, e.Seat)+" — "+strconv.Itoa(e.N))
			}
		}
		b.WriteString("\n" + l.T("sausages.bids", "Bids", strings.Join(bids, ", ")) + "\n")
	}
	if len(v.Revealed) > 0 {
		b.WriteString(l.T("sausages.revealed", "Cards", revealsText(t, v.Revealed)) + "\n")
	}
	if e := adapter.EventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	if v.Phase == ss.PhaseOver {
		b.WriteString("\n" + l.T("sausages.game_over"))
		return adapter.Message{Text: b.String()}
	}
	if !t.Playing() {
		return adapter.Message{Text: b.String()}
	}
	b.WriteString("\n" + k.turnText(l, t, v))
	for _, s := range v.ToAct {
		if d := adapter.DeadlineText(l, t, s); d != "" {
			b.WriteString(d)
			break
		}
	}
	return adapter.Message{Text: b.String()}
}

// turnText says who must do what now.
func (sausagesGame) turnText(l adapter.Loc, t adapter.TableView, v ss.Public) string {
	if len(v.ToAct) == 0 {
		return ""
	}
	who := adapter.Mention(t, v.ToAct[0])
	switch v.Phase {
	case ss.PhaseSetup:
		return l.T("sausages.turn_setup", "Names", adapter.Mentions(t, v.ToAct))
	case ss.PhaseAdd:
		return l.T("sausages.turn_add", "Name", who)
	case ss.PhaseBid:
		return l.T("sausages.turn_bid", "Name", who, "Bid", v.Bid, "Bidder", adapter.SeatName(t, v.Bidder))
	case ss.PhaseAttempt:
		return l.T("sausages.turn_attempt", "Name", who, "Target", v.Target, "Done", len(v.Revealed))
	case ss.PhasePick:
		return l.T("sausages.turn_pick", "Name", who, "Challenger", adapter.SeatName(t, v.Challenger))
	case ss.PhaseLose:
		return l.T("sausages.turn_lose", "Name", who)
	case ss.PhaseName:
		return l.T("sausages.turn_name", "Name", who)
	}
	return ""
}

// winsText is a seat's successes so far, out of the two that win, from
// its board's side: «1 успех из 2».
func winsText(l adapter.Loc, side int) string {
	return l.T("sausages.wins", "Count", side-1)
}

// handText is the hand by kind, «🌭×3 🥾×1», a kind the hand lacks left
// out («🌭×3», never «🥾×0»); an empty hand is «—», as an empty stack is.
func handText(l adapter.Loc, h ss.Hand) string {
	var kinds []string
	if h.Sausages > 0 {
		kinds = append(kinds, l.T("sausages.hand_sausages", "N", h.Sausages))
	}
	if h.Boots > 0 {
		kinds = append(kinds, l.T("sausages.hand_boots", "N", h.Boots))
	}
	if len(kinds) == 0 {
		return "—"
	}
	return strings.Join(kinds, " ")
}

func stackText(l adapter.Loc, cards []ss.Card) string {
	if len(cards) == 0 {
		return "—"
	}
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = cardEmoji(c)
	}
	return strings.Join(parts, " ")
}

func (k sausagesGame) RenderSeat(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Message {
	s := st.(*ss.State)
	v := s.SeatView(game.Seat(seat))
	var b strings.Builder
	b.WriteString(l.T("sausages.hand_header", "Title", adapter.Title(l, k), "Chat", adapter.Esc(t.Title()), "Round", v.Round) + "\n")
	if v.Phase == ss.PhaseOver {
		b.WriteString(l.T("hand.over"))
		return adapter.Message{Text: b.String()}
	}
	if !t.Playing() {
		b.WriteString(l.T("hand.stopped"))
		return adapter.Message{Text: b.String()}
	}
	me := v.Seats[seat]
	if me.Out && len(v.Legal) == 0 { // an out challenger still names who starts next
		b.WriteString(l.T("sausages.hand_out"))
		return adapter.Message{Text: b.String(), Lazy: true}
	}
	b.WriteString(l.T("sausages.hand_mine", "Hand", handText(l, v.Hand), "Stack", stackText(l, v.Stack), "Wins", winsText(l, me.Side)) + "\n")
	if v.Lost != ss.NoCard {
		b.WriteString(l.T("sausages.hand_lost", "Card", cardEmoji(v.Lost)) + "\n")
	}
	if len(v.Legal) == 0 {
		b.WriteString("\n" + l.T("hand.wait"))
		return adapter.Message{Text: b.String(), Lazy: true}
	}
	keys := seatKeysOf(l, t, v, seat)
	var kb [][]adapter.Button
	switch v.Phase {
	case ss.PhaseSetup:
		b.WriteString("\n" + l.T("sausages.hand_setup"))
	case ss.PhaseAdd:
		b.WriteString("\n" + l.T("sausages.hand_add", "Count", v.Total))
	case ss.PhaseBid:
		b.WriteString("\n" + l.T("sausages.hand_bid", "Bid", v.Bid, "Count", v.Total))
	case ss.PhaseAttempt:
		b.WriteString("\n" + l.T("sausages.hand_attempt", "Target", v.Target, "Done", len(v.Revealed)))
	case ss.PhasePick:
		b.WriteString("\n" + l.T("sausages.hand_pick", "Name", adapter.SeatName(t, v.Challenger)))
	case ss.PhaseLose:
		b.WriteString("\n" + l.T("sausages.hand_lose"))
	case ss.PhaseName:
		b.WriteString("\n" + l.T("sausages.hand_name"))
	}
	if len(keys.first) > 0 {
		kb = append(kb, keys.first)
	}
	if len(keys.bids) > 0 {
		b.WriteString("\n" + l.T("sausages.hand_bid_hint"))
	}
	kb = append(kb, keys.rows()...)
	return adapter.Message{Text: b.String(), Keyboard: kb, Ping: true}
}

// seatKeys are a seat's buttons, shared by its chat keyboard and its web
// table: the chat's first row (place, pick, lose) and the rows of bids and
// other moves; the web draws place and lose as the hand's cards.
type seatKeys struct {
	first []adapter.Button        // place, pick and lose, in the engine's order
	cards map[ss.Card]game.Action // place or lose a card of the hand, by kind
	picks []adapter.Button        // the blind pick of the challenger's cards
	bids  []adapter.Button
	other []adapter.Button // pass, reveal, name
}

func seatKeysOf(l adapter.Loc, t adapter.TableView, v ss.SeatView, seat int) seatKeys {
	btn := func(text string, a game.Action) adapter.Button { return adapter.ActionButton(t, seat, text, a) }
	k := seatKeys{cards: map[ss.Card]game.Action{}}
	for _, a := range v.Legal {
		m, _ := ss.Decode(a)
		switch m.Kind {
		case ss.KindPlace:
			k.first = append(k.first, btn(l.T("sausages.place_button", "Card", cardEmoji(m.Card)), a))
			k.cards[m.Card] = a
		case ss.KindBid:
			k.bids = append(k.bids, btn(strconv.Itoa(m.N), a))
		case ss.KindPass:
			k.other = append(k.other, btn(l.T("sausages.pass_button"), a))
		case ss.KindReveal:
			name := adapter.SeatPlainName(t, m.Seat) // button texts are not HTML
			k.other = append(k.other, btn(adapter.FitName(name, func(n string) string { return l.T("sausages.reveal_button", "Name", n) }), a))
		case ss.KindPick:
			b := btn("🂠 "+strconv.Itoa(m.Index+1), a)
			k.first = append(k.first, b)
			k.picks = append(k.picks, b)
		case ss.KindLose:
			k.first = append(k.first, btn(l.T("sausages.lose_button", "Card", cardEmoji(m.Card)), a))
			k.cards[m.Card] = a
		case ss.KindName:
			k.other = append(k.other, btn(adapter.FitName(adapter.SeatPlainName(t, m.Seat), func(n string) string { return n }), a))
		}
	}
	return k
}

// rows are the rows after the first: bids, then the other moves.
func (k seatKeys) rows() [][]adapter.Button {
	return append(adapter.Rows(k.bids, 6), adapter.Rows(k.other, 3)...)
}

func (k sausagesGame) Info(l adapter.Loc, t adapter.TableView, st game.State, seat int) string {
	v := st.(*ss.State).SeatView(game.Seat(seat))
	return l.T("sausages.info", "Hand", handText(l, v.Hand), "Stack", stackText(l, v.Stack))
}

func (k sausagesGame) Announce(l adapter.Loc, t adapter.TableView, before, after game.State) []adapter.Message {
	b, a := before.(*ss.State).PublicView(), after.(*ss.State).PublicView()
	var out []adapter.Message
	o := a.LastRound
	fresh := o != nil && (b.LastRound == nil || b.LastRound.Round != o.Round)
	if fresh {
		switch {
		case o.Success && o.Won:
			// the winner message below says it
		case o.Success:
			out = append(out, adapter.Message{Text: l.T("sausages.success", "Name", adapter.SeatName(t, o.Challenger), "Count", o.N)})
		case o.OwnBoot:
			out = append(out, adapter.Message{Text: l.T("sausages.fail_own", "Name", adapter.SeatName(t, o.Challenger))})
		default:
			out = append(out, adapter.Message{Text: l.T("sausages.fail", "Name", adapter.SeatName(t, o.Challenger), "Owner", adapter.SeatName(t, o.BootOwner))})
		}
	}
	if o != nil && o.Eliminated && (fresh || !b.LastRound.Eliminated) {
		out = append(out, adapter.Message{Text: l.T("sausages.eliminated", "Name", adapter.SeatName(t, o.Challenger))})
	}
	if a.Winner >= 0 && b.Winner < 0 {
		r := after.Result()
		text := adapter.WinnerLine(l, t, r) + "\n\n" + adapter.ResultTable(l, t, r, func(s game.Seat) string {
			return l.T("sausages.final_line", "Count", r.Scores[s])
		})
		out = append(out, adapter.Message{Text: text})
	}
	return out
}

// Deal: every player starts with the same four cards, so the only shuffle
// is a blind pick's — the challenger's cards in the order the engine laid
// them, one of which the boot's owner picks by position. It follows from
// the reveal and the moves before it.
func (sausagesGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*ss.State)
	order := s.BlindOrder()
	if order == nil {
		return l.T("sausages.deal.start")
	}
	v := s.PublicView()
	cards := make([]string, len(order))
	for i, c := range order {
		cards[i] = cardEmoji(c)
	}
	return l.T("sausages.deal.pick", "Round", v.Round, "Name", adapter.SeatPlainName(t, v.Challenger), "Cards", strings.Join(cards, " "))
}

// Shuffled: a failed attempt laid the challenger's cards out for a blind
// pick.
func (sausagesGame) Shuffled(before, after game.State) bool {
	return after.(*ss.State).Phase() == ss.PhasePick && before.(*ss.State).Phase() != ss.PhasePick
}
