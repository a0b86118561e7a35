package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Finished games and their reviews. After a game the bot keeps a copy of it
// under its lasting name (a GameRef, e.g. "-1001234:7:1795000000"), so a
// person may ask for its review long after the table moved on: a worker
// replays the kept copy and stores that person's review beside it, and a
// second ask is answered from the stored review. Each person has an index
// of the games they played, newest first, for /history.
//
// A game and its reviews live and die together: they are kept for
// GameRetention from the keep, and a review never outlives its game
// (SetReview refuses a game that is gone). Forgetting a person who played
// it takes their review and their place in its index; the game stays for
// the others, its copy rewritten by the runtime with the person's seat
// renamed (RewriteKeptGame), or dropped when no one else played it
// (DropKeptGame). The index is bounded (KeptPerPerson) and lists only games
// still kept.

// GameRetention is how long a finished game and its reviews are kept.
const GameRetention = 30 * 24 * time.Hour

// KeptPerPerson bounds the per-person index of kept games (newest kept).
const KeptPerPerson = 100

// checkRef rejects a game ref that cannot be a key: it is a token like a
// result id (printable ASCII, no spaces or braces, so the Redis hash tag
// holds), at most 200 bytes.
func checkRef(ref string) error { return checkToken("game ref", ref, 200) }

// checkPerson rejects a user id that is not a person's.
func checkPerson(what string, user int64) error {
	if user <= 0 {
		return fmt.Errorf("store: %s: user %d is not a person", what, user)
	}
	return nil
}

// ReviewRequest is the Reviews member asking for user's review of the
// kept game ref.
func ReviewRequest(ref string, user int64) string {
	return ref + "|" + strconv.FormatInt(user, 10)
}

// ParseReviewRequest is the game ref and person of a Reviews member.
func ParseReviewRequest(name string) (ref string, user int64, ok bool) {
	i := strings.LastIndexByte(name, '|')
	if i < 0 {
		return "", 0, false
	}
	u, err := strconv.ParseInt(name[i+1:], 10, 64)
	if err != nil || u <= 0 || checkRef(name[:i]) != nil {
		return "", 0, false
	}
	return name[:i], u, true
}
