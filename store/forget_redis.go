package store

import (
	"context"
	"fmt"
)

// ForgetUser deletes everything the store keeps of a person (see
// forget.go). Each step is idempotent, so a call that failed halfway is
// finished by the next.
func (r *Redis) ForgetUser(ctx context.Context, user int64) error {
	if user <= 0 {
		return fmt.Errorf("store: forget user %d: not a person", user)
	}
	if err := r.Forget(ctx, UserPlayer(user)); err != nil {
		return err
	}
	if err := r.forgetKeptGames(ctx, user); err != nil {
		return fmt.Errorf("store: forget user %d: kept games: %w", user, err)
	}
	chat := privateChat(user)
	// The private chat's table goes, but not its outbox: what is queued
	// there is on its way to the person (the answer to /forgetme among
	// it), and the outbox's ids must not start over while a delivery may
	// still hold entries of the old sequence.
	if err := r.c.Del(ctx, r.recKey(chat), r.updKey(chat), r.dirtyKey(chat), r.msgKey(chat)).Err(); err != nil {
		return fmt.Errorf("store: forget user %d: %w", user, err)
	}
	if err := r.unqueue(ctx, Timers, chat); err != nil {
		return fmt.Errorf("store: forget user %d: %w", user, err)
	}
	if err := r.unqueue(ctx, Inboxes, chat); err != nil {
		return fmt.Errorf("store: forget user %d: %w", user, err)
	}
	games, err := r.c.SMembers(ctx, r.resGamesKey(user)).Result()
	if err != nil {
		return fmt.Errorf("store: forget user %d: %w", user, err)
	}
	// Every key below is in the private chat's slot or a pointer's own:
	// one DEL each (a Cluster refuses one over several slots).
	keys := append([]string{r.inboxKey(chat), r.deadKey(chat), r.deadEntriesKey(chat)}, r.resGroupKeys(user, games)...)
	for _, k := range userPointers(user) {
		keys = append(keys, r.pointerKey(k))
	}
	pipe := r.c.Pipeline()
	for _, k := range keys {
		pipe.Del(ctx, k)
	}
	pipe.ZRem(ctx, r.deadIndexKey(), chat)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("store: forget user %d: %w", user, err)
	}
	return nil
}
