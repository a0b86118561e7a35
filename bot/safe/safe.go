// Package safe is the one recover of the runtime: every goroutine the bot
// starts, and every call whose panic must not end the work around it (a
// unit of work, the recovery of its panic), runs under it. A panic is
// logged once with its stack, counted (trickchef_panics_total) and ends
// there: nothing a bug or a recovery does takes the process — and so, in
// turn, every replica that claims the same work — down. Reporting itself
// cannot panic.
package safe

import (
	"fmt"
	"runtime/debug"

	"github.com/rs/zerolog"
)

// Go runs fn in a new goroutine under Recover.
func Go(log zerolog.Logger, count func(), what string, fn func()) {
	go func() {
		defer Recover(log, count, what)
		fn()
	}()
}

// Recover, deferred, ends a panic of the goroutine or function it is
// deferred in: logged with its stack under what, counted by count (nil:
// not counted).
func Recover(log zerolog.Logger, count func(), what string) {
	if v := recover(); v != nil {
		report(log, count, what, v)
	}
}

// Call runs fn and returns the value it panicked with (nil when it did
// not), logged and counted as Recover does.
func Call(log zerolog.Logger, count func(), what string, fn func()) (panicked any) {
	defer func() {
		if v := recover(); v != nil {
			panicked = v
			report(log, count, what, v)
		}
	}()
	fn()
	return nil
}

// report logs and counts a recovered panic; a panic of its own (a counter
// that panics) is dropped.
func report(log zerolog.Logger, count func(), what string, v any) {
	defer func() { _ = recover() }()
	log.Error().Str("in", what).Str("panic", fmt.Sprint(v)).Str("stack", string(debug.Stack())).Msg("panic recovered")
	if count != nil {
		count()
	}
}
