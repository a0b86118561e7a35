package adapter

import (
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/trickchef/trickchef/game"
)

// What every adapter repeats lives here once, for a game to call: naming
// seats for a move's phrase, a share as a percentage, the plain lines of a
// Scene and who sits at it, a move's name from the engine's decoder, and a
// replay's scene.

// Namer names a seat in a move's phrase: PlainNamer for a toast (the
// platform escapes it), HTMLNamer for a hint or a review (catalog HTML).
type Namer func(game.Seat) string

// PlainNamer names the table's seats as plain text (SeatPlainName).
func PlainNamer(t TableView) Namer { return func(s game.Seat) string { return SeatPlainName(t, s) } }

// HTMLNamer names the table's seats HTML-escaped (SeatName).
func HTMLNamer(t TableView) Namer { return func(s game.Seat) string { return SeatName(t, s) } }

// Percent is a share (0..1) as a whole percentage, the way hints and
// reviews say a chance.
func Percent(x float64) int { return int(math.Round(100 * x)) }

// UpperFirst capitalises s's first letter: a sentence built from
// lower-case parts, or a month's name heading its lines («Ноябрь 2026»;
// Russian writes months in lower case mid-sentence).
func UpperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Plain renders key as plain text, for a Scene (PlainText of T).
func (l Loc) Plain(key string, args ...any) string { return PlainText(l.T(key, args...)) }

// AddLog adds catalog lines (HTML) to the scene's log as plain text.
func (sc *Scene) AddLog(lines ...string) {
	for _, line := range lines {
		sc.Log = append(sc.Log, PlainText(line))
	}
}

// Seated reports whether seat, as a Scene gets it, is one of the n seats
// at the table rather than a spectator's view.
func Seated(seat, n int) bool { return seat != Spectator && seat >= 0 && seat < n }

// OpenSeats adds cards(seat) to each seat of the scene: a replay's hands
// laid face up in front of their seats.
func (sc *Scene) OpenSeats(cards func(seat game.Seat) []Card) {
	for i := range sc.Seats {
		sc.Seats[i].Cards = append(sc.Seats[i].Cards, cards(game.Seat(i))...)
	}
}

// TurnCentre shows every face-down card in the scene's centre as c: a
// replay turning the pile's next card.
func (sc *Scene) TurnCentre(c Card) {
	for i := range sc.Center {
		for j, old := range sc.Center[i].Cards {
			if old.Back {
				sc.Center[i].Cards[j] = c
			}
		}
	}
}

// NameMove is MoveName's phrase of action a: name of the move decode reads
// from it, "" when decode does not read it (not the game's action).
func NameMove[M any](a game.Action, decode func(game.Action) (M, bool), name func(M) string) string {
	m, ok := decode(a)
	if !ok {
		return ""
	}
	return name(m)
}

// OpenScene is a replay's scene (ReplayGame): g's spectator scene of st,
// the cards hands gives each seat face up in front of it (nil: none, as
// everything in front of a seat is public already).
func OpenScene(g WebGame, l Loc, t TableView, st game.State, hands func(seat game.Seat) []Card) Scene {
	sc := g.Scene(l, t, st, Spectator)
	if hands != nil {
		sc.OpenSeats(hands)
	}
	return sc
}
