package store

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// ErrFull is in every error of a write Redis refused because it holds
// maxmemory: with the noeviction policy the bot requires, a full Redis
// refuses writes (OOM) rather than evicting a game. Nothing is lost — a
// refused write wrote nothing, and the runtime tries it again — and the
// bot goes on by itself once there is room (see docs/store.md, «Redis
// under maxmemory»); the error says so, for whoever reads the log.
var ErrFull = errors.New("Redis is full (maxmemory, noeviction): it refuses writes until it has room; " +
	"raise maxmemory or free memory — nothing is lost, refused writes are tried again")

// fullError is a write Redis refused as out of memory: ErrFull, with
// Redis's own words.
type fullError struct{ err error }

func (e fullError) Error() string   { return ErrFull.Error() + ": " + e.err.Error() }
func (e fullError) Unwrap() []error { return []error{ErrFull, e.err} }

// asFull turns Redis's OOM refusal into a fullError.
func asFull(err error) error {
	if err != nil && redis.HasErrorPrefix(err, "OOM") && !errors.Is(err, ErrFull) {
		return fullError{err}
	}
	return err
}

// fullHook makes every command and pipeline of a client say ErrFull when
// Redis refuses it for want of memory, so every store method (and every log
// line of a caller) does without a check of its own.
type fullHook struct{}

func (fullHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (fullHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := asFull(next(ctx, cmd))
		if err != nil {
			cmd.SetErr(asFull(cmd.Err()))
		}
		return err
	}
}

func (fullHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, cmd := range cmds {
			if e := cmd.Err(); e != nil {
				cmd.SetErr(asFull(e))
			}
		}
		return asFull(err)
	}
}
