package deal

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"

	"github.com/trickchef/trickchef/bot/record"
)

// File is a finished game's deal and moves as the players get it after
// the game (a file <game>-<n>.json in private, and on the «Стол» page's
// replay): the commitment shown, the reveal, who sat where and what
// Telegram drew for their presses, the game's options and every move. With
// it cmd/aibench deal remakes every deal of the game (FileTable, Tell),
// naming the seats as the game did.
type File struct {
	Game       string         `json:"game"`
	GameNo     int            `json:"game_no"`
	Commitment string         `json:"commitment"`
	Reveal     string         `json:"reveal"`
	Seats      []FileSeat     `json:"seats"`
	Creator    int            `json:"creator"` // the creator's seat, -1: none
	Options    map[string]int `json:"options,omitempty"`
	Start      string         `json:"start,omitempty"` // the start press id (v2)
	Moves      record.MoveLog `json:"moves"`
}

// FileSeat is one seat of a File: its player's name (a person who left is
// named, not the robot that finished for them), whether a robot was dealt
// it, and the id Telegram drew for the press that seated the person (v2).
type FileSeat struct {
	Name  string `json:"name"`
	Robot bool   `json:"robot,omitempty"`
	Join  string `json:"join,omitempty"`
}

// FileOf is the file of the game t holds; ok is false for a game dealt
// before commitments (no reveal).
func FileOf(t *record.Table) (File, bool) {
	reveal := TableReveal(t)
	if reveal == "" {
		return File{}, false
	}
	in := InputsOf(t)
	f := File{Game: t.GameID, GameNo: t.GameNo, Commitment: Commitment(reveal), Reveal: reveal,
		Creator: in.Creator, Options: map[string]int{}, Moves: t.Log}
	for k, v := range t.Options {
		if v != 0 {
			f.Options[k] = v
		}
	}
	if len(f.Options) == 0 {
		f.Options = nil
	}
	if t.Secret != "" {
		f.Start = in.Start
	}
	for i, s := range t.Seats {
		fs := FileSeat{Name: s.Name, Robot: !s.Human()}
		if s.Leaver != nil {
			fs = FileSeat{Name: s.Leaver.Name}
		}
		if t.Secret != "" {
			fs.Join = in.Joins[i]
		}
		f.Seats = append(f.Seats, fs)
	}
	if f.Moves == nil {
		f.Moves = record.MoveLog{}
	}
	return f, true
}

// Name is the file's name: <game>-<game number>.json.
func (f File) Name() string { return f.Game + "-" + strconv.Itoa(f.GameNo) + ".json" }

// Encode is the file's bytes: indented JSON, one field a line.
func (f File) Encode() []byte {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		panic("deal: a file does not encode: " + err.Error()) // plain data: never
	}
	return append(data, '\n')
}

// ReadFile reads a file back.
func ReadFile(data []byte) (File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("deal: not a game's file: %w", err)
	}
	return f, nil
}

// ErrMismatch is a file whose reveal does not match its commitment or
// its game.
var ErrMismatch = errors.New("deal: the reveal does not match the file")

// Table is the table record from which the game's Start deals exactly
// what f's game dealt, its seats named as f names them, once the reveal
// checks: against the commitment (reveal, "" for f's own), and against
// the file's game (a v1 reveal holds the game too).
func (f File) Table(reveal string) (*record.Table, error) {
	if reveal == "" {
		reveal = f.Reveal
	}
	if f.Commitment != "" && !Check(reveal, f.Commitment) {
		return nil, fmt.Errorf("%w: SHA-256 of %q does not start with %s", ErrMismatch, reveal, f.Commitment)
	}
	var d Deal
	if _, v2 := SecretOf(reveal); v2 {
		in := Inputs{Game: f.Game, Seats: len(f.Seats), Creator: f.Creator, Options: f.Options, Start: f.Start}
		for _, s := range f.Seats {
			in.Joins = append(in.Joins, s.Join)
		}
		seeds, err := Derive(reveal, in)
		if err != nil {
			return nil, err
		}
		if f.Creator < -1 || f.Creator >= len(f.Seats) || !isID(f.Game) {
			return nil, ErrMismatch
		}
		d = Deal{Game: f.Game, Seats: len(f.Seats), Creator: f.Creator, Options: maps.Clone(f.Options), Seed: seeds.Deal}
		t := d.Table()
		t.RobotSeed = seeds.Robots
		nameSeats(t, f)
		return t, nil
	}
	d, err := Parse(reveal)
	if err != nil {
		return nil, err
	}
	if d.Game != f.Game || d.Seats != len(f.Seats) {
		return nil, fmt.Errorf("%w: a reveal of %s for %d seats", ErrMismatch, d.Game, d.Seats)
	}
	t := d.Table()
	nameSeats(t, f)
	return t, nil
}

func nameSeats(t *record.Table, f File) {
	for i := range t.Seats {
		if i < len(f.Seats) && f.Seats[i].Name != "" {
			t.Seats[i].Name = f.Seats[i].Name
		}
	}
}
