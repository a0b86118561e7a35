package bot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// trickchefKind adapts Трик-н-Шеф to the platform.
type trickchefKind struct{}

func (trickchefKind) ID() string { return "trickchef" }
func (trickchefKind) Aliases() []string {
	return []string{"трик-н-шеф", "трикншеф", "трик", "tnc"}
}
func (trickchefKind) Title(l loc) string          { return l.T("trickchef.title") }
func (trickchefKind) SeatRange() (int, int)       { return 3, 4 }
func (trickchefKind) Rules() string               { return "rules.trickchef" }
func (trickchefKind) ErrorKey(c game.Code) string { return "error." + string(c) }

// The lobby option picks the suit left out with three players; 0 is the
// default (green), then red, yellow, blue.
func removedSuit(option int) tc.Suit { return tc.Suit((int(tc.DefaultRemoved) + option) % tc.NumSuits) }

func (trickchefKind) Option(l loc, option, seats int) (string, bool) {
	return l.T("trickchef.removed_option", "Suit", suitEmoji(removedSuit(option))), true
}

func (trickchefKind) NextOption(option int) int { return (option + 1) % tc.NumSuits }

func (trickchefKind) Start(t *Table) (game.State, error) {
	return tc.New(tc.Config{Players: len(t.Seats), Removed: removedSuit(t.Option), First: 0, Seed: t.Seed})
}

func (trickchefKind) Decode(data []byte) (game.State, error) { return tc.Unmarshal(data) }

func (trickchefKind) Levels() []string {
	return []string{string(tc.Novice), string(tc.Cook), string(tc.Shef)}
}

// Auto plays the baseline for a person who timed out, and the level's
// player for a robot. «Шеф» searches within d.Budget; its choice is logged
// like any move, so a replay stays exact.
func (trickchefKind) Auto(st game.State, seat game.Seat, d decision) game.Action {
	v := st.(*tc.State).SeatView(seat)
	if d.Level == "" {
		return tc.Baseline(v, d.Seed)
	}
	return tc.Decide(tc.Level(d.Level), v, history(d.Memory), d.Seed, tc.Budget{Wall: d.Budget, Clock: time.Now})
}

// history decodes the robots' memory; an unreadable one starts afresh
// (the robots only play a little worse).
func history(memory []byte) tc.History {
	var h tc.History
	if len(memory) > 0 {
		_ = json.Unmarshal(memory, &h)
	}
	return h
}

func (trickchefKind) Observe(memory []byte, st game.State) []byte {
	h := history(memory)
	h.Observe(st.(*tc.State).PublicView())
	out, err := json.Marshal(h)
	if err != nil {
		return nil
	}
	return out
}

func (trickchefKind) ClampMod(st game.State, seat game.Seat, mod int) (int, bool) {
	coins := st.(*tc.State).PublicView().Seats[seat].Coins
	if mod < -coins || mod > coins {
		return 0, false
	}
	return mod, true
}

func suitEmoji(s tc.Suit) string {
	switch s {
	case tc.Red:
		return "🍷"
	case tc.Yellow:
		return "🟡"
	case tc.Blue:
		return "🟦"
	case tc.Green:
		return "🟩"
	}
	return "?"
}

func cardText(c tc.Card) string { return suitEmoji(c.Suit) + strconv.Itoa(c.Value) }

func cardsText(cs []tc.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = cardText(c)
	}
	return strings.Join(parts, " ")
}

// playedText shows a card with its coins: "🍷9 +4 → 13".
func playedText(p tc.Played) string {
	s := cardText(p.Card)
	if p.Coins != 0 {
		s += fmt.Sprintf(" %+d → %d", 2*p.Coins, p.Effective)
	}
	return s
}

func suitsText(ss []tc.Suit) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = suitEmoji(s)
	}
	return strings.Join(parts, " ")
}

// chefsText lists chefs per suit: "🍷1 🟦2", or a dash.
func chefsText(chefs [tc.NumSuits]int) string {
	var parts []string
	for s := tc.Suit(0); s < tc.NumSuits; s++ {
		if chefs[s] > 0 {
			parts = append(parts, suitEmoji(s)+strconv.Itoa(chefs[s]))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " ")
}

func seatName(t *Table, s game.Seat) string {
	if s < 0 || int(s) >= len(t.Seats) {
		return "?"
	}
	return esc(t.Seats[s].Name)
}

// mention names a seat so that Telegram notifies the person.
func mention(t *Table, s game.Seat) string {
	if s < 0 || int(s) >= len(t.Seats) || !t.Seats[s].Human() {
		return "<b>" + seatName(t, s) + "</b>"
	}
	return fmt.Sprintf(`<a href="tg://user?id=%d">%s</a>`, t.Seats[s].UserID, seatName(t, s))
}

func names(t *Table, seats []game.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = seatName(t, s)
	}
	return strings.Join(parts, ", ")
}

// trumpLine tells which suits are trump now.
func trumpLine(l loc, v tc.Public) string {
	if len(v.Trumps) == 0 {
		return l.T("trickchef.trump_none")
	}
	if len(v.Trumps) == len(v.Suits) {
		return l.T("trickchef.trump_all")
	}
	return l.T("trickchef.trump", "Suits", suitsText(v.Trumps))
}

func poolLine(l loc, v tc.Public) string {
	var parts []string
	for _, s := range v.Suits {
		parts = append(parts, suitEmoji(s)+strconv.Itoa(v.Pool[s]))
	}
	return l.T("trickchef.pool", "Pool", strings.Join(parts, " "), "Reserve", v.Reserve)
}

// deadlineZone is how turn deadlines are shown; the game's players are
// mostly on Moscow time.
func deadlineZone() *time.Location { return time.FixedZone("MSK", 3*60*60) }

func (k trickchefKind) RenderTable(l loc, t *Table, st game.State) message {
	v := st.(*tc.State).PublicView()
	var b strings.Builder
	if v.Phase == tc.PhaseOver {
		b.WriteString(l.T("trickchef.header_over", "Title", k.Title(l)))
	} else {
		b.WriteString(l.T("trickchef.header", "Title", k.Title(l), "Round", v.Round, "Trick", v.Trick))
	}
	b.WriteString("\n")
	if v.Phase != tc.PhaseOver {
		b.WriteString(trumpLine(l, v) + "\n")
		b.WriteString(poolLine(l, v) + "\n")
		if len(v.CurrentTrick) > 0 {
			b.WriteString("\n" + l.T("trickchef.on_table") + "\n")
			for _, p := range v.CurrentTrick {
				b.WriteString("  " + seatName(t, p.Seat) + ": " + playedText(p) + "\n")
			}
		}
	}
	b.WriteString("\n" + l.T("trickchef.players") + "\n")
	for i, sp := range v.Seats {
		marker := "  "
		if v.ToAct == game.Seat(i) {
			marker = "▶️ "
		}
		line := l.T("trickchef.seat_line",
			"Name", seatName(t, game.Seat(i)),
			"Cards", sp.HandSize, "Tricks", sp.TricksWon, "Coins", sp.Coins,
			"Chefs", chefsText(sp.Chefs), "Total", l.T("count.points", "Count", sp.Total))
		if t.Seats[i].Unreachable {
			line += " ⚠️"
		} else if t.Seats[i].Human() && t.Seats[i].Auto() && v.Phase != tc.PhaseOver {
			line += " 💤"
		}
		b.WriteString(marker + line + "\n")
	}
	if lt := v.LastTrick; lt != nil && v.Phase != tc.PhaseOver {
		b.WriteString("\n" + lastTrickText(l, t, lt) + "\n")
	}
	if t.Event != nil {
		b.WriteString("\n" + l.T(t.Event.Key, "Name", seatName(t, game.Seat(t.Event.Seat))) + "\n")
	}
	var kb [][]button
	switch {
	case v.Phase == tc.PhaseOver:
		b.WriteString("\n" + l.T("trickchef.game_over"))
	case t.Phase != PhasePlaying:
		// stopped: the event line says so
	default:
		who := mention(t, v.ToAct)
		switch v.Phase {
		case tc.PhasePick:
			b.WriteString("\n" + l.T("trickchef.turn_pick", "Name", who))
		case tc.PhaseAward:
			b.WriteString("\n" + l.T("trickchef.turn_award", "Name", who))
		default:
			b.WriteString("\n" + l.T("trickchef.turn_play", "Name", who))
		}
		if !t.Deadline.IsZero() && t.Seats[v.ToAct].Human() && !t.Seats[v.ToAct].Auto() {
			b.WriteString(" " + l.T("trickchef.deadline", "Time", t.Deadline.In(deadlineZone()).Format("15:04:05")))
		}
	}
	return message{Text: b.String(), Keyboard: kb}
}

func lastTrickText(l loc, t *Table, lt *tc.TrickResult) string {
	var cards []string
	for _, p := range lt.Cards {
		cards = append(cards, playedText(p))
	}
	s := l.T("trickchef.last_trick", "Cards", strings.Join(cards, ", "), "Winner", seatName(t, lt.Winner))
	if lt.ChefChosen {
		s += "\n" + l.T("trickchef.last_chef", "Name", seatName(t, lt.ChefTaker), "Suit", suitEmoji(lt.ChefSuit))
	} else {
		s += "\n" + l.T("trickchef.last_chef_pending", "Name", seatName(t, lt.ChefTaker))
	}
	if len(lt.Income) > 0 {
		s += "\n" + l.T("trickchef.last_income", "Names", names(t, lt.Income))
	}
	return s
}

func (k trickchefKind) RenderHand(l loc, t *Table, st game.State, seat int) message {
	s := st.(*tc.State)
	v := s.SeatView(game.Seat(seat))
	var b strings.Builder
	b.WriteString(l.T("trickchef.hand_header", "Title", k.Title(l), "Chat", esc(t.Title), "Round", v.Round, "Trick", v.Trick) + "\n")
	if v.Phase == tc.PhaseOver {
		b.WriteString(l.T("trickchef.hand_over"))
		return message{Text: b.String()}
	}
	if t.Phase != PhasePlaying {
		b.WriteString(l.T("trickchef.hand_stopped"))
		return message{Text: b.String()}
	}
	me := v.Seats[seat]
	myTurn := v.ToAct == game.Seat(seat)
	if myTurn {
		// What's on the table matters only when it's your move; waiting
		// hands stay still, so they cost no edits while others play.
		b.WriteString(trumpLine(l, v.Public) + "\n")
		b.WriteString(poolLine(l, v.Public) + "\n")
		if len(v.CurrentTrick) > 0 {
			var cards []string
			for _, p := range v.CurrentTrick {
				cards = append(cards, seatName(t, p.Seat)+" "+playedText(p))
			}
			b.WriteString(l.T("trickchef.hand_trick", "Cards", strings.Join(cards, ", ")) + "\n")
		}
	}
	b.WriteString(l.T("trickchef.hand_mine", "Coins", l.T("count.coins", "Count", me.Coins), "Chefs", chefsText(me.Chefs)) + "\n")
	b.WriteString("\n" + l.T("trickchef.hand_cards", "Cards", cardsText(v.Hand)) + "\n")
	s0 := t.Seats[seat]
	act := func(a game.Action) string {
		return payload{Op: 'a', Table: t.ID, Game: t.GameNo, Args: []int{seat, s0.Nonce, int(a)}}.String()
	}
	var kb [][]button
	switch {
	case !myTurn:
		b.WriteString("\n" + l.T("trickchef.hand_wait"))
	case v.Phase == tc.PhasePick || v.Phase == tc.PhaseAward:
		key, counts := "trickchef.hand_pick", v.SetAside
		if v.Phase == tc.PhaseAward {
			key, counts = "trickchef.hand_award", v.Pool
		}
		b.WriteString("\n" + l.T(key))
		var row []button
		for _, su := range v.Suits {
			if counts[su] > 0 {
				row = append(row, button{Text: "👨‍🍳 " + suitEmoji(su) + " (" + strconv.Itoa(counts[su]) + ")", Data: act(tc.ChefAction(su))})
			}
		}
		kb = append(kb, row)
	default:
		b.WriteString("\n" + l.T("trickchef.hand_play"))
		mod := s0.Mod
		if mod > me.Coins || mod < -me.Coins {
			mod = 0
		}
		if mod != 0 {
			b.WriteString(" " + l.T("trickchef.hand_coins_chosen", "Delta", fmt.Sprintf("%+d", 2*mod), "Coins", l.T("count.coins", "Count", abs(mod))))
		}
		playable := map[tc.Card]bool{}
		for _, c := range v.Playable {
			playable[c] = true
		}
		var row []button
		for _, c := range v.Hand {
			label := cardText(c)
			if mod != 0 {
				label += fmt.Sprintf("→%d", c.Value+2*mod)
			}
			if !playable[c] {
				label = "(" + label + ")"
			}
			row = append(row, button{Text: label, Data: act(tc.PlayAction(c, mod))})
			if len(row) == 5 {
				kb = append(kb, row)
				row = nil
			}
		}
		if len(row) > 0 {
			kb = append(kb, row)
		}
		kb = append(kb, coinRows(t, seat, s0.Nonce, me.Coins, mod)...)
	}
	kb = append(kb, []button{{Text: l.T("trickchef.won_button", "Count", len(v.Won)),
		Data: payload{Op: 'i', Table: t.ID, Game: t.GameNo, Args: []int{seat}}.String()}})
	return message{Text: b.String(), Keyboard: kb, Ping: myTurn}
}

// coinRows lets a player choose the coins for the next card in one tap:
// +2, +4, … and −2, −4, … up to the coins they hold, and 0 to reset.
func coinRows(t *Table, seat, nonce, coins, chosen int) [][]button {
	if coins == 0 {
		return nil
	}
	btn := func(k int) button {
		label := fmt.Sprintf("🪙%+d", 2*k)
		if k == 0 {
			label = "🪙0"
		}
		if k == chosen {
			label = "• " + label + " •"
		}
		return button{Text: label, Data: payload{Op: 'm', Table: t.ID, Game: t.GameNo, Args: []int{seat, nonce, k}}.String()}
	}
	const perRow = 6
	var rows [][]button
	for _, sign := range []int{1, -1} {
		var row []button
		for k := 1; k <= coins; k++ {
			row = append(row, btn(sign*k))
			if len(row) == perRow {
				rows = append(rows, row)
				row = nil
			}
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	if chosen != 0 {
		rows = append(rows, []button{btn(0)})
	}
	return rows
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (k trickchefKind) Info(l loc, t *Table, st game.State, seat int) string {
	v := st.(*tc.State).SeatView(game.Seat(seat))
	if len(v.Won) == 0 {
		return l.T("trickchef.won_none")
	}
	return l.T("trickchef.won_list", "Round", v.Round, "Cards", cardsText(v.Won))
}

func (k trickchefKind) Announce(l loc, t *Table, before, after game.State) []message {
	b, a := before.(*tc.State).PublicView(), after.(*tc.State).PublicView()
	var out []message
	for r := len(b.RoundResults); r < len(a.RoundResults); r++ {
		out = append(out, message{Text: roundText(l, t, a.RoundResults[r])})
	}
	if a.Result != nil && b.Result == nil {
		out = append(out, message{Text: finalText(l, t, a)})
	}
	return out
}

func roundText(l loc, t *Table, rr tc.RoundResult) string {
	var b strings.Builder
	b.WriteString(l.T("trickchef.round_over", "Round", rr.Round) + "\n")
	for _, sr := range rr.Seats {
		var suits []string
		for _, su := range sr.Suits {
			if su.Chefs == 0 && len(su.Won) == 0 {
				continue
			}
			covered := "—"
			if len(su.Covered) > 0 {
				covered = cardsText(su.Covered)
			}
			suits = append(suits, l.T("trickchef.round_suit", "Suit", suitEmoji(su.Suit), "Chefs", su.Chefs,
				"Won", len(su.Won), "Covered", covered, "Stars", su.Stars))
		}
		b.WriteString("\n" + l.T("trickchef.round_seat", "Name", seatName(t, sr.Seat),
			"Score", l.T("count.points", "Count", sr.Score), "Stars", l.T("count.stars", "Count", sr.Stars),
			"Coins", l.T("count.coins", "Count", sr.Coins)) + "\n")
		if len(suits) > 0 {
			b.WriteString("   " + strings.Join(suits, "\n   ") + "\n")
		}
	}
	return b.String()
}

func finalText(l loc, t *Table, v tc.Public) string {
	var b strings.Builder
	res := v.Result
	if len(res.Winners) == 1 {
		b.WriteString(l.T("trickchef.winner", "Name", mention(t, res.Winners[0]), "Score", l.T("count.points", "Count", res.Scores[res.Winners[0]])))
	} else {
		var ws []string
		for _, w := range res.Winners {
			ws = append(ws, mention(t, w))
		}
		b.WriteString(l.T("trickchef.winners", "Names", strings.Join(ws, ", "), "Score", l.T("count.points", "Count", res.Scores[res.Winners[0]])))
	}
	b.WriteString("\n")
	if res.TieBreak != tc.TieNone {
		b.WriteString(l.T("trickchef.tiebreak_"+res.TieBreak.String()) + "\n")
	}
	b.WriteString("\n" + l.T("trickchef.final_scores") + "\n")
	for i, sp := range v.Seats {
		rounds := make([]string, len(sp.RoundScores))
		for r, sc := range sp.RoundScores {
			rounds[r] = strconv.Itoa(sc)
		}
		b.WriteString(l.T("trickchef.final_line", "Name", seatName(t, game.Seat(i)),
			"Rounds", strings.Join(rounds, " + "), "Total", l.T("count.points", "Count", res.Scores[i])) + "\n")
	}
	return b.String()
}
