package bot

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/game"
)

// GroupMessage is the group message of the table as the platform shows it
// now: the lobby, the game's table with the platform's notices (who cannot
// be written to), or how it ended. It reads t and changes nothing; golden
// tests and other views render through it.
func (b *Bot) GroupMessage(t *Table) Message {
	l := b.loc(t.Lang)
	if t.Game != nil {
		g, st, err := b.decode(t)
		if err == nil {
			m := g.RenderTable(l, b.view(t), st)
			if line := hintedLine(l, t); line != "" {
				m.Text += "\n\n" + line
			}
			if t.Phase == PhasePlaying {
				b.addUnreachable(l, t, &m)
				if link, ok := b.webAppLink(l, t); ok {
					m.Keyboard = append(slices.Clone(m.Keyboard), []Button{link})
				}
			}
			return m
		}
		b.log.Error().Err(err).Str("table", t.ID).Msg("decode game for rendering")
	}
	if t.Phase == PhaseLobby {
		return b.renderLobby(l, t)
	}
	text := l.T("lobby.closed")
	if t.Event != nil {
		text = l.T(t.Event.Key, "Name", eventNames(b.view(t), t.Event))
	}
	return Message{Text: text}
}

// SeatMessage is seat's private message as the platform shows it now: the
// game's RenderSeat with the platform's additions — how long the player
// has to move, the «leave the game» button — or, in its place, one of the
// platform's own states: the bot plays for you, confirm leaving, you left.
// It reads t and changes nothing.
func (b *Bot) SeatMessage(t *Table, seat int) (Message, error) {
	if seat >= 0 && seat < len(t.Seats) && t.Seats[seat].Leaver != nil {
		return b.leftMessage(t), nil
	}
	g, st, err := b.decode(t)
	if err != nil {
		return Message{}, err
	}
	v := b.view(t)
	l := b.loc(t.Lang)
	m := g.RenderSeat(l, v, st, seat)
	s := t.Seats[seat]
	if t.Phase != PhasePlaying || !s.Human() {
		return m, nil
	}
	switch {
	case s.LeaveAsked:
		return b.leaveConfirm(t, g, seat, m.Ping), nil
	case s.Auto():
		return b.autoMessage(t, g, seat), nil
	}
	if mv := movedNote(&t.Seats[seat]); mv != nil && m.Lazy {
		// The player waits after their move: the message that asked
		// for it says it counted, and offers nothing to press.
		return movedMessage(l, v, st, seat, mv, m), nil
	}
	if d := DeadlineText(l, v, game.Seat(seat)); d != "" && !m.Lazy {
		// A hand that asks for a move says how long the player has,
		// every game alike.
		m.Text += "\n\n" + strings.TrimPrefix(d, " ")
	}
	b.addHint(l, t, g, st, seat, &m)
	b.addTip(l, t, g, seat, &m)
	if canLeave(g) {
		m.Keyboard = append(slices.Clone(m.Keyboard), []Button{leaveButton(t, seat, leaveAsk, l.T("leave.button"))})
	}
	if web, ok := b.webAppButton(l, t); ok {
		m.Keyboard = append(slices.Clone(m.Keyboard), []Button{web})
	}
	return m, nil
}

// showsPlatformState reports whether a message record shows one of the
// platform's states (autoMessage, leaveConfirm) rather than the game's.
func showsPlatformState(rec msgRecord) bool { return strings.HasPrefix(rec.Digest, platformDigest) }

func (b *Bot) renderLobby(l Loc, t *Table) Message {
	var sb strings.Builder
	lobbyBtn := func(text string, args ...int) Button {
		return Button{Text: text, Data: payload{Op: 'l', Table: t.ID, Game: t.GameNo, Args: args}.String()}
	}
	g, hasKind := b.games.get(t.Kind)
	if !hasKind {
		// The game is still to be chosen: who sits here already, and
		// «join», as the lobby of a chosen game has.
		sb.WriteString(l.T("lobby.choose_title") + "\n\n" + b.gameLines(l) + "\n\n")
		sb.WriteString(l.T("lobby.seated") + "\n")
		for i, s := range t.Seats {
			sb.WriteString(b.lobbySeatLine(l, t, nil, i, s) + "\n")
		}
		kb := [][]Button{{lobbyBtn(l.T("lobby.join_button"), lobbyJoin), lobbyBtn(l.T("lobby.leave_button"), lobbyLeave)}}
		for _, g := range b.games.games {
			kb = append(kb, []Button{{Text: Title(l, g), Data: payload{Op: 'k', Table: t.ID, Game: t.GameNo, Word: g.ID()}.String()}})
		}
		kb = append(kb, []Button{lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
		return Message{Text: strings.TrimRight(sb.String(), "\n"), Keyboard: kb}
	}
	lo, hi := g.SeatRange()
	sb.WriteString(l.T("lobby.title", "Game", Title(l, g)) + "\n")
	sb.WriteString(l.T("lobby.seats", "Count", len(t.Seats), "Min", lo, "Max", hi) + "\n")
	for i, s := range t.Seats {
		sb.WriteString(b.lobbySeatLine(l, t, g, i, s) + "\n")
	}
	var optionRows [][]Button
	for i, o := range options(g) {
		if o.Shown != nil && !o.Shown(len(t.Seats)) {
			continue
		}
		label := o.Label(l, OptionValue(t.View(), g, o.Key))
		sb.WriteString(label + "\n")
		optionRows = append(optionRows, []Button{lobbyBtn(label, lobbyOption, i)})
	}
	if hasTurnTime(g) {
		label := l.T("lobby.turn_button", "Time", TurnTimeText(l, b.turnTime(t)))
		sb.WriteString(label + "\n")
		optionRows = append(optionRows, []Button{lobbyBtn(label, lobbyTurn)})
	}
	if line, bt, ok := hintsLobbyLine(l, t, g); ok {
		sb.WriteString(line + "\n")
		optionRows = append(optionRows, []Button{bt})
	}
	if t.practice() {
		return b.practiceLobby(l, t, g, sb.String(), optionRows)
	}
	sb.WriteString("\n" + l.T("lobby.hint"))
	// Only buttons that can work now: no join or robot on a full table,
	// no «remove a robot» without one.
	full := len(t.Seats) >= hi
	robots := slices.ContainsFunc(t.Seats, func(s Seat) bool { return !s.Human() })
	var seatRow, robotRow []Button
	if !full {
		seatRow = append(seatRow, lobbyBtn(l.T("lobby.join_button"), lobbyJoin))
	}
	seatRow = append(seatRow, lobbyBtn(l.T("lobby.leave_button"), lobbyLeave))
	kb := [][]Button{seatRow}
	if len(levels(g)) > 0 {
		if !full {
			robotRow = append(robotRow, lobbyBtn(l.T("lobby.ai_button"), lobbyAddAI))
		}
		if robots {
			robotRow = append(robotRow, lobbyBtn(l.T("lobby.kick_button"), lobbyKick))
		}
		if len(robotRow) > 0 {
			kb = append(kb, robotRow)
		}
		kb = append(kb, []Button{lobbyBtn(l.T("lobby.level_button", "Level", levelLabel(l, g, aiLevel(g, t.AILevel))), lobbyLevel)})
	}
	kb = append(kb, optionRows...)
	kb = append(kb, []Button{lobbyBtn(l.T("lobby.start_button"), lobbyStart), lobbyBtn(l.T("lobby.cancel_button"), lobbyCancel)})
	kb = append(kb, []Button{{Text: l.T("lobby.open_chat_button"), URL: b.deepLink(joinPrefix + t.ID)},
		b.rulesLink(l.T("lobby.rules_button"), g)})
	return Message{Text: sb.String(), Keyboard: kb}
}

// lobbySeatLine is seat i's line in the lobby: «2. Оля — создатель
// стола», a robot with its level (g nil: no game chosen, no robots yet).
func (b *Bot) lobbySeatLine(l Loc, t *Table, g Game, i int, s Seat) string {
	line := strconv.Itoa(i+1) + ". " + Esc(s.Name)
	switch {
	case !s.Human() && g != nil:
		line = strconv.Itoa(i+1) + ". 🤖 " + Esc(s.Name) + " · " + levelLabel(l, g, s.AI)
	case s.UserID == t.Creator:
		line += " " + l.T("lobby.creator_mark")
	}
	if s.Unreachable {
		line += " " + l.T("lobby.unreachable_mark")
	}
	return line
}

// addUnreachable names the players the bot cannot write to and offers the
// deep link that lets them open the private chat and get their cards.
func (b *Bot) addUnreachable(l Loc, t *Table, m *Message) {
	var who []string
	for _, s := range t.Seats {
		if s.Human() && s.Unreachable {
			who = append(who, Esc(s.Name))
		}
	}
	if len(who) == 0 {
		return
	}
	m.Text += "\n\n" + l.T("table.unreachable", "Names", strings.Join(who, ", "))
	m.Keyboard = append(m.Keyboard, []Button{{Text: l.T("lobby.open_chat_button"), URL: b.deepLink(joinPrefix + t.ID)}})
}

// autoMessage is a player's message while the bot plays for them (after
// two timeouts in a row): that, and the buttons to take over again or to
// leave — no hand and no «your turn», which the bot answers anyway. It
// stays the same move after move, so it costs no calls.
func (b *Bot) autoMessage(t *Table, g Game, seat int) Message {
	l := b.loc(t.Lang)
	kb := [][]Button{{{Text: l.T("auto.back_button"),
		Data: payload{Op: 'b', Table: t.ID, Game: t.GameNo, Args: []int{seat}}.String()}}}
	if canLeave(g) {
		kb = append(kb, []Button{leaveButton(t, seat, leaveAsk, l.T("leave.button"))})
	}
	if web, ok := b.webAppButton(l, t); ok {
		kb = append(kb, []Button{web})
	}
	return Message{Text: l.T("auto.notice"), Keyboard: kb, platform: true}
}

// Rendering helpers shared by the games' adapters: the same seat names,
// marks, deadlines and results in every game.

// SeatName is a seat's display name, HTML-escaped.
func SeatName(v TableView, s game.Seat) string {
	t := v.t
	ts := t.Seat(s)
	if ts == nil {
		return "?"
	}
	return Esc(ts.Name)
}

// Mention names a seat so that Telegram notifies the person.
func Mention(v TableView, s game.Seat) string {
	t := v.t
	ts := t.Seat(s)
	if ts == nil || !ts.Human() {
		return "<b>" + SeatName(v, s) + "</b>"
	}
	return fmt.Sprintf(`<a href="tg://user?id=%d">%s</a>`, ts.UserID, SeatName(v, s))
}

// SeatNames lists seats by name: "Оля, Серёжа".
func SeatNames(v TableView, seats []game.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = SeatName(v, s)
	}
	return strings.Join(parts, ", ")
}

// Mentions lists seats so that Telegram notifies each person.
func Mentions(v TableView, seats []game.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = Mention(v, s)
	}
	return strings.Join(parts, ", ")
}

// SeatMark is the status suffix of a seat line: ⚠️ when the bot cannot
// write to the player, 💤 while the bot plays for them.
func SeatMark(v TableView, s game.Seat, over bool) string {
	t := v.t
	ts := t.Seat(s)
	switch {
	case ts == nil:
		return ""
	case ts.Unreachable:
		return " ⚠️"
	case ts.Human() && ts.Auto() && !over:
		return " 💤"
	}
	return ""
}

// IdleFor is how long a person has not made a move themselves in the
// running game (since their last move, or since the deal), at the view's
// clock: a real-time game's table may mark who seems to be away. 0 for a
// robot, a game not running or a view without a clock.
func IdleFor(v TableView, s game.Seat) time.Duration {
	t := v.t
	ts := t.Seat(s)
	if ts == nil || !ts.Human() || t.Phase != PhasePlaying || v.now.IsZero() {
		return 0
	}
	since := t.Started
	if ts.Acted.After(since) {
		since = ts.Acted
	}
	if since.IsZero() || !v.now.After(since) {
		return 0
	}
	return v.now.Sub(since)
}

// DeadlineText is " ⏳ осталось не больше минуты" for a person's running
// turn timer, or "". A table message is edited rarely (its group's budget
// is shared) and a waiting hand not at all, so a clock time would mean
// nothing in another zone and a countdown would go stale: the text is an
// upper bound of the time left, rounded up (deadlineLeft), which stays
// true until the message is next drawn. It is "" in a view without a clock
// and once the time is up (the timeout's own notice follows).
func DeadlineText(l Loc, v TableView, s game.Seat) string {
	t := v.t
	ts := t.Seat(s)
	if ts == nil || ts.Due.IsZero() || !ts.Human() || ts.Auto() || t.Phase != PhasePlaying || v.now.IsZero() {
		return ""
	}
	left := ts.Due.Sub(v.now)
	if left <= 0 {
		return ""
	}
	return " " + deadlineLeft(l, left)
}

// deadlineLeft says "at most" the time left: never less than is left.
func deadlineLeft(l Loc, left time.Duration) string {
	key, count, _ := deadlineBound(left)
	if count == 0 {
		return l.T(key)
	}
	return l.T(key, "Count", count)
}

// deadlineStep is how finely a deadline under a minute is said: a table
// may give 20 s a move, and «at most a minute» would then say three times
// too much.
const deadlineStep = 5 * time.Second

// deadlineBound rounds the time left up: to 5 seconds under a minute, to a
// minute, to whole minutes up to an hour, to whole hours past it. It gives
// the text's key, its count (0 for the key without one) and the bound the
// text states.
func deadlineBound(left time.Duration) (key string, count int, bound time.Duration) {
	switch {
	case left <= time.Minute-deadlineStep:
		n := int((left + deadlineStep - 1) / deadlineStep)
		return "table.deadline_seconds", n * int(deadlineStep/time.Second), time.Duration(n) * deadlineStep
	case left <= time.Minute:
		return "table.deadline_minute", 0, time.Minute
	case left <= time.Hour:
		n := int((left + time.Minute - 1) / time.Minute)
		return "table.deadline_minutes", n, time.Duration(n) * time.Minute
	}
	n := int((left + time.Hour - 1) / time.Hour)
	return "table.deadline_hours", n, time.Duration(n) * time.Hour
}

// EventLine is the table's last notice («Оля, Серёжа: время вышло»), or "".
func EventLine(l Loc, v TableView) string {
	t := v.t
	if t.Event == nil {
		return ""
	}
	return l.T(t.Event.Key, "Name", eventNames(v, t.Event))
}

// eventNames names who an event is about: its seats, or a person without
// one.
func eventNames(v TableView, e *Event) string {
	if e.Name != "" {
		return Esc(e.Name)
	}
	seats := []game.Seat{game.Seat(e.Seat)}
	for _, s := range e.Also {
		seats = append(seats, game.Seat(s))
	}
	return SeatNames(v, seats)
}

// standing is one line of the final results.
type standing struct {
	Seat  game.Seat
	Place int // 1 = best; equal places are shared
	Score int
}

// standings orders a finished game's seats best first: the winners share
// place 1 (the game's own tie-break chose them), then the others by score,
// equal scores sharing a place.
func standings(r game.Result) []standing {
	out := make([]standing, len(r.Scores))
	for i, sc := range r.Scores {
		out[i] = standing{Seat: game.Seat(i), Score: sc}
	}
	won := func(s game.Seat) bool { return slices.Contains(r.Winners, s) }
	sort.SliceStable(out, func(i, j int) bool {
		wi, wj := won(out[i].Seat), won(out[j].Seat)
		if wi != wj {
			return wi
		}
		return out[i].Score > out[j].Score
	})
	for i := range out {
		switch {
		case won(out[i].Seat):
			out[i].Place = 1
		case i > 0 && !won(out[i-1].Seat) && out[i-1].Score == out[i].Score:
			out[i].Place = out[i-1].Place
		default:
			out[i].Place = i + 1
		}
	}
	return out
}

// placeLabel is place p held by n players: "2." alone, "2–3." shared by
// two.
func placeLabel(p, n int) string { return placeRange(p, n) + "." }

// placeRange is place p shared by n seats: «2», or «2–3» for two.
func placeRange(p, n int) string {
	if n > 1 {
		return strconv.Itoa(p) + "–" + strconv.Itoa(p+n-1)
	}
	return strconv.Itoa(p)
}

// ResultTable is the «Итоги» block: the game's one result list (see
// finalList), best first, one line per seat with the game's own detail
// (score, rounds); a person who left is last, marked 🚪, without one.
func ResultTable(l Loc, v TableView, r game.Result, detail func(s game.Seat) string) string {
	var sb strings.Builder
	sb.WriteString(l.T("result.title") + "\n")
	list := finalList(v.t, r, true)
	left := false
	for _, f := range list {
		line := placeLabel(f.Place, sharedBy(list, f.Place)) + " "
		switch {
		case f.Left:
			line += Esc(f.Name) + " " + leftMark
			left = true
		case f.Place == 1:
			line += "🏆 " + SeatName(v, game.Seat(f.Seat)) + " — " + detail(game.Seat(f.Seat))
		default:
			line += SeatName(v, game.Seat(f.Seat)) + " — " + detail(game.Seat(f.Seat))
		}
		sb.WriteString(line + "\n")
	}
	if left {
		sb.WriteString(l.T("history.legend_left"))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// WinnerLine announces the winner or winners of a finished game: first
// place of its one result list (a robot that finished for someone who
// left does not win in their name).
func WinnerLine(l Loc, v TableView, r game.Result) string {
	var winners []game.Seat
	for _, f := range finalList(v.t, r, true) {
		if f.Place == 1 && !f.Left {
			winners = append(winners, game.Seat(f.Seat))
		}
	}
	if len(winners) == 1 {
		return l.T("result.winner", "Name", Mention(v, winners[0]))
	}
	return l.T("result.winners", "Names", Mentions(v, winners))
}

// Rows breaks buttons into rows of at most n.
func Rows(bs []Button, n int) [][]Button {
	var out [][]Button
	for len(bs) > 0 {
		k := min(n, len(bs))
		out = append(out, bs[:k])
		bs = bs[k:]
	}
	return out
}

// ActionButton is a button that makes seat take action a. The platform
// refuses it as stale once the seat has acted (unless the game is a
// LiveGame) and judges it against the state when it arrives.
func ActionButton(v TableView, seat int, text string, a game.Action) Button {
	t := v.t
	return Button{Text: text, Data: payload{Op: 'a', Table: t.ID, Game: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce, int(a)}}.String()}
}

// DraftButton is a button that adds value to seat's choice in progress:
// the platform calls DraftGame.Draft and keeps the result in Seat.Draft.
func DraftButton(v TableView, seat int, text string, value int) Button {
	t := v.t
	return Button{Text: text, Data: payload{Op: 'm', Table: t.ID, Game: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce, value}}.String()}
}

// InfoButton shows seat's private information in an alert.
func InfoButton(v TableView, seat int, text string) Button {
	t := v.t
	return Button{Text: text, Data: payload{Op: 'i', Table: t.ID, Game: t.GameNo, Args: []int{seat}}.String()}
}
