package adapter

import (
	"strings"
	"unicode"

	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/game"
)

// Rows breaks buttons into rows of at most n.
func Rows(bs []Button, n int) [][]Button {
	var out [][]Button
	for len(bs) > 0 {
		k := min(n, len(bs))
		out = append(out, bs[:k])
		bs = bs[k:]
	}
	return out
}

// ActionButton is a button that makes seat take action a. The platform
// refuses it as stale once the seat has acted (unless the game is a
// LiveGame) and judges it against the state when it arrives.
func ActionButton(v TableView, seat int, text string, a game.Action) Button {
	t := v.t
	return Button{Text: text, Data: callback.Data{Op: callback.Action, Table: t.ID, GameNo: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce, int(a)}}.String()}
}

// DraftButton is a button that adds value to seat's choice in progress:
// the platform calls DraftGame.Draft and keeps the result in Seat.Draft.
func DraftButton(v TableView, seat int, text string, value int) Button {
	t := v.t
	return Button{Text: text, Data: callback.Data{Op: callback.Draft, Table: t.ID, GameNo: t.GameNo, Args: []int{seat, t.Seats[seat].Nonce, value}}.String()}
}

// InfoButton shows seat's private information in an alert.
func InfoButton(v TableView, seat int, text string) Button {
	t := v.t
	return Button{Text: text, Data: callback.Data{Op: callback.Info, Table: t.ID, GameNo: t.GameNo, Args: []int{seat}}.String()}
}

// ButtonData is what a game button made by ActionButton, DraftButton or
// InfoButton carries back: its op (callback.Action, Draft or Info),
// the table, the game number, and the op's integers (seat, the seat's
// nonce when drawn, the action or draft value).
type ButtonData struct {
	Op     callback.Op
	Table  string
	GameNo int
	Args   []int
}

// ParseButton reads a button's callback data; an error means the platform
// refuses the press as a bad button.
func ParseButton(data string) (ButtonData, error) {
	p, err := callback.Parse(data)
	if err != nil {
		return ButtonData{}, err
	}
	return ButtonData{Op: p.Op, Table: p.Table, GameNo: p.GameNo, Args: p.Args}, nil
}

// MaxButtonUnits is the longest a button's text may be, counted as
// Telegram counts every length it checks: in UTF-16 code units (an emoji
// outside the Basic Multilingual Plane is two, 👨‍🍳 five). Longer, a row's
// text is cut on a phone and the button no longer says what it does.
const MaxButtonUnits = 32

// Units is the length of s as Telegram counts it: UTF-16 code units.
func Units(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// FitName makes a button's text that carries a person's name: text(name),
// and while that is longer than MaxButtonUnits, the name cut shorter and
// ended with "…" (one letter of it at the least). A name is up to 32
// characters (a Telegram name is up to 64+64), so a button that names one
// fits only by cutting it.
func FitName(name string, text func(name string) string) string {
	s := text(name)
	r := []rune(name)
	for n := len(r) - 1; Units(s) > MaxButtonUnits && n >= 1; n-- {
		cut := strings.TrimRightFunc(string(r[:n]), func(c rune) bool { return unicode.IsSpace(c) || c == '\u200d' || c == '\ufe0f' })
		s = text(cut + "…")
	}
	return s
}
