// Package callback is the data an inline button carries back to the bot:
// one op, the table, the game number and the op's arguments, in at most 64
// ASCII bytes. The runtime makes and parses all of it; a game's adapter
// makes its buttons through adapter.ActionButton and its kin.
package callback

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/record"
)

// Data is what an inline button sends back. It is ASCII and
// at most 64 bytes (Telegram's limit): an op, the table, the game number
// and op-specific integers, separated by ':'.
//
//	a:<table>:<game>:<seat>:<nonce>:<action>   play an engine action
//	m:<table>:<game>:<seat>:<nonce>:<mod>      choose a modifier for the next action (coins)
//	i:<table>:<game>:<seat>                    show my private info (won cards)
//	b:<table>:<game>:<seat>                    I'm back: stop playing for me
//	x:<table>:<game>:<seat>:<step>             leave the game (ask 1, yes 2, no 0)
//	h:<table>:<game>:<seat>:<nonce>            a hint for my move (bot/hint.go)
//	t:<table>:<game>:<seat>                    no more first-game tips (bot/tips.go)
//	l:<table>:<game>:<op>[:<arg>]              lobby buttons
//	k:<table>:<game>:<game id>                 choose (or switch) the lobby's game
//	o:<table>:0:<game id>                      open a lobby of this game (/help, the /newgame picker)
//	g:<table>:0:<language>                     set the group's language (/lang)
//	r:<table>:0:<game id>:<page>               turn a page of the rules
//	s:<table>:<game>:<yes 1 | no 0>            confirm /stop
//	n:<table>:<game>:<game id>                 play again after finished game <game>
//	f:<user>:<asked at, Unix s>:<yes 1 | no 0> confirm /forgetme (in private)
//
// Games are named by their stable id, never by a position in a list, so a
// button keeps its meaning when games are added or reordered.
type Data struct {
	Op     byte
	Table  string
	GameNo int
	Word   string // the game id of 'k', 'r', 'n' and 'o'; the language of 'g'
	Args   []int
}

// MaxBytes is Telegram's limit on a button's callback data; every
// button a game makes must fit.
const MaxBytes = 64

// argCount is how many integers each op carries after the game number.
func argCount(op byte) (min, max int, ok bool) {
	switch op {
	case 'a', 'm':
		return 3, 3, true
	case 'i', 's', 'b', 't':
		return 1, 1, true
	case 'l':
		return 1, 2, true
	case 'x', 'h':
		return 2, 2, true
	case 'k', 'n', 'o', 'g':
		return 0, 0, true
	case 'f':
		return 1, 1, true
	case 'r':
		return 1, 1, true
	}
	return 0, 0, false
}

// hasWord reports whether an op carries a game id before its integers.
func hasWord(op byte) bool { return strings.IndexByte("krnog", op) >= 0 }

// validWord accepts a game id or a language code: 1–16 lowercase ASCII
// letters and digits.
func validWord(w string) bool {
	if len(w) == 0 || len(w) > 16 {
		return false
	}
	for _, c := range w {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// String is the callback data as sent; Parse reads it back.
func (p Data) String() string {
	var b strings.Builder
	b.WriteByte(p.Op)
	b.WriteByte(':')
	b.WriteString(p.Table)
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(p.GameNo))
	if hasWord(p.Op) {
		b.WriteByte(':')
		b.WriteString(p.Word)
	}
	for _, a := range p.Args {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(a))
	}
	return b.String()
}

// Parse accepts exactly what String produces; anything else is an
// error, so a forged or truncated payload never reaches a table.
func Parse(s string) (Data, error) {
	var p Data
	if len(s) == 0 || len(s) > MaxBytes {
		return p, fmt.Errorf("payload length %d", len(s))
	}
	parts := strings.Split(s, ":")
	if len(parts) < 3 || len(parts[0]) != 1 {
		return p, fmt.Errorf("malformed payload %q", s)
	}
	p.Op = parts[0][0]
	lo, hi, ok := argCount(p.Op)
	if !ok {
		return p, fmt.Errorf("unknown op %q", s)
	}
	if _, _, err := record.ParseID(parts[1]); err != nil {
		return p, err
	}
	p.Table = parts[1]
	g, err := strconv.Atoi(parts[2])
	if err != nil || g < 0 || strconv.Itoa(g) != parts[2] {
		return p, fmt.Errorf("bad game number in %q", s)
	}
	p.GameNo = g
	args := parts[3:]
	if hasWord(p.Op) {
		if len(args) == 0 || !validWord(args[0]) {
			return p, fmt.Errorf("bad game id in %q", s)
		}
		p.Word, args = args[0], args[1:]
	}
	if len(args) < lo || len(args) > hi {
		return p, fmt.Errorf("wrong argument count in %q", s)
	}
	for _, a := range args {
		v, err := strconv.Atoi(a)
		if err != nil || strconv.Itoa(v) != a {
			return p, fmt.Errorf("bad argument in %q", s)
		}
		p.Args = append(p.Args, v)
	}
	return p, nil
}
