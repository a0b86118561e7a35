package adapter

import (
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
