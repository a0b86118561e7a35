package bot

import (
	"errors"

	"github.com/trickchef/trickchef/bot/adapter"
)

// pressAnswer is what a press comes to, sorted by judgePress once for every
// front end that answers presses: the chat's toast and the «Стол» page's
// reply say the same thing for the same outcome.
type pressAnswer struct {
	// text is what the presser is told: the change's answer, the reason
	// it was refused, or nothing.
	text string
	// refusal is why nothing changed (errOpenChat among them); nil when
	// the press was applied.
	refusal *refusal
	// busy reports a press given up because the table stayed too busy.
	busy bool
}

// judgePress is the one refusal policy: what the presser is told when a
// press's change (or check) returned err. A press applied now says the
// change's answer (ch is read only then); one applied before (a
// redelivered update, a retried request) or with nothing to do says
// nothing; a refusal says its reason; a table that stayed too busy says so.
// Any other error is nobody's answer: ok is false, and the caller returns
// the error so the update is delivered again and answered then.
func judgePress(l adapter.Loc, ch *change, err error) (a pressAnswer, ok bool) {
	var r *refusal
	switch {
	case err == nil:
		return pressAnswer{text: ch.answer}, true
	case errors.Is(err, errDuplicate), errors.Is(err, errNoChange):
		return pressAnswer{}, true
	case errors.As(err, &r):
		return pressAnswer{text: r.text(l), refusal: r}, true
	case errors.Is(err, errBusy):
		return pressAnswer{text: l.T("error.busy"), busy: true}, true
	}
	return pressAnswer{}, false
}

// refused reports whether the press was refused with the reason key.
func (a pressAnswer) refused(key string) bool { return a.refusal != nil && a.refusal.key == key }

// settle turns the outcome of an update into the handler's error: bad
// input was answered, a duplicate was applied before; only real failures
// (worth a redelivery) remain. It is judgePress for an update nobody waits
// to be told about (a command, a /start, a background change): with no
// toast to say «busy», a table that stayed too busy is retried instead.
func (b *Bot) settle(err error) error {
	var r *refusal
	if err == nil || errors.Is(err, errDuplicate) || errors.Is(err, errNoChange) || errors.As(err, &r) {
		return nil
	}
	return err
}

// refusal is a bad input answered with a localized message and no change.
type refusal struct {
	key  string
	args []any
	// rendered, when set, is the text itself (a game's detailed reason).
	rendered string
}

func (r *refusal) Error() string { return "refused: " + r.key }

// text renders the refusal in a language.
func (r *refusal) text(l adapter.Loc) string {
	if r.rendered != "" {
		return r.rendered
	}
	return l.T(r.key, r.args...)
}

func refuse(key string, args ...any) error { return &refusal{key: key, args: args} }

// errDuplicate reports an update that was already applied.
var errDuplicate = errors.New("update already applied")

// errBusy reports a change given up after maxCommitAttempts conflicts.
var errBusy = errors.New("table too busy")

// RefusalKey is the catalog key of the reason a press or a command was
// refused ("error.stale", …), and whether err is such a refusal.
func RefusalKey(err error) (string, bool) {
	var r *refusal
	if errors.As(err, &r) {
		return r.key, true
	}
	return "", false
}

// errNoChange aborts a mutation that turned out to change nothing.
var errNoChange = errors.New("no change")
