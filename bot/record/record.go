// Package record is the table record the bot keeps for each group chat (or
// forum topic): lobby, seats, the engine's state and log, timers. It is
// stored as JSON in one record, so one compare-and-set covers a whole move.
// It is plain data: the runtime (package bot) changes it, and a game's
// adapter sees it only through adapter.TableView.
package record

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/trickchef/trickchef/game"
)

// Phase is where a table is in its life. A chat keeps one table record for
// good: a new game reuses it with the next game number, so its settings (the
// language) survive and stale buttons of older games are recognised.
type Phase string

const (
	PhaseIdle    Phase = "idle"    // no game yet, or the last one ended
	PhaseLobby   Phase = "lobby"   // gathering players
	PhasePlaying Phase = "playing" // a game in progress
)

// AnyAdmin in StopAsked: the /stop came in the group's name (an anonymous
// administrator), so any administrator may confirm it.
const AnyAdmin int64 = -1

// Table is everything the bot keeps about one group chat (or forum topic):
// the lobby, the seats, the engine state and the timers. It is stored as
// JSON in one record, so one compare-and-set covers a whole move. Games
// never get it: they read it through its TableView.
type Table struct {
	ID      string `json:"id"`
	ChatID  int64  `json:"chat"`
	Thread  int    `json:"thread,omitempty"`
	Title   string `json:"title,omitempty"`
	Lang    string `json:"lang"`
	Phase   Phase  `json:"phase"`
	GameNo  int    `json:"game_no"`
	GameID  string `json:"kind,omitempty"`
	Creator int64  `json:"creator,omitempty"`
	Seats   []Seat `json:"seats,omitempty"`
	// Options are the game's lobby settings by key (adapter.OptionGame); the game
	// validates them.
	Options map[string]int `json:"opts,omitempty"`
	// TurnTime is the group's time for a move, chosen in the lobby and
	// kept for the next games (groups play at their own pace); zero: the
	// bot's TURN_TIMEOUT.
	TurnTime time.Duration `json:"turn_time,omitempty"`
	// Zone is the group's time zone (an IANA name, Zones), chosen in the
	// lobby and kept like TurnTime: a long turn's deadline is a clock time
	// there, and its night is the group's. "" is DefaultZone.
	Zone string `json:"zone,omitempty"`
	// ZonePick is set while the lobby shows the zones to choose from.
	ZonePick bool `json:"zone_pick,omitempty"`
	// AILevel is the level of the next robot added in the lobby.
	AILevel string `json:"ai_level,omitempty"`
	Seed    uint64 `json:"seed,omitempty"`
	// Salt is random, drawn with crypto/rand when the cards are first
	// dealt, and as secret as the seed until the game is over: the deal's
	// commitment (bot/deal) hashes it with the seed, so the commitment the
	// table shows cannot be searched over seeds, and the reveal shown at the
	// end carries it. Zero for a game dealt before there were commitments:
	// such a game shows neither.
	Salt uint64 `json:"salt,omitempty"`
	// Secret is the server's part of a v2 deal (bot/deal): 32 lowercase
	// hex digits drawn with crypto/rand when the lobby opens, whose
	// commitment the table shows from then on; secret until the game is
	// over. Empty for a game dealt the v1 way (Seed and Salt drawn at the
	// start).
	Secret string `json:"secret,omitempty"`
	// Pressed are the lobby's button presses that seated a person, by
	// user: the callback query id Telegram drew for the press, after the
	// commitment was shown.
	Pressed map[int64]string `json:"pressed,omitempty"`
	// Drawn is what Telegram drew that a v2 deal mixes in with Secret,
	// fixed at the start: each seat's press id (Pressed, "" for a seat
	// taken otherwise), then the start press id.
	Drawn []string `json:"drawn,omitempty"`
	// RobotSeed is what the bot's own decisions (robots, timeouts) are
	// drawn from in a v2 deal: a seed derived apart from the deal's, so a
	// robot's move says nothing of the cards. Zero in a v1 deal: Seed.
	RobotSeed uint64 `json:"robot_seed,omitempty"`
	State     []byte `json:"game,omitempty"`

	// Hints is the lobby's setting that offers «💡 Подсказка» on the
	// hands (bot/hint.go); off in a new lobby.
	Hints bool `json:"hints,omitempty"`

	// Log is every action applied, so a game can be replayed from its seed.
	Log MoveLog `json:"log,omitempty"`
	// Memory is what the robots remember of public events (per game).
	Memory json.RawMessage `json:"memory,omitempty"`
	// SystemAt is when the platform makes the game's system move (a deal
	// after a quiet pause); zero when none is due. Seat timers are in Seat.Due.
	SystemAt time.Time `json:"system_at,omitempty"`
	// Started is when the current game was dealt.
	Started time.Time `json:"started,omitempty"`
	// Event is the last notable thing that happened, shown on the table
	// message (a timeout, a stop).
	Event     *Event `json:"event,omitempty"`
	StopAsked int64  `json:"stop_asked,omitempty"` // user who asked to /stop, awaiting confirmation (AnyAdmin: an anonymous admin)
	// ResultsSent is the result id whose private results were queued, so
	// a result entry retried after a crash queues them once.
	ResultsSent string `json:"results_sent,omitempty"`
	// WebRatings are the rating changes of that result, by its players'
	// ids ("u<user>", "r<level>"): [before, after], for the page's
	// standings.
	WebRatings map[string][2]float64 `json:"web_ratings,omitempty"`
	// Season is the group's last month summed up (bot/results): which
	// month, and its champions, who carry 🏆 until the month after it
	// ends. Kept on the group's own table (ID(chat, 0)).
	Season *Season `json:"season,omitempty"`
	// Reposts counts, per view of this game, the requests to post its
	// message anew at the bottom of the chat (/table, /start): a message
	// showing an older count is replaced, and the replaced one loses its
	// buttons (bot/deliver.go).
	Reposts map[string]int `json:"reposts,omitempty"`
	// Numbered is set on a group's table 1 whose lobby opened while
	// another of the group's tables was taken: its messages then name it
	// («Стол 1», as tables 2 and on always are) until a lobby opens there
	// with the others idle.
	Numbered bool `json:"numbered,omitempty"`
	// Token names the table in links instead of its chat id — the join
	// link (/start j<token>) and the «Стол» page's: unguessable, so only
	// those shown a link can ask for the table, and even they must be its
	// players or the group's members. Minted on the table's first commit
	// (the stored name, web_token, is from when only the page had one).
	Token string `json:"web_token,omitempty"`
	// Broken is set once the table's game could not go on (its state
	// unreadable by its game, or its changes failing again and again): the
	// game stopped, its record was set aside for a person to look at, and
	// its buttons answer that it broke (bot/tables/broken.go).
	Broken *Broken `json:"broken,omitempty"`
	// Jobs are the tables' work a change left to do outside it, in order
	// (a finished game to record, a results command to answer): the
	// tables' timers do each once it is committed (record/job.go).
	Jobs    []Job     `json:"jobs,omitempty"`
	Updated time.Time `json:"updated"`
	// Cup, Board and CupOf are a group's cup (record/cups.go): the cup's
	// state on the table that hosts it, what that table's message shows,
	// and, on a table of a cup's round, which cup and table it is.
	Cup   json.RawMessage `json:"cup,omitempty"`
	Board *Board          `json:"board,omitempty"`
	CupOf *CupTable       `json:"cup_of,omitempty"`
	// Crowns are the group's last cups' winners, who carry 🏆 as a
	// month's champions do (Champion); kept on the group's own table.
	Crowns []Crown `json:"cup_crowns,omitempty"`
}

// Seat is one player at the table.
type Seat struct {
	UserID int64  `json:"user,omitempty"` // 0 for an AI seat
	Name   string `json:"name"`
	AI     string `json:"ai,omitempty"` // AI level; empty for a person
	// Nonce counts this seat's actions. Buttons carry it, so a button drawn
	// before the seat's last action is recognised as stale.
	Nonce int `json:"nonce"`
	// Draft is the choice in progress on the seat's keyboard, composed in
	// several presses into one action (adapter.DraftGame).
	Draft []int `json:"draft,omitempty"`
	// Due is when the bot acts for this seat: a person's turn deadline, or
	// a robot's moment to move. Zero while the seat has nothing to do.
	Due time.Time `json:"due,omitempty"`
	// Turn is the person's long turn while it runs (record/long.go).
	Turn *Turn `json:"turn,omitempty"`
	// Timeouts counts turns in a row the player let run out; at two the
	// seat is auto-played at once until the player acts again.
	Timeouts    int  `json:"timeouts,omitempty"`
	Unreachable bool `json:"unreachable,omitempty"`
	// Acted is when the person last made a move themselves (not the bot
	// for them): how long they have been away shows from it (adapter.IdleFor).
	Acted time.Time `json:"acted,omitempty"`
	// Web is until when the person's «Стол» page counts as open and
	// visible (renewed while it is): their hand is not redrawn in the chat
	// meanwhile.
	Web time.Time `json:"web,omitempty"`
	// Group: the person plays from the group — their last press on a hand
	// came from their hand there, an ephemeral message that only they see
	// (bot/deliver/grouphand) — so their private chat stays quiet
	// this game but for what must reach them. A press in private clears it.
	Group bool `json:"group,omitempty"`
	// HandAsked is when the person last asked for their hand in the
	// group: a second ask within seconds sends nothing more.
	HandAsked time.Time `json:"hand_asked,omitempty"`
	// LeaveAsked is set while the player's private message asks them to
	// confirm «leave the game».
	LeaveAsked bool `json:"leave_asked,omitempty"`
	// Moved is the person's last move (their own, or the bot's for them),
	// named when it was made: their private message says it counted
	// while they wait; it is dropped when their turn comes again.
	Moved *SeatMove `json:"moved,omitempty"`
	// Leaver is the person who left the game at this seat; a robot plays
	// it since (AI is set). The results record the leaver, last.
	Leaver *Leaver `json:"leaver,omitempty"`
	// Hint is the advice the person took for the position at hand, and
	// Hinted that they took one this game: they are not rated for it.
	Hint   *SeatHint `json:"hint,omitempty"`
	Hinted bool      `json:"hinted,omitempty"`

	// Learning is set for a person's first game of this game with tips
	// on, Tips lists the tips given them this game, and Tip is the one
	// their hand shows until their next move (bot/tips.go).
	Learning bool     `json:"learning,omitempty"`
	Tips     []string `json:"tips,omitempty"`
	Tip      string   `json:"tip,omitempty"`
}

// Broken is a game that broke: its number (its buttons carry it), when,
// and why, for the logs and the person who looks at the record set aside.
type Broken struct {
	GameNo int       `json:"game_no"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
}

// Leaver is a person who left a running game.
type Leaver struct {
	UserID int64  `json:"user"`
	Name   string `json:"name"`
}

// SeatMove is a person's last move as their private message tells it.
type SeatMove struct {
	// Nonce is the seat's nonce right after the move: the note holds
	// while the seat has not acted since.
	Nonce int    `json:"nonce"`
	Name  string `json:"name,omitempty"` // adapter.MoveGame.MoveName, "" when the game names none
	Auto  bool   `json:"auto,omitempty"` // the bot moved for them (their time ran out)
}

// Move is one applied action.
type Move struct {
	Seat   game.Seat   `json:"s"`
	Action game.Action `json:"a"`
	Auto   bool        `json:"auto,omitempty"` // made by the bot for a seat (AI or timeout)
}

// Event is a notice shown on the table message.
type Event struct {
	Key  string `json:"key"`
	Seat int    `json:"seat"`
	// Also are more seats it names: everyone who timed out in one change.
	Also []int `json:"also,omitempty"`
	// Name names a person who has no seat (an admin who stopped the game).
	Name string `json:"name,omitempty"`
}

// NextTimer is the earliest running timer, or zero.
func (t *Table) NextTimer() time.Time {
	next := t.SystemAt
	for _, s := range t.Seats {
		if !s.Due.IsZero() && (next.IsZero() || s.Due.Before(next)) {
			next = s.Due
		}
		if r := s.RemindAt(); !r.IsZero() && (next.IsZero() || r.Before(next)) {
			next = r
		}
	}
	return next
}

// StopTimers clears every timer: nobody waits for anything.
func (t *Table) StopTimers() {
	t.SystemAt = time.Time{}
	for i := range t.Seats {
		t.Seats[i].Due = time.Time{}
		t.Seats[i].Turn = nil
	}
}

// Seat returns the table seat of an engine seat, or nil for game.System
// and anything out of range: the system seat has no Seats entry.
func (t *Table) Seat(s game.Seat) *Seat {
	if s < 0 || int(s) >= len(t.Seats) {
		return nil
	}
	return &t.Seats[s]
}

// Human reports whether a person plays this seat.
func (s Seat) Human() bool { return s.AI == "" }

// Auto reports whether the bot plays this seat now without waiting.
func (s Seat) Auto() bool { return !s.Human() || s.Timeouts >= 2 }

// SeatOf returns the seat of user id, or -1.
func (t *Table) SeatOf(user int64) int {
	for i, s := range t.Seats {
		if s.Human() && s.UserID == user {
			return i
		}
	}
	return -1
}

// Decode reads a table record as stored.
func Decode(data []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("decode table: %w", err)
	}
	return &t, nil
}

// Encode is the record as stored.
func (t *Table) Encode() ([]byte, error) { return json.Marshal(t) }

// Repost asks for a view's message to be posted anew at the bottom of the
// chat by the next delivery.
func (t *Table) Repost(view string) {
	if t.Reposts == nil {
		t.Reposts = map[string]int{}
	}
	t.Reposts[view]++
}

// SeatHint is the advice a person took, shown while the table's log is
// as long as when it was given (any move makes it stale).
type SeatHint struct {
	At     int         `json:"at"`
	Action game.Action `json:"a"`
	Why    string      `json:"why"`
}

// ID names the table of a chat, or of one forum topic in it. It uses
// only characters allowed in deep-link payloads and callback data.
func ID(chatID int64, thread int) string {
	if thread != 0 {
		return strconv.FormatInt(chatID, 10) + "_" + strconv.Itoa(thread)
	}
	return strconv.FormatInt(chatID, 10)
}

// ParseID splits a table id back into chat and topic (any table of a
// chat, TableID, is in its chat and topic).
func ParseID(id string) (chatID int64, thread int, err error) {
	chatID, thread, _, err = ParseTable(id)
	return chatID, thread, err
}

// Practice reports whether t is a practice table: one in a private chat,
// played alone with robots.
func (t *Table) Practice() bool { return t.ChatID > 0 }
