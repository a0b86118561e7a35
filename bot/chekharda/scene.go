package chekharda

import (
	"slices"
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// chekhardaColour is a kind's face colour on the web table, taken from its
// emoji: 🏆 gold, 🐘 slate, 🐒 brown, 🐷 pink, 🐟 blue, 👹 red, 🚲 teal,
// 🌞 amber, 🐸 green, 🤖 steel, 👽 violet, 🏄 cyan.
func chekhardaColour(k ck.Kind) string {
	switch k {
	case ck.Champion:
		return "#c9a227"
	case ck.Tea:
		return "#6b7f99"
	case ck.Monkey:
		return "#8b5a2b"
	case ck.Pig:
		return "#e0708f"
	case ck.FishMan:
		return "#2f7fc4"
	case ck.Monster:
		return "#c0392b"
	case ck.Block:
		return "#16a085"
	case ck.Solar:
		return "#f39c12"
	case ck.Jump:
		return "#3f9a4b"
	case ck.Robot:
		return "#5d6d7e"
	case ck.Alien:
		return "#8e44ad"
	case ck.Zone:
		return "#0097a7"
	}
	return "#56627a"
}

// chekhardaPicture is a card of kind k as the web table draws it.
func chekhardaPicture(l adapter.Loc, k ck.Kind) adapter.Card {
	return adapter.Card{Face: k.Emoji(), Color: chekhardaColour(k), Name: chekhardaKindName(l, k)}
}

// Scene draws the table for the web page: every seat's sets (a card with
// its size), totals and hand sizes, the deck, and for a seat its hand and
// its live buttons. Hands are secret, and so is who can act now (it tells
// what a hand holds): a spectator sees no turn marks.
func (g chekhardaGame) Scene(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Scene {
	cs := st.(*ck.State)
	v := cs.PublicView()
	over := v.Phase == ck.PhaseOver
	playing := !over && t.Playing()
	var sc adapter.Scene

	best := 0
	for _, sp := range v.Seats {
		best = max(best, sp.Total)
	}
	for i, sp := range v.Seats {
		s := game.Seat(i)
		ss := adapter.SceneSeat{
			Name:  adapter.SeatPlainName(t, s),
			Stats: []string{l.T("chekharda.count.points", "Count", sp.Total), "🖐 " + strconv.Itoa(sp.Hand)},
		}
		if r := v.Last; v.Phase != ck.PhasePlay && r != nil && i < len(r.Seats) {
			ss.Stats = append(ss.Stats, "+"+strconv.Itoa(r.Seats[i].Score))
		}
		for _, set := range sp.Sets {
			c := chekhardaPicture(l, set.Kind)
			c.Note = "×" + strconv.Itoa(set.Size)
			ss.Cards = append(ss.Cards, c)
		}
		if over {
			ss.Leader = slices.Contains(v.Winners, s)
		} else {
			ss.Leader = best > 0 && sp.Total == best
		}
		sc.Seats = append(sc.Seats, ss)
	}

	if !over {
		deck := adapter.Pile{Label: adapter.PlainText(l.T("chekharda.deck_line", "Cards", l.T("chekharda.count.cards", "Count", v.Deck)))}
		if v.Deck > 0 {
			deck.Cards = []adapter.Card{{Back: true, Name: l.T("chekharda.web.back")}}
		}
		sc.Center = append(sc.Center, deck)
	}

	switch {
	case over:
		sc.Status = adapter.PlainText(adapter.WinnerLine(l, t, st.Result()))
	case !playing:
		sc.Status = adapter.PlainText(adapter.EventLine(l, t))
	case v.Phase == ck.PhaseRoundEnd:
		sc.Status = adapter.PlainText(l.T("chekharda.round_end_table", "Round", v.Round))
	default:
		// Real time has no turn: the headline is the latest grab.
		round := l.T("chekharda.web.round", "Round", v.Round, "Target", l.T("chekharda.count.upto", "Count", v.Target))
		sc.Status = round
		if last := chekhardaRecent(v, 1, chekhardaGrabs()...); len(last) > 0 {
			sc.Status = adapter.PlainText(chekhardaEvent(l, t, last[0]))
			sc.Info = append(sc.Info, round)
		}
		sc.Info = append(sc.Info, adapter.PlainText(g.rulesLine(l, t, v)))
	}
	if r := v.Last; r != nil && v.Phase != ck.PhasePlay {
		if r.Out >= 0 {
			sc.Info = append(sc.Info, adapter.PlainText(l.T("chekharda.round_out", "Name", adapter.SeatName(t, r.Out))))
		} else {
			sc.Info = append(sc.Info, adapter.PlainText(l.T("chekharda.round_deadlock")))
		}
	}
	types := chekhardaGrabs()
	if seat != adapter.Spectator {
		types = chekhardaSeatEvents()
	}
	for _, e := range chekhardaRecent(v, chekhardaGroupLog, types...) {
		sc.Log = append(sc.Log, adapter.PlainText(chekhardaEvent(l, t, e)))
	}

	if !adapter.Seated(seat, len(v.Seats)) {
		return sc
	}
	g.seatScene(l, t, cs.SeatView(game.Seat(seat)), seat, playing, &sc)
	return sc
}

// seatScene adds the seat's own: its hand (a card with one move presses
// it, a card with none is dim), presses on the sets it may steal or add
// to, its buttons as choices, and what to do now.
func (g chekhardaGame) seatScene(l adapter.Loc, t adapter.TableView, v ck.SeatView, seat int, playing bool, sc *adapter.Scene) {
	sc.HandLabel = l.T("chekharda.web.hand")
	live := playing && v.Phase == ck.PhasePlay
	if !live {
		v.Legal = nil
	}
	press := func(a game.Action) string { return adapter.ActionButton(t, seat, "", a).Data }
	for _, k := range v.Hand {
		c := chekhardaPicture(l, k)
		var moves []game.Action
		for _, a := range v.Legal {
			if m, ok := ck.Decode(a); ok && m.Kind == k {
				moves = append(moves, a)
			}
		}
		switch {
		case len(moves) == 1:
			c.Act = press(moves[0])
		case len(moves) == 0 && live:
			c.Dim = true
		}
		sc.Hand = append(sc.Hand, c)
	}
	for i, sp := range v.Seats {
		for j, set := range sp.Sets {
			a := ck.StealAction(set.Kind, sp.Seat)
			if sp.Seat == v.Seat {
				a = ck.AddAction(set.Kind)
			}
			if slices.Contains(v.Legal, a) {
				sc.Seats[i].Cards[j].Act = press(a)
			}
		}
	}
	if !live {
		if r := v.Last; r != nil && v.Phase == ck.PhaseRoundEnd && seat < len(r.Seats) {
			sc.Prompt = adapter.PlainText(l.T("chekharda.hand_round_over", "Round", r.Round,
				"Score", l.T("chekharda.count.points", "Count", r.Seats[seat].Score), "Total", l.T("chekharda.count.points", "Count", v.Seats[seat].Total)))
		}
		return
	}
	if slices.Contains(v.Legal, ck.DrawAction()) && len(sc.Center) > 0 && len(sc.Center[0].Cards) > 0 {
		sc.Center[0].Cards[0].Act = press(ck.DrawAction()) // the variant: draw from the deck
	}
	kb := g.seatKeyboard(l, t, seat, v)
	sc.Seats[seat].Turn = len(kb) > 0
	sc.Choices = adapter.ChoicesFrom(kb)
	sc.Prompt = adapter.PlainText(g.seatPrompt(l, t, v, len(kb) > 0))
}
