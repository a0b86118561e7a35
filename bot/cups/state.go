// Package cups runs a group's cups (docs/bot.md «Cups»): the cup's lobby,
// its rounds, the cup's message, what happens when one of its tables ends,
// a person leaving the cup, /stop and the end. The rules are bot/cup's;
// this package keeps a cup's state on the table record that hosts it
// (record.CupHost) and changes it inside the tables' transaction, so a cup
// is stored, committed with what it says and fenced like a table.
//
// It is pure: every function takes the host record and changes it in
// memory; the tables (bot/tables/cups.go) read and commit the records,
// open the round's tables and tell a cup that one ended. It never names a
// game: the cup's game is an id of the games offered.
package cups

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/trickchef/trickchef/bot/cup"
)

// Version is the encoding of State this code reads and writes.
const Version = 1

// Phase is where a cup is.
type Phase string

const (
	Gathering Phase = "lobby"   // people join
	Playing   Phase = "playing" // rounds are played
	Over      Phase = "over"    // every round played: it has winners
	Stopped   Phase = "stopped" // stopped by /stop, or cancelled in its lobby
)

// HistoryLimit is how many finished cups /cup history lists.
const HistoryLimit = 20

// Person is an entrant, as the lobby seats them.
type Person struct {
	User int64  `json:"user"`
	Name string `json:"name"`
}

// Past is a finished cup, for /cup history.
type Past struct {
	No      int       `json:"no"`
	Game    string    `json:"game"`
	Ended   time.Time `json:"ended"`
	People  int       `json:"people"`
	Rounds  int       `json:"rounds"`
	Winners []string  `json:"winners,omitempty"` // names; none when stopped
	Stopped bool      `json:"stopped,omitempty"`
}

// State is a cup's whole runtime state, kept on its host table as JSON
// (record.Table.Cup) with a version: the cup being gathered or played, and
// the group's finished cups.
type State struct {
	V     int    `json:"v"`
	No    int    `json:"no"` // the host's game number when it opened: its buttons carry it
	Phase Phase  `json:"phase,omitempty"`
	Game  string `json:"game,omitempty"`
	// Rounds asked for (cup.DefaultRounds when not said).
	Rounds   int           `json:"rounds,omitempty"`
	Creator  int64         `json:"creator,omitempty"`
	People   []Person      `json:"people,omitempty"` // in the order they joined
	Level    string        `json:"level,omitempty"`  // the robots'
	TurnTime time.Duration `json:"turn_time,omitempty"`
	// Cup is the pure cup, from the start on.
	Cup *cup.Cup `json:"cup,omitempty"`
	// Tables are the ids of the current round's tables, by number.
	Tables []string `json:"tables,omitempty"`
	// Asked are those who pressed «leave the cup» once: the next press
	// confirms.
	Asked   []int64   `json:"asked,omitempty"`
	Started time.Time `json:"started,omitempty"`
	History []Past    `json:"history,omitempty"`
}

// ErrVersion is a stored state of an encoding this code does not read.
var ErrVersion = errors.New("cups: unknown encoding version")

// Unreadable is a host's cup that cannot be read: the tables fence it off
// (its state set aside, the cup ended, the group told) instead of playing
// on it.
type Unreadable struct{ Err error }

func (e *Unreadable) Error() string { return "cup unreadable: " + e.Err.Error() }
func (e *Unreadable) Unwrap() error { return e.Err }

// Decode reads a host's state; nil data is a host with no cup yet. A
// state that cannot be read (another version, a broken cup) is an error:
// the tables fence the host off rather than play on it.
func Decode(data []byte) (*State, error) {
	if len(data) == 0 {
		return &State{V: Version}, nil
	}
	var v struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, &Unreadable{err}
	}
	if v.V != Version {
		return nil, &Unreadable{fmt.Errorf("%w %d", ErrVersion, v.V)}
	}
	s := new(State)
	if err := json.Unmarshal(data, s); err != nil {
		return nil, &Unreadable{err}
	}
	if s.Phase != Gathering && s.Phase != "" && s.Cup == nil {
		return nil, &Unreadable{fmt.Errorf("%w: a cup %s without its state", cup.ErrState, s.Phase)}
	}
	return s, nil
}

// Encode is the state as the host keeps it.
func (s *State) Encode() (json.RawMessage, error) {
	s.V = Version
	return json.Marshal(s)
}

// Running reports whether a cup is gathering or playing.
func (s *State) Running() bool { return s.Phase == Gathering || s.Phase == Playing }

// PersonID is a person's id in the pure cup.
func PersonID(user int64) string { return fmt.Sprintf("u%d", user) }

// UserOf is the user of a pure cup's person id (0 for a robot's seat).
func UserOf(id string) int64 {
	var u int64
	if _, err := fmt.Sscanf(id, "u%d", &u); err != nil {
		return 0
	}
	return u
}

func (s *State) joined(user int64) int {
	for i, p := range s.People {
		if p.User == user {
			return i
		}
	}
	return -1
}
