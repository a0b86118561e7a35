package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/trickchef/trickchef/game"
)

// MoveLog is every action a game applied, in order. It is the longest part
// of a table record (a Чехарда game makes hundreds of moves) and is decoded
// on every update, so it is stored as one compact string — "0:13 2:12
// -1:85!" (seat:action, "!" when the bot made the move) — rather than an
// array of objects, which cost most of a table's decoding time. Records
// written before hold the array form; UnmarshalJSON reads both.
type MoveLog []Move

// MarshalJSON writes the compact form.
func (l MoveLog) MarshalJSON() ([]byte, error) {
	buf := make([]byte, 0, 2+len(l)*7)
	buf = append(buf, '"')
	for i, m := range l {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = strconv.AppendInt(buf, int64(m.Seat), 10)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(m.Action), 10)
		if m.Auto {
			buf = append(buf, '!')
		}
	}
	return append(buf, '"'), nil
}

// UnmarshalJSON reads the compact form, or the array of objects records
// had before it.
func (l *MoveLog) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '[' {
		var moves []Move
		if err := json.Unmarshal(data, &moves); err != nil {
			return err
		}
		*l = moves
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("move log: %w", err)
	}
	moves, err := parseMoveLog(s)
	if err != nil {
		return err
	}
	*l = moves
	return nil
}

var errMoveLog = errors.New("move log: malformed")

// parseMoveLog reads the compact form written by MarshalJSON.
func parseMoveLog(s string) (MoveLog, error) {
	if s == "" {
		return nil, nil
	}
	n := 1
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			n++
		}
	}
	moves := make(MoveLog, 0, n)
	for len(s) > 0 {
		var m Move
		var ok bool
		var seat, action int
		if seat, s, ok = cutInt(s, ':'); !ok {
			return nil, errMoveLog
		}
		end := 0
		for end < len(s) && s[end] != ' ' {
			end++
		}
		field := s[:end]
		if len(field) > 0 && field[len(field)-1] == '!' {
			m.Auto = true
			field = field[:len(field)-1]
		}
		if action, _, ok = cutInt(field, 0); !ok {
			return nil, errMoveLog
		}
		m.Seat, m.Action = game.Seat(seat), game.Action(action)
		moves = append(moves, m)
		if end < len(s) {
			end++ // the separating space
			if end == len(s) {
				return nil, errMoveLog // a trailing space
			}
		}
		s = s[end:]
	}
	return moves, nil
}

// cutInt reads a decimal integer up to sep (or to the end when sep is 0)
// and returns it with the rest after sep.
func cutInt(s string, sep byte) (int, string, bool) {
	end := len(s)
	if sep != 0 {
		end = -1
		for i := 0; i < len(s); i++ {
			if s[i] == sep {
				end = i
				break
			}
		}
		if end < 0 {
			return 0, "", false
		}
	}
	v, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0, "", false
	}
	if sep != 0 {
		end++
	}
	return v, s[end:], true
}
