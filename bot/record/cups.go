package record

import (
	"slices"
	"time"
)

// A group's cup (docs/bot.md «Cups») lives on a table record of its own,
// the cup's host (CupHost), so it is stored, versioned, committed with its
// outbox and fenced when unreadable exactly as a table is. Its state is
// the cups runtime's (Table.Cup, opaque here); its message is the host's
// table message, drawn from Board. Each table of a round is an ordinary
// table that knows its cup (Table.CupOf).

// CupHost is the number of the table that hosts a group's (or topic's)
// cup: the last a group can hold. A cup's tables take free numbers above
// the group's table limit and below this one, so a cup never takes the
// tables a group plays its own games at.
const CupHost = MaxTables

// Board is what a table's message shows instead of a game: a cup's
// lobby, its round and standings.
type Board struct {
	Text string          `json:"text"`
	Rows [][]BoardButton `json:"rows,omitempty"`
}

// BoardButton is one of a Board's buttons: its text and callback data.
type BoardButton struct {
	Text string `json:"text"`
	Data string `json:"data"`
}

// CupTable marks a table of a cup's round: the cup's host, the cup (the
// host's game number), the round and the table's number in it (from 1).
type CupTable struct {
	Host  string `json:"host"`
	Cup   int    `json:"cup"`
	Round int    `json:"round"`
	Table int    `json:"table"`
}

// CupJob is a cup's work its host does outside the change that left it:
// open and deal the tables of round Round of cup Cup; with Leaver set,
// hand that person's seat in that round to a robot; with Stop, stop the
// round's tables.
type CupJob struct {
	Cup    int   `json:"cup"`
	Round  int   `json:"round"`
	Leaver int64 `json:"leaver,omitempty"`
	Stop   bool  `json:"stop,omitempty"`
	// Crown gives the cup's winners their 🏆 on the group's own table.
	Crown bool `json:"crown,omitempty"`
	// Unranked is on a round's table itself, not the host: it ended with
	// nobody to rank (everyone left, no robot from the start), and tells
	// its cup everyone shares its last place, so the round goes on.
	Unranked bool `json:"unranked,omitempty"`
}

// Opens reports whether j is the job that opens and deals its round's
// tables (none of the others' flags set).
func (j *CupJob) Opens() bool {
	return j != nil && j.Leaver == 0 && !j.Stop && !j.Crown && !j.Unranked
}

// CrownFor is how long a cup's winners carry 🏆: about the month a
// month's champion carries it.
const CrownFor = 30 * 24 * time.Hour

// Crown is a cup's winners of game, who carry 🏆 until Until (or until
// the group's next cup of that game ends).
type Crown struct {
	Game  string    `json:"game"`
	Users []int64   `json:"users"`
	Until time.Time `json:"until"`
}

// Crown gives game's cup winners their 🏆 from now, in place of the last
// cup's of that game; crowns gone by are dropped.
func (t *Table) Crown(game string, users []int64, now time.Time) {
	t.Crowns = slices.DeleteFunc(t.Crowns, func(c Crown) bool { return c.Game == game || !now.Before(c.Until) })
	if len(users) > 0 {
		t.Crowns = append(t.Crowns, Crown{Game: game, Users: slices.Clone(users), Until: now.Add(CrownFor)})
	}
	if len(t.Crowns) == 0 {
		t.Crowns = nil
	}
}

// crowned reports whether user won the group's last cup of game, and
// its 🏆 still shows at now.
func (t *Table) crowned(user int64, game string, now time.Time) bool {
	for _, c := range t.Crowns {
		if c.Game == game && now.Before(c.Until) && slices.Contains(c.Users, user) {
			return true
		}
	}
	return false
}

// forgetCrowns takes a forgotten person out of the cups' winners.
func forgetCrowns(t *Table, user int64) bool {
	changed := false
	for i := range t.Crowns {
		if j := slices.Index(t.Crowns[i].Users, user); j >= 0 {
			t.Crowns[i].Users = slices.Delete(t.Crowns[i].Users, j, j+1)
			changed = true
		}
	}
	return changed
}
