package store

import "time"

// Attempts count the tries of a piece of work in the store, before the work
// runs, so a process that dies while trying has tried (the count survives
// it), and every replica counts with the others: the runtime's one retry
// policy (bot/internal/retry) gives up after so many, wherever they ran.
//
// A count is kept under a key for one item at a time: Attempt(key, item)
// counts on while the key last counted the same item and starts again at 1
// for another, so a chat's inbox keeps one count (its first waiting
// update's) and needs no cleaning after each success. A count is forgotten
// ttl after its last attempt.
//
// Attempt(ctx, key, item, ttl) (n int, err error): the attempt's number.
// ForgetAttempts(ctx, key) error: the count is dropped.

// attemptTTL is the shortest time a count is kept: below a millisecond,
// Redis could not say it.
const attemptTTL = time.Millisecond
