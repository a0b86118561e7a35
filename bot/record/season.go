package record

import (
	"slices"
	"time"
)

// Season is a group's month once its recap is posted: the month (as
// "2026-11"), when its champions stop carrying 🏆 (the end of the month
// after it, in the group's zone) and the champions of each game played,
// by game id: people only, several when they shared first place.
//
// Month is also what makes the recap once: the change that posts a
// month's recap sets it, in the same commit, and a month not after it is
// never posted again.
type Season struct {
	Month     string             `json:"month"`
	Until     time.Time          `json:"until"`
	Champions map[string][]int64 `json:"champions,omitempty"`
}

// Champion reports whether user is a champion of game whose 🏆 still
// shows at now.
func (t *Table) Champion(user int64, game string, now time.Time) bool {
	s := t.Season
	return s != nil && now.Before(s.Until) && slices.Contains(s.Champions[game], user) || t.crowned(user, game, now)
}

// forget takes user out of the champions.
func (s *Season) forget(user int64) bool {
	if s == nil {
		return false
	}
	changed := false
	for g, users := range s.Champions {
		if i := slices.Index(users, user); i >= 0 {
			s.Champions[g] = slices.Delete(users, i, i+1)
			changed = true
		}
	}
	return changed
}
