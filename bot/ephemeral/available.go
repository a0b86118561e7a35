package ephemeral

import (
	"errors"
	"sync/atomic"

	"github.com/rs/zerolog"
)

// Available remembers whether the Bot API server knows ephemeral messages. It starts yes;
// the first call a server answers as one older than 10.2 would (ErrUnsupported) turns it off
// for the life of the process, logged once: the bot then stops offering the hand in the
// group there, and every game goes on in private. Each replica learns it on its own first
// try. The zero value is available; a nil *Available is never available.
type Available struct {
	off, asked atomic.Bool
	log        zerolog.Logger
}

// Asked reports whether the server was asked (Probe) before a first send:
// a server that predates ephemeral messages would post one for everyone.
func (a *Available) Asked() bool { return a != nil && a.asked.Load() }

// Answered records the server's answer to Probe: err nil, it knows them.
func (a *Available) Answered(err error) {
	if err == nil {
		a.asked.Store(true)
		return
	}
	if a.Learn(err) {
		a.asked.Store(true)
	}
}

// NewAvailable is an Available that logs through log.
func NewAvailable(log zerolog.Logger) *Available { return &Available{log: log} }

// On reports whether the hand in the group may be offered.
func (a *Available) On() bool { return a != nil && !a.off.Load() }

// Learn looks at a call's error: one saying the server does not know ephemeral messages
// turns them off (logged the first time). It reports whether err was that.
func (a *Available) Learn(err error) bool {
	if err == nil || !errors.Is(err, ErrUnsupported) {
		return false
	}
	if a != nil && a.off.CompareAndSwap(false, true) {
		a.log.Warn().Err(err).Msg("the Bot API server does not know ephemeral messages: hands stay in private chats")
	}
	return true
}
