package trickchef

import (
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// The suits' colours on the web table, matching the chat's 🟥🟨🟦🟩.
const (
	colorRed    = "#d9473b"
	colorYellow = "#e3a514"
	colorBlue   = "#2f74c9"
	colorGreen  = "#2e9e57"
)

func suitColor(s tc.Suit) string {
	switch s {
	case tc.Red:
		return colorRed
	case tc.Yellow:
		return colorYellow
	case tc.Blue:
		return colorBlue
	case tc.Green:
		return colorGreen
	}
	return ""
}

// suitShape is how the page tells a suit without its colour.
func suitShape(s tc.Suit) string {
	switch s {
	case tc.Red:
		return adapter.SuitCircle
	case tc.Yellow:
		return adapter.SuitTriangle
	case tc.Blue:
		return adapter.SuitDiamond
	}
	return adapter.SuitSquare
}

// suitKey is the catalog's name of a suit (trickchef.suit.<key>).
func suitKey(s tc.Suit) string {
	switch s {
	case tc.Red:
		return "red"
	case tc.Yellow:
		return "yellow"
	case tc.Blue:
		return "blue"
	}
	return "green"
}

// cardPicture draws a restaurant card: its value on its suit's colour.
func cardPicture(l adapter.Loc, c tc.Card) adapter.Card {
	return adapter.Card{
		Face: strconv.Itoa(c.Value), Corner: suitEmoji(c.Suit), Color: suitColor(c.Suit), Suit: suitShape(c.Suit),
		Name: l.T("trickchef.web.card", "Suit", l.T("trickchef.suit."+suitKey(c.Suit)), "Value", c.Value),
	}
}

// playedPicture is a card of a trick, its owner and coins under it:
// «Оля · +4 → 13».
func playedPicture(l adapter.Loc, t adapter.TableView, p tc.Played) adapter.Card {
	c := cardPicture(l, p.Card)
	c.Note = adapter.SeatPlainName(t, p.Seat)
	if p.Coins != 0 {
		c.Note += " · " + signed(2*p.Coins) + " → " + number(p.Effective)
	}
	return c
}

// chefPictures draws chef tokens as small cards of their suit's colour,
// one per suit held, the count as the face.
func chefPictures(l adapter.Loc, counts [tc.NumSuits]int) []adapter.Card {
	var out []adapter.Card
	for s := tc.Suit(0); s < tc.NumSuits; s++ {
		if counts[s] == 0 {
			continue
		}
		out = append(out, adapter.Card{
			Face: strconv.Itoa(counts[s]), Corner: "👨‍🍳", Color: suitColor(s),
			Name: l.T("trickchef.web.chefs", "Count", counts[s], "Suit", l.T("trickchef.suit_gen."+suitKey(s))),
		})
	}
	return out
}

// Scene draws the table for the web page: seats with their chefs, the
// trick, the last trick and the chefs in the centre; for a seat, its hand
// with the same presses as its chat keyboard.
func (k trickchefGame) Scene(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Scene {
	s := st.(*tc.State)
	pub := s.PublicView()
	viewer := seat >= 0 && seat < pub.Players
	v := tc.SeatView{Public: pub, Seat: -1}
	if viewer {
		v = s.SeatView(game.Seat(seat))
	}
	over := v.Phase == tc.PhaseOver
	playing := !over && t.Playing()
	plain := l.Plain
	var sc adapter.Scene

	switch {
	case over:
		res := v.Result
		sc.Status = adapter.PlainText(adapter.WinnerLine(l, t, game.Result{Scores: res.Scores, Winners: res.Winners}))
		if res.TieBreak != tc.TieNone {
			sc.Info = append(sc.Info, plain("trickchef.tiebreak_"+res.TieBreak.String()))
		}
	case !playing:
		sc.Status = plain("hand.stopped")
	default:
		who := adapter.Mention(t, v.ToAct)
		switch v.Phase {
		case tc.PhasePick:
			sc.Status = plain("trickchef.turn_pick", "Name", who)
		case tc.PhaseAward:
			sc.Status = plain("trickchef.turn_award", "Name", who)
		default:
			sc.Status = plain("trickchef.turn_play", "Name", who)
		}
	}
	if !over {
		sc.Info = append(sc.Info,
			plain("trickchef.web.round", "Round", v.Round, "Trick", v.Trick),
			adapter.PlainText(trumpLine(l, v.Public)),
			plain("trickchef.web.reserve", "Count", v.Reserve))
	}

	winners := map[game.Seat]bool{}
	if over {
		for _, w := range v.Result.Winners {
			winners[w] = true
		}
	}
	for i, sp := range v.Seats {
		ss := adapter.SceneSeat{
			Name:   adapter.SeatPlainName(t, game.Seat(i)),
			Cards:  chefPictures(l, sp.Chefs),
			Turn:   playing && v.ToAct == game.Seat(i),
			Leader: winners[game.Seat(i)],
		}
		if over {
			rounds := ""
			for r, score := range sp.RoundScores {
				if r > 0 {
					rounds += " + "
				}
				rounds += strconv.Itoa(score)
			}
			ss.Stats = []string{plain("trickchef.final_line", "Rounds", rounds, "Total", l.T("count.points", "Count", v.Result.Scores[i]))}
		} else {
			ss.Stats = []string{"🖐 " + strconv.Itoa(sp.HandSize), "🪙 " + strconv.Itoa(sp.Coins), l.T("count.tricks", "Count", sp.TricksWon)}
			if len(sp.RoundScores) > 0 {
				ss.Stats = append(ss.Stats, l.T("count.points", "Count", sp.Total))
			}
		}
		sc.Seats = append(sc.Seats, ss)
	}

	if !over {
		if len(v.CurrentTrick) > 0 {
			p := adapter.Pile{Label: plain("trickchef.web.on_table")}
			for _, pl := range v.CurrentTrick {
				p.Cards = append(p.Cards, playedPicture(l, t, pl))
			}
			sc.Center = append(sc.Center, p)
		}
		if v.Phase == tc.PhasePick {
			sc.Center = append(sc.Center, adapter.Pile{Label: plain("trickchef.web.set_aside"), Cards: chefPictures(l, v.SetAside)})
		}
		sc.Center = append(sc.Center, adapter.Pile{Label: plain("trickchef.web.pool"), Cards: chefPictures(l, v.Pool)})
		if lt := v.LastTrick; lt != nil {
			winner := int(lt.Winner)
			p := adapter.Pile{Label: plain("trickchef.web.last_trick", "Winner", adapter.SeatName(t, lt.Winner)), Taker: &winner}
			for _, pl := range lt.Cards {
				p.Cards = append(p.Cards, playedPicture(l, t, pl))
			}
			sc.Center = append(sc.Center, p)
			if lt.ChefChosen {
				sc.Log = append(sc.Log, plain("trickchef.last_chef", "Name", adapter.SeatName(t, lt.ChefTaker), "Suit", suitEmoji(lt.ChefSuit)))
			} else {
				sc.Log = append(sc.Log, plain("trickchef.last_chef_pending", "Name", adapter.SeatName(t, lt.ChefTaker)))
			}
			if len(lt.Income) > 0 {
				sc.Log = append(sc.Log, plain("trickchef.last_income", "Names", adapter.SeatNames(t, lt.Income)))
			}
		}
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
	var keys seatKeys
	if playing {
		keys = seatKeysOf(l, t, v, seat)
	}
	if len(keys.cards) > 0 {
		for _, h := range keys.cards {
			c := cardPicture(l, h.card)
			if keys.mod != 0 {
				c.Note = "→ " + number(h.card.Value+2*keys.mod)
			}
			// An unplayable card still presses: the refusal says why.
			c.Act = adapter.ActionButton(t, seat, cardText(h.card), h.action).Data
			c.Dim = !h.playable
			sc.Hand = append(sc.Hand, c)
		}
	} else {
		for _, c := range v.Hand {
			sc.Hand = append(sc.Hand, cardPicture(l, c))
		}
	}
	switch {
	case len(sc.Hand) > 0:
		sc.HandLabel = plain("trickchef.web.hand")
	case !over:
		sc.HandLabel = plain("trickchef.hand_empty")
	}
	if !playing {
		return sc
	}
	var rows [][]adapter.Button
	switch {
	case keys.pick:
		key := "trickchef.hand_pick"
		if v.Phase == tc.PhaseAward {
			key = "trickchef.hand_award"
		}
		sc.Prompt = plain(key)
		rows = append(rows, keys.chefs)
	case len(keys.cards) > 0:
		sc.Prompt = plain("trickchef.web.play")
		if keys.unplayable() {
			sc.Prompt += " " + plain("trickchef.web.follow")
		}
		if keys.mod != 0 {
			sc.Prompt += " " + adapter.PlainText(coinsChosenText(l, keys.mod))
		}
	}
	chosen := ""
	for _, r := range keys.coins {
		var row []adapter.Button
		for _, c := range r {
			if c.value == keys.mod {
				chosen = c.button.Data
			}
			row = append(row, c.button)
		}
		rows = append(rows, row)
	}
	rows = append(rows, []adapter.Button{keys.info})
	sc.Choices = adapter.ChoicesFrom(rows)
	for i := range sc.Choices {
		sc.Choices[i].Selected = chosen != "" && sc.Choices[i].Act == chosen
	}
	return sc
}
