package record

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Job is work a change left to do outside its transaction, kept on the
// table until it is done: a finished game to record and rate (the players
// then get their private results), or a group's results command to answer
// once every game before it is recorded. Exactly one of its fields is set.
// Jobs run in order, so an answer asked for after a game ended counts that
// game.
type Job struct {
	Result *Result `json:"result,omitempty"`
	// Finished is the game that Result ended (Table.Finished), to keep
	// for its reviews and replay once it is recorded.
	Finished *Table `json:"finished,omitempty"`
	// DealFile is the game's file of its deal and moves (bot/deal.File),
	// sent to each person with their private result.
	DealFile json.RawMessage `json:"deal_file,omitempty"`
	Query    *Query          `json:"query,omitempty"`
	// Cup is a cup's work on the table that hosts it (record/cups.go).
	Cup *CupJob `json:"cup,omitempty"`
}

// Result is a finished game as the results keep it: each seat's player,
// place and score. GameNo and Players serve the private results.
type Result struct {
	ID      string       `json:"id"`
	Game    string       `json:"game"`
	Chat    int64        `json:"chat"`
	Started time.Time    `json:"started"`
	Ended   time.Time    `json:"ended"`
	Options string       `json:"opts,omitempty"`
	Seats   []ResultSeat `json:"seats"`
	GameNo  int          `json:"game_no,omitempty"`
	Players int          `json:"players,omitempty"`
}

// ResultSeat is one seat of a finished game.
type ResultSeat struct {
	Player  string `json:"player"`
	Name    string `json:"name"`
	Place   int    `json:"place"`
	Score   int    `json:"score"`
	Left    bool   `json:"left,omitempty"`
	Unrated bool   `json:"unrated,omitempty"`
	Hinted  bool   `json:"hinted,omitempty"` // unrated because they took a hint
}

// Query is a group's results command waiting for its answer.
type Query struct {
	Cmd  string `json:"cmd"`  // "stats", "top" or "history"
	User int64  `json:"user"` // who asked
	Name string `json:"name"` // their name, for the answer
	// Game is /top's game: the one named, else the table's current or
	// last; "" picks the first game with results.
	Game string `json:"game,omitempty"`
}

// RatingChange is a seat's shown rating (the ordinal) before and after a
// game, as the results rated it.
type RatingChange struct{ Before, After float64 }

// ResultID names a table's current game for exactly-once recording: the
// same on every retry of the commit that ended it, and different for
// every game.
func ResultID(t *Table) string {
	return t.ID + ":" + strconv.Itoa(t.GameNo) + ":" + strconv.FormatUint(t.Seed, 16)
}

// The results name their players: a person per user, a robot per level.

// PersonPlayer is a person's player id.
func PersonPlayer(user int64) string { return "u" + strconv.FormatInt(user, 10) }

// RobotPlayer is a robot level's player id.
func RobotPlayer(level string) string { return "r" + level }

// PlayerUser is the user of a person's player id.
func PlayerUser(player string) (int64, bool) {
	id, ok := strings.CutPrefix(player, "u")
	if !ok {
		return 0, false
	}
	user, err := strconv.ParseInt(id, 10, 64)
	return user, err == nil && user > 0
}

// PlayerLevel is the level of a robot's player id.
func PlayerLevel(player string) (string, bool) {
	level, ok := strings.CutPrefix(player, "r")
	return level, ok && level != ""
}

// SeatPlayer is a seat's player id: the person (or the one who left it),
// or the robot's level.
func SeatPlayer(s Seat) string {
	switch {
	case s.Leaver != nil:
		return PersonPlayer(s.Leaver.UserID)
	case !s.Human():
		return RobotPlayer(s.AI)
	}
	return PersonPlayer(s.UserID)
}

// NewTableToken is a fresh token naming a table in links instead of its
// chat id (Table.Token): 16 random bytes, base64url (22 characters), which
// a /start payload (64 characters of A–Z a–z 0–9 _ -) carries as it is.
func NewTableToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// ValidTableToken reports whether s could be a token (NewTableToken), so
// garbage costs no store read.
func ValidTableToken(s string) bool {
	if len(s) != 22 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
