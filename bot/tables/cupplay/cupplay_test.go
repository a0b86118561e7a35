package cupplay

import (
	"context"
	"testing"

	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// cupStores are the stores a cup is kept in: the embedded one and Redis.
func cupStores(t *testing.T) map[string]testStore {
	return map[string]testStore{
		"bolt":  testBolt(t),
		"redis": store.NewRedis(redistest.Client(t), redistest.Prefix(t), store.Config{}),
	}
}

// cupChangeAt applies a cups change to the host as the tables do.
func cupChangeAt(t *testing.T, tb *rig, host string, fn func(h *record.Table, env cups.Env) (cups.Out, error)) (*record.Table, error) {
	t.Helper()
	h, _, err := tb.tx.Transact(context.Background(), host, 0, func(h *record.Table, ch *txn.Change) error {
		return tb.cups.change(context.Background(), h, ch, false, func() (cups.Out, error) { return fn(h, tb.cups.envAt(context.Background())) })
	})
	return h, err
}

// TestCupRoundsInBothStores: a cup of six is opened, joined and started on
// its host; the host's job opens the round's two tables above the group's
// limit, each dealt with its people; their ends, told twice, pair the
// second round once; the last table's end finishes the cup. The same in
// the embedded store and in Redis.
func TestCupRoundsInBothStores(t *testing.T) {
	for name, st := range cupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tb := newRig(t, st)
			const chat = -100777
			host := record.TableID(chat, 0, record.CupHost)
			h := startCupOfSix(t, tb, host)
			if len(h.Jobs) != 1 || h.Jobs[0].Cup == nil {
				t.Fatalf("the host's jobs after the start: %+v", h.Jobs)
			}
			if err := tb.jobs.Run(ctx, h); err != nil {
				t.Fatal(err)
			}
			s := stateOf(t, tb, host)
			if len(s.Tables) != 2 {
				t.Fatalf("round 1's tables: %v", s.Tables)
			}
			for i, id := range s.Tables {
				if n := record.TableNo(id); n <= tb.limit || n >= record.CupHost {
					t.Errorf("table %s is numbered %d: not above the limit %d and below the host", id, n, tb.limit)
				}
				tab, _, err := tb.tx.Load(ctx, id)
				if err != nil || tab.Phase != record.PhasePlaying || tab.CupOf == nil || tab.CupOf.Table != i+1 || len(tab.Seats) != 3 {
					t.Fatalf("table %s: %v %+v", id, err, tab)
				}
			}
			// The job done, running it again opens nothing new.
			if h, _, _ = tb.tx.Load(ctx, host); len(h.Jobs) != 0 {
				t.Fatalf("the host's jobs after running: %+v", h.Jobs)
			}
			places := []cup.Place{{Place: 1, Score: 30}, {Place: 2, Score: 20}, {Place: 3, Score: 10}}
			for n := 1; n <= 2; n++ {
				for range 2 { // told twice: once
					if err := tb.cups.tell(ctx, record.CupTable{Host: host, Cup: s.No, Round: 1, Table: n}, places); err != nil {
						t.Fatal(err)
					}
				}
			}
			s = stateOf(t, tb, host)
			if r, _ := s.Cup.Current(); r.No != 2 {
				t.Fatalf("after round 1 the cup is at round %d", r.No)
			}
			h, _, _ = tb.tx.Load(ctx, host)
			if len(h.Jobs) != 1 || h.Jobs[0].Cup.Round != 2 {
				t.Fatalf("round 2's job: %+v", h.Jobs)
			}
			for n := 1; n <= 2; n++ {
				if err := tb.cups.tell(ctx, record.CupTable{Host: host, Cup: s.No, Round: 2, Table: n}, places); err != nil {
					t.Fatal(err)
				}
			}
			s = stateOf(t, tb, host)
			if s.Phase != cups.Over || len(s.History) != 1 || len(s.Cup.Winners()) == 0 {
				t.Fatalf("the cup after round 2: %s, history %v", s.Phase, s.History)
			}
		})
	}
}

// stateOf is the cup hosted at host.
func stateOf(t *testing.T, tb *rig, host string) *cups.State {
	t.Helper()
	h, _, err := tb.tx.Load(context.Background(), host)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cups.Decode(h.Cup)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUnreadableCupFenced: a host whose cup cannot be read (a version this
// code does not know) is fenced off at its next change: the record set
// aside, the cup gone, the group told; a new cup opens there at once.
func TestUnreadableCupFenced(t *testing.T) {
	for name, st := range cupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tb := newRig(t, st)
			host := record.TableID(-100888, 0, record.CupHost)
			bad := []byte(`{"v":99,"phase":"playing"}`)
			if _, _, err := tb.tx.Transact(ctx, host, 0, func(h *record.Table, ch *txn.Change) error {
				h.GameNo, h.Cup = 3, bad
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			h, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
				return env.Press(h, 3, cups.Join, cups.Person{User: 1, Name: "Аня"}, false, true)
			})
			if err != nil {
				t.Fatal(err)
			}
			if h.Cup != nil || h.Broken == nil || h.Board == nil || h.GameNo != 4 {
				t.Fatalf("the host after its cup broke: %+v", h)
			}
			kept, err := st.Pointer(ctx, store.BrokenKey(host, 3))
			if err != nil || kept != string(bad) {
				t.Errorf("the broken cup kept: %q, %v", kept, err)
			}
			if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
				return env.Open(h, testGame(t, "trickchef"), 0, cups.Person{User: 1, Name: "Аня"}, true)
			}); err != nil {
				t.Fatal(err)
			}
			if s := stateOf(t, tb, host); s.Phase != cups.Gathering || s.Rounds != cup.DefaultRounds {
				t.Errorf("a new cup after the broken one: %+v", s)
			}
		})
	}
}

// TestEveryoneLeavesTheCup: all three people of a cup leave it during its
// first round, at a table with no robot: the table ends with nobody left,
// its cup is told, and the cup ends rather than wait for it.
func TestEveryoneLeavesTheCup(t *testing.T) {
	ctx := context.Background()
	tb := newRig(t, testBolt(t))
	host := record.TableID(-100999, 0, record.CupHost)
	if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Open(h, testGame(t, "trickchef"), 2, cups.Person{User: 1, Name: "Аня"}, true)
	}); err != nil {
		t.Fatal(err)
	}
	press := func(u int64, op int) {
		t.Helper()
		if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
			return env.Press(h, h.GameNo, op, cups.Person{User: u, Name: "P"}, false, true)
		}); err != nil {
			t.Fatal(err)
		}
	}
	press(2, cups.Join)
	press(3, cups.Join)
	press(1, cups.Start)
	runHost := func() {
		t.Helper()
		h, _, err := tb.tx.Load(ctx, host)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.jobs.Run(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	runHost()
	for u := int64(1); u <= 3; u++ {
		press(u, cups.Quit)
		press(u, cups.Quit)
		runHost()
	}
	s := stateOf(t, tb, host)
	if s.Phase != cups.Over {
		t.Fatalf("the cup everyone left: %s, rounds %d", s.Phase, len(s.Cup.Played))
	}
	tab, _, _ := tb.tx.Load(ctx, s.Tables[0])
	if tab.Phase != record.PhaseIdle {
		t.Errorf("its table: %s", tab.Phase)
	}
}
