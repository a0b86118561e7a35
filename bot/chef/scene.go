package chef

import (
	"slices"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// chefColour is a card's face colour on the web table: a dish in its frame
// colour (the guide's: 🍤 orange, 🍅 red, 🍝 purple, 🥦 green, 🍰 blue,
// ☕ brown), the action cards in slate, the Addition in gold.
func chefColour(c ce.Card) string {
	switch c {
	case ce.Starter:
		return "#e8842c"
	case ce.Sauce:
		return "#d2433a"
	case ce.Main:
		return "#8e4fb0"
	case ce.Side:
		return "#3f9a4b"
	case ce.Dessert:
		return "#2f7fc4"
	case ce.Drink:
		return "#8a5a3c"
	case ce.Addition:
		return "#c9a227"
	}
	return "#56627a"
}

// chefCardName is a card in words: «горячее», «Диета».
func chefCardName(l adapter.Loc, c ce.Card) string {
	if c.IsDish() {
		return l.T("chef.dish." + c.Key())
	}
	return l.T("chef.card." + c.Key())
}

// chefPicture is one card as the web table draws it.
func chefPicture(l adapter.Loc, c ce.Card) adapter.Card {
	return adapter.Card{Face: chefCardEmoji(c), Color: chefColour(c), Name: chefCardName(l, c)}
}

// chefCards are the cards in front of a seat, a picture each: its dishes in
// menu order (a second of a colour next to the first), then its action
// cards.
func chefCards(l adapter.Loc, cards [ce.NumKinds]int) []adapter.Card {
	var out []adapter.Card
	for c := ce.Starter; c <= ce.Addition; c++ {
		for range cards[c] {
			out = append(out, chefPicture(l, c))
		}
	}
	return out
}

// Scene draws the table for the web page. Everything in Меню шефа is
// public but the pile's order, so every viewer sees the same board; a
// seat's scene adds its own cards as a hand to press and its buttons.
func (k chefGame) Scene(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Scene {
	cs := st.(*ce.State)
	v := cs.PublicView()
	over := v.Step == ce.StepOver
	playing := !over && t.Playing()
	var sc adapter.Scene

	for _, sp := range v.Seats {
		ss := adapter.SceneSeat{
			Name:  adapter.SeatPlainName(t, sp.Seat),
			Stats: []string{l.T("chef.colours", "Count", sp.Colours)},
			Cards: chefCards(l, sp.Cards),
		}
		if sp.Announced {
			ss.Stats = append(ss.Stats, "📣")
		}
		if sp.Skipped && !over {
			ss.Stats = append(ss.Stats, "⏭")
		}
		ss.Turn = playing && v.Turn == sp.Seat
		ss.Leader = over && slices.Contains(v.Winners, sp.Seat)
		sc.Seats = append(sc.Seats, ss)
	}

	// The middle: the pile face down, the discard with its top face up,
	// and the dishes out of the game.
	if !over {
		deck := adapter.Pile{Label: l.T("chef.web.deck", "Pile", l.T("count.cards", "Count", v.Pile), "Round", v.Rebuilds+1, "Rounds", v.MaxRebuilds+1)}
		if v.Pile > 0 {
			deck.Cards = []adapter.Card{{Back: true, Name: l.T("chef.web.back")}}
		}
		sc.Center = append(sc.Center, deck)
	}
	discard := adapter.Pile{Label: l.T("chef.web.discard", "Discard", l.T("count.cards", "Count", len(v.Discard)))}
	if v.DiscardTop != ce.NoCard {
		discard.Cards = []adapter.Card{chefPicture(l, v.DiscardTop)}
	}
	sc.Center = append(sc.Center, discard)
	if removed := chefCards(l, v.Removed); len(removed) > 0 {
		sc.Center = append(sc.Center, adapter.Pile{Label: l.T("chef.web.removed"), Cards: removed})
	}

	// The headline and the lines under it.
	switch {
	case over:
		sc.Status = adapter.PlainText(adapter.WinnerLine(l, t, st.Result()))
		if v.Closed {
			sc.Info = append(sc.Info, adapter.PlainText(l.T("chef.end_closing")))
		} else {
			sc.Info = append(sc.Info, adapter.PlainText(l.T("chef.end_bill")))
		}
	case !playing:
		sc.Status = adapter.PlainText(adapter.EventLine(l, t))
	default:
		sc.Status = adapter.PlainText(l.T("chef.turn", "Name", adapter.SeatName(t, v.Turn), "Next", adapter.SeatName(t, v.Next)))
		sc.Info = append(sc.Info, l.T("chef.web.turn", "Turn", v.TurnNumber, "Direction", chefDirection(l, v.Clockwise)))
		if v.AutoAnnounce {
			sc.Info = append(sc.Info, adapter.PlainText(l.T("chef.auto_note")))
		}
	}
	sc.AddLog(chefLog(l, t, v)...)

	if !adapter.Seated(seat, len(v.Seats)) {
		return sc
	}
	k.seatScene(l, t, cs.SeatView(game.Seat(seat)), seat, playing, &sc)
	return sc
}

// seatScene adds what seat presses: its cards, each with the move it makes
// (dim, but still pressable so the refusal says why, when it cannot be
// made now), and its other buttons as choices. While others play, the
// cards are plain: the board shows whose turn it is.
func (k chefGame) seatScene(l adapter.Loc, t adapter.TableView, v ce.SeatView, seat int, playing bool, sc *adapter.Scene) {
	sc.HandLabel = l.T("chef.web.hand")
	me := v.Seats[seat]
	toAct := playing && len(v.Legal) > 0
	var draft []int
	if toAct {
		draft = chefValidDraft(v.Legal, t.Draft(seat))
		if losses := chefLosses(l, t, v.Public, game.Seat(seat)); losses != "" {
			for _, line := range strings.Split(strings.TrimRight(losses, "\n"), "\n") {
				sc.Info = append(sc.Info, adapter.PlainText(line))
			}
		}
	}
	for c := ce.Starter; c <= ce.Addition; c++ {
		for i := range me.Cards[c] {
			card := chefPicture(l, c)
			if toAct {
				a, legal, ok := k.cardPress(t, v, seat, c)
				card.Act, card.Dim = a, !legal || !ok
				card.Selected = i == 0 && len(draft) > 0 && draft[0] == chefFlowCard+int(c) && c.IsAction()
			}
			sc.Hand = append(sc.Hand, card)
		}
	}
	if !toAct {
		return
	}
	// The pile and the discard's top press too: draw, take.
	for i := range sc.Center {
		for j := range sc.Center[i].Cards {
			c := &sc.Center[i].Cards[j]
			switch {
			case c.Back && slices.Contains(v.Legal, ce.DrawAction()):
				c.Act = adapter.ActionButton(t, seat, "", ce.DrawAction()).Data
			case i == len(sc.Center)-1-chefRemovedPiles(v.Public) && slices.Contains(v.Legal, ce.TakeAction()):
				c.Act = adapter.ActionButton(t, seat, "", ce.TakeAction()).Data
			}
		}
	}
	prompt, kb := k.keyboard(l, t, v, seat, draft)
	sc.Prompt = adapter.PlainText(prompt)
	sc.Choices = adapter.ChoicesFrom(kb.choices())
	if len(draft) == 2 {
		// Похмелье's first dish, chosen from the next seat's menu.
		first, i := ce.Card(draft[1]), 0
		for c := ce.Starter; c < first; c++ {
			i += v.Seats[v.Next].Cards[c]
		}
		if cards := sc.Seats[v.Next].Cards; i < len(cards) {
			cards[i].Selected = true
		}
	}
}

// chefRemovedPiles is 1 when the centre ends with the dishes out of the
// game (after the discard), else 0.
func chefRemovedPiles(v ce.Public) int {
	if chefRemoved(v.Removed) != "" {
		return 1
	}
	return 0
}

// cardPress is the data a press on card c in front of seat sends: the
// chat keyboard's button for it when there is one (legal), else the move
// the card would make, for the engine to refuse with its reason. ok=false:
// the card makes no press (the Addition).
func (chefGame) cardPress(t adapter.TableView, v ce.SeatView, seat int, c ce.Card) (data string, legal, ok bool) {
	act := func(a game.Action) (string, bool, bool) {
		return adapter.ActionButton(t, seat, "", a).Data, slices.Contains(v.Legal, a), true
	}
	victim := v.Seats[v.Next].Cards
	var has []ce.Card // the next seat's dishes, one per colour
	for d := ce.Starter; d <= ce.Drink; d++ {
		if victim[d] > 0 {
			has = append(has, d)
		}
	}
	pick := func(i int) ce.Card {
		if i < len(has) {
			return has[i]
		}
		return ce.Starter
	}
	switch {
	case c.IsDish():
		return act(ce.DiscardAction(c))
	case c == ce.EmptyPlate || c == ce.BlankMenu:
		return act(ce.PlayAction(c, ce.NoCard, ce.NoCard))
	case c == ce.Hangover || c == ce.Diet || c == ce.ChefCard:
		flow := chefFlowCard + int(c)
		switch acts := chefFlowActions(v.Legal, flow); {
		case len(acts) == 1:
			return act(acts[0])
		case len(acts) > 1:
			return adapter.DraftButton(t, seat, "", flow).Data, true, true
		case c == ce.Hangover:
			second := pick(1)
			if victim[pick(0)] > 1 {
				second = pick(0)
			}
			return act(ce.PlayAction(c, pick(0), second))
		}
		return act(ce.PlayAction(c, pick(0), ce.NoCard))
	}
	return "", false, false
}
