// Package chef adapts «Меню шефа» (game/chef) to the platform: its
// Telegram rendering, lobby options, robots and the multi-press choices of
// its action cards. cmd/games wires Game in.
package chef

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// chefGame adapts «Меню шефа» to the platform. Everything in this game is
// public, so the group message is the whole board; a private message holds
// only the buttons of the player whose turn it is.
type chefGame struct{}

// Game is «Меню шефа», the open-menu race for 2–8 players: collect six
// dishes of six colours, announce «Счёт!», take the bill.
func Game() adapter.Game { return chefGame{} }

func (chefGame) ID() string { return "chef" }
func (chefGame) Aliases() []string {
	return []string{"шеф", "меню", "меню шефа", "menu"}
}
func (chefGame) SeatRange() (int, int) { return ce.MinPlayers, ce.MaxPlayers }

// chefOptAnnounce is the lobby option that says how «Счёт!» is announced: 0
// by the player's button (the default), 1 automatically.
const chefOptAnnounce = "announce"

func (chefGame) Options() []adapter.GameOption {
	return []adapter.GameOption{{
		Key:    chefOptAnnounce,
		Values: 2,
		Label: func(l adapter.Loc, v int) string {
			return l.T("chef.option.announce", "Mode", l.T("chef.announce_mode_"+strconv.Itoa(v)))
		},
	}}
}

// Start deals for the table. The dealer is the table's creator, so the
// seat after them begins; without the creator at the table, seat 0 does.
func (g chefGame) Start(t adapter.TableView) (game.State, error) {
	first := 0
	if c, ok := t.CreatorSeat(); ok {
		first = (c + 1) % t.Seats()
	}
	return ce.New(ce.Config{
		Players:      t.Seats(),
		First:        game.Seat(first),
		AutoAnnounce: adapter.OptionValue(t, g, chefOptAnnounce) == 1,
		Seed:         t.Seed(),
	})
}

func (chefGame) Decode(data []byte) (game.State, error) { return ce.Unmarshal(data) }

func (chefGame) Levels() []string {
	return []string{string(ce.Novice), string(ce.Cook), string(ce.Shef)}
}

// Auto plays the level's robot; a person who timed out gets the Cook's
// sensible move, which is cheap and never throws their menu away.
func (chefGame) Auto(st game.State, seat game.Seat, d adapter.Decision) (game.Action, bool) {
	level := ce.Level(d.Level)
	if d.Level == "" {
		level = ce.Cook
	}
	// The search's count of playouts decides; the wall cap (AI_BUDGET) is
	// only a safety net a loaded machine might need, and the choice, like
	// every move, is in the log the replay reads.
	a := ce.DecideBudget(level, st.(*ce.State).SeatView(seat), d.Seed, ce.Budget{Playouts: d.Playouts, Wall: d.Budget, Clock: time.Now})
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
	chefFlowHangover = chefFlowCard + int(ce.Hangover)
)

// chefFlowOf is the flow an action belongs to, or 0 for an action that needs
// no choice of dish.
func chefFlowOf(a game.Action) int {
	m, ok := ce.DecodeAction(a)
	switch {
	case !ok:
		return 0
	case m.Kind == ce.KindDiscard:
		return chefFlowDiscard
	case m.Kind == ce.KindPlay && (m.Card == ce.Hangover || m.Card == ce.Diet || m.Card == ce.ChefCard):
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
func chefHangoverSeconds(legal []game.Action, d ce.Card) []game.Action {
	var out []game.Action
	for _, a := range chefFlowActions(legal, chefFlowHangover) {
		if m, _ := ce.DecodeAction(a); m.Dish == d {
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
	case len(d) == 2 && d[0] == chefFlowHangover && d[1] > 0 && d[1] <= ce.NumColours &&
		len(chefHangoverSeconds(legal, ce.Card(d[1]))) > 0:
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

func chefDishEmoji(c ce.Card) string {
	switch c {
	case ce.Starter:
		return "🍤"
	case ce.Sauce:
		return "🍅"
	case ce.Main:
		return "🍝"
	case ce.Side:
		return "🥦"
	case ce.Dessert:
		return "🍰"
	case ce.Drink:
		return "☕"
	}
	return chefCardEmoji(c)
}

func chefCardEmoji(c ce.Card) string {
	switch c {
	case ce.Hangover:
		return "🥴"
	case ce.Diet:
		return "🥗"
	case ce.EmptyPlate:
		return "🍽"
	case ce.BlankMenu:
		return "📄"
	case ce.ChefCard:
		return "👨‍🍳"
	case ce.Addition:
		return "🧾"
	}
	if c.IsDish() {
		return chefDishEmoji(c)
	}
	return "?"
}

// chefEmptySlot marks a colour missing from a menu.
const chefEmptySlot = "▫️"

// chefCardText names a card in running text where Russian wants the
// nominative (a label, a subject: «сверху сброса: 🥗 Диета»): a dish by its
// emoji, any other card by its emoji and name.
func chefCardText(l adapter.Loc, c ce.Card) string {
	return chefCardForm(l, c, "chef.card.")
}

// chefCardAcc names a card as a verb's object, in the accusative: «тянет 🥗
// Диету», «Вы вытянули 👨‍🍳 Шефа».
func chefCardAcc(l adapter.Loc, c ce.Card) string {
	return chefCardForm(l, c, "chef.card_acc.")
}

// chefCardForm names a card with its name from the catalog table prefix,
// which holds one grammatical case of every card name.
func chefCardForm(l adapter.Loc, c ce.Card, prefix string) string {
	switch {
	case c == ce.NoCard:
		return "—" // an empty discard pile (its only card was taken)
	case c.IsDish():
		return chefDishEmoji(c)
	}
	return chefCardEmoji(c) + " " + l.T(prefix+c.Key())
}

// chefDishLabel names a dish on a button: «🍝 горячее».
func chefDishLabel(l adapter.Loc, c ce.Card) string {
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
func chefMenu(cards [ce.NumKinds]int) string {
	var b strings.Builder
	for c := ce.Starter; c <= ce.Drink; c++ {
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
func chefExtras(cards [ce.NumKinds]int) string {
	var dup, act strings.Builder
	for c := ce.Starter; c <= ce.Drink; c++ {
		dup.WriteString(chefRepeat(chefDishEmoji(c), cards[c]-1))
	}
	for c := ce.Hangover; c <= ce.ChefCard; c++ {
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
func chefFront(cards [ce.NumKinds]int) string {
	if x := chefExtras(cards); x != "" {
		return chefMenu(cards) + " " + x
	}
	return chefMenu(cards)
}

func chefDirection(l adapter.Loc, clockwise bool) string {
	if clockwise {
		return l.T("chef.cw")
	}
	return l.T("chef.ccw")
}

func (k chefGame) RenderTable(l adapter.Loc, t adapter.TableView, st game.State) adapter.Message {
	v := st.(*ce.State).PublicView()
	over := v.Step == ce.StepOver
	var b strings.Builder
	if over {
		b.WriteString(l.T("chef.header_over", "Title", adapter.Title(l, k)) + "\n")
	} else {
		b.WriteString(l.T("chef.header", "Title", adapter.Title(l, k), "Turn", v.TurnNumber, "Direction", chefDirection(l, v.Clockwise)) + "\n")
		b.WriteString(l.T("chef.pile", "Pile", l.T("count.cards", "Count", v.Pile), "Round", v.Rebuilds+1, "Rounds", v.MaxRebuilds+1,
			"Discard", l.T("count.cards", "Count", len(v.Discard)), "Top", chefCardText(l, v.DiscardTop)) + "\n")
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
	if e := adapter.EventLine(l, t); e != "" {
		b.WriteString("\n" + e + "\n")
	}
	switch {
	case over:
		b.WriteString("\n" + l.T("chef.game_over"))
	case !t.Playing():
		// stopped: the event line says so
	default:
		b.WriteString("\n" + l.T("chef.turn", "Name", adapter.Mention(t, v.Turn), "Next", adapter.SeatName(t, v.Next)))
		b.WriteString(adapter.DeadlineText(l, t, v.Turn))
	}
	return adapter.Message{Text: strings.TrimRight(b.String(), "\n")}
}

// seatLine is one seat on the board: its menu first, so that the slots of
// all seats line up in a column, then the name and the marks.
func (chefGame) seatLine(t adapter.TableView, v ce.Public, sp ce.SeatPublic) string {
	over := v.Step == ce.StepOver
	var b strings.Builder
	b.WriteString(chefMenu(sp.Cards) + " " + adapter.SeatName(t, sp.Seat))
	if x := chefExtras(sp.Cards); x != "" {
		b.WriteString(" " + x)
	}
	if sp.Cards[ce.Addition] > 0 {
		b.WriteString(" " + chefCardEmoji(ce.Addition))
	}
	if sp.Announced {
		b.WriteString(" 📣")
	}
	switch {
	case over && slices.Contains(v.Winners, sp.Seat):
		b.WriteString(" 🏆")
	case over:
	case v.Turn == sp.Seat && t.Playing():
		b.WriteString(" 👈")
	case sp.Skipped:
		b.WriteString(" ⏭")
	}
	return b.String() + adapter.SeatMark(t, sp.Seat, over)
}

// chefRemoved lists the dishes out of the game (two players), or "".
func chefRemoved(removed [ce.NumKinds]int) string {
	var b strings.Builder
	for c := ce.Starter; c <= ce.Drink; c++ {
		b.WriteString(chefRepeat(chefDishEmoji(c), removed[c]))
	}
	return b.String()
}

// chefLogLines is how many lines of recent moves the board shows.
const chefLogLines = 4

// chefLog tells the last moves from the engine's events, one line per
// turn, the one who moved first: «Оля тянет 🍝, сбрасывает 🍅», «Оля
// играет 🥴 Похмелье — Серёжа теряет 🍝 ☕ и пропускает ход».
func chefLog(l adapter.Loc, t adapter.TableView, v ce.Public) []string {
	type line struct {
		seat  game.Seat
		parts []string
	}
	var lines []line
	var prev *ce.Event
	for i := range v.Events {
		e := &v.Events[i]
		if e.Kind == ce.EventClosing {
			// The result says it (chef.end_closing), and says it once.
			continue
		}
		// A seat's events of one turn share a line; its announcement, its
		// lapse or its win joins the line of the move that caused it.
		follows := e.Kind == ce.EventAnnounce || e.Kind == ce.EventLapse || e.Kind == ce.EventWin
		cont := prev != nil && len(lines) > 0 && e.Seat >= 0 && e.Seat == prev.Seat &&
			(!chefEndsTurn(prev.Kind) || follows) &&
			!(e.Kind == ce.EventDraw && prev.Kind == ce.EventDraw)
		if e.Kind == ce.EventPlay && cont && prev.Kind == ce.EventDraw && prev.Card == e.Card {
			// Drawn and played at once: «тянет и сразу играет 🥴 Похмелье — …».
			cur := &lines[len(lines)-1]
			cur.parts[len(cur.parts)-1] = l.T("chef.log.draw_play", "Play", chefPlayText(l, t, v, e))
		} else {
			text := chefEventText(l, t, v, e)
			if cont {
				cur := &lines[len(lines)-1]
				cur.parts = append(cur.parts, text)
			} else {
				lines = append(lines, line{seat: e.Seat, parts: []string{text}})
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
		if ln.seat < 0 {
			out[i] = text
		} else {
			out[i] = adapter.SeatName(t, ln.seat) + " " + text
		}
	}
	return out
}

// chefEndsTurn reports whether an event closes its seat's turn, so the seat's
// next events (after a skip, say) start a new line.
func chefEndsTurn(k ce.EventKind) bool {
	switch k {
	case ce.EventTake, ce.EventDiscard, ce.EventPlay, ce.EventBillDiscarded, ce.EventWin, ce.EventLapse:
		return true
	}
	return false
}

// chefEventText is one event as a part of a log line (without the actor's name).
func chefEventText(l adapter.Loc, t adapter.TableView, v ce.Public, e *ce.Event) string {
	switch e.Kind {
	case ce.EventDraw:
		return l.T("chef.log.draw", "Card", chefCardAcc(l, e.Card))
	case ce.EventRedraw:
		return l.T("chef.log.redraw", "Card", chefCardAcc(l, e.Card))
	case ce.EventBillDiscarded:
		return l.T("chef.log.bill_discarded")
	case ce.EventTake:
		return l.T("chef.log.take", "Card", chefCardAcc(l, e.Card))
	case ce.EventDiscard:
		return l.T("chef.log.discard", "Card", chefCardAcc(l, e.Card))
	case ce.EventPlay:
		return l.T("chef.log.plays", "Play", chefPlayText(l, t, v, e))
	case ce.EventAnnounce:
		return l.T("chef.log.announce")
	case ce.EventLapse:
		return l.T("chef.log.lapse")
	case ce.EventRebuild:
		return l.T("chef.log.rebuild", "Card", chefCardText(l, e.Card))
	case ce.EventWin:
		return l.T("chef.log.win")
	}
	return "?"
}

// chefPlayText is a played action card, as the object of «играет» (the
// accusative), and what it did to whom, that player the subject: «🥴
// Похмелье — Серёжа теряет 🍝 ☕ и пропускает ход», «👨‍🍳 Шефа — Катя отдаёт 🍅».
func chefPlayText(l adapter.Loc, t adapter.TableView, v ce.Public, e *ce.Event) string {
	card, target := chefCardAcc(l, e.Card), adapter.SeatName(t, e.Target)
	switch e.Card {
	case ce.Hangover, ce.Diet:
		lost := chefDishEmoji(e.Dishes[0])
		if e.Card == ce.Hangover {
			lost += " " + chefDishEmoji(e.Dishes[1])
		}
		key := "chef.log.penalty"
		if v.Players == 2 {
			key = "chef.log.penalty_out" // two players: lost dishes leave the game
		}
		return l.T(key, "Card", card, "Target", target, "Lost", lost)
	case ce.EmptyPlate:
		return l.T("chef.log.empty_plate", "Card", card, "Target", target)
	case ce.BlankMenu:
		return l.T("chef.log.blank_menu", "Card", card)
	case ce.ChefCard:
		return l.T("chef.log.chef", "Card", card, "Target", target, "Dish", chefDishEmoji(e.Dishes[0]))
	}
	return card
}

func (k chefGame) RenderSeat(l adapter.Loc, t adapter.TableView, st game.State, seat int) adapter.Message {
	v := st.(*ce.State).SeatView(game.Seat(seat))
	var b strings.Builder
	b.WriteString(l.T("chef.hand_header", "Title", adapter.Title(l, k), "Chat", adapter.Esc(t.Title()), "Turn", v.TurnNumber) + "\n")
	switch {
	case v.Step == ce.StepOver:
		b.WriteString(l.T("hand.over"))
		return adapter.Message{Text: b.String()}
	case !t.Playing():
		b.WriteString(l.T("hand.stopped"))
		return adapter.Message{Text: b.String()}
	}
	// What others took from the player since their last move: told in
	// their own chat, where they may not be watching the group.
	losses := chefLosses(l, t, v.Public, game.Seat(seat))
	if len(v.Legal) == 0 {
		// The board is in the group; a waiting hand costs no edits, but
		// for news of their own losses: then their message is edited once
		// (their next turn, a fresh message, repeats it).
		b.WriteString(losses + l.T("chef.hand_wait"))
		return adapter.Message{Text: b.String(), Lazy: losses == ""}
	}
	b.WriteString(losses)
	me := v.Seats[seat]
	b.WriteString(l.T("chef.hand_mine", "Menu", chefFront(me.Cards)) + "\n")
	if v.Next != v.Seat {
		nx := v.Seats[v.Next]
		// Colours, not dishes: a duplicate does not bring a menu closer.
		b.WriteString(l.T("chef.hand_next", "Name", adapter.SeatName(t, v.Next), "Colours", l.T("chef.colours", "Count", nx.Colours),
			"Menu", chefFront(nx.Cards)) + "\n")
	}
	b.WriteString(l.T("chef.hand_top", "Card", chefCardText(l, v.DiscardTop)) + "\n")
	draft := chefValidDraft(v.Legal, t.Draft(seat))
	prompt, kb := k.keyboard(l, t, v, seat, draft)
	b.WriteString("\n" + prompt)
	return adapter.Message{Text: b.String(), Keyboard: kb.buttons(), Ping: true}
}

// chefLosses tells seat, a line each, the plays that took its dishes since
// its own last move (as far as the engine's bounded log reaches): «Оля
// играет 🥗 Диету — вы теряете 🍝 и пропускаете ход». "" when there were
// none.
func chefLosses(l adapter.Loc, t adapter.TableView, v ce.Public, seat game.Seat) string {
	var lines []string
	for i := range v.Events {
		e := &v.Events[i]
		switch {
		case e.Seat == seat && chefOwnMove(e.Kind):
			lines = nil
		case e.Kind != ce.EventPlay || e.Target != seat || e.Dishes[0] == ce.NoCard:
		case e.Card == ce.ChefCard:
			lines = append(lines, l.T("chef.hand_lost_chef", "Name", adapter.SeatName(t, e.Seat),
				"Card", chefCardAcc(l, e.Card), "Dish", chefDishEmoji(e.Dishes[0])))
		default:
			lost := chefDishEmoji(e.Dishes[0])
			if e.Dishes[1] != ce.NoCard {
				lost += " " + chefDishEmoji(e.Dishes[1])
			}
			lines = append(lines, l.T("chef.hand_lost_penalty", "Name", adapter.SeatName(t, e.Seat),
				"Card", chefCardAcc(l, e.Card), "Lost", lost))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// chefOwnMove reports whether an event is a move its seat made (not an
// automatic announcement or a lapse others caused).
func chefOwnMove(k ce.EventKind) bool {
	switch k {
	case ce.EventDraw, ce.EventRedraw, ce.EventTake, ce.EventDiscard, ce.EventPlay:
		return true
	}
	return false
}

// chefRow is one row of a seat's keyboard. card marks a row that presses
// a card in front of the seat (an action card, a dish to discard): the web
// table draws those as the cards themselves, the other rows as choices.
type chefRow struct {
	buttons []adapter.Button
	card    bool
}

type chefKeyboard []chefRow

// buttons is the chat keyboard: every row.
func (kb chefKeyboard) buttons() [][]adapter.Button {
	out := make([][]adapter.Button, len(kb))
	for i, r := range kb {
		out[i] = r.buttons
	}
	return out
}

// choices is the web table's keyboard: the rows that are not cards.
func (kb chefKeyboard) choices() [][]adapter.Button {
	var out [][]adapter.Button
	for _, r := range kb {
		if !r.card {
			out = append(out, r.buttons)
		}
	}
	return out
}

// keyboard is what the seat to act can do now: the turn's choices, or the
// open flow's dishes with a way back.
func (k chefGame) keyboard(l adapter.Loc, t adapter.TableView, v ce.SeatView, seat int, draft []int) (string, chefKeyboard) {
	if draft != nil {
		return k.flowKeyboard(l, t, v, seat, draft)
	}
	me := v.Seats[seat]
	var lines []string
	if v.Step == ce.StepDrawn {
		lines = append(lines, l.T(chefDrawnKey(v), "Card", chefCardAcc(l, v.Drawn)))
	} else {
		lines = append(lines, chefTurnPrompt(l, v))
	}
	switch {
	case slices.Contains(v.Legal, ce.AnnounceAction()):
		lines = append(lines, l.T("chef.hand_can_announce"))
	case me.Announced:
		lines = append(lines, l.T("chef.hand_announced"))
	}
	next := adapter.SeatPlainName(t, v.Next) // button texts are not HTML
	var kb chefKeyboard
	btn := func(text string, a game.Action) adapter.Button { return adapter.ActionButton(t, seat, text, a) }
	if slices.Contains(v.Legal, ce.TakeAction()) {
		label := l.T("chef.btn.take", "Card", chefDishEmoji(v.DiscardTop))
		if v.DiscardTop == ce.Addition {
			label = l.T("chef.btn.take_bill")
		}
		kb = append(kb, chefRow{buttons: []adapter.Button{btn(label, ce.TakeAction())}})
	}
	if slices.Contains(v.Legal, ce.DrawAction()) {
		kb = append(kb, chefRow{buttons: []adapter.Button{btn(l.T("chef.btn.draw"), ce.DrawAction())}})
	}
	if slices.Contains(v.Legal, ce.AnnounceAction()) {
		kb = append(kb, chefRow{buttons: []adapter.Button{btn(l.T("chef.btn.announce"), ce.AnnounceAction())}})
	}
	// The action cards in front (after a draw, only the card drawn).
	for _, c := range []ce.Card{ce.Hangover, ce.Diet, ce.EmptyPlate, ce.ChefCard, ce.BlankMenu} {
		switch c {
		case ce.EmptyPlate, ce.BlankMenu:
			a := ce.PlayAction(c, ce.NoCard, ce.NoCard)
			if !slices.Contains(v.Legal, a) {
				continue
			}
			label := adapter.FitName(next, func(n string) string { return l.T("chef.btn.empty_plate", "Card", chefCardText(l, c), "Name", n) })
			if c == ce.BlankMenu {
				label = l.T("chef.btn.blank_menu", "Card", chefCardText(l, c), "Direction", chefDirection(l, !v.Clockwise))
			}
			kb = append(kb, chefRow{buttons: []adapter.Button{btn(label, a)}, card: true})
		default:
			flow := chefFlowCard + int(c)
			acts := chefFlowActions(v.Legal, flow)
			switch {
			case len(acts) == 1:
				kb = append(kb, chefRow{buttons: []adapter.Button{btn(k.moveLabel(l, t, v, acts[0]), acts[0])}, card: true})
			case len(acts) > 1:
				kb = append(kb, chefRow{buttons: []adapter.Button{adapter.DraftButton(t, seat, adapter.FitName(next, func(n string) string { return l.T("chef.btn.open_"+c.Key(), "Card", chefCardText(l, c), "Name", n) }), flow)}, card: true})
			}
		}
	}
	if slices.Contains(v.Legal, ce.RedrawAction()) {
		kb = append(kb, chefRow{buttons: []adapter.Button{btn(l.T("chef.btn.redraw"), ce.RedrawAction())}})
	}
	switch acts := chefFlowActions(v.Legal, chefFlowDiscard); {
	case len(acts) == 1:
		kb = append(kb, chefRow{buttons: []adapter.Button{btn(k.moveLabel(l, t, v, acts[0]), acts[0])}, card: true})
	case len(acts) > 1:
		key := "chef.btn.open_discard_duplicate"
		if v.Step == ce.StepDrawn {
			key = "chef.btn.open_discard"
		}
		kb = append(kb, chefRow{buttons: []adapter.Button{adapter.DraftButton(t, seat, l.T(key), chefFlowDiscard)}, card: true})
	}
	if slices.Contains(v.Legal, ce.EndAction()) {
		kb = append(kb, chefRow{buttons: []adapter.Button{btn(l.T("chef.btn.end"), ce.EndAction())}})
	}
	return strings.Join(lines, "\n"), kb
}

// chefTurnPrompt is the line at the start of a turn, naming only the moves
// the keyboard offers, in its order: taking the discard's top, drawing,
// playing an action card (by name when only one can be played),
// discarding a duplicate. Announcing has a line of its own.
func chefTurnPrompt(l adapter.Loc, v ce.SeatView) string {
	var moves []string
	if slices.Contains(v.Legal, ce.TakeAction()) {
		if v.DiscardTop == ce.Addition {
			moves = append(moves, l.T("chef.offer.take_bill"))
		} else {
			moves = append(moves, l.T("chef.offer.take", "Card", chefDishEmoji(v.DiscardTop)))
		}
	}
	if slices.Contains(v.Legal, ce.DrawAction()) {
		moves = append(moves, l.T("chef.offer.draw"))
	}
	var plays []ce.Card
	for _, a := range v.Legal {
		if m, ok := ce.DecodeAction(a); ok && m.Kind == ce.KindPlay && !slices.Contains(plays, m.Card) {
			plays = append(plays, m.Card)
		}
	}
	switch {
	case len(plays) == 1:
		moves = append(moves, l.T("chef.offer.play", "Card", chefCardAcc(l, plays[0])))
	case len(plays) > 1:
		moves = append(moves, l.T("chef.offer.play_any"))
	}
	if len(chefFlowActions(v.Legal, chefFlowDiscard)) > 0 {
		moves = append(moves, l.T("chef.offer.discard"))
	}
	if len(moves) == 0 {
		return l.T("chef.hand_turn_only")
	}
	list := moves[0]
	if n := len(moves); n > 1 {
		list = l.T("chef.offer.or", "List", strings.Join(moves[:n-1], ", "), "Last", moves[n-1])
	}
	return l.T("chef.hand_turn", "Moves", adapter.UpperFirst(list))
}

// chefDrawnKey is the line after a draw, naming only what the keyboard
// offers: playing the action card drawn (when it can be played now),
// discarding a dish (when there is one), keeping everything.
func chefDrawnKey(v ce.SeatView) string {
	discard := len(chefFlowActions(v.Legal, chefFlowDiscard)) > 0
	if !v.Drawn.IsAction() {
		return "chef.hand_drawn_dish" // a dish drawn can always go back
	}
	play := slices.ContainsFunc(v.Legal, func(a game.Action) bool {
		m, ok := ce.DecodeAction(a)
		return ok && m.Kind == ce.KindPlay && m.Card == v.Drawn
	})
	switch {
	case play && discard:
		return "chef.hand_drawn_action"
	case play:
		return "chef.hand_drawn_action_keep"
	case discard:
		return "chef.hand_drawn_unplayable"
	}
	return "chef.hand_drawn_unplayable_keep"
}

// moveLabel is the button of a flow's only move, named in full: «🥗 Диета
// → Серёжа: −🍝», «🗑 Сбросить 🍝».
func (chefGame) moveLabel(l adapter.Loc, t adapter.TableView, v ce.SeatView, a game.Action) string {
	m, _ := ce.DecodeAction(a)
	next := adapter.SeatPlainName(t, v.Next) // button texts are not HTML
	switch {
	case m.Kind == ce.KindDiscard:
		return l.T("chef.btn.discard", "Card", chefDishEmoji(m.Dish))
	case m.Card == ce.Hangover:
		return adapter.FitName(next, func(n string) string {
			return l.T("chef.btn.penalty", "Card", chefCardText(l, m.Card), "Name", n, "Lost", "−"+chefDishEmoji(m.Dish)+" −"+chefDishEmoji(m.Dish2))
		})
	case m.Card == ce.Diet:
		return adapter.FitName(next, func(n string) string {
			return l.T("chef.btn.penalty", "Card", chefCardText(l, m.Card), "Name", n, "Lost", "−"+chefDishEmoji(m.Dish))
		})
	case m.Card == ce.ChefCard:
		return adapter.FitName(next, func(n string) string {
			return l.T("chef.btn.chef", "Card", chefCardText(l, m.Card), "Name", n, "Dish", chefDishEmoji(m.Dish))
		})
	}
	return m.String()
}

// flowKeyboard is an open flow: a prompt, one button per dish that can be
// chosen, and the way back.
func (chefGame) flowKeyboard(l adapter.Loc, t adapter.TableView, v ce.SeatView, seat int, draft []int) (string, chefKeyboard) {
	next := adapter.SeatName(t, v.Next)
	flow := draft[0]
	card := ce.Card(flow - chefFlowCard)
	victim := v.Seats[v.Next].Cards
	mine := v.Seats[seat].Cards
	label := func(d ce.Card, have int) string {
		s := chefDishLabel(l, d)
		if have > 1 {
			s += " ×" + strconv.Itoa(have)
		}
		return s
	}
	var prompt string
	var dishes []adapter.Button
	back := []adapter.Button{adapter.DraftButton(t, seat, l.T("chef.btn.back"), chefCancel)}
	switch {
	case flow == chefFlowDiscard:
		prompt = l.T("chef.flow.discard_duplicate")
		if v.Step == ce.StepDrawn {
			prompt = l.T("chef.flow.discard")
		}
		for _, a := range chefFlowActions(v.Legal, flow) {
			m, _ := ce.DecodeAction(a)
			dishes = append(dishes, adapter.ActionButton(t, seat, label(m.Dish, mine[m.Dish]), a))
		}
	case card == ce.Hangover && len(draft) == 2:
		first := ce.Card(draft[1])
		prompt = l.T("chef.flow.hangover_second", "Card", chefCardText(l, card), "Name", next, "Dish", chefDishEmoji(first))
		for _, a := range chefHangoverSeconds(v.Legal, first) {
			m, _ := ce.DecodeAction(a)
			left := victim[m.Dish2]
			if m.Dish2 == first {
				left--
			}
			dishes = append(dishes, adapter.ActionButton(t, seat, label(m.Dish2, left), a))
		}
		back = []adapter.Button{adapter.DraftButton(t, seat, l.T("chef.btn.back"), flow), adapter.DraftButton(t, seat, l.T("chef.btn.cancel"), chefCancel)}
	case card == ce.Hangover:
		prompt = l.T("chef.flow.hangover_first", "Card", chefCardText(l, card), "Name", next)
		seen := map[ce.Card]bool{}
		for _, a := range chefFlowActions(v.Legal, flow) {
			m, _ := ce.DecodeAction(a)
			if !seen[m.Dish] {
				seen[m.Dish] = true
				dishes = append(dishes, adapter.DraftButton(t, seat, label(m.Dish, victim[m.Dish]), int(m.Dish)))
			}
		}
	default: // Диета, Шеф
		prompt = l.T("chef.flow."+card.Key(), "Card", chefCardText(l, card), "Name", next)
		for _, a := range chefFlowActions(v.Legal, flow) {
			m, _ := ce.DecodeAction(a)
			dishes = append(dishes, adapter.ActionButton(t, seat, label(m.Dish, victim[m.Dish]), a))
		}
	}
	var kb chefKeyboard
	for _, r := range append(adapter.Rows(dishes, 3), back) {
		kb = append(kb, chefRow{buttons: r})
	}
	return prompt, kb
}

func (k chefGame) Announce(l adapter.Loc, t adapter.TableView, before, after game.State) []adapter.Message {
	if !after.Over() || before.Over() {
		return nil
	}
	v := after.(*ce.State).PublicView()
	r := after.Result()
	var b strings.Builder
	b.WriteString(adapter.WinnerLine(l, t, r) + "\n")
	if v.Closed {
		b.WriteString(l.T("chef.end_closing") + "\n")
	} else {
		b.WriteString(l.T("chef.end_bill") + "\n")
	}
	b.WriteString("\n" + adapter.ResultTable(l, t, r, func(s game.Seat) string {
		sp := v.Seats[s]
		if sp.Cards[ce.Addition] > 0 {
			return chefCardText(l, ce.Addition) + ": " + chefFront(sp.Cards)
		}
		score := l.T("chef.colours", "Count", sp.Colours)
		if surplus := sp.Dishes - sp.Colours + sp.Actions; v.Closed && surplus > 0 {
			score += ", " + l.T("chef.surplus", "Count", surplus)
		}
		return score + ": " + chefFront(sp.Cards)
	}))
	return []adapter.Message{{Text: b.String()}}
}

// Deal tells the pile as shuffled: the cards turned onto the discard pile
// at the start (until a dish showed), then the face-down pile in the order
// it is drawn. A rebuilt pile is the discard pile shuffled again, so it
// follows from the reveal and the moves before it.
func (chefGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*ce.State)
	v := s.PublicView()
	var lines []string
	if v.Rebuilds == 0 {
		lines = append(lines, l.T("chef.deal.discard", "Cards", chefCardRow(v.Discard)))
	} else {
		lines = append(lines, l.T("chef.deal.rebuilt", "Round", v.Rebuilds+1))
	}
	lines = append(lines, l.T("chef.deal.pile", "Cards", chefCardRow(s.Pile())))
	return strings.Join(lines, "\n")
}

// chefCardRow lists cards by their marks: the dishes' emoji, the action
// cards' own.
func chefCardRow(cs []ce.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if c.IsDish() {
			parts[i] = chefDishEmoji(c)
		} else {
			parts[i] = chefCardEmoji(c)
		}
	}
	return strings.Join(parts, " ")
}

// Shuffled: the pile was rebuilt from the discard pile.
func (chefGame) Shuffled(before, after game.State) bool {
	return after.(*ce.State).PublicView().Rebuilds != before.(*ce.State).PublicView().Rebuilds
}
