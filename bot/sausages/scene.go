package sausages

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ss "github.com/trickchef/trickchef/game/sausages"
)

// The cards' colours on the web table: a sausage's browned red and a
// boot's leather.
const (
	colorSausage = "#c8553d"
	colorBoot    = "#5e4632"
)

// cardPicture draws a card face up.
func cardPicture(l adapter.Loc, c ss.Card) adapter.Card {
	if c == ss.Boot {
		return adapter.Card{Face: cardEmoji(c), Color: colorBoot, Name: l.T("sausages.web.boot")}
	}
	return adapter.Card{Face: cardEmoji(c), Color: colorSausage, Name: l.T("sausages.web.sausage")}
}

// backPicture draws a card face down.
func backPicture(l adapter.Loc) adapter.Card {
	return adapter.Card{Back: true, Name: l.T("sausages.web.back")}
}

// stackPictures is a seat's stack as everyone sees it, bottom to top: the
// face-down cards, then the ones the attempt turned (the top first turned,
// so it lies last).
func stackPictures(l adapter.Loc, v ss.Public, seat game.Seat) []adapter.Card {
	sp := v.Seats[seat]
	var out []adapter.Card
	for i := 0; i < sp.Stack-sp.Revealed; i++ {
		out = append(out, backPicture(l))
	}
	var turned []ss.Card
	for _, r := range v.Revealed {
		if r.Seat == seat {
			turned = append(turned, r.Card)
		}
	}
	for i := len(turned) - 1; i >= 0; i-- {
		out = append(out, cardPicture(l, turned[i]))
	}
	return out
}

// outcomeLines are the group's announcement of the last decided attempt,
// as plain text ("" parts left out).
func outcomeLines(l adapter.Loc, t adapter.TableView, o *ss.Outcome) []string {
	var out []string
	switch {
	case o.Success && o.Won:
		// the headline names the winner
	case o.Success:
		out = append(out, l.T("sausages.success", "Name", adapter.SeatName(t, o.Challenger), "Count", o.N))
	case o.OwnBoot:
		out = append(out, l.T("sausages.fail_own", "Name", adapter.SeatName(t, o.Challenger)))
	default:
		out = append(out, l.T("sausages.fail", "Name", adapter.SeatName(t, o.Challenger), "Owner", adapter.SeatName(t, o.BootOwner)))
	}
	if o.Eliminated {
		out = append(out, l.T("sausages.eliminated", "Name", adapter.SeatName(t, o.Challenger)))
	}
	for i := range out {
		out[i] = adapter.PlainText(out[i])
	}
	return out
}

// Scene draws the table for the web page: every seat's stack face down
// with the turned cards face up, the attempt in the middle; for a seat,
// its hand (a tap places or loses a card) and its own stack.
func (k sausagesGame) Scene(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Scene {
	s := st.(*ss.State)
	pub := s.PublicView()
	viewer := seat >= 0 && seat < pub.Players
	v := ss.SeatView{Public: pub, Seat: -1}
	if viewer {
		v = s.SeatView(game.Seat(seat))
	}
	over := v.Phase == ss.PhaseOver
	playing := !over && t.Playing()
	plain := l.Plain
	var sc adapter.Scene

	switch {
	case over:
		sc.Status = adapter.PlainText(adapter.WinnerLine(l, t, st.Result()))
	case !playing:
		sc.Status = plain("hand.stopped")
	default:
		sc.Status = adapter.PlainText(k.turnText(l, t, v.Public))
	}
	if !over {
		sc.Info = append(sc.Info, plain("sausages.web.round", "Round", v.Round, "Count", v.Total))
		if len(v.Bids) > 0 {
			var bids []string
			for _, e := range v.Bids {
				if e.Pass() {
					bids = append(bids, adapter.SeatName(t, e.Seat)+" — "+l.T("sausages.pass_word"))
				} else {
					bids = append(bids, adapter.SeatName(t, e.Seat)+" — "+strconv.Itoa(e.N))
				}
			}
			sc.Info = append(sc.Info, plain("sausages.bids", "Bids", strings.Join(bids, ", ")))
		}
	}

	acting := map[game.Seat]bool{}
	if playing {
		for _, a := range v.ToAct {
			acting[a] = true
		}
	}
	var result game.Result
	if over {
		result = st.Result()
	}
	for i, sp := range v.Seats {
		seatNo := game.Seat(i)
		ts := adapter.SceneSeat{
			Name:   adapter.SeatPlainName(t, seatNo),
			Cards:  stackPictures(l, v.Public, seatNo),
			Turn:   acting[seatNo],
			Leader: over && v.Winner == seatNo,
			Out:    sp.Out,
		}
		switch {
		case over:
			ts.Stats = []string{l.T("sausages.final_line", "Count", result.Scores[i])}
		case !sp.Out:
			ts.Stats = []string{winsText(l, sp.Side), l.T("sausages.web.in_hand", "Count", sp.Hand)}
			if sp.Passed {
				ts.Stats = append(ts.Stats, l.T("sausages.passed"))
			}
		}
		sc.Seats = append(sc.Seats, ts)
	}

	if len(v.Revealed) > 0 {
		who, target := v.Challenger, v.Target
		if who < 0 && v.LastRound != nil {
			who, target = v.LastRound.Challenger, v.LastRound.N
		}
		p := adapter.Pile{Label: plain("sausages.web.attempt", "Name", adapter.SeatName(t, who), "Done", len(v.Revealed), "Target", target)}
		for _, r := range v.Revealed {
			c := cardPicture(l, r.Card)
			c.Note = adapter.SeatPlainName(t, r.Seat)
			p.Cards = append(p.Cards, c)
		}
		sc.Center = append(sc.Center, p)
	}
	if v.LastRound != nil {
		sc.Log = outcomeLines(l, t, v.LastRound)
	}
	if e := adapter.EventLine(l, t); e != "" {
		if !over && !playing {
			sc.Status = adapter.PlainText(e) // «⛔ Игра остановлена.» says why
		} else {
			sc.Log = append(sc.Log, adapter.PlainText(e))
		}
	}

	if !viewer {
		return sc
	}
	// What only this seat knows: its stack, its hand, the card it lost.
	if len(v.Stack) > 0 && !over {
		p := adapter.Pile{Label: plain("sausages.web.my_stack")}
		for _, c := range v.Stack {
			p.Cards = append(p.Cards, cardPicture(l, c))
		}
		sc.Center = append(sc.Center, p)
	}
	if v.Lost != ss.NoCard && !over {
		sc.Info = append(sc.Info, plain("sausages.hand_lost", "Card", cardEmoji(v.Lost)))
	}
	var keys seatKeys
	if playing {
		keys = seatKeysOf(l, t, v, seat)
	}
	hand := func(c ss.Card, n int) {
		for i := 0; i < n; i++ {
			p := cardPicture(l, c)
			if a, ok := keys.cards[c]; ok {
				p.Act = adapter.ActionButton(t, seat, cardEmoji(c), a).Data
			}
			sc.Hand = append(sc.Hand, p)
		}
	}
	if !over {
		hand(ss.Sausage, v.Hand.Sausages)
		hand(ss.Boot, v.Hand.Boots)
	}
	if len(sc.Hand) > 0 {
		sc.HandLabel = plain("sausages.web.hand")
	}
	if !playing || len(v.Legal) == 0 {
		return sc
	}
	switch v.Phase {
	case ss.PhaseSetup:
		sc.Prompt = plain("sausages.hand_setup")
	case ss.PhaseAdd:
		sc.Prompt = plain("sausages.hand_add", "Count", v.Total)
	case ss.PhaseBid:
		sc.Prompt = plain("sausages.hand_bid", "Bid", v.Bid, "Count", v.Total)
	case ss.PhaseAttempt:
		sc.Prompt = plain("sausages.hand_attempt", "Target", v.Target, "Done", len(v.Revealed))
	case ss.PhasePick:
		sc.Prompt = plain("sausages.hand_pick", "Name", adapter.SeatName(t, v.Challenger))
	case ss.PhaseLose:
		sc.Prompt = plain("sausages.hand_lose")
	case ss.PhaseName:
		sc.Prompt = plain("sausages.hand_name")
	}
	var rows [][]adapter.Button
	if len(keys.picks) > 0 {
		rows = append(rows, keys.picks)
	}
	sc.Choices = adapter.ChoicesFrom(append(rows, keys.rows()...))
	return sc
}
