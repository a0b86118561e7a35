// Package trickchef adapts Трик-н-Шеф (game/trickchef) to the platform:
// its Telegram rendering, lobby options, robots with memory, the coin
// draft and the private info alert. cmd/games wires Game in.
package trickchef

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	tc "github.com/trickchef/trickchef/game/trickchef"
)

// trickchefGame adapts Трик-н-Шеф to the platform.
type trickchefGame struct{}

// Game is Трик-н-Шеф, the trick-taking game with coins and a
// shifting trump, for 3–4 players.
func Game() adapter.Game { return trickchefGame{} }

func (trickchefGame) ID() string { return "trickchef" }
func (trickchefGame) Aliases() []string {
	return []string{"трик-н-шеф", "трикншеф", "трик", "tnc"}
}
func (trickchefGame) SeatRange() (int, int) { return 3, 4 }

// optRemoved is the lobby option that picks the suit left out with three
// players; 0 is the default (green), then red, yellow, blue.
const optRemoved = "removed"

func removedSuit(option int) tc.Suit { return tc.Suit((int(tc.DefaultRemoved) + option) % tc.NumSuits) }

func (trickchefGame) Options() []adapter.GameOption {
	return []adapter.GameOption{{
		Key:    optRemoved,
		Values: tc.NumSuits,
		Shown:  func(seats int) bool { return seats == 3 },
		Label: func(l adapter.Loc, v int) string {
			return l.T("trickchef.option.removed", "Suit", suitEmoji(removedSuit(v)))
		},
	}}
}

func (g trickchefGame) Start(t adapter.TableView) (game.State, error) {
	removed := removedSuit(adapter.OptionValue(t, g, optRemoved))
	return tc.New(tc.Config{Players: t.Seats(), Removed: removed, First: 0, Seed: t.Seed()})
}

func (trickchefGame) Decode(data []byte) (game.State, error) { return tc.Unmarshal(data) }

func (trickchefGame) Levels() []string {
	return []string{string(tc.Novice), string(tc.Cook), string(tc.Shef)}
}

// Auto plays the baseline for a person who timed out, and the level's
// player for a robot. «Шеф» searches within d.Budget; its choice is logged
// like any move, so a replay stays exact.
func (trickchefGame) Auto(st game.State, seat game.Seat, d adapter.Decision) (game.Action, bool) {
	v := st.(*tc.State).SeatView(seat)
	if d.Level == "" {
		return tc.Baseline(v, d.Seed), true
	}
	return tc.Decide(tc.Level(d.Level), v, history(d.Memory), d.Seed, tc.Budget{Playouts: d.Playouts, Wall: d.Budget, Clock: time.Now}), true
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

func (trickchefGame) Observe(memory []byte, st game.State) []byte {
	h := history(memory)
	h.Observe(st.(*tc.State).PublicView())
	out, err := json.Marshal(h)
	if err != nil {
		return nil
	}
	return out
}

// Draft keeps the coins chosen for the next card: one value, from −coins
// to +coins; 0 clears the choice, and so does pressing the chosen value
// again (a player undoes a choice where they made it).
func (trickchefGame) Draft(st game.State, seat game.Seat, current []int, coins int) ([]int, bool) {
	have := st.(*tc.State).PublicView().Seats[seat].Coins
	switch {
	case coins < -have || coins > have:
		return nil, false
	case coins == 0, len(current) == 1 && current[0] == coins:
		return nil, true
	}
	return []int{coins}, true
}

// chosenCoins is the seat's coin choice, 0 when none (or no longer valid).
func chosenCoins(t adapter.TableView, seat, have int) int {
	if d := t.Draft(seat); len(d) == 1 && d[0] >= -have && d[0] <= have {
		return d[0]
	}
	return 0
}

func suitEmoji(s tc.Suit) string {
	switch s {
	case tc.Red:
		return "🟥"
	case tc.Yellow:
		return "🟨"
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

// playedText shows a card with its coins: "🟥9 +4 → 13", "🟥3 −4 → −1".
func playedText(p tc.Played) string {
	s := cardText(p.Card)
	if p.Coins != 0 {
		s += " " + signed(2*p.Coins) + " → " + number(p.Effective)
	}
	return s
}

// number writes n with a real minus sign (−2, not the hyphen of -2), as
// every value a player reads is printed.
func number(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

// signed writes n with its sign, a real minus for negatives: "+2", "−2".
func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return number(n)
}

func suitsText(ss []tc.Suit) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = suitEmoji(s)
	}
	return strings.Join(parts, " ")
}

// chefCount is n chefs of suit s, the count apart from the suit so it
// never reads as a card: «🟥×2» is two chefs, «🟥2» the card.
func chefCount(s tc.Suit, n int) string { return suitEmoji(s) + "×" + strconv.Itoa(n) }

// chefsText lists chefs per suit, «🟥×1 🟦×2», or a dash.
func chefsText(chefs [tc.NumSuits]int) string {
	var parts []string
	for s := tc.Suit(0); s < tc.NumSuits; s++ {
		if chefs[s] > 0 {
			parts = append(parts, chefCount(s, chefs[s]))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " ")
}

// trumpLine tells which suits are trump now.
func trumpLine(l adapter.Loc, v tc.Public) string {
	if len(v.Trumps) == 0 {
		return l.T("trickchef.trump_none")
	}
	if len(v.Trumps) == len(v.Suits) {
		return l.T("trickchef.trump_all")
	}
	if len(v.Trumps) > 1 {
		return l.T("trickchef.trumps", "Suits", suitsText(v.Trumps))
	}
	return l.T("trickchef.trump", "Suits", suitsText(v.Trumps))
}

func poolLine(l adapter.Loc, v tc.Public) string {
	var parts []string
	for _, s := range v.Suits {
		parts = append(parts, chefCount(s, v.Pool[s]))
	}
	return l.T("trickchef.pool", "Pool", strings.Join(parts, " "), "Reserve", l.T("count.coins", "Count", v.Reserve))
}

func (k trickchefGame) RenderTable(l adapter.Loc, t adapter.TableView, st game.State) adapter.Message {
	v := st.(*tc.State).PublicView()
	var b strings.Builder
	if v.Phase == tc.PhaseOver {
		b.WriteString(l.T("trickchef.header_over", "Title", adapter.Title(l, k)))
	} else {
		b.WriteString(l.T("trickchef.header", "Title", adapter.Title(l, k), "Round", v.Round, "Trick", v.Trick))
	}
	b.WriteString("\n")
	if v.Phase != tc.PhaseOver {
		b.WriteString(trumpLine(l, v) + "\n")
		b.WriteString(poolLine(l, v) + "\n")
		if len(v.CurrentTrick) > 0 {
			b.WriteString("\n" + l.T("trickchef.on_table") + "\n")
			for _, p := range v.CurrentTrick {
				b.WriteString("  " + adapter.SeatName(t, p.Seat) + ": " + playedText(p) + "\n")
			}
		}
	}
	b.WriteString("\n" + l.T("trickchef.players") + "\n")
	for i, sp := range v.Seats {
		marker := "  "
		if v.ToAct == game.Seat(i) {
			marker = "👉 "
		}
		line := l.T("trickchef.seat_line",
			"Name", adapter.SeatName(t, game.Seat(i)),
			"Cards", sp.HandSize, "Tricks", l.T("count.tricks", "Count", sp.TricksWon), "Coins", sp.Coins,
			"Chefs", chefsText(sp.Chefs), "Total", l.T("count.points", "Count", sp.Total))
		b.WriteString(marker + line + adapter.SeatMark(t, game.Seat(i), v.Phase == tc.PhaseOver) + "\n")
	}
	if lt := v.LastTrick; lt != nil && v.Phase != tc.PhaseOver {
		b.WriteString("\n" + lastTrickText(l, t, lt) + "\n")
	}
	if e := adapter.EventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	var kb [][]adapter.Button
	switch {
	case v.Phase == tc.PhaseOver:
		b.WriteString("\n" + l.T("trickchef.game_over"))
	case !t.Playing():
		// stopped: the event line says so
	default:
		who := adapter.Mention(t, v.ToAct)
		switch v.Phase {
		case tc.PhasePick:
			b.WriteString("\n" + l.T("trickchef.turn_pick", "Name", who))
		case tc.PhaseAward:
			b.WriteString("\n" + l.T("trickchef.turn_award", "Name", who))
		default:
			b.WriteString("\n" + l.T("trickchef.turn_play", "Name", who))
		}
		b.WriteString(adapter.DeadlineText(l, t, v.ToAct))
	}
	return adapter.Message{Text: b.String(), Keyboard: kb}
}

// lastTrickText says who took the last trick, then who played which card
// (the arrow only ever means a card's value with its coins), then the chef
// and the income it brought.
func lastTrickText(l adapter.Loc, t adapter.TableView, lt *tc.TrickResult) string {
	s := l.T("trickchef.last_trick", "Cards", trickText(t, lt.Cards), "Winner", adapter.SeatName(t, lt.Winner))
	if lt.ChefChosen {
		s += "\n" + l.T("trickchef.last_chef", "Name", adapter.SeatName(t, lt.ChefTaker), "Suit", suitEmoji(lt.ChefSuit))
	} else {
		s += "\n" + l.T("trickchef.last_chef_pending", "Name", adapter.SeatName(t, lt.ChefTaker))
	}
	if len(lt.Income) > 0 {
		s += "\n" + l.T("trickchef.last_income", "Names", adapter.SeatNames(t, lt.Income))
	}
	return s
}

// trickText names each card of a trick with the seat that played it:
// "Оля 🟩3, Маша 🟦10 −2 → 8".
func trickText(t adapter.TableView, cards []tc.Played) string {
	parts := make([]string, len(cards))
	for i, p := range cards {
		parts[i] = adapter.SeatName(t, p.Seat) + " " + playedText(p)
	}
	return strings.Join(parts, ", ")
}

func (k trickchefGame) RenderSeat(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Message {
	s := st.(*tc.State)
	v := s.SeatView(game.Seat(seat))
	var b strings.Builder
	b.WriteString(l.T("trickchef.hand_header", "Title", adapter.Title(l, k), "Chat", adapter.Esc(t.Title()), "Round", v.Round, "Trick", v.Trick) + "\n")
	if v.Phase == tc.PhaseOver {
		b.WriteString(l.T("hand.over"))
		return adapter.Message{Text: b.String()}
	}
	if !t.Playing() {
		b.WriteString(l.T("hand.stopped"))
		return adapter.Message{Text: b.String()}
	}
	me := v.Seats[seat]
	myTurn := v.ToAct == game.Seat(seat)
	if myTurn {
		// What's on the table matters only when it's your move; waiting
		// hands stay still, so they cost no edits while others play.
		b.WriteString(trumpLine(l, v.Public) + "\n")
		b.WriteString(poolLine(l, v.Public) + "\n")
		if len(v.CurrentTrick) > 0 {
			b.WriteString(l.T("trickchef.hand_trick", "Cards", trickText(t, v.CurrentTrick)) + "\n")
		}
	}
	b.WriteString(l.T("trickchef.hand_mine", "Coins", l.T("count.coins", "Count", me.Coins), "Chefs", chefsText(me.Chefs)) + "\n")
	if len(v.Hand) > 0 {
		b.WriteString("\n" + l.T("trickchef.hand_cards", "Cards", cardsText(v.Hand)) + "\n")
	} else {
		b.WriteString("\n" + l.T("trickchef.hand_empty") + "\n")
	}
	var kb [][]adapter.Button
	keys := seatKeysOf(l, t, v, seat)
	switch {
	case !myTurn && len(v.Hand) == 0:
		// The round is about to be scored: «I will send your cards
		// again» would not be true.
	case !myTurn:
		b.WriteString("\n" + l.T("hand.wait"))
	case keys.pick:
		key := "trickchef.hand_pick"
		if v.Phase == tc.PhaseAward {
			key = "trickchef.hand_award"
		}
		b.WriteString("\n" + l.T(key))
		kb = append(kb, keys.chefs)
	default:
		b.WriteString("\n" + l.T("trickchef.hand_play"))
		if keys.unplayable() {
			b.WriteString(" " + l.T("trickchef.hand_follow"))
		}
		if keys.mod != 0 {
			b.WriteString(" " + coinsChosenText(l, keys.mod))
		}
		var row []adapter.Button
		for _, h := range keys.cards {
			label := cardText(h.card)
			if keys.mod != 0 {
				label += "→" + number(h.card.Value+2*keys.mod)
			}
			if !h.playable {
				label = "(" + label + ")"
			}
			row = append(row, adapter.ActionButton(t, seat, label, h.action))
			if len(row) == 5 {
				kb = append(kb, row)
				row = nil
			}
		}
		if len(row) > 0 {
			kb = append(kb, row)
		}
		for _, r := range keys.coins {
			var row []adapter.Button
			for _, c := range r {
				if c.value == keys.mod {
					c.button.Text = "• " + c.button.Text + " •"
				}
				row = append(row, c.button)
			}
			kb = append(kb, row)
		}
	}
	kb = append(kb, []adapter.Button{keys.info})
	return adapter.Message{Text: b.String(), Keyboard: kb, Ping: myTurn, Lazy: !myTurn}
}

func coinsChosenText(l adapter.Loc, mod int) string {
	return l.T("trickchef.hand_coins_chosen", "Delta", signed(2*mod), "Coins", l.T("count.coins", "Count", abs(mod)))
}

// seatKeys are a seat's buttons while the game runs, shared by its chat
// keyboard and its web table: the cards of the hand when it plays one, the
// chefs when it picks one, the coins and the info button.
type seatKeys struct {
	pick  bool             // the seat picks a chef (chefs holds the row)
	chefs []adapter.Button // one per suit that has a chef to take
	cards []handKey        // the hand, when the seat plays a card now
	mod   int              // the coins chosen for the next card
	coins [][]coinKey      // coin rows, when the seat plays a card now
	info  adapter.Button   // the won pile, always
}

// unplayable reports whether a card of the hand cannot be played now (the
// seat must follow the led suit): only then do the prompts say so.
func (k seatKeys) unplayable() bool {
	for _, h := range k.cards {
		if !h.playable {
			return true
		}
	}
	return false
}

// handKey is a card of the hand with the action it plays.
type handKey struct {
	card     tc.Card
	playable bool
	action   game.Action
}

// coinKey is a coin choice: its value (the k of ±2k) and its button,
// labelled plainly (the chat marks the chosen one itself).
type coinKey struct {
	value  int
	button adapter.Button
}

func seatKeysOf(l adapter.Loc, t adapter.TableView, v tc.SeatView, seat int) seatKeys {
	// The button counts tricks, as the table does; its alert lists their cards.
	k := seatKeys{info: adapter.InfoButton(t, seat, l.T("trickchef.won_button", "Count", v.Seats[seat].TricksWon))}
	if v.ToAct != game.Seat(seat) {
		return k
	}
	switch v.Phase {
	case tc.PhasePick, tc.PhaseAward:
		k.pick = true
		counts := v.SetAside
		if v.Phase == tc.PhaseAward {
			counts = v.Pool
		}
		for _, su := range v.Suits {
			if counts[su] > 0 {
				k.chefs = append(k.chefs, adapter.ActionButton(t, seat, "👨‍🍳 "+suitEmoji(su)+" ("+strconv.Itoa(counts[su])+")", tc.ChefAction(su)))
			}
		}
	case tc.PhasePlay:
		me := v.Seats[seat]
		k.mod = chosenCoins(t, seat, me.Coins)
		playable := map[tc.Card]bool{}
		for _, c := range v.Playable {
			playable[c] = true
		}
		for _, c := range v.Hand {
			k.cards = append(k.cards, handKey{card: c, playable: playable[c], action: tc.PlayAction(c, k.mod)})
		}
		k.coins = coinKeys(l, t, seat, me.Coins, k.mod)
	}
	return k
}

// coinKeys let a player choose the coins for the next card in one tap:
// +2, +4, … and −2, −4, … up to the coins they hold (pressing the chosen
// one again clears it), and, once chosen, a button that says it clears.
func coinKeys(l adapter.Loc, t adapter.TableView, seat, coins, chosen int) [][]coinKey {
	if coins == 0 {
		return nil
	}
	key := func(k int) coinKey {
		label := "🪙" + signed(2*k)
		if k == 0 {
			label = l.T("trickchef.coins_none")
		}
		return coinKey{value: k, button: adapter.DraftButton(t, seat, label, k)}
	}
	const perRow = 6
	var rows [][]coinKey
	for _, sign := range []int{1, -1} {
		var row []coinKey
		for k := 1; k <= coins; k++ {
			row = append(row, key(sign*k))
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
		rows = append(rows, []coinKey{key(0)})
	}
	return rows
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (k trickchefGame) Info(l adapter.Loc, t adapter.TableView, st game.State, seat int) string {
	v := st.(*tc.State).SeatView(game.Seat(seat))
	if len(v.Won) == 0 {
		return l.T("trickchef.won_none")
	}
	return l.T("trickchef.won_list", "Round", v.Round, "Cards", cardsText(v.Won))
}

func (k trickchefGame) Announce(l adapter.Loc, t adapter.TableView, before, after game.State) []adapter.Message {
	b, a := before.(*tc.State).PublicView(), after.(*tc.State).PublicView()
	var out []adapter.Message
	for r := len(b.RoundResults); r < len(a.RoundResults); r++ {
		out = append(out, adapter.Message{Text: roundText(l, t, a.RoundResults[r])})
	}
	if a.Result != nil && b.Result == nil {
		out = append(out, adapter.Message{Text: finalText(l, t, a)})
	}
	return out
}

func roundText(l adapter.Loc, t adapter.TableView, rr tc.RoundResult) string {
	var b strings.Builder
	b.WriteString(l.T("trickchef.round_over", "Round", rr.Round) + "\n")
	for _, sr := range rr.Seats {
		// Per suit: the cards the seat's chefs stand on and what they
		// earned; then, in one line each, the cards no chef reached and
		// the chefs left without a card, so every won card and every chef
		// is accounted for without listing empty suits.
		var lines, bare, spare []string
		for _, su := range sr.Suits {
			if len(su.Covered) > 0 {
				key := "trickchef.round_chefs"
				if len(su.Covered) == 1 {
					key = "trickchef.round_chef"
				}
				lines = append(lines, l.T(key, "Cards", cardsText(su.Covered), "Stars", l.T("count.stars", "Count", su.Stars)))
			}
			if n := len(su.Won) - len(su.Covered); n > 0 {
				bare = append(bare, chefCount(su.Suit, n))
			}
			if n := su.Chefs - len(su.Covered); n > 0 {
				spare = append(spare, chefCount(su.Suit, n))
			}
		}
		if len(bare) > 0 {
			lines = append(lines, l.T("trickchef.round_bare", "Cards", strings.Join(bare, " ")))
		}
		if len(spare) > 0 {
			lines = append(lines, l.T("trickchef.round_spare", "Chefs", strings.Join(spare, " ")))
		}
		b.WriteString("\n" + l.T("trickchef.round_seat", "Name", adapter.SeatName(t, sr.Seat),
			"Score", l.T("count.points", "Count", sr.Score), "Stars", l.T("count.stars", "Count", sr.Stars),
			"Coins", l.T("count.coins", "Count", sr.Coins)) + "\n")
		if len(lines) > 0 {
			b.WriteString("   " + strings.Join(lines, "\n   ") + "\n")
		}
	}
	return b.String()
}

// finalText is the game's result: the winner, the tie-break that decided
// it, and «Итоги» best first with each seat's round scores.
func finalText(l adapter.Loc, t adapter.TableView, v tc.Public) string {
	res := v.Result
	var b strings.Builder
	b.WriteString(adapter.WinnerLine(l, t, game.Result{Scores: res.Scores, Winners: res.Winners}) + "\n")
	if res.TieBreak != tc.TieNone {
		b.WriteString(l.T("trickchef.tiebreak_"+res.TieBreak.String()) + "\n")
	}
	b.WriteString("\n" + adapter.ResultTable(l, t, game.Result{Scores: res.Scores, Winners: res.Winners}, func(s game.Seat) string {
		rounds := make([]string, len(v.Seats[s].RoundScores))
		for r, sc := range v.Seats[s].RoundScores {
			rounds[r] = strconv.Itoa(sc)
		}
		return l.T("trickchef.final_line", "Rounds", strings.Join(rounds, " + "), "Total", l.T("count.points", "Count", res.Scores[s]))
	}))
	return b.String()
}

// Deal tells a round's deal: every seat's ten cards. Each round is shuffled
// from the generator the seed starts and nothing else draws from it, so
// all three deals follow from the reveal alone, whatever was played.
func (trickchefGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*tc.State)
	lines := []string{l.T("trickchef.deal.round", "Round", s.PublicView().Round)}
	for i := range s.Seats() {
		lines = append(lines, l.T("trickchef.deal.hand", "Name", adapter.SeatPlainName(t, game.Seat(i)), "Cards", cardsText(s.SeatView(game.Seat(i)).Hand)))
	}
	return strings.Join(lines, "\n")
}

// Shuffled: a new round was dealt.
func (trickchefGame) Shuffled(before, after game.State) bool {
	b, a := before.(*tc.State).PublicView(), after.(*tc.State).PublicView()
	return a.Phase != tc.PhaseOver && a.Round != b.Round
}
