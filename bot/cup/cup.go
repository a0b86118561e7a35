// Package cup is a cup inside a group: 3 to 16 people play a few rounds of
// one game, every round seating everyone at once at several tables,
// Swiss-style — people with similar cup points together, table-mates of
// earlier rounds kept apart. Each table's places earn cup points; the
// standings break ties by a published rule (docs/bot.md «Cups»).
//
// It is pure: no clock, no store, no Telegram, and it never names a game —
// the game is an opaque id and its table sizes are numbers. Every choice it
// makes is drawn from the cup's committed seed, so the same cup pairs and
// ranks the same on any replica. The whole state is the Cup struct itself,
// stored as JSON like a table record; a version it does not know is refused
// (ErrVersion), so the runtime can fence a cup it cannot read.
package cup

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Limits of a cup.
const (
	MinPeople = 3
	MaxPeople = 16
	// DefaultRounds is an evening's cup: three games. A table ranks
	// several people at once, so three rounds at tables of 3–4 separate
	// 16 people well (3³ = 27 and 4³ = 64 orders), and everyone meets six
	// to nine others.
	DefaultRounds = 3
	// MaxRounds bounds what a creator may ask for: ten rounds of a long
	// game already take over a week.
	MaxRounds = 10
	// MaxSeats bounds a table: the exact arithmetic of points (unit)
	// holds for tables of up to 16 seats, and no cup needs more.
	MaxSeats = 16
	// Version is the encoding this code reads and writes.
	Version = 1
)

// Robot is the seat of a robot of the cup's level (Config.Robots) in
// Table.Seats: robots are fillers, not entrants, so they have no identity
// beyond their seat.
const Robot = ""

// Errors. Each refused call changes nothing.
var (
	ErrConfig        = errors.New("cup: bad config")
	ErrPeople        = errors.New("cup: bad people")
	ErrDone          = errors.New("cup: the cup is over")
	ErrRoundOpen     = errors.New("cup: the round is still being played")
	ErrNoTable       = errors.New("cup: no such round or table")
	ErrResult        = errors.New("cup: bad result")
	ErrRecorded      = errors.New("cup: the table's result is already recorded, differently")
	ErrUnknownPerson = errors.New("cup: not in the cup")
	ErrLeft          = errors.New("cup: already left the cup")
	ErrVersion       = errors.New("cup: unknown encoding version")
	ErrState         = errors.New("cup: inconsistent state")
)

// Config is what a cup is created with.
type Config struct {
	// Game is the game's id, opaque here: the runtime's.
	Game string `json:"game"`
	// Sizes are the fewest and the most seats of the game's table
	// (adapter.Game.SeatRange).
	Sizes [2]int `json:"sizes"`
	// Rounds the cup plays; 0 is DefaultRounds.
	Rounds int `json:"rounds"`
	// Seed is the cup's committed seed: the first round's order, seat
	// orders, the search and the lot are drawn from it.
	Seed uint64 `json:"seed"`
	// Robots is the level of the robots that fill tables, opaque here.
	Robots string `json:"robots,omitempty"`
}

// Person is an entrant.
type Person struct {
	ID   string `json:"id"` // unique in the cup, not empty ("u<user id>" at the runtime)
	Name string `json:"name"`
}

// Entrant is a person of the cup and whether they left it.
type Entrant struct {
	Person
	// Left is set once the person left the cup: never paired again,
	// placed by their points so far.
	Left bool `json:"left,omitempty"`
	// LeftAfter is how many rounds had been paired when they left.
	LeftAfter int `json:"left_after,omitempty"`
}

// Round is one round: its tables, all played at once, and its bye.
type Round struct {
	No     int     `json:"no"` // 1-based
	Tables []Table `json:"tables"`
	// Bye is the person who sits this round out, with ByePoints; "" when
	// everyone plays.
	Bye string `json:"bye,omitempty"`
}

// Table is one table of a round.
type Table struct {
	// Seats in seat order: a person's id, or Robot.
	Seats []string `json:"seats"`
	// Places are the result in seat order; nil until recorded.
	Places []Place `json:"places,omitempty"`
}

// Place is one seat's result at a table.
type Place struct {
	Place int `json:"place"` // 1 = best; equal places are shared (1, 2, 2, 4)
	Score int `json:"score"` // the game's score, higher is better
}

// Cup is a cup's whole state: plain data, stored as JSON. Build one with
// New; read a stored one with json.Unmarshal (or Decode), which refuses an
// unknown version or an inconsistent state.
type Cup struct {
	Version int       `json:"v"`
	Config  Config    `json:"config"`
	People  []Entrant `json:"people"`
	Played  []Round   `json:"played,omitempty"`
}

// New starts a cup of people (in any order: the first round's order is the
// seed's lot). No round is paired yet: call Pair.
func New(cfg Config, people []Person) (*Cup, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Rounds == 0 {
		cfg.Rounds = DefaultRounds
	}
	c := &Cup{Version: Version, Config: cfg}
	for _, p := range people {
		c.People = append(c.People, Entrant{Person: p})
	}
	if err := c.checkPeople(); err != nil {
		return nil, err
	}
	return c, nil
}

func (cfg Config) check() error {
	lo, hi := cfg.Sizes[0], cfg.Sizes[1]
	switch {
	case lo < 2 || hi < lo:
		return fmt.Errorf("%w: table sizes %d–%d", ErrConfig, lo, hi)
	case lo > MaxSeats:
		return fmt.Errorf("%w: tables of at least %d seats", ErrConfig, lo)
	case cfg.Rounds < 0 || cfg.Rounds > MaxRounds:
		return fmt.Errorf("%w: %d rounds (1–%d)", ErrConfig, cfg.Rounds, MaxRounds)
	}
	return nil
}

func (c *Cup) checkPeople() error {
	if n := len(c.People); n < MinPeople || n > MaxPeople {
		return fmt.Errorf("%w: %d people (%d–%d)", ErrPeople, n, MinPeople, MaxPeople)
	}
	seen := make(map[string]bool, len(c.People))
	for _, p := range c.People {
		if p.ID == Robot {
			return fmt.Errorf("%w: an empty id", ErrPeople)
		}
		if seen[p.ID] {
			return fmt.Errorf("%w: %s twice", ErrPeople, p.ID)
		}
		seen[p.ID] = true
	}
	return nil
}

// Rounds is how many rounds the cup plays.
func (c *Cup) Rounds() int { return c.Config.Rounds }

// Current is the last round paired; false before the first.
func (c *Cup) Current() (Round, bool) {
	if len(c.Played) == 0 {
		return Round{}, false
	}
	return c.Played[len(c.Played)-1].clone(), true
}

// Done reports whether the cup is over: every table of the last round
// recorded, and either every round played or fewer than two people left
// to play.
func (c *Cup) Done() bool {
	if r := c.last(); r != nil && !r.recorded() {
		return false
	}
	return len(c.Played) >= c.Config.Rounds || c.active() < 2
}

// Record records a table's result: places in seat order (rounds and tables
// numbered from 1, as players read them). Recording the same result again
// is a no-op, so a retry after a crash is safe; a different one is refused.
func (c *Cup) Record(round, table int, places []Place) error {
	if round < 1 || round > len(c.Played) || table < 1 || table > len(c.Played[round-1].Tables) {
		return fmt.Errorf("%w: round %d, table %d", ErrNoTable, round, table)
	}
	t := &c.Played[round-1].Tables[table-1]
	if err := checkPlaces(places, len(t.Seats)); err != nil {
		return err
	}
	if t.Places != nil {
		if slices.Equal(t.Places, places) {
			return nil
		}
		return fmt.Errorf("%w: round %d, table %d", ErrRecorded, round, table)
	}
	t.Places = slices.Clone(places)
	return nil
}

// checkPlaces accepts n places ranked as standings rank them: each place is
// one more than the number of seats placed strictly better (1, 2, 2, 4).
func checkPlaces(places []Place, n int) error {
	if len(places) != n {
		return fmt.Errorf("%w: %d places for %d seats", ErrResult, len(places), n)
	}
	for _, p := range places {
		better := 0
		for _, o := range places {
			if o.Place < p.Place {
				better++
			}
		}
		if p.Place != better+1 {
			return fmt.Errorf("%w: places %v", ErrResult, places)
		}
	}
	return nil
}

// Leave takes a person out of the cup: never paired again, placed by the
// points they have. A table they sit at now is theirs to the end: the
// runtime has a robot finish it for them, and the place the game gives
// them (last, for a leaver) counts.
func (c *Cup) Leave(person string) error {
	if c.Done() {
		return ErrDone
	}
	i := c.index(person)
	if i < 0 {
		return fmt.Errorf("%w: %s", ErrUnknownPerson, person)
	}
	if c.People[i].Left {
		return fmt.Errorf("%w: %s", ErrLeft, person)
	}
	c.People[i].Left, c.People[i].LeftAfter = true, len(c.Played)
	return nil
}

func (c *Cup) index(person string) int {
	return slices.IndexFunc(c.People, func(e Entrant) bool { return e.ID == person })
}

// active counts the people still in the cup.
func (c *Cup) active() int {
	n := 0
	for _, p := range c.People {
		if !p.Left {
			n++
		}
	}
	return n
}

func (c *Cup) last() *Round {
	if len(c.Played) == 0 {
		return nil
	}
	return &c.Played[len(c.Played)-1]
}

func (r *Round) recorded() bool {
	for _, t := range r.Tables {
		if t.Places == nil {
			return false
		}
	}
	return true
}

func (r Round) clone() Round {
	out := r
	out.Tables = make([]Table, len(r.Tables))
	for i, t := range r.Tables {
		out.Tables[i] = Table{Seats: slices.Clone(t.Seats), Places: slices.Clone(t.Places)}
	}
	return out
}

// Decode reads a stored cup (json.Unmarshal does the same).
func Decode(b []byte) (*Cup, error) {
	c := new(Cup)
	if err := json.Unmarshal(b, c); err != nil {
		return nil, err
	}
	return c, nil
}

// UnmarshalJSON refuses a version other than Version before reading
// anything else, and a state that breaks the cup's invariants, so an
// unreadable cup is never played on.
func (c *Cup) UnmarshalJSON(b []byte) error {
	var v struct {
		Version int `json:"v"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Version != Version {
		return fmt.Errorf("%w %d (this code reads %d)", ErrVersion, v.Version, Version)
	}
	type plain Cup // without this method
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	read := Cup(p)
	if err := read.check(); err != nil {
		return err
	}
	*c = read
	return nil
}

// check is what a stored cup must satisfy to be played on.
func (c *Cup) check() error {
	if err := c.Config.check(); err != nil {
		return err
	}
	if c.Config.Rounds < 1 {
		return fmt.Errorf("%w: %d rounds", ErrState, c.Config.Rounds)
	}
	if err := c.checkPeople(); err != nil {
		return err
	}
	if len(c.Played) > c.Config.Rounds {
		return fmt.Errorf("%w: %d rounds played of %d", ErrState, len(c.Played), c.Config.Rounds)
	}
	for i, r := range c.Played {
		if r.No != i+1 {
			return fmt.Errorf("%w: round %d numbered %d", ErrState, i+1, r.No)
		}
		if i < len(c.Played)-1 && !r.recorded() {
			return fmt.Errorf("%w: round %d unfinished before round %d", ErrState, r.No, r.No+1)
		}
		seated := map[string]bool{}
		if r.Bye != "" {
			if c.index(r.Bye) < 0 {
				return fmt.Errorf("%w: round %d: bye %s not in the cup", ErrState, r.No, r.Bye)
			}
			seated[r.Bye] = true
		}
		if len(r.Tables) == 0 {
			return fmt.Errorf("%w: round %d has no tables", ErrState, r.No)
		}
		for _, t := range r.Tables {
			if len(t.Seats) < 2 || len(t.Seats) > MaxSeats {
				return fmt.Errorf("%w: round %d: a table of %d seats", ErrState, r.No, len(t.Seats))
			}
			for _, s := range t.Seats {
				if s == Robot {
					continue
				}
				if c.index(s) < 0 || seated[s] {
					return fmt.Errorf("%w: round %d: seat %s", ErrState, r.No, s)
				}
				seated[s] = true
			}
			if t.Places != nil {
				if err := checkPlaces(t.Places, len(t.Seats)); err != nil {
					return fmt.Errorf("%w: round %d: %w", ErrState, r.No, err)
				}
			}
		}
	}
	return nil
}
