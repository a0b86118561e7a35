package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// Lobby button ops (callback.Data.Args[0] of an 'l' button).
const (
	lobbyJoin = iota + 1
	lobbyLeave
	lobbyAddAI
	lobbyStart
	lobbyCancel
	lobbyOption // cycle option Args[1] of the game's options
	_           // was: choose the game by index (now the 'k' op)
	lobbyKick   // remove the last robot
	lobbyLevel  // cycle the level of the next robot
	lobbyTurn   // cycle the time for a move (turnChoices)
	lobbyHints  // turn hints on or off
)

// newGame opens a lobby in the group, or explains why not.
func (b *Bot) newGame(ctx context.Context, t *record.Table, ch *change, m *models.Message, cmd command) error {
	l := b.loc(t.Lang)
	if t.Phase == record.PhasePlaying {
		ch.post(t, adapter.Message{Text: l.T("newgame.running")})
		return nil
	}
	var wanted adapter.Game
	named := false
	if len(cmd.args) > 0 {
		wanted, named = b.games.find(strings.Join(cmd.args, " "))
	} else if len(b.games.games) == 1 {
		wanted = b.games.games[0]
	}
	switch {
	case t.Phase == record.PhaseLobby:
		// Say what is open instead of posting the lobby again.
		unknown := ""
		if len(cmd.args) > 0 && !named {
			unknown = strings.Join(cmd.args, " ")
		}
		ch.post(t, b.lobbyOpenReply(l, t, wanted, unknown))
		return nil
	case len(cmd.args) > 0 && !named:
		ch.post(t, b.newGamePicker(l, t.ID))
		return nil
	}
	kind := ""
	if wanted != nil {
		kind = wanted.ID()
	}
	started := b.hasStarted(ctx, m.From.ID)
	openLobby(t, kind, record.Seat{UserID: m.From.ID, Name: userName(m.From), Unreachable: !started})
	if !started {
		ch.seated = append(ch.seated, m.From.ID) // their /start finds this table
	}
	return nil
}

// openLobby starts gathering players for the next game, the creator seated.
func openLobby(t *record.Table, kind string, creator record.Seat) {
	t.GameNo++
	t.Phase = record.PhaseLobby
	t.GameID = kind
	t.Creator = creator.UserID
	t.Seats = []record.Seat{creator}
	t.Options = nil
	t.AILevel = ""
	t.Hints = t.Practice() // off in a group until its lobby turns them on
	t.Seed = 0
	t.State = nil
	t.Log = nil
	t.Memory = nil
	t.Event = nil
	t.StopAsked = 0
	t.Reposts = nil
	t.StopTimers()
}

// gameList lists the games as commands: "/top chef — Меню шефа".
func (b *Bot) gameList(l adapter.Loc, command string) string {
	var names []string
	for _, g := range b.games.games {
		names = append(names, "<code>"+command+" "+g.ID()+"</code> — "+adapter.Title(l, g))
	}
	return strings.Join(names, "\n")
}

func (b *Bot) hasStarted(ctx context.Context, user int64) bool {
	_, err := b.store.Pointer(ctx, store.StartedKey(user))
	return err == nil
}

// onChooseGame sets the game of a lobby, opened without one or switched
// from another (the reply to /newgame <game> while a lobby is open).
// Robots keep their tier when the new game has robots, else leave.
func (b *Bot) onChooseGame(t *record.Table, ch *change, p callback.Data, who int64) error {
	if err := b.lobbyGuard(t, p, needCreator, who, false); err != nil {
		return err
	}
	g, ok := b.games.get(p.Word)
	if !ok {
		return refuse("error.bad_button")
	}
	old, _ := b.games.get(t.GameID)
	seats := make([]record.Seat, 0, len(t.Seats))
	for _, s := range t.Seats {
		if !s.Human() {
			if len(adapter.Levels(g)) == 0 {
				continue
			}
			s.AI = sameTier(old, g, s.AI)
		}
		seats = append(seats, s)
	}
	if _, max := g.SeatRange(); len(seats) > max {
		return refuse("lobby.full")
	}
	l := b.loc(t.Lang)
	if t.GameID == g.ID() {
		return refuse("lobby.game_set", "Game", adapter.Title(l, g))
	}
	t.GameID = g.ID()
	t.Seats = seats
	t.Options = nil
	t.AILevel = ""
	ch.answer = l.T("lobby.game_set", "Game", adapter.Title(l, g))
	return nil
}

// onLobby handles the lobby's buttons. who is the presser; admin says
// whether they administer the group (asked only for «cancel»). It runs
// inside transact's retried closure, so it only reads the store.
func (b *Bot) onLobby(ctx context.Context, t *record.Table, ch *change, p callback.Data, who *models.User, admin bool) error {
	if err := b.lobbyGuard(t, p, lobbyNeeds(p.Args[0]), who.ID, admin); err != nil {
		return err
	}
	l := b.loc(t.Lang)
	seat := t.SeatOf(who.ID)
	creator := who.ID == t.Creator
	kind, hasKind := b.games.get(t.GameID)
	switch p.Args[0] {
	case lobbyJoin:
		if seat >= 0 {
			return refuse("lobby.already_seated")
		}
		if hasKind {
			if _, max := kind.SeatRange(); len(t.Seats) >= max {
				return refuse("lobby.full")
			}
		}
		if !b.hasStarted(ctx, who.ID) {
			// The bot cannot write to this user yet: the answer opens the
			// private chat, whose /start seats them (joinFromLink).
			ch.answer = l.T("lobby.open_chat")
			return errOpenChat
		}
		t.Seats = append(t.Seats, record.Seat{UserID: who.ID, Name: userName(who)})
		ch.answer = l.T("lobby.joined")
	case lobbyLeave:
		if seat < 0 {
			return refuse("lobby.not_seated")
		}
		t.Seats = append(t.Seats[:seat], t.Seats[seat+1:]...)
		if creator {
			t.Creator = 0
			for _, s := range t.Seats {
				if s.Human() {
					t.Creator = s.UserID
					break
				}
			}
			if t.Creator == 0 {
				b.closeTable(t)
				t.Event = &record.Event{Key: "event.cancelled"}
			}
		}
		ch.answer = l.T("lobby.left")
	case lobbyAddAI:
		if _, max := kind.SeatRange(); len(t.Seats) >= max {
			return refuse("lobby.full")
		}
		t.Seats = append(t.Seats, record.Seat{Name: b.aiName(l, t), AI: aiLevel(kind, t.AILevel)})
	case lobbyKick:
		for i := len(t.Seats) - 1; i >= 0; i-- {
			if !t.Seats[i].Human() {
				t.Seats = append(t.Seats[:i], t.Seats[i+1:]...)
				return nil
			}
		}
		return refuse("lobby.no_ai")
	case lobbyLevel:
		t.AILevel = nextLevel(kind, aiLevel(kind, t.AILevel))
		if t.Practice() {
			relevelPractice(t, kind)
		}
	case lobbyHints:
		if _, ok := hintGame(kind); !hasKind || !ok {
			return refuse("hints.none")
		}
		t.Hints = !t.Hints
	case lobbyOption:
		opts := adapter.Options(kind)
		if len(p.Args) < 2 || p.Args[1] < 0 || p.Args[1] >= len(opts) {
			return refuse("error.bad_button")
		}
		o := opts[p.Args[1]]
		if t.Options == nil {
			t.Options = map[string]int{}
		}
		t.Options[o.Key] = (adapter.OptionValue(adapter.View(t), kind, o.Key) + 1) % o.Values
	case lobbyTurn:
		if !hasKind || !hasTurnTime(kind) {
			return refuse("error.bad_button")
		}
		t.TurnTime = nextTurnTime(b.turnTime(t))
		ch.answer = l.T("lobby.turn_set", "Time", TurnTimeText(l, t.TurnTime))
	case lobbyCancel:
		b.closeTable(t)
		t.Event = &record.Event{Key: "event.cancelled"}
	case lobbyStart:
		return b.startGame(ctx, t, ch)
	default:
		return refuse("error.bad_button")
	}
	return nil
}

// onAgain handles «play again» under a final result: the first press opens
// a lobby of the same game and options with the same players in the same
// order (robots at their levels), run by the presser; later presses join
// that lobby, or any later lobby of the same game. Should that lobby have
// been cancelled, the button opens it again (no dead end). It runs inside
// transact's closure, so it only reads the store.
//
// The button belongs to game p.GameNo of kind p.Word: it opens a lobby only
// while the table is idle after that very game (finished, not stopped) or
// after the lobby that followed it was cancelled. Anything else is stale.
func (b *Bot) onAgain(ctx context.Context, t *record.Table, ch *change, p callback.Data, who *models.User) error {
	cancelledNext := t.Phase == record.PhaseIdle && t.GameNo == p.GameNo+1 && t.GameID == p.Word && t.State == nil
	switch {
	case t.Phase == record.PhaseLobby && t.GameNo > p.GameNo && t.GameID == p.Word:
		return b.onLobby(ctx, t, ch, callback.Data{Op: 'l', Table: t.ID, GameNo: t.GameNo, Args: []int{lobbyJoin}}, who, false)
	case cancelledNext:
	case t.Phase != record.PhaseIdle || t.GameNo != p.GameNo || t.GameID != p.Word || t.State == nil:
		return refuse("error.stale")
	}
	g, ok := b.games.get(p.Word)
	if !ok {
		return refuse("error.stale")
	}
	if !cancelledNext {
		if _, st, err := b.decode(t); err != nil || !st.Over() {
			return refuse("error.stale") // the game was stopped, not finished
		}
	}
	old, creator := t.Seats, t.Creator
	opts, level := maps.Clone(t.Options), t.AILevel
	openLobby(t, g.ID(), record.Seat{})
	t.Seats = make([]record.Seat, 0, len(old))
	for _, s := range old {
		t.Seats = append(t.Seats, record.Seat{UserID: s.UserID, Name: s.Name, AI: s.AI, Unreachable: s.Unreachable})
	}
	t.Options, t.AILevel = opts, level
	if t.SeatOf(who.ID) < 0 {
		// Someone who watched the game may sit down at once, when there is
		// room and the bot can write to them.
		if _, hi := g.SeatRange(); len(t.Seats) < hi && b.hasStarted(ctx, who.ID) {
			t.Seats = append(t.Seats, record.Seat{UserID: who.ID, Name: userName(who)})
		}
	}
	// The presser asked for the table, so they run it (and may start it);
	// else the old creator, else the first person seated.
	t.Creator = 0
	for _, c := range []int64{who.ID, creator} {
		if c != 0 && t.SeatOf(c) >= 0 {
			t.Creator = c
			break
		}
	}
	if t.Creator == 0 {
		for _, s := range t.Seats {
			if s.Human() {
				t.Creator = s.UserID
				break
			}
		}
	}
	ch.answer = b.loc(t.Lang).T("again.opened")
	return nil
}

// lobbyNeed is what a lobby button asks of the press and of the lobby
// before it acts (lobbyNeeds), so each guard is written once (lobbyGuard).
type lobbyNeed uint8

const (
	needCreator lobbyNeed = 1 << iota // only the lobby's creator may press it
	needAdmin                         // … or an administrator of the group
	needGame                          // the lobby's game is chosen
	needRobots                        // the lobby's game (needed too) has robots
)

// lobbyNeeds is what lobby button op needs; joining and leaving need
// nothing but an open lobby.
func lobbyNeeds(op int) lobbyNeed {
	switch op {
	case lobbyAddAI, lobbyLevel:
		return needCreator | needGame | needRobots
	case lobbyOption:
		return needCreator | needGame
	case lobbyCancel:
		return needCreator | needAdmin
	case lobbyKick, lobbyHints, lobbyTurn, lobbyStart:
		return needCreator
	}
	return 0
}

// lobbyGuard refuses a lobby press the lobby cannot take, in the order
// the presser should hear why: a button of another lobby (or of none
// open) is stale; then who may press it; then what the lobby lacks. who
// is the presser; admin says whether they administer the group.
func (b *Bot) lobbyGuard(t *record.Table, p callback.Data, need lobbyNeed, who int64, admin bool) error {
	if t.Phase != record.PhaseLobby || p.GameNo != t.GameNo {
		return refuse("error.stale")
	}
	if need&needCreator != 0 && who != t.Creator && (need&needAdmin == 0 || !admin) {
		return refuse("lobby.creator_only")
	}
	g, ok := b.games.get(t.GameID)
	if need&(needGame|needRobots) != 0 && !ok {
		return refuse("lobby.choose_game")
	}
	if need&needRobots != 0 && len(adapter.Levels(g)) == 0 {
		return refuse("lobby.no_robots")
	}
	return nil
}

// aiLevel is the lobby's robot level, the game's easiest by default.
func aiLevel(g adapter.Game, level string) string {
	ls := adapter.Levels(g)
	if slices.Contains(ls, level) || len(ls) == 0 {
		return level
	}
	return ls[0]
}

// sameTier is the level of game to that stands where level stands among
// game from's levels (games name their tiers differently); the easiest
// when from is unknown.
func sameTier(from, to adapter.Game, level string) string {
	ls := adapter.Levels(to)
	i := 0
	if from != nil {
		i = max(0, slices.Index(adapter.Levels(from), level))
	}
	return ls[min(i, len(ls)-1)]
}

// nextLevel cycles through the game's robot levels.
func nextLevel(g adapter.Game, level string) string {
	ls := adapter.Levels(g)
	i := slices.Index(ls, level)
	return ls[(i+1)%len(ls)]
}

// errOpenChat answers a join press with a deep link instead of a seat.
var errOpenChat = &refusal{key: "lobby.open_chat"}

// aiName gives an AI seat a name not yet used at the table.
func (b *Bot) aiName(l adapter.Loc, t *record.Table) string {
	for i := 1; ; i++ {
		name := l.T("ai.name", "N", i)
		taken := false
		for _, s := range t.Seats {
			if s.Name == name {
				taken = true
			}
		}
		if !taken {
			return name
		}
	}
}

// joinFromLink seats a user who opened the private chat through a lobby's
// deep link; it also marks them reachable at a table they already play at.
func (b *Bot) joinFromLink(t *record.Table, u *models.User) error {
	if t.Phase == record.PhaseIdle {
		// Cancelled, stopped or over: its seats are no table to wait at.
		return refuse("start.no_lobby")
	}
	if seat := t.SeatOf(u.ID); seat >= 0 {
		if !t.Seats[seat].Unreachable {
			return refuse("lobby.already_seated")
		}
		t.Seats[seat].Unreachable = false
		return nil
	}
	if t.Phase != record.PhaseLobby {
		return refuse("start.no_lobby")
	}
	if g, ok := b.games.get(t.GameID); ok {
		if _, max := g.SeatRange(); len(t.Seats) >= max {
			return refuse("lobby.full")
		}
	}
	t.Seats = append(t.Seats, record.Seat{UserID: u.ID, Name: userName(u)})
	return nil
}

// startGame deals the game; the creator seat plays first.
// Like every closure of update it only reads the store: whether a player
// opened the private chat.
func (b *Bot) startGame(ctx context.Context, t *record.Table, ch *change) error {
	g, ok := b.games.get(t.GameID)
	if !ok {
		return refuse("lobby.choose_game")
	}
	lo, hi := g.SeatRange()
	if len(t.Seats) < lo || len(t.Seats) > hi {
		return refuse("lobby.seat_count", "Min", lo, "Max", hi)
	}
	for i, s := range t.Seats {
		if s.Human() && s.Unreachable {
			if !b.hasStarted(ctx, s.UserID) {
				return refuse("lobby.unreachable", "Name", adapter.Esc(s.Name))
			}
			t.Seats[i].Unreachable = false
		}
	}
	t.Seed = newSeed()
	st, err := g.Start(adapter.View(t))
	if err != nil {
		return err
	}
	data, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	t.State = data
	t.Log = nil
	t.Memory = nil
	if m, ok := g.(adapter.MemoryGame); ok {
		t.Memory = m.Observe(nil, st)
	}
	t.Phase = record.PhasePlaying
	t.Started = b.now()
	t.Event = nil
	for i := range t.Seats {
		t.Seats[i].Nonce = 0
		t.Seats[i].Draft = nil
		t.Seats[i].Timeouts = 0
		t.Seats[i].Due = time.Time{}
		t.Seats[i].Tips, t.Seats[i].Tip = nil, ""
		t.Seats[i].Learning = t.Seats[i].Human() && b.learning(ctx, g, t.Seats[i].UserID)
		if t.Seats[i].Human() && !t.Practice() {
			// An index for /start in private, written after the commit; the
			// table stays the truth.
			ch.seated = append(ch.seated, t.Seats[i].UserID)
		}
	}
	b.schedule(t, g, st, true)
	ch.answer = b.loc(t.Lang).T("lobby.started")
	return nil
}

func newSeed() uint64 {
	var buf [8]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return binary.LittleEndian.Uint64(buf[:])
}

// askStop asks for a confirmation before a game is stopped.
func (b *Bot) askStop(t *record.Table, ch *change, user int64, admin bool) error {
	l := b.loc(t.Lang)
	if t.Phase == record.PhaseIdle {
		ch.post(t, adapter.Message{Text: l.T("stop.nothing")})
		return nil
	}
	if user != t.Creator && !admin {
		ch.post(t, adapter.Message{Text: l.T("stop.not_allowed")})
		return nil
	}
	t.StopAsked = user
	ch.post(t, adapter.Message{Text: l.T("stop.confirm"), Keyboard: [][]adapter.Button{{
		{Text: l.T("stop.yes"), Data: callback.Data{Op: 's', Table: t.ID, GameNo: t.GameNo, Args: []int{1}}.String()},
		{Text: l.T("stop.no"), Data: callback.Data{Op: 's', Table: t.ID, GameNo: t.GameNo, Args: []int{0}}.String()},
	}}})
	return nil
}

// onStop handles the confirmation buttons of /stop.
func (b *Bot) onStop(t *record.Table, ch *change, p callback.Data, user *models.User) error {
	who := user.ID
	switch {
	case t.Phase == record.PhaseIdle || p.GameNo != t.GameNo:
		return refuse("error.stale_game")
	case t.StopAsked == 0:
		return refuse("stop.answered")
	}
	if who != t.StopAsked {
		return refuse("stop.not_yours")
	}
	l := b.loc(t.Lang)
	if p.Args[0] == 0 {
		t.StopAsked = 0
		ch.answer = l.T("stop.kept")
		return nil
	}
	b.closeTable(t)
	t.Event = &record.Event{Key: "event.stopped", Name: userName(user)}
	if seat := t.SeatOf(who); seat >= 0 {
		t.Event = &record.Event{Key: "event.stopped", Seat: seat}
	}
	ch.answer = l.T("stop.done")
	return nil
}
