package record

import (
	"testing"
	"time"
)

func TestGameRef(t *testing.T) {
	started := time.Unix(1795000000, 500)
	for _, tab := range []*Table{
		{ID: ID(-1001234567890, 0), GameNo: 7, Started: started},
		{ID: ID(-100123, 42), GameNo: 1, Started: started},
		{ID: TableID(-100123, 0, 2), GameNo: 3, Started: started},
		{ID: ID(555, 0), GameNo: 12, Started: started},
	} {
		ref := GameRef(tab)
		id, no, at, ok := ParseRef(ref)
		if !ok || id != tab.ID || no != tab.GameNo || !at.Equal(time.Unix(started.Unix(), 0)) {
			t.Errorf("ParseRef(%q) = %q %d %v %v", ref, id, no, at, ok)
		}
	}
	for _, bad := range []string{"", "x", "1:2", "-100:0:5", "abc:1:5", "-100:1:x", ":1:5", "-100:1:"} {
		if _, _, _, ok := ParseRef(bad); ok {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
}

func TestFinishedKeepsTheGameOnly(t *testing.T) {
	tab := &Table{ID: "-1", GameNo: 2, GameID: "chef", Seed: 9, Salt: 11, Log: MoveLog{{Seat: 1, Action: 3}},
		Token: "secret-token", Jobs: []Job{{Query: &Query{Cmd: "top"}}},
		Seats: []Seat{{UserID: 5, Name: "Аня", Due: time.Now(), Tip: "x"}, {Name: "Робот", AI: "shef", Leaver: &Leaver{UserID: 6, Name: "Боря"}}}}
	f := tab.Finished()
	if f.Token != "" || f.Jobs != nil || !f.Seats[0].Due.IsZero() || f.Seats[0].Tip != "" {
		t.Errorf("Finished kept the table's own fields: %+v", f)
	}
	if f.Seed != 9 || f.Salt != 11 || len(f.Log) != 1 || f.Seats[1].Leaver == nil || f.Seats[0].Name != "Аня" {
		t.Errorf("Finished lost the game: %+v", f)
	}
	if got := f.People(); len(got) != 2 || got[0] != 5 || got[1] != 6 {
		t.Errorf("People = %v, want [5 6]", got)
	}
}
