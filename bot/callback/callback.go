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

// Op is what a button does: its first byte on the wire. Every op is named
// here, once, with what it carries (ops); nothing else spells the byte.
type Op byte

// The ops. Their bytes are on the wire of every button ever sent, so an
// op's byte never changes and is never reused for another meaning.
const (
	Action  Op = 'a' // a:<table>:<game>:<seat>:<nonce>:<action>   play an engine action
	Draft   Op = 'm' // m:<table>:<game>:<seat>:<nonce>:<value>    one press of a multi-press choice (coins)
	Info    Op = 'i' // i:<table>:<game>:<seat>                    show my private info (won cards)
	Back    Op = 'b' // b:<table>:<game>:<seat>                    I'm back: stop playing for me
	Leave   Op = 'x' // x:<table>:<game>:<seat>:<step>             leave the game (ask 1, yes 2, no 0)
	Hint    Op = 'h' // h:<table>:<game>:<seat>:<nonce>            a hint for my move
	TipsOff Op = 't' // t:<table>:<game>:<seat>                    no more first-game tips
	Lobby   Op = 'l' // l:<table>:<game>:<op>[:<arg>]              a lobby button (LobbyJoin …)
	Choose  Op = 'k' // k:<table>:<game>:<game id>                 choose (or switch) the lobby's game
	Open    Op = 'o' // o:<table>:0:<game id>                      open a lobby of this game (/help, pickers)
	Lang    Op = 'g' // g:<table>:0:<language>                     set the group's language (/lang)
	Rules   Op = 'r' // r:<table>:0:<game id>:<page>               turn a page of the rules
	Stop    Op = 's' // s:<table>:<game>:<yes 1 | no 0 | ask 2>    confirm /stop (ask: which of a chat's two games)
	Again   Op = 'n' // n:<table>:<game>:<game id>                 play again after finished game <game>
	Forget  Op = 'f' // f:<user>:<asked at, Unix s>:<yes 1 | no 0> confirm /forgetme (in private)
	Review  Op = 'v' // v:<table>:<game>:<dealt at, Unix s>         the top robot's review of my game (record.RefOf)
	Cup     Op = 'c' // c:<host>:<cup>:<op>                        a cup's button (bot/cups: join, start, leave the cup …)
	MyHand  Op = 'e' // e:<table>:<game>                           «🖐 Мои карты»: my hand in the group, seen by me only
)

// shape is what an op carries after the game number: a word (a game id or a
// language) or not, and how many integers.
type shape struct {
	word     bool
	min, max int
}

// shape is the one table of the ops and what each carries; ok is false
// for a byte that is no op.
func (op Op) shape() (s shape, ok bool) {
	switch op {
	case Action, Draft:
		return shape{min: 3, max: 3}, true
	case Info, Back, TipsOff, Stop, Forget, Review, Cup:
		return shape{min: 1, max: 1}, true
	case Leave, Hint:
		return shape{min: 2, max: 2}, true
	case Lobby:
		return shape{min: 1, max: 2}, true
	case Choose, Open, Lang, Again:
		return shape{word: true}, true
	case MyHand:
		return shape{}, true
	case Rules:
		return shape{word: true, min: 1, max: 1}, true
	}
	return shape{}, false
}

// The lobby's buttons: the first integer of a Lobby op.
const (
	LobbyJoin = iota + 1
	LobbyLeave
	LobbyAddAI
	LobbyStart
	LobbyCancel
	LobbyOption // cycle option Args[1] of the game's options
	_           // was: choose the game by index (now the Choose op)
	LobbyKick   // remove the last robot
	LobbyLevel  // cycle the level of the next robot
	LobbyTurn   // cycle the time for a move
	LobbyHints  // turn hints on or off
	LobbyZone   // show the time zones (no Args[1]) or choose zone Args[1] (record.Zones)
)

// The answers of a Stop button (its integer).
const (
	StopNo  = 0 // keep playing
	StopYes = 1 // stop the game
	StopAsk = 2 // of the chat's two games, this one: ask to confirm
)

// The steps of a Leave button (its second integer).
const (
	LeaveNo  = 0 // keep playing
	LeaveAsk = 1 // «Выйти из игры»: ask to confirm
	LeaveYes = 2 // confirmed
)

// Ops lists every op, for tests that cover each.
func Ops() []Op {
	var out []Op
	for b := range 256 {
		if _, ok := Op(b).shape(); ok {
			out = append(out, Op(b))
		}
	}
	return out
}

// Data is what an inline button sends back. It is ASCII and at most 64
// bytes (Telegram's limit): an op, the table, the game number and
// op-specific integers, separated by ':' (the wire of each op is beside its
// constant above).
//
// Games are named by their stable id, never by a position in a list, so a
// button keeps its meaning when games are added or reordered.
type Data struct {
	Op     Op
	Table  string
	GameNo int
	Word   string // the game id of Choose, Rules, Again and Open; the language of Lang
	Args   []int
}

// MaxBytes is Telegram's limit on a button's callback data; every
// button a game makes must fit.
const MaxBytes = 64

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
	b.WriteByte(byte(p.Op))
	b.WriteByte(':')
	b.WriteString(p.Table)
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(p.GameNo))
	if sh, _ := p.Op.shape(); sh.word {
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
	p.Op = Op(parts[0][0])
	sh, ok := p.Op.shape()
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
	if sh.word {
		if len(args) == 0 || !validWord(args[0]) {
			return p, fmt.Errorf("bad game id in %q", s)
		}
		p.Word, args = args[0], args[1:]
	}
	if len(args) < sh.min || len(args) > sh.max {
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
