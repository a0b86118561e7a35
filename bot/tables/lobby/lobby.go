// Package lobby is the tables before a game: a lobby gathering players
// and dealing (lobby.go), /stop (stop.go), practice tables (practice.go),
// a deal's seeds and files (deal.go), people's names (names.go), a
// person's private chat and join links (people.go), the menus and rules
// pages (menus.go), who joins and leaves a group (belong.go), and which of
// a group's tables a new game goes to (group.go).
package lobby

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
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// Lobby gathers players for a game, in a group or a practice table: who
// sits, robots and their level, the game's options, the time for a move,
// hints; then deals. /stop and «play again» belong here too: they end a
// game or open the next lobby.
type Lobby struct {
	members Membership
	views   *view.Renderer
	games   view.Games
	tx      *txn.Txn
	names   *Names
	moves   *play.Moves
	tips    *play.Tips
	menus   *Menus
	now     func() time.Time
}

// Membership asks Telegram afresh whether someone is in a group (the one
// check, members.Cache, without its cache).
type Membership interface {
	BelongsNow(ctx context.Context, chat, user int64) (bool, error)
}

// New builds the lobby.
func New(members Membership, views *view.Renderer, tx *txn.Txn, names *Names, moves *play.Moves, tips *play.Tips, menus *Menus, now func() time.Time) *Lobby {
	return &Lobby{members: members, views: views, games: views.Games(), tx: tx, names: names, moves: moves, tips: tips, menus: menus, now: now}
}

// NewGame opens a lobby in the group, or explains why not.
func (lb *Lobby) NewGame(ctx context.Context, t *record.Table, ch *txn.Change, m *models.Message, args []string) error {
	l := lb.views.Loc(t.Lang)
	if t.Phase == record.PhasePlaying {
		ch.Post(t, adapter.Message{Text: l.T("newgame.running")})
		return nil
	}
	var wanted adapter.Game
	named := false
	if len(args) > 0 {
		wanted, named = lb.games.Find(strings.Join(args, " "))
	} else if len(lb.games) == 1 {
		wanted = lb.games[0]
	}
	switch {
	case t.Phase == record.PhaseLobby:
		// Say what is open instead of posting the lobby again.
		unknown := ""
		if len(args) > 0 && !named {
			unknown = strings.Join(args, " ")
		}
		ch.Post(t, lb.menus.LobbyOpenReply(l, t, wanted, unknown))
		return nil
	case len(args) > 0 && !named:
		ch.Post(t, lb.menus.NewGamePicker(l, t.ID))
		return nil
	}
	kind := ""
	if wanted != nil {
		kind = wanted.ID()
	}
	if m.SenderChat != nil {
		// Written in the group's (an anonymous admin's) or a channel's
		// name: no person to seat. The lobby waits with no creator; the
		// first to join runs it.
		openLobby(t, kind, record.Seat{})
		return nil
	}
	started := lb.tx.HasStarted(ctx, m.From.ID)
	openLobby(t, kind, record.Seat{UserID: m.From.ID, Name: lb.names.Person(m.From), Unreachable: !started})
	ch.Seated = append(ch.Seated, m.From.ID) // their /start (and /forgetme) finds this table
	return nil
}

// openLobby starts gathering players for the next game, the creator seated
// (none when creator is the zero Seat: the first to join becomes it).
func openLobby(t *record.Table, kind string, creator record.Seat) {
	t.GameNo++
	t.Phase = record.PhaseLobby
	t.GameID = kind
	t.Creator = creator.UserID
	t.Seats = nil
	if creator.UserID != 0 {
		t.Seats = []record.Seat{creator}
	}
	t.Options = nil
	t.AILevel = ""
	t.Hints = t.Practice() // off in a group until its lobby turns them on
	t.Seed, t.Salt, t.RobotSeed = 0, 0, 0
	// A v2 deal's secret, committed to from now on (bot/deal): the
	// players' presses come after it.
	t.Secret, t.Pressed, t.Drawn = newSecret(), nil, nil
	t.State = nil
	t.Log = nil
	t.Memory = nil
	t.Event = nil
	t.StopAsked = 0
	t.Reposts = nil
	t.ZonePick = false
	t.CupOf = nil // a cup's table is marked again by its cup (bot/tables/cupplay)
	t.StopTimers()
}

// OpenLobby opens t's lobby of kind for creator: a cup's round table
// (bot/tables/cupplay) is opened as any other, then seated by its cup.
func OpenLobby(t *record.Table, kind string, creator record.Seat) { openLobby(t, kind, creator) }

// OnChooseGame sets the game of a lobby, opened without one or switched
// from another (the reply to /newgame <game> while a lobby is open).
// Robots keep their tier when the new game has robots, else leave.
func (lb *Lobby) OnChooseGame(t *record.Table, ch *txn.Change, p callback.Data, who int64) error {
	if err := lb.lobbyGuard(t, p, needCreator, who, false); err != nil {
		return err
	}
	g, ok := lb.games.Get(p.Word)
	if !ok {
		return refusal.New("error.bad_button")
	}
	old, _ := lb.games.Get(t.GameID)
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
		return refusal.New("lobby.full")
	}
	l := lb.views.Loc(t.Lang)
	if t.GameID == g.ID() {
		return refusal.New("lobby.game_set", "Game", adapter.Title(l, g))
	}
	t.GameID = g.ID()
	t.Seats = seats
	t.Options = nil
	t.AILevel = ""
	ch.Answer = l.T("lobby.game_set", "Game", adapter.Title(l, g))
	return nil
}

// OnLobby handles the lobby's buttons. who is the presser; admin says
// whether they administer the group (asked only for «cancel»). It runs
// inside the transaction's retried closure, so it only reads the store.
func (lb *Lobby) OnLobby(ctx context.Context, t *record.Table, ch *txn.Change, p callback.Data, who *models.User, admin bool) error {
	if err := lb.lobbyGuard(t, p, lobbyNeeds(p.Args[0]), who.ID, admin); err != nil {
		return err
	}
	l := lb.views.Loc(t.Lang)
	kind, hasKind := lb.games.Get(t.GameID)
	switch p.Args[0] {
	case callback.LobbyJoin:
		return lb.join(ctx, t, ch, who)
	case callback.LobbyLeave:
		seat := t.SeatOf(who.ID)
		if seat < 0 {
			return refusal.New("lobby.not_seated")
		}
		LeaveLobby(t, seat)
		ch.Answer = l.T("lobby.left")
	case callback.LobbyAddAI:
		if _, max := kind.SeatRange(); len(t.Seats) >= max {
			return refusal.New("lobby.full")
		}
		t.Seats = append(t.Seats, record.Seat{Name: play.AIName(l, t), AI: view.AILevel(kind, t.AILevel)})
	case callback.LobbyKick:
		for i := len(t.Seats) - 1; i >= 0; i-- {
			if !t.Seats[i].Human() {
				t.Seats = append(t.Seats[:i], t.Seats[i+1:]...)
				return nil
			}
		}
		return refusal.New("lobby.no_ai")
	case callback.LobbyLevel:
		t.AILevel = nextLevel(kind, view.AILevel(kind, t.AILevel))
		if t.Practice() {
			relevelPractice(t, kind)
		}
	case callback.LobbyHints:
		if _, ok := view.HintGame(kind); !hasKind || !ok {
			return refusal.New("hints.none")
		}
		t.Hints = !t.Hints
	case callback.LobbyOption:
		return nextOption(t, kind, p)
	case callback.LobbyTurn:
		if !hasKind || !view.HasTurnTime(kind) {
			return refusal.New("error.bad_button")
		}
		t.TurnTime = nextTurnTime(lb.views.TurnTime(t), view.TurnChoices())
		ch.Answer = l.T("lobby.turn_set", "Time", view.TurnTimeText(l, t.TurnTime))
	case callback.LobbyZone:
		return lb.onZone(t, ch, p)
	case callback.LobbyCancel:
		txn.CloseTable(t)
		t.Event = &record.Event{Key: "event.cancelled"}
	case callback.LobbyStart:
		return lb.StartGame(ctx, t, ch)
	default:
		return refusal.New("error.bad_button")
	}
	return nil
}

// join seats the presser of «Join», or answers with the private chat's
// link when the bot cannot write to them yet.
func (lb *Lobby) join(ctx context.Context, t *record.Table, ch *txn.Change, who *models.User) error {
	if t.SeatOf(who.ID) >= 0 {
		return refusal.New("lobby.already_seated")
	}
	if kind, ok := lb.games.Get(t.GameID); ok {
		if _, max := kind.SeatRange(); len(t.Seats) >= max {
			return refusal.New("lobby.full")
		}
	}
	l := lb.views.Loc(t.Lang)
	started := lb.tx.HasStarted(ctx, who.ID)
	if !started && !lb.views.HandInGroup().GroupHandsAt(t) {
		// The bot cannot write to this user yet: the answer opens the
		// private chat, whose /start seats them (joinFromLink).
		ch.Answer = l.T("lobby.open_chat")
		return ErrOpenChat
	}
	// Someone the bot cannot write to yet plays from the group
	// («🖐 Мои карты»); the table offers them the private chat's link
	// until they do (view.addUnreachable).
	t.Seats = append(t.Seats, record.Seat{UserID: who.ID, Name: lb.names.Person(who), Unreachable: !started})
	pressed(t, ch, who.ID)
	claimLobby(t, who.ID)
	ch.Seated = append(ch.Seated, who.ID)
	ch.Answer = l.T("lobby.joined")
	if !started {
		ch.Answer = l.T("grouphand.joined")
	}
	return nil
}

// nextOption turns the lobby's option the button names to its next value.
func nextOption(t *record.Table, kind adapter.Game, p callback.Data) error {
	opts := adapter.Options(kind)
	if len(p.Args) < 2 || p.Args[1] < 0 || p.Args[1] >= len(opts) {
		return refusal.New("error.bad_button")
	}
	o := opts[p.Args[1]]
	if t.Options == nil {
		t.Options = map[string]int{}
	}
	t.Options[o.Key] = (adapter.OptionValue(adapter.View(t), kind, o.Key) + 1) % o.Values
	return nil
}

// OnAgain handles «play again» under a final result: the first press opens
// a lobby of the same game and options with the same players in the same
// order (robots at their levels), run by the presser; later presses join
// that lobby, or any later lobby of the same game. Should that lobby have
// been cancelled, the button opens it again (no dead end). It runs inside
// the transaction's closure, so it only reads the store.
//
// The button belongs to game p.GameNo of kind p.Word: it opens a lobby only
// while the table is idle after that very game (finished, not stopped) or
// after the lobby that followed it was cancelled. Anything else is stale.
func (lb *Lobby) OnAgain(ctx context.Context, t *record.Table, ch *txn.Change, p callback.Data, who *models.User) error {
	if t.CupOf != nil {
		return refusal.New("cup.again") // a cup's table opens its cup's next round only (bot/tables/cupplay)
	}
	cancelledNext := t.Phase == record.PhaseIdle && t.GameNo == p.GameNo+1 && t.GameID == p.Word && t.State == nil
	switch {
	case t.Phase == record.PhaseLobby && t.GameNo > p.GameNo && t.GameID == p.Word:
		return lb.OnLobby(ctx, t, ch, callback.Data{Op: callback.Lobby, Table: t.ID, GameNo: t.GameNo, Args: []int{callback.LobbyJoin}}, who, false)
	case cancelledNext:
	case t.Phase != record.PhaseIdle || t.GameNo != p.GameNo || t.GameID != p.Word || t.State == nil:
		return refusal.New("error.stale")
	}
	g, ok := lb.games.Get(p.Word)
	if !ok {
		return refusal.New("error.stale")
	}
	if !cancelledNext {
		if _, st, err := txn.Decode(lb.views, t); err != nil || !st.Over() {
			return refusal.New("error.stale") // the game was stopped, not finished
		}
	}
	old, creator := t.Seats, t.Creator
	opts, level := maps.Clone(t.Options), t.AILevel
	openLobby(t, g.ID(), record.Seat{})
	t.Seats = make([]record.Seat, 0, len(old))
	for _, s := range old {
		if s.Human() && record.Forgotten(s.UserID) {
			continue // a person forgotten is not seated again
		}
		if s.Human() && s.UserID != who.ID && !lb.stillMember(ctx, t.ChatID, s.UserID) {
			continue // left the group since (one who is unsure may press 🔁 to sit down)
		}
		t.Seats = append(t.Seats, record.Seat{UserID: s.UserID, Name: s.Name, AI: s.AI, Unreachable: s.Unreachable})
	}
	t.Options, t.AILevel = opts, level
	if t.SeatOf(who.ID) < 0 {
		// Someone who watched the game may sit down at once, when there is
		// room and the bot can write to them.
		if _, hi := g.SeatRange(); len(t.Seats) < hi && lb.tx.HasStarted(ctx, who.ID) {
			t.Seats = append(t.Seats, record.Seat{UserID: who.ID, Name: lb.names.Person(who)})
			ch.Seated = append(ch.Seated, who.ID)
		}
	}
	pressed(t, ch, who.ID) // the press that opened the lobby seats its presser, or keeps their seat
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
	ch.Answer = lb.views.Loc(t.Lang).T("again.opened")
	return nil
}

// stillMember reports whether user is still in the group, asked of
// Telegram afresh (belong.go's one check, not its cache: the group may not
// tell the bot who left): a person who left since the game is not seated
// again by someone else's 🔁. When Telegram cannot say, they are left
// out: they can sit down with a press of their own.
func (lb *Lobby) stillMember(ctx context.Context, chat, user int64) bool {
	member, err := lb.members.BelongsNow(ctx, chat, user)
	return err == nil && member
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
	case callback.LobbyAddAI, callback.LobbyLevel:
		return needCreator | needGame | needRobots
	case callback.LobbyOption:
		return needCreator | needGame
	case callback.LobbyCancel:
		return needCreator | needAdmin
	case callback.LobbyKick, callback.LobbyHints, callback.LobbyTurn, callback.LobbyStart, callback.LobbyZone:
		return needCreator
	}
	return 0
}

// lobbyGuard refuses a lobby press the lobby cannot take, in the order
// the presser should hear why: a button of another lobby (or of none
// open) is stale; then who may press it; then what the lobby lacks. who
// is the presser; admin says whether they administer the group.
func (lb *Lobby) lobbyGuard(t *record.Table, p callback.Data, need lobbyNeed, who int64, admin bool) error {
	if t.Phase != record.PhaseLobby || p.GameNo != t.GameNo {
		return refusal.New("error.stale")
	}
	if need&needCreator != 0 && who != t.Creator && (need&needAdmin == 0 || !admin) {
		return refusal.New("lobby.creator_only")
	}
	g, ok := lb.games.Get(t.GameID)
	if need&(needGame|needRobots) != 0 && !ok {
		return refusal.New("lobby.choose_game")
	}
	if need&needRobots != 0 && len(adapter.Levels(g)) == 0 {
		return refusal.New("lobby.no_robots")
	}
	return nil
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

// ErrOpenChat answers a join press with a deep link instead of a seat.
var ErrOpenChat = &refusal.Refusal{Key: "lobby.open_chat"}

// joinFromLink seats a user who opened the private chat through a lobby's
// deep link; it also marks them reachable at a table they already play at.
func (lb *Lobby) joinFromLink(t *record.Table, ch *txn.Change, u *models.User) error {
	if t.Phase == record.PhaseIdle {
		// Cancelled, stopped or over: its seats are no table to wait at.
		return refusal.New("start.no_lobby")
	}
	if seat := t.SeatOf(u.ID); seat >= 0 {
		if !t.Seats[seat].Unreachable {
			return refusal.New("lobby.already_seated")
		}
		t.Seats[seat].Unreachable = false
		return nil
	}
	if t.Phase != record.PhaseLobby {
		return refusal.New("start.no_lobby")
	}
	if g, ok := lb.games.Get(t.GameID); ok {
		if _, max := g.SeatRange(); len(t.Seats) >= max {
			return refusal.New("lobby.full")
		}
	}
	t.Seats = append(t.Seats, record.Seat{UserID: u.ID, Name: lb.names.Person(u)})
	claimLobby(t, u.ID)
	ch.Seated = append(ch.Seated, u.ID)
	return nil
}

// LeaveLobby gives up a lobby's seat. A creator leaving hands the lobby
// to the next person seated; with nobody left, the lobby is cancelled.
func LeaveLobby(t *record.Table, seat int) {
	user := t.Seats[seat].UserID
	t.Seats = append(t.Seats[:seat], t.Seats[seat+1:]...)
	if user == 0 || user != t.Creator {
		return
	}
	t.Creator = 0
	for _, s := range t.Seats {
		if s.Human() {
			t.Creator = s.UserID
			break
		}
	}
	if t.Creator == 0 {
		txn.CloseTable(t)
		t.Event = &record.Event{Key: "event.cancelled"}
	}
}

// claimLobby makes user, who just sat down, the creator of a lobby opened
// with none (by an anonymous admin).
func claimLobby(t *record.Table, user int64) {
	if t.Creator == 0 {
		t.Creator = user
	}
}

// StartGame deals the game; the creator seat plays first.
// Like every closure of update it only reads the store: whether a player
// opened the private chat.
func (lb *Lobby) StartGame(ctx context.Context, t *record.Table, ch *txn.Change) error {
	g, ok := lb.games.Get(t.GameID)
	if !ok {
		return refusal.New("lobby.choose_game")
	}
	lo, hi := g.SeatRange()
	if len(t.Seats) < lo || len(t.Seats) > hi {
		return refusal.New("lobby.seat_count", "Min", lo, "Max", hi)
	}
	for i, s := range t.Seats {
		if s.Human() && s.Unreachable {
			if !lb.tx.HasStarted(ctx, s.UserID) {
				if lb.views.HandInGroup().GroupHandsAt(t) {
					continue // they play from the group («🖐 Мои карты»)
				}
				return refusal.New("lobby.unreachable", "Name", adapter.Esc(s.Name))
			}
			t.Seats[i].Unreachable = false
		}
	}
	if err := dealSeeds(t, ch); err != nil {
		return err
	}
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
	t.Started = lb.now()
	t.Event = nil
	t.ZonePick = false
	for i := range t.Seats {
		t.Seats[i].Nonce = 0
		t.Seats[i].Draft = nil
		t.Seats[i].Timeouts = 0
		t.Seats[i].Due = time.Time{}
		t.Seats[i].Tips, t.Seats[i].Tip = nil, ""
		t.Seats[i].Learning = t.Seats[i].Human() && lb.tips.Learning(ctx, g, t.Seats[i].UserID)
		if t.Seats[i].Human() && !t.Practice() {
			// An index for /start in private, written after the commit; the
			// table stays the truth.
			ch.Seated = append(ch.Seated, t.Seats[i].UserID)
		}
	}
	lb.moves.Schedule(t, g, st, true)
	ch.Answer = lb.views.Loc(t.Lang).T("lobby.started")
	return nil
}

// newSalt is a deal's salt: random, never 0, which marks a game dealt
// before there were salts (it shows no commitment).
func newSalt() uint64 {
	for {
		if s := newSeed(); s != 0 {
			return s
		}
	}
}

// newSeed is a game's seed, from crypto/rand: nobody can foresee a deal.
func newSeed() uint64 {
	var buf [8]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return binary.LittleEndian.Uint64(buf[:])
}

// nextTurnTime is the lobby's choice after cur among choices (in their
// order): the next longer one, round to the shortest (a TURN_TIMEOUT among
// none of them goes to the next longer).
func nextTurnTime(cur time.Duration, choices []time.Duration) time.Duration {
	for _, d := range choices {
		if d > cur {
			return d
		}
	}
	return choices[0]
}

// OnOpen opens a lobby of the game a /help or picker button names, as
// /newgame <game> would; the answer is a toast. It runs inside the
// transaction's closure, so it only reads the store.
func (lb *Lobby) OnOpen(t *record.Table, ch *txn.Change, p callback.Data, who *models.User, started bool) error {
	g, ok := lb.games.Get(p.Word)
	if !ok {
		return refusal.New("error.bad_button")
	}
	l := lb.views.Loc(t.Lang)
	switch t.Phase {
	case record.PhasePlaying:
		return refusal.New("newgame.running")
	case record.PhaseLobby:
		if open, ok := lb.games.Get(t.GameID); ok {
			return refusal.New("newgame.lobby_open_toast", "Game", adapter.Title(l, open))
		}
		if who.ID != t.Creator {
			return refusal.New("newgame.choosing_toast")
		}
		return lb.OnChooseGame(t, ch, callback.Data{Op: callback.Choose, Table: t.ID, GameNo: t.GameNo, Word: g.ID()}, who.ID)
	}
	openLobby(t, g.ID(), record.Seat{UserID: who.ID, Name: lb.names.Person(who), Unreachable: !started})
	pressed(t, ch, who.ID)
	if t.Practice() {
		lb.OpenPractice(t, who)
		ch.Answer = l.T("practice.opened")
		return nil
	}
	ch.Seated = append(ch.Seated, who.ID) // their /start (and /forgetme) finds this table
	ch.Answer = l.T("lobby.joined")
	return nil
}

// OpenPractice makes a lobby just opened in a private chat a practice one:
// its title, the person's language, robots to the game's least number.
func (lb *Lobby) OpenPractice(t *record.Table, who *models.User) {
	t.Lang = lb.tx.UserLang(who)
	t.Title = lb.views.Loc(t.Lang).T("practice.title")
	lb.fillPractice(t)
}

// fillPractice seats robots up to the game's least number of players in a
// new practice lobby, so «Начать» works at once, and turns hints on:
// practice is for learning, and no group's rating is at stake.
func (lb *Lobby) fillPractice(t *record.Table) {
	t.Hints = true
	g, ok := lb.games.Get(t.GameID)
	if !ok || len(adapter.Levels(g)) == 0 {
		return
	}
	lo, _ := g.SeatRange()
	l := lb.views.Loc(t.Lang)
	for len(t.Seats) < lo {
		t.Seats = append(t.Seats, record.Seat{Name: play.AIName(l, t), AI: view.AILevel(g, t.AILevel)})
	}
}

// relevelPractice gives every robot of a practice lobby the lobby's level:
// there the level is the table's, not the next robot's.
func relevelPractice(t *record.Table, g adapter.Game) {
	for i := range t.Seats {
		if !t.Seats[i].Human() {
			t.Seats[i].AI = view.AILevel(g, t.AILevel)
		}
	}
}

// onZone is the lobby's time zone button: with no zone it shows the zones
// (or hides them), with one it sets the group's zone, kept for its next
// games like the time for a move.
func (lb *Lobby) onZone(t *record.Table, ch *txn.Change, p callback.Data) error {
	if !lb.views.Long(t) {
		return refusal.New("error.stale") // the zone matters to long games only
	}
	if len(p.Args) < 2 {
		t.ZonePick = !t.ZonePick
		return nil
	}
	zones := record.Zones()
	if p.Args[1] < 0 || p.Args[1] >= len(zones) {
		return refusal.New("error.bad_button")
	}
	t.Zone, t.ZonePick = zones[p.Args[1]].Name, false
	if record.TableNo(t.ID) > 1 {
		ch.GroupZone = t.Zone // the group's, kept at its table 1 (txn)
	}
	ch.Answer = lb.views.Loc(t.Lang).T("lobby.zone_set", "Zone", view.ZoneName(lb.views.Loc(t.Lang), t))
	return nil
}
