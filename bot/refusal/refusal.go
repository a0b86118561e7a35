// Package refusal is how the runtime says no: a bad input answered with a
// localized reason and no change, and the one policy that turns the
// outcome of a press into what the presser is told — the chat's toast and
// the «Стол» page's reply say the same thing for the same outcome.
package refusal

import (
	"errors"

	"github.com/trickchef/trickchef/bot/adapter"
)

// Refusal is a bad input answered with a localized message and no change.
type Refusal struct {
	// Key is the catalog key of the reason («error.stale», …), Args its
	// arguments.
	Key  string
	Args []any
	// Rendered, when set, is the text itself (a game's detailed reason).
	Rendered string
}

func (r *Refusal) Error() string { return "refused: " + r.Key }

// Text renders the refusal in a language.
func (r *Refusal) Text(l adapter.Loc) string {
	if r.Rendered != "" {
		return r.Rendered
	}
	return l.T(r.Key, r.Args...)
}

// New refuses with the catalog's reason key.
func New(key string, args ...any) error { return &Refusal{Key: key, Args: args} }

// Rendered refuses with a text the game wrote itself.
func Rendered(text string) error { return &Refusal{Rendered: text} }

// Key is the catalog key of the reason err refuses with, and whether err
// is a refusal at all.
func Key(err error) (string, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Key, true
	}
	return "", false
}

var (
	// ErrDuplicate reports an update that was already applied.
	ErrDuplicate = errors.New("update already applied")
	// ErrBusy reports a change given up after too many lost races.
	ErrBusy = errors.New("table too busy")
	// ErrNoChange aborts a change that turned out to change nothing.
	ErrNoChange = errors.New("no change")
)

// Answer is what a press comes to, sorted by Judge.
type Answer struct {
	// Text is what the presser is told: the change's answer, the reason it
	// was refused, or nothing.
	Text string
	// Refusal is why nothing changed; nil when the press was applied.
	Refusal *Refusal
	// Busy reports a press given up because the table stayed too busy.
	Busy bool
}

// Refused reports whether the press was refused with the reason key.
func (a Answer) Refused(key string) bool { return a.Refusal != nil && a.Refusal.Key == key }

// Judge is the one refusal policy: what the presser is told when a press's
// change returned err, answer being the change's own answer (read only
// when err is nil). A press applied before (a redelivered update, a
// retried request) or with nothing to do says nothing; a refusal says its
// reason; a table that stayed too busy says so. Any other error is
// nobody's answer: ok is false, and the caller returns the error so the
// update is delivered again and answered then.
func Judge(l adapter.Loc, answer string, err error) (a Answer, ok bool) {
	var r *Refusal
	switch {
	case err == nil:
		return Answer{Text: answer}, true
	case errors.Is(err, ErrDuplicate), errors.Is(err, ErrNoChange):
		return Answer{}, true
	case errors.As(err, &r):
		return Answer{Text: r.Text(l), Refusal: r}, true
	case errors.Is(err, ErrBusy):
		return Answer{Text: l.T("error.busy"), Busy: true}, true
	}
	return Answer{}, false
}

// Settle turns the outcome of an update nobody waits to be told about (a
// command, a /start, a background change) into the handler's error: bad
// input was answered, a duplicate was applied before; only real failures
// (worth a redelivery) remain. With no toast to say «busy», a table that
// stayed too busy is retried.
func Settle(err error) error {
	var r *Refusal
	if err == nil || errors.Is(err, ErrDuplicate) || errors.Is(err, ErrNoChange) || errors.As(err, &r) {
		return nil
	}
	return err
}
