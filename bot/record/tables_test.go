package record

import (
	"strconv"
	"testing"
)

// TestTableIDs: every table of a chat (and of a topic) parses back to its
// chat, topic and number, within what callback data and deep links allow;
// table 1 is the chat's own id, and table 2 the id a group's one-time
// second table carried.
func TestTableIDs(t *testing.T) {
	for _, tc := range []struct {
		chat   int64
		thread int
	}{{-1001234567890, 0}, {-1001234567890, 2147483647}, {-4567, 1}} {
		if TableID(tc.chat, tc.thread, 1) != ID(tc.chat, tc.thread) {
			t.Errorf("table 1 of %d/%d is %q, not the chat's id", tc.chat, tc.thread, TableID(tc.chat, tc.thread, 1))
		}
		if got, want := TableID(tc.chat, tc.thread, 2), ID(tc.chat, tc.thread)+"b"; got != want {
			t.Errorf("table 2 is %q, want the old second table's %q", got, want)
		}
		seen := map[string]bool{}
		for n := 1; n <= MaxTables; n++ {
			id := TableID(tc.chat, tc.thread, n)
			if seen[id] {
				t.Errorf("%q twice", id)
			}
			seen[id] = true
			chat, thread, got, err := ParseTable(id)
			if err != nil || chat != tc.chat || thread != tc.thread || got != n {
				t.Errorf("ParseTable(%q) = %d, %d, %d, %v", id, chat, thread, got, err)
			}
			if TableNo(id) != n || Sibling(id, 1) != ID(tc.chat, tc.thread) || Sibling(ID(tc.chat, tc.thread), n) != id {
				t.Errorf("TableNo/Sibling of %q wrong", id)
			}
			for _, r := range id {
				if !(r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z')) {
					t.Errorf("%q has %q, not allowed in a deep-link payload", id, r)
				}
			}
		}
	}
	if Sibling("12345", 2) != "" || Sibling("-100", 27) != "" || Sibling("-100", 0) != "" || Sibling("x", 1) != "" {
		t.Error("Sibling named a table that cannot be")
	}
}

// TestParseTableRejects: an id TableID does not make names no table — no
// letter a, no capital, no two letters, no letter inside, none for a
// private chat.
func TestParseTableRejects(t *testing.T) {
	for _, bad := range []string{"12345b", "12345z", "-100a", "-100bb", "-100_b", "b", "z", "-100b_5", "-100B", "-100{",
		"-100_5a", "-100_5bb", "-100 b", "-100b ", "+100b", "0100b", "-0100c", "-100_07b", "0b", "-0b", "-100_0b", "-100ä"} {
		t.Run(strconv.Quote(bad), func(t *testing.T) {
			if chat, thread, n, err := ParseTable(bad); err == nil {
				t.Errorf("ParseTable(%q) = %d, %d, %d; want an error", bad, chat, thread, n)
			}
		})
	}
}

func TestTableIDPanicsOutOfRange(t *testing.T) {
	for _, n := range []int{0, MaxTables + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("TableID(…, %d) did not panic", n)
				}
			}()
			TableID(-100, 0, n)
		}()
	}
}

func FuzzParseTable(f *testing.F) {
	for _, s := range []string{"-100", "-100b", "-100_5z", "12345", "-100a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		chat, thread, n, err := ParseTable(id)
		if err != nil {
			return
		}
		if TableID(chat, thread, n) != id {
			t.Errorf("ParseTable(%q) = %d, %d, %d, which is %q", id, chat, thread, n, TableID(chat, thread, n))
		}
	})
}

// TestLimitLeavesTheCupsHost: however high MAX_TABLES is set, /newgame's
// tables stop below the cups' host, so a cup always has its own table.
func TestLimitLeavesTheCupsHost(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 4}, {-3, 4}, {1, 1}, {4, 4}, {25, 25}, {26, 25}, {1000, 25}} {
		if got := Limit(c.n); got != c.want {
			t.Errorf("Limit(%d) = %d, want %d", c.n, got, c.want)
		}
		if Limit(c.n) >= CupHost {
			t.Errorf("Limit(%d) reaches the cups' host, table %d", c.n, CupHost)
		}
	}
}
