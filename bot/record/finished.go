package record

import (
	"strconv"
	"strings"
	"time"
)

// A finished game is kept apart from its table for a while (the store's
// KeepGame): the table's next game reuses the record, but a person may ask
// for the review of a game long after, from its private result or from
// /history, and the replay reads the same copy. The copy is the table's
// record trimmed to what the game was: its seats, options, seed and log
// (review.Replay deals it again and applies the log).

// GameRef names a game of a table for good: the table, the game's number
// and when it was dealt (a table that expired and was made anew counts its
// games from 1 again; the time tells its games apart). It carries no
// secret, so buttons and links may hold it; the seed stays in the record.
func GameRef(t *Table) string {
	return RefOf(t.ID, t.GameNo, t.Started)
}

// RefOf is GameRef from its parts: a table id, a game number and the time
// the game was dealt (whole seconds count).
func RefOf(table string, gameNo int, started time.Time) string {
	return table + ":" + strconv.Itoa(gameNo) + ":" + strconv.FormatInt(started.Unix(), 10)
}

// ParseRef is the table id, game number and deal time (to the second) of a
// GameRef.
func ParseRef(ref string) (table string, gameNo int, started time.Time, ok bool) {
	rest, sec, ok1 := cutLast(ref)
	table, no, ok2 := cutLast(rest)
	n, err1 := strconv.Atoi(no)
	s, err2 := strconv.ParseInt(sec, 10, 64)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || n < 1 || table == "" {
		return "", 0, time.Time{}, false
	}
	if _, _, err := ParseID(table); err != nil {
		return "", 0, time.Time{}, false
	}
	return table, n, time.Unix(s, 0), true
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// Finished is the game t holds, as kept once it is over: a copy with the
// game's own fields (seats, options, seed, log, language and when it was
// dealt) and none of the table's (timers, jobs, outbox marks, web token).
// The seats keep their names, as the game's messages named them.
func (t *Table) Finished() *Table {
	f := &Table{ID: t.ID, ChatID: t.ChatID, Thread: t.Thread, Title: t.Title, Lang: t.Lang, Phase: t.Phase,
		GameNo: t.GameNo, GameID: t.GameID, Creator: t.Creator, Options: t.Options, TurnTime: t.TurnTime,
		Seed: t.Seed, Salt: t.Salt, Secret: t.Secret, Drawn: t.Drawn, RobotSeed: t.RobotSeed, State: t.State, Log: t.Log, Started: t.Started, Updated: t.Updated}
	for _, s := range t.Seats {
		f.Seats = append(f.Seats, Seat{UserID: s.UserID, Name: s.Name, AI: s.AI, Leaver: s.Leaver, Hinted: s.Hinted})
	}
	return f
}

// People are the persons who played a finished game: the seats' users and
// those who left a seat, each once.
func (t *Table) People() []int64 {
	var out []int64
	add := func(u int64) {
		for _, have := range out {
			if have == u {
				return
			}
		}
		out = append(out, u)
	}
	for _, s := range t.Seats {
		if s.Human() && s.UserID > 0 {
			add(s.UserID)
		}
		if s.Leaver != nil && s.Leaver.UserID > 0 {
			add(s.Leaver.UserID)
		}
	}
	return out
}

// PlayedBy is the seat user played at the finished game t: theirs, or the
// one they left (their moves before leaving are theirs); -1 when none.
func (t *Table) PlayedBy(user int64) int {
	for i, s := range t.Seats {
		if s.Human() && s.UserID == user || s.Leaver != nil && s.Leaver.UserID == user {
			return i
		}
	}
	return -1
}
