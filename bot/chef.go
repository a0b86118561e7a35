package bot

import (
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/chef"
)

// chefGame adapts «Меню шефа» to the platform. Everything in this game is
// public, so the group message is the whole board; a private message holds
// only the buttons of the player whose turn it is.
type chefGame struct{}

// Chef is «Меню шефа», the open-menu race for 2–8 players: collect six
// dishes of six colours, announce «Счёт!», take the bill.
func Chef() Game { return chefGame{} }

func (chefGame) ID() string { return "chef" }
func (chefGame) Aliases() []string {
	return []string{"шеф", "меню", "меню шефа", "menu"}
}
func (chefGame) SeatRange() (int, int) { return chef.MinPlayers, chef.MaxPlayers }

// chefOptAnnounce is the lobby option that says how «Счёт!» is announced: 0
// by the player's button (the default), 1 automatically.
const chefOptAnnounce = "announce"

func (chefGame) Options() []option {
	return []option{{
		Key:    chefOptAnnounce,
		Values: 2,
		Label: func(l loc, v int) string {
			return l.T("chef.option.announce", "Mode", l.T("chef.announce_mode_"+strconv.Itoa(v)))
		},
	}}
}

// Start deals for the table. The dealer is the table's creator, so the
// seat after them begins; without the creator at the table, seat 0 does.
func (g chefGame) Start(t *Table) (game.State, error) {
	first := 0
	for i, s := range t.Seats {
		if s.Human() && s.UserID == t.Creator {
			first = (i + 1) % len(t.Seats)
			break
		}
	}
	return chef.New(chef.Config{
		Players:      len(t.Seats),
		First:        game.Seat(first),
		AutoAnnounce: optionValue(t, g, chefOptAnnounce) == 1,
		Seed:         t.Seed,
	})
}

func (chefGame) Decode(data []byte) (game.State, error) { return chef.Unmarshal(data) }

func (chefGame) Levels() []string {
	return []string{string(chef.Novice), string(chef.Cook), string(chef.Shef)}
}

// Auto plays the level's robot; a person who timed out gets the Cook's
// sensible move, which is cheap and never throws their menu away.
func (chefGame) Auto(st game.State, seat game.Seat, d decision) (game.Action, bool) {
	level := chef.Level(d.Level)
	if d.Level == "" {
		level = chef.Cook
	}
	a := chef.Decide(level, st.(*chef.State).SeatView(seat), d.Seed)
	return a, a >= 0
}

// Drafts. A seat's choice in progress (Seat.Draft) is one of
//
//	[]                     nothing chosen: the turn's main keyboard
//	[flow]                 a choice of dish is open: chefFlowDiscard, or
//	                       chefFlowCard+card for Похмелье, Диета, Шеф
//	[chefFlowHangover, d]  Похмелье's first dish d chosen, the second open
//
// Draft buttons carry chefCancel, a flow, or a dish (its Card value 1..6);
// the last press of a flow is an ordinary action button carrying the whole
// move, so the engine only ever sees complete actions.
const (
	chefCancel      = 0
	chefFlowDiscard = 100
	chefFlowCard    = 100 // + the action card
	// chefFlowHangover is Похмелье's flow, the one with two steps.
	chefFlowHangover = chefFlowCard + int(chef.Hangover)
)

// chefFlowOf is the flow an action belongs to, or 0 for an action that needs
// no choice of dish.
func chefFlowOf(a game.Action) int {
	m, ok := chef.DecodeAction(a)
	switch {
	case !ok:
		return 0
	case m.Kind == chef.KindDiscard:
		return chefFlowDiscard
	case m.Kind == chef.KindPlay && (m.Card == chef.Hangover || m.Card == chef.Diet || m.Card == chef.ChefCard):
		return chefFlowCard + int(m.Card)
	}
	return 0
}

// chefFlowActions lists the legal actions of a flow, in the engine's order.
func chefFlowActions(legal []game.Action, flow int) []game.Action {
	var out []game.Action
	for _, a := range legal {
		if chefFlowOf(a) == flow {
			out = append(out, a)
		}
	}
	return out
}

// chefHangoverSeconds lists the legal Похмелье actions whose first dish is d.
func chefHangoverSeconds(legal []game.Action, d chef.Card) []game.Action {
	var out []game.Action
	for _, a := range chefFlowActions(legal, chefFlowHangover) {
		if m, _ := chef.DecodeAction(a); m.Dish == d {
			out = append(out, a)
		}
	}
	return out
}

// chefValidDraft is the draft if it still leads to a legal action, else nil
// (a draft from another moment never shows or counts).
func chefValidDraft(legal []game.Action, d []int) []int {
	switch {
	case len(d) == 1 && d[0] >= chefFlowDiscard && len(chefFlowActions(legal, d[0])) > 0:
		return d
	case len(d) == 2 && d[0] == chefFlowHangover && d[1] > 0 && d[1] <= chef.NumColours &&
		len(chefHangoverSeconds(legal, chef.Card(d[1]))) > 0:
		return d
	}
	return nil
}

// Draft opens a flow, picks Похмелье's first dish, or cancels.
func (chefGame) Draft(st game.State, seat game.Seat, current []int, value int) ([]int, bool) {
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return nil, false
	}
	var next []int
	switch {
	case value == chefCancel:
		return nil, true
	case value >= chefFlowDiscard:
		next = []int{value}
	default:
		cur := chefValidDraft(legal, current)
		if len(cur) != 1 || cur[0] != chefFlowHangover {
			return nil, false
		}
		next = []int{cur[0], value}
	}
	if chefValidDraft(legal, next) == nil {
		return nil, false
	}
	return next, true
}

// Emoji. Each course has its food, and the guide names its frame colour.

func chefDishEmoji(c chef.Card) string {
	switch c {
	case chef.Starter:
		return "🍤"
	case chef.Sauce:
		return "🍅"
	case chef.Main:
		return "🍝"
	case chef.Side:
		return "🥦"
	case chef.Dessert:
		return "🍰"
	case chef.Drink:
		return "☕"
	}
	return chefCardEmoji(c)
}

func chefCardEmoji(c chef.Card) string {
	switch c {
	case chef.Hangover:
		return "🥴"
	case chef.Diet:
		return "🥗"
	case chef.EmptyPlate:
		return "🍽"
	case chef.BlankMenu:
		return "📄"
	case chef.ChefCard:
		return "👨‍🍳"
	case chef.Addition:
		return "🧾"
	}
	if c.IsDish() {
		return chefDishEmoji(c)
	}
	return "?"
}

// chefEmptySlot marks a colour missing from a menu.
const chefEmptySlot = "▫️"

// chefCardText names a card in running text: a dish by its emoji, any other
// card by its emoji and name («🥴 Похмелье»).
func chefCardText(l loc, c chef.Card) string {
	switch {
	case c == chef.NoCard:
		return "—" // an empty discard pile (its only card was taken)
	case c.IsDish():
		return chefDishEmoji(c)
	}
	return chefCardEmoji(c) + " " + l.T("chef.card."+c.Key())
}

// chefDishLabel names a dish on a button: «🍝 горячее».
func chefDishLabel(l loc, c chef.Card) string {
	return chefDishEmoji(c) + " " + l.T("chef.dish."+c.Key())
}

// chefRepeat shows n copies of an emoji compactly: 🍝, 🍝🍝, 🍝×3.
func chefRepeat(e string, n int) string {
	switch {
	case n <= 0:
		return ""
	case n <= 2:
		return strings.Repeat(e, n)
	}
	return e + "×" + strconv.Itoa(n)
}

// chefMenu is a seat's menu as six colour slots: the dish, or ▫️.
func chefMenu(cards [chef.NumKinds]int) string {
	var b strings.Builder
	for c := chef.Starter; c <= chef.Drink; c++ {
		if cards[c] > 0 {
			b.WriteString(chefDishEmoji(c))
		} else {
			b.WriteString(chefEmptySlot)
		}
	}
	return b.String()
}

// chefExtras is what lies in front of a seat beyond the six slots: the
// second and further dishes of a colour («+🍝») and the action cards
// («· 🥴👨‍🍳»); "" if nothing.
func chefExtras(cards [chef.NumKinds]int) string {
	var dup, act strings.Builder
	for c := chef.Starter; c <= chef.Drink; c++ {
		dup.WriteString(chefRepeat(chefDishEmoji(c), cards[c]-1))
	}
	for c := chef.Hangover; c <= chef.ChefCard; c++ {
		act.WriteString(chefRepeat(chefCardEmoji(c), cards[c]))
	}
	var parts []string
	if dup.Len() > 0 {
		parts = append(parts, "+"+dup.String())
	}
	if act.Len() > 0 {
		parts = append(parts, "· "+act.String())
	}
	return strings.Join(parts, " ")
}

// chefFront is a seat's menu and extras.
func chefFront(cards [chef.NumKinds]int) string {
	if x := chefExtras(cards); x != "" {
		return chefMenu(cards) + " " + x
	}
	return chefMenu(cards)
}

func chefDirection(l loc, clockwise bool) string {
	if clockwise {
		return l.T("chef.cw")
	}
	return l.T("chef.ccw")
}

func (k chefGame) RenderTable(l loc, t *Table, st game.State) message {
	v := st.(*chef.State).PublicView()
	over := v.Step == chef.StepOver
	var b strings.Builder
	if over {
		b.WriteString(l.T("chef.header_over", "Title", title(l, k)) + "\n")
	} else {
		b.WriteString(l.T("chef.header", "Title", title(l, k), "Turn", v.TurnNumber, "Direction", chefDirection(l, v.Clockwise)) + "\n")
		b.WriteString(l.T("chef.pile", "Pile", v.Pile, "Round", v.Rebuilds+1, "Rounds", v.MaxRebuilds+1,
			"Discard", len(v.Discard), "Top", chefCardText(l, v.DiscardTop)) + "\n")
		if removed := chefRemoved(v.Removed); removed != "" {
			b.WriteString(l.T("chef.removed", "Cards", removed) + "\n")
		}
		if v.AutoAnnounce {
			b.WriteString(l.T("chef.auto_note") + "\n")
		}
	}
	b.WriteString("\n")
	for _, sp := range v.Seats {
		b.WriteString(k.seatLine(t, v, sp) + "\n")
	}
	if log := chefLog(l, t, v); len(log) > 0 {
		b.WriteString("\n" + l.T("chef.log_title") + "\n" + strings.Join(log, "\n") + "\n")
	}
	if e := eventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	switch {
	case over:
		b.WriteString("\n" + l.T("chef.game_over"))
	case t.Phase != PhasePlaying:
		// stopped: the event line says so
	default:
		b.WriteString("\n" + l.T("chef.turn", "Name", mention(t, v.Turn), "Next", seatName(t, v.Next)))
		b.WriteString(deadlineText(l, t, v.Turn))
	}
	return message{Text: strings.TrimRight(b.String(), "\n")}
}

// seatLine is one seat on the board: its menu first, so that the slots of
// all seats line up in a column, then the name and the marks.
func (chefGame) seatLine(t *Table, v chef.Public, sp chef.SeatPublic) string {
	over := v.Step == chef.StepOver
	var b strings.Builder
	b.WriteString(chefMenu(sp.Cards) + " " + seatName(t, sp.Seat))
	if x := chefExtras(sp.Cards); x != "" {
		b.WriteString(" " + x)
	}
	if sp.Cards[chef.Addition] > 0 {
		b.WriteString(" " + chefCardEmoji(chef.Addition))
	}
	if sp.Announced {
		b.WriteString(" 📣")
	}
	switch {
	case over && slices.Contains(v.Winners, sp.Seat):
		b.WriteString(" 🏆")
	case over:
	case v.Turn == sp.Seat && t.Phase == PhasePlaying:
		b.WriteString(" 👈")
	case sp.Skipped:
		b.WriteString(" ⏭")
	}
	return b.String() + seatMark(t, sp.Seat, over)
}

// chefRemoved lists the dishes out of the game (two players), or "".
func chefRemoved(removed [chef.NumKinds]int) string {
	var b strings.Builder
	for c := chef.Starter; c <= chef.Drink; c++ {
		b.WriteString(chefRepeat(chefDishEmoji(c), removed[c]))
	}
	return b.String()
}

// chefLogLines is how many lines of recent moves the board shows.
const chefLogLines = 4

// chefLog tells the last moves from the engine's events, one line per
// turn: «Оля тянет 🍝, сбрасывает 🍅», «Оля → 🥴 Похмелье → Серёжа: −🍝 −☕,
// пропускает ход».
func chefLog(l loc, t *Table, v chef.Public) []string {
	type line struct {
		seat  game.Seat
		parts []string
		play  bool // the line opens with a played card
	}
	var lines []line
	var prev *chef.Event
	for i := range v.Events {
		e := &v.Events[i]
		// A seat's events of one turn share a line; its announcement, its
		// lapse or its win joins the line of the move that caused it.
		follows := e.Kind == chef.EventAnnounce || e.Kind == chef.EventLapse || e.Kind == chef.EventWin
		cont := prev != nil && len(lines) > 0 && e.Seat >= 0 && e.Seat == prev.Seat &&
			(!chefEndsTurn(prev.Kind) || follows) &&
			!(e.Kind == chef.EventDraw && prev.Kind == chef.EventDraw)
		if e.Kind == chef.EventPlay && cont && prev.Kind == chef.EventDraw && prev.Card == e.Card {
			// Drawn and played at once: «тянет 🥴 Похмелье → Серёжа: …».
			cur := &lines[len(lines)-1]
			cur.parts[len(cur.parts)-1] = l.T("chef.log.draw", "Card", chefPlayText(l, t, v, e))
		} else {
			text := chefEventText(l, t, v, e)
			if cont {
				cur := &lines[len(lines)-1]
				if e.Kind == chef.EventPlay {
					text = l.T("chef.log.plays", "Play", text)
				}
				cur.parts = append(cur.parts, text)
			} else {
				lines = append(lines, line{seat: e.Seat, parts: []string{text}, play: e.Kind == chef.EventPlay})
			}
		}
		prev = e
	}
	// The oldest line may have lost its start to the engine's bounded log.
	if len(v.Events) > 0 && v.Events[0].Seq > 1 && len(lines) > 1 {
		lines = lines[1:]
	}
	if len(lines) > chefLogLines {
		lines = lines[len(lines)-chefLogLines:]
	}
	out := make([]string, len(lines))
	for i, ln := range lines {
		text := strings.Join(ln.parts, ", ")
		switch {
		case ln.seat < 0:
			out[i] = text
		case ln.play:
			out[i] = seatName(t, ln.seat) + " → " + text
		default:
			out[i] = seatName(t, ln.seat) + " " + text
		}
	}
	return out
}

// chefEndsTurn reports whether an event closes its seat's turn, so the seat's
// next events (after a skip, say) start a new line.
func chefEndsTurn(k chef.EventKind) bool {
	switch k {
	case chef.EventTake, chef.EventDiscard, chef.EventPlay, chef.EventBillDiscarded, chef.EventWin, chef.EventLapse:
		return true
	}
	return false
}

// chefEventText is one event as a part of a log line (without the actor's name).
func chefEventText(l loc, t *Table, v chef.Public, e *chef.Event) string {
	switch e.Kind {
	case chef.EventDraw:
		return l.T("chef.log.draw", "Card", chefCardText(l, e.Card))
	case chef.EventRedraw:
		return l.T("chef.log.redraw", "Card", chefCardText(l, e.Card))
	case chef.EventBillDiscarded:
		return l.T("chef.log.bill_discarded")
	case chef.EventTake:
		return l.T("chef.log.take", "Card", chefCardText(l, e.Card))
	case chef.EventDiscard:
		return l.T("chef.log.discard", "Card", chefCardText(l, e.Card))
	case chef.EventPlay:
		return chefPlayText(l, t, v, e)
	case chef.EventAnnounce:
		return l.T("chef.log.announce")
	case chef.EventLapse:
		return l.T("chef.log.lapse")
	case chef.EventRebuild:
		return l.T("chef.log.rebuild", "Card", chefCardText(l, e.Card))
	case chef.EventWin:
		return l.T("chef.log.win")
	case chef.EventClosing:
		return l.T("chef.log.closing")
	}
	return "?"
}

// chefPlayText is a played action card and what it did: «🥴 Похмелье →
// Серёжа: −🍝 −☕, пропускает ход».
func chefPlayText(l loc, t *Table, v chef.Public, e *chef.Event) string {
	card, target := chefCardText(l, e.Card), seatName(t, e.Target)
	switch e.Card {
	case chef.Hangover, chef.Diet:
		lost := "−" + chefDishEmoji(e.Dishes[0])
		if e.Card == chef.Hangover {
			lost += " −" + chefDishEmoji(e.Dishes[1])
		}
		if v.Players == 2 {
			lost += " " + l.T("chef.log.out_of_game")
		}
		return l.T("chef.log.penalty", "Card", card, "Target", target, "Lost", lost)
	case chef.EmptyPlate:
		return l.T("chef.log.empty_plate", "Card", card, "Target", target)
	case chef.BlankMenu:
		return l.T("chef.log.blank_menu", "Card", card)
	case chef.ChefCard:
		return l.T("chef.log.chef", "Card", card, "Target", target, "Dish", chefDishEmoji(e.Dishes[0]))
	}
	return card
}

func (k chefGame) RenderSeat(l loc, t *Table, st game.State, seat int) message {
	v := st.(*chef.State).SeatView(game.Seat(seat))
	var b strings.Builder
	b.WriteString(l.T("chef.hand_header", "Title", title(l, k), "Chat", esc(t.Title), "Turn", v.TurnNumber) + "\n")
	switch {
	case v.Step == chef.StepOver:
		b.WriteString(l.T("hand.over"))
		return message{Text: b.String()}
	case t.Phase != PhasePlaying:
		b.WriteString(l.T("hand.stopped"))
		return message{Text: b.String()}
	case len(v.Legal) == 0:
		// The board is in the group; a waiting hand costs no edits.
		b.WriteString(l.T("chef.hand_wait"))
		return message{Text: b.String(), Lazy: true}
	}
	me := v.Seats[seat]
	b.WriteString(l.T("chef.hand_mine", "Menu", chefFront(me.Cards)) + "\n")
	if v.Next != v.Seat {
		nx := v.Seats[v.Next]
		b.WriteString(l.T("chef.hand_next", "Name", seatName(t, v.Next), "Dishes", l.T("chef.dishes", "Count", nx.Dishes),
			"Menu", chefFront(nx.Cards)) + "\n")
	}
	b.WriteString(l.T("chef.hand_top", "Card", chefCardText(l, v.DiscardTop)) + "\n")
	draft := chefValidDraft(v.Legal, t.Seats[seat].Draft)
	prompt, kb := k.keyboard(l, t, v, seat, draft)
	b.WriteString("\n" + prompt)
	return message{Text: b.String(), Keyboard: kb, Ping: true}
}

// keyboard is what the seat to act can do now: the turn's choices, or the
// open flow's dishes with a way back.
func (k chefGame) keyboard(l loc, t *Table, v chef.SeatView, seat int, draft []int) (string, [][]button) {
	if draft != nil {
		return k.flowKeyboard(l, t, v, seat, draft)
	}
	me := v.Seats[seat]
	var lines []string
	if v.Step == chef.StepDrawn {
		key := "chef.hand_drawn_dish"
		if v.Drawn.IsAction() {
			key = "chef.hand_drawn_action"
		}
		lines = append(lines, l.T(key, "Card", chefCardText(l, v.Drawn)))
	} else {
		lines = append(lines, l.T("chef.hand_turn"))
	}
	switch {
	case slices.Contains(v.Legal, chef.AnnounceAction()):
		lines = append(lines, l.T("chef.hand_can_announce"))
	case me.Announced:
		lines = append(lines, l.T("chef.hand_announced"))
	}
	next := seatName(t, v.Next)
	var kb [][]button
	btn := func(text string, a game.Action) button { return actionButton(t, seat, text, a) }
	if slices.Contains(v.Legal, chef.TakeAction()) {
		label := l.T("chef.btn.take", "Card", chefDishEmoji(v.DiscardTop))
		if v.DiscardTop == chef.Addition {
			label = l.T("chef.btn.take_bill")
		}
		kb = append(kb, []button{btn(label, chef.TakeAction())})
	}
	if slices.Contains(v.Legal, chef.DrawAction()) {
		kb = append(kb, []button{btn(l.T("chef.btn.draw"), chef.DrawAction())})
	}
	if slices.Contains(v.Legal, chef.AnnounceAction()) {
		kb = append(kb, []button{btn(l.T("chef.btn.announce"), chef.AnnounceAction())})
	}
	// The action cards in front (after a draw, only the card drawn).
	for _, c := range []chef.Card{chef.Hangover, chef.Diet, chef.EmptyPlate, chef.ChefCard, chef.BlankMenu} {
		switch c {
		case chef.EmptyPlate, chef.BlankMenu:
			a := chef.PlayAction(c, chef.NoCard, chef.NoCard)
			if !slices.Contains(v.Legal, a) {
				continue
			}
			label := l.T("chef.btn.empty_plate", "Card", chefCardText(l, c), "Name", next)
			if c == chef.BlankMenu {
				label = l.T("chef.btn.blank_menu", "Card", chefCardText(l, c), "Direction", chefDirection(l, !v.Clockwise))
			}
			kb = append(kb, []button{btn(label, a)})
		default:
			flow := chefFlowCard + int(c)
			acts := chefFlowActions(v.Legal, flow)
			switch {
			case len(acts) == 1:
				kb = append(kb, []button{btn(k.moveLabel(l, t, v, acts[0]), acts[0])})
			case len(acts) > 1:
				kb = append(kb, []button{draftButton(t, seat, l.T("chef.btn.open_"+c.Key(), "Card", chefCardText(l, c), "Name", next), flow)})
			}
		}
	}
	if slices.Contains(v.Legal, chef.RedrawAction()) {
		kb = append(kb, []button{btn(l.T("chef.btn.redraw"), chef.RedrawAction())})
	}
	switch acts := chefFlowActions(v.Legal, chefFlowDiscard); {
	case len(acts) == 1:
		kb = append(kb, []button{btn(k.moveLabel(l, t, v, acts[0]), acts[0])})
	case len(acts) > 1:
		key := "chef.btn.open_discard_duplicate"
		if v.Step == chef.StepDrawn {
			key = "chef.btn.open_discard"
		}
		kb = append(kb, []button{draftButton(t, seat, l.T(key), chefFlowDiscard)})
	}
	if slices.Contains(v.Legal, chef.EndAction()) {
		kb = append(kb, []button{btn(l.T("chef.btn.end"), chef.EndAction())})
	}
	return strings.Join(lines, "\n"), kb
}

// moveLabel is the button of a flow's only move, named in full: «🥗 Диета
// → Серёжа: −🍝», «🗑 Сбросить 🍝».
func (chefGame) moveLabel(l loc, t *Table, v chef.SeatView, a game.Action) string {
	m, _ := chef.DecodeAction(a)
	next := seatName(t, v.Next)
	switch {
	case m.Kind == chef.KindDiscard:
		return l.T("chef.btn.discard", "Card", chefDishEmoji(m.Dish))
	case m.Card == chef.Hangover:
		return l.T("chef.btn.penalty", "Card", chefCardText(l, m.Card), "Name", next, "Lost", "−"+chefDishEmoji(m.Dish)+" −"+chefDishEmoji(m.Dish2))
	case m.Card == chef.Diet:
		return l.T("chef.btn.penalty", "Card", chefCardText(l, m.Card), "Name", next, "Lost", "−"+chefDishEmoji(m.Dish))
	case m.Card == chef.ChefCard:
		return l.T("chef.btn.chef", "Card", chefCardText(l, m.Card), "Name", next, "Dish", chefDishEmoji(m.Dish))
	}
	return m.String()
}

// flowKeyboard is an open flow: a prompt, one button per dish that can be
// chosen, and the way back.
func (chefGame) flowKeyboard(l loc, t *Table, v chef.SeatView, seat int, draft []int) (string, [][]button) {
	next := seatName(t, v.Next)
	flow := draft[0]
	card := chef.Card(flow - chefFlowCard)
	victim := v.Seats[v.Next].Cards
	mine := v.Seats[seat].Cards
	label := func(d chef.Card, have int) string {
		s := chefDishLabel(l, d)
		if have > 1 {
			s += " ×" + strconv.Itoa(have)
		}
		return s
	}
	var prompt string
	var dishes []button
	back := []button{draftButton(t, seat, l.T("chef.btn.back"), chefCancel)}
	switch {
	case flow == chefFlowDiscard:
		prompt = l.T("chef.flow.discard_duplicate")
		if v.Step == chef.StepDrawn {
			prompt = l.T("chef.flow.discard")
		}
		for _, a := range chefFlowActions(v.Legal, flow) {
			m, _ := chef.DecodeAction(a)
			dishes = append(dishes, actionButton(t, seat, label(m.Dish, mine[m.Dish]), a))
		}
	case card == chef.Hangover && len(draft) == 2:
		first := chef.Card(draft[1])
		prompt = l.T("chef.flow.hangover_second", "Card", chefCardText(l, card), "Name", next, "Dish", chefDishEmoji(first))
		for _, a := range chefHangoverSeconds(v.Legal, first) {
			m, _ := chef.DecodeAction(a)
			left := victim[m.Dish2]
			if m.Dish2 == first {
				left--
			}
			dishes = append(dishes, actionButton(t, seat, label(m.Dish2, left), a))
		}
		back = []button{draftButton(t, seat, l.T("chef.btn.back"), flow), draftButton(t, seat, l.T("chef.btn.cancel"), chefCancel)}
	case card == chef.Hangover:
		prompt = l.T("chef.flow.hangover_first", "Card", chefCardText(l, card), "Name", next)
		seen := map[chef.Card]bool{}
		for _, a := range chefFlowActions(v.Legal, flow) {
			m, _ := chef.DecodeAction(a)
			if !seen[m.Dish] {
				seen[m.Dish] = true
				dishes = append(dishes, draftButton(t, seat, label(m.Dish, victim[m.Dish]), int(m.Dish)))
			}
		}
	default: // Диета, Шеф
		prompt = l.T("chef.flow."+card.Key(), "Card", chefCardText(l, card), "Name", next)
		for _, a := range chefFlowActions(v.Legal, flow) {
			m, _ := chef.DecodeAction(a)
			dishes = append(dishes, actionButton(t, seat, label(m.Dish, victim[m.Dish]), a))
		}
	}
	kb := rows(dishes, 3)
	return prompt, append(kb, back)
}

func (k chefGame) Announce(l loc, t *Table, before, after game.State) []message {
	if !after.Over() || before.Over() {
		return nil
	}
	v := after.(*chef.State).PublicView()
	r := after.Result()
	var b strings.Builder
	b.WriteString(winnerLine(l, t, r) + "\n")
	if v.Closed {
		b.WriteString(l.T("chef.end_closing") + "\n")
	} else {
		b.WriteString(l.T("chef.end_bill") + "\n")
	}
	b.WriteString("\n" + resultTable(l, t, r, func(s game.Seat) string {
		sp := v.Seats[s]
		if sp.Cards[chef.Addition] > 0 {
			return chefCardText(l, chef.Addition) + ": " + chefFront(sp.Cards)
		}
		score := l.T("chef.colours", "Count", sp.Colours)
		if surplus := sp.Dishes - sp.Colours + sp.Actions; v.Closed && surplus > 0 {
			score += ", " + l.T("chef.surplus", "Count", surplus)
		}
		return score + ": " + chefFront(sp.Cards)
	}))
	return []message{{Text: b.String()}}
}
