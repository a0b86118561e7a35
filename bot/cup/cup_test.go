package cup

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestNewRefuses(t *testing.T) {
	ok := Config{Game: "g", Sizes: [2]int{3, 4}, Seed: 1}
	tests := []struct {
		name string
		cfg  Config
		ps   []Person
		want error
	}{
		{"two people", ok, people(2), ErrPeople},
		{"seventeen people", ok, people(17), ErrPeople},
		{"a person twice", ok, append(people(3), Person{ID: "u1"}), ErrPeople},
		{"an empty id", ok, append(people(3), Person{Name: "nobody"}), ErrPeople},
		{"tables of one", Config{Sizes: [2]int{1, 4}}, people(3), ErrConfig},
		{"sizes upside down", Config{Sizes: [2]int{4, 3}}, people(3), ErrConfig},
		{"tables of 17 at least", Config{Sizes: [2]int{17, 20}}, people(3), ErrConfig},
		{"negative rounds", Config{Sizes: [2]int{3, 4}, Rounds: -1}, people(3), ErrConfig},
		{"too many rounds", Config{Sizes: [2]int{3, 4}, Rounds: MaxRounds + 1}, people(3), ErrConfig},
	}
	for _, tc := range tests {
		if _, err := New(tc.cfg, tc.ps); !errors.Is(err, tc.want) {
			t.Errorf("%s: New = %v, want %v", tc.name, err, tc.want)
		}
	}
	c, err := New(ok, people(16))
	if err != nil || c.Rounds() != DefaultRounds || c.Done() {
		t.Errorf("New(16 people) = %+v, %v; want a cup of %d rounds, not over", c, err, DefaultRounds)
	}
}

func TestTablePoints(t *testing.T) {
	tests := []struct {
		places []int
		want   []float64
	}{
		{[]int{1, 2, 3, 4}, []float64{6, 4, 2, 0}}, // BGA's at a table of four
		{[]int{1, 2, 3}, []float64{6, 3, 0}},
		{[]int{1, 2}, []float64{6, 0}},
		{[]int{1, 2, 3, 4, 5}, []float64{6, 4.5, 3, 1.5, 0}},
		{[]int{3, 1, 2}, []float64{0, 6, 3}}, // seat order
		{[]int{1, 2, 2, 4}, []float64{6, 3, 3, 0}},
		{[]int{1, 1, 3, 4}, []float64{5, 5, 2, 0}},
		{[]int{1, 1, 1}, []float64{3, 3, 3}},
		{[]int{1, 1}, []float64{3, 3}},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8}, []float64{6, 36. / 7, 30. / 7, 24. / 7, 18. / 7, 12. / 7, 6. / 7, 0}},
	}
	for _, tc := range tests {
		ps := make([]Place, len(tc.places))
		for i, p := range tc.places {
			ps[i].Place = p
		}
		got := TablePoints(ps)
		sum := 0.0
		for i := range got {
			if d := got[i] - tc.want[i]; d > 1e-12 || d < -1e-12 {
				t.Errorf("TablePoints(%v) = %v, want %v", tc.places, got, tc.want)
				break
			}
			sum += got[i]
		}
		if avg := sum / float64(len(got)); avg < ByePoints-1e-12 || avg > ByePoints+1e-12 {
			t.Errorf("TablePoints(%v) average %v, want ByePoints %d at any table", tc.places, avg, ByePoints)
		}
	}
}

// played builds a cup's state directly, as the store would hold it.
func played(rounds int, ids string, tables ...[]string) *Cup {
	c := &Cup{Version: Version, Config: Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: rounds, Seed: 11}}
	for _, id := range strings.Fields(ids) {
		c.People = append(c.People, Entrant{Person: Person{ID: id, Name: id}})
	}
	r := Round{No: 1}
	for _, seats := range tables {
		r.Tables = append(r.Tables, Table{Seats: seats})
	}
	c.Played = []Round{r}
	return c
}

func standingIDs(st []Standing) string {
	var b strings.Builder
	for _, s := range st {
		b.WriteString(strings.Repeat(" ", min(b.Len(), 1)))
		b.WriteString(s.Person.ID)
		b.WriteByte('=')
		b.WriteByte(byte('0' + s.Place))
	}
	return b.String()
}

// TestTieBreaks: points, then the opponents' mean points, then the scores
// relative to the tables; equal on all three, a shared place ordered by
// the lot, and shared winners.
func TestTieBreaks(t *testing.T) {
	t.Run("opponents before scores", func(t *testing.T) {
		c := played(1, "a b c d e f g", []string{"a", "b", "c", "d"}, []string{"e", "f", "g"})
		must(t, c.Record(1, 1, []Place{{1, 10}, {2, 9}, {3, 8}, {4, 7}})) // a: 6 points, opponents 4,2,0: mean 2, scores +1.5
		must(t, c.Record(1, 2, []Place{{1, 30}, {2, 0}, {3, 0}}))         // e: 6 points, opponents 3,0: mean 1.5, scores +20
		st := c.Standings()
		if got := standingIDs(st); !strings.HasPrefix(got, "a=1 e=2 b=3 f=4") {
			t.Errorf("standings %s, want a before e (opponents), then b (4) before f (3)", got)
		}
		if st[0].Opponents != 2 || st[1].Opponents != 1.5 || st[1].Scores != 20 || st[0].Scores != 1.5 {
			t.Errorf("tie-break values %+v", st[:2])
		}
	})
	t.Run("scores", func(t *testing.T) {
		c := played(1, "a b c d e f", []string{"a", "b", "c"}, []string{"d", "e", "f"})
		must(t, c.Record(1, 1, []Place{{1, 30}, {2, 20}, {3, 10}})) // a +10
		must(t, c.Record(1, 2, []Place{{1, 40}, {2, 20}, {3, 0}}))  // d +20
		if got := standingIDs(c.Standings()); !strings.HasPrefix(got, "d=1 a=2") {
			t.Errorf("standings %s, want d before a on scores", got)
		}
	})
	t.Run("a shared place", func(t *testing.T) {
		c := played(1, "a b c d e f", []string{"a", "b", "c"}, []string{"d", "e", "f"})
		must(t, c.Record(1, 1, []Place{{1, 30}, {2, 20}, {3, 10}}))
		must(t, c.Record(1, 2, []Place{{1, 30}, {2, 20}, {3, 10}}))
		st := c.Standings()
		if st[0].Place != 1 || st[1].Place != 1 || st[2].Place != 3 || st[3].Place != 3 {
			t.Errorf("standings %s, want two sharing 1st and two sharing 3rd", standingIDs(st))
		}
		// The lot orders the shared lines: the lower lot first.
		first, second := st[0].Person.ID, st[1].Person.ID
		if lot(c.Config.Seed, first) > lot(c.Config.Seed, second) {
			t.Errorf("%s listed before %s against the lot", first, second)
		}
		w := c.Winners()
		if len(w) != 2 || w[0].ID != first || w[1].ID != second {
			t.Errorf("Winners = %+v, want %s and %s", w, first, second)
		}
		// Another seed, another lot, the same places.
		c.Config.Seed = 12
		for _, s := range c.Standings()[:2] {
			if s.Place != 1 {
				t.Errorf("seed 12: %+v, want a shared first place", s)
			}
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRecordRefuses(t *testing.T) {
	c := mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 2, Seed: 1}, people(6))
	rd, err := c.Pair()
	must(t, err)
	if len(rd.Tables) != 2 || len(rd.Tables[0].Seats) != 3 {
		t.Fatalf("round 1: %+v, want two tables of three", rd)
	}
	ok := []Place{{1, 3}, {2, 2}, {3, 1}}
	tests := []struct {
		name         string
		round, table int
		places       []Place
		want         error
	}{
		{"round 0", 0, 1, ok, ErrNoTable},
		{"round 2 not paired", 2, 1, ok, ErrNoTable},
		{"table 3", 1, 3, ok, ErrNoTable},
		{"two places for three seats", 1, 1, ok[:2], ErrResult},
		{"place 0", 1, 1, []Place{{0, 3}, {2, 2}, {3, 1}}, ErrResult},
		{"dense ranking", 1, 1, []Place{{1, 3}, {1, 3}, {2, 1}}, ErrResult},
		{"place 4 of 3", 1, 1, []Place{{1, 3}, {2, 2}, {4, 1}}, ErrResult},
	}
	for _, tc := range tests {
		if err := c.Record(tc.round, tc.table, tc.places); !errors.Is(err, tc.want) {
			t.Errorf("%s: Record = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := c.Pair(); !errors.Is(err, ErrRoundOpen) {
		t.Errorf("Pair with no table recorded = %v, want ErrRoundOpen", err)
	}
	must(t, c.Record(1, 1, ok))
	must(t, c.Record(1, 1, ok)) // a retry: the same result again
	if err := c.Record(1, 1, []Place{{1, 3}, {3, 2}, {2, 1}}); !errors.Is(err, ErrRecorded) {
		t.Errorf("Record of another result = %v, want ErrRecorded", err)
	}
	if _, err := c.Pair(); !errors.Is(err, ErrRoundOpen) {
		t.Errorf("Pair with a table to go = %v, want ErrRoundOpen", err)
	}
	must(t, c.Record(1, 2, []Place{{1, 3}, {1, 3}, {3, 1}}))
	playRandomly(t, c, rand.New(rand.NewPCG(1, 1)))
	if _, err := c.Pair(); !errors.Is(err, ErrDone) {
		t.Errorf("Pair after the last round = %v, want ErrDone", err)
	}
	if err := c.Leave("u1"); !errors.Is(err, ErrDone) {
		t.Errorf("Leave after the last round = %v, want ErrDone", err)
	}
}

// TestLeavers: a person who leaves mid-round keeps their table's result,
// is never paired again and stays in the standings with their points; a
// cup whose people leave until one is left ends after the round in play.
func TestLeavers(t *testing.T) {
	c := mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 3, Seed: 5}, people(8))
	rd, err := c.Pair()
	must(t, err)
	leaver := rd.Tables[0].Seats[0]
	if leaver == Robot {
		leaver = rd.Tables[0].Seats[1]
	}
	must(t, c.Leave(leaver))
	if err := c.Leave(leaver); !errors.Is(err, ErrLeft) {
		t.Errorf("Leave twice = %v, want ErrLeft", err)
	}
	if err := c.Leave("u99"); !errors.Is(err, ErrUnknownPerson) {
		t.Errorf("Leave of a stranger = %v, want ErrUnknownPerson", err)
	}
	// The game placed the leaver (a robot finished for them) last; the
	// others win what they won.
	for i, tb := range rd.Tables {
		ps := make([]Place, len(tb.Seats))
		for j := range ps {
			ps[j] = Place{Place: 1, Score: 10}
		}
		if k := slices.Index(tb.Seats, leaver); k >= 0 {
			for j := range ps {
				ps[j].Place = 1
				if j == k {
					ps[j] = Place{Place: len(ps), Score: 0}
				}
			}
		}
		must(t, c.Record(1, i+1, ps))
	}
	st := c.Standings()
	var gone Standing
	for _, s := range st {
		if s.Person.ID == leaver {
			gone = s
		}
	}
	if !gone.Left || gone.Games != 1 || gone.Points != 0 || gone.Place != len(st) {
		t.Errorf("the leaver's standing %+v, want left, one game, 0 points, last of %d", gone, len(st))
	}
	playRandomly(t, c, rand.New(rand.NewPCG(5, 5)))
	for _, r := range c.Played[1:] {
		for _, tb := range r.Tables {
			if slices.Contains(tb.Seats, leaver) {
				t.Errorf("round %d seats the leaver %s: %q", r.No, leaver, tb.Seats)
			}
		}
	}
	if len(c.Played) != 3 || len(c.Standings()) != 8 {
		t.Errorf("%d rounds, %d standings; want 3 and all 8 people", len(c.Played), len(c.Standings()))
	}

	// Everyone but one leaves during round 1: the cup ends with it.
	c = mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 3, Seed: 5}, people(4))
	rd, err = c.Pair()
	must(t, err)
	for _, id := range []string{"u1", "u2", "u3"} {
		must(t, c.Leave(id))
	}
	if c.Done() {
		t.Error("Done with a table of round 1 still playing")
	}
	for i, tb := range rd.Tables {
		must(t, c.Record(1, i+1, randomPlaces(rand.New(rand.NewPCG(1, 1)), len(tb.Seats))))
	}
	if !c.Done() {
		t.Error("not Done with one person left")
	}
	if _, err := c.Pair(); !errors.Is(err, ErrDone) {
		t.Errorf("Pair = %v, want ErrDone", err)
	}
	if w := c.Winners(); len(w) == 0 {
		t.Errorf("no winners of a cup that played a round")
	}
}

func TestWinnersOnlyWhenDone(t *testing.T) {
	c := mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 1, Seed: 5}, people(3))
	if w := c.Winners(); w != nil {
		t.Errorf("Winners before the cup = %+v", w)
	}
	rd, _ := c.Pair()
	if w := c.Winners(); w != nil {
		t.Errorf("Winners mid-cup = %+v", w)
	}
	must(t, c.Record(1, 1, []Place{{1, 9}, {2, 5}, {3, 1}}))
	if w := c.Winners(); len(w) != 1 || w[0].ID != rd.Tables[0].Seats[0] {
		t.Errorf("Winners = %+v, want %s", w, rd.Tables[0].Seats[0])
	}
	// A cup everyone left before its first round has no winner.
	c = mustNew(t, Config{Game: "g", Sizes: [2]int{3, 4}, Rounds: 1, Seed: 5}, people(3))
	must(t, c.Leave("u1"))
	must(t, c.Leave("u2"))
	if !c.Done() || c.Winners() != nil {
		t.Errorf("Done %v, Winners %+v; want over, nobody", c.Done(), c.Winners())
	}
}

// v1 is a cup as version 1 stores it: this must read back for good.
const v1 = `{"v":1,"config":{"game":"trickchef","sizes":[3,4],"rounds":2,"seed":18446744073709551615,"robots":"pro"},` +
	`"people":[{"id":"u1","name":"Аня"},{"id":"u2","name":"Боря"},{"id":"u3","name":"Вика","left":true,"left_after":1},{"id":"u4","name":"Гена"}],` +
	`"played":[{"no":1,"tables":[{"seats":["u1","","u3"],"places":[{"place":1,"score":12},{"place":2,"score":7},{"place":3,"score":0}]},` +
	`{"seats":["u4","u2",""],"places":[{"place":2,"score":5},{"place":2,"score":5},{"place":1,"score":9}]}]},` +
	`{"no":2,"tables":[{"seats":["u2","u1",""]}],"bye":"u4"}]}`

func TestEncoding(t *testing.T) {
	c, err := Decode([]byte(v1))
	must(t, err)
	if c.Config.Seed != 1<<64-1 || !c.People[2].Left || c.Played[1].Bye != "u4" || c.Played[0].Tables[1].Places[2].Place != 1 {
		t.Errorf("decoded %+v", c)
	}
	b, err := json.Marshal(c)
	must(t, err)
	if string(b) != v1 {
		t.Errorf("encoding changed:\n got %s\nwant %s", b, v1)
	}

	// A played cup round-trips.
	p := mustNew(t, Config{Game: "g", Sizes: [2]int{2, 6}, Rounds: 3, Seed: 77, Robots: "easy"}, people(11))
	playRandomly(t, p, rand.New(rand.NewPCG(7, 7)))
	b, err = json.Marshal(p)
	must(t, err)
	back, err := Decode(b)
	must(t, err)
	if !reflect.DeepEqual(p, back) {
		t.Errorf("round trip:\n%+v\n%+v", p, back)
	}
	if !slices.Equal(p.Standings(), back.Standings()) {
		t.Error("standings differ after a round trip")
	}

	// Inside another record, json.Unmarshal checks as well.
	var outer struct {
		Cup *Cup `json:"cup"`
	}
	if err := json.Unmarshal([]byte(`{"cup":`+strings.Replace(v1, `"v":1`, `"v":2`, 1)+`}`), &outer); !errors.Is(err, ErrVersion) {
		t.Errorf("a version 2 cup inside a record: %v, want ErrVersion", err)
	}
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     error
	}{
		{"version 2", `"v":1`, `"v":2`, ErrVersion},
		{"version 0", `"v":1`, `"v":0`, ErrVersion},
		{"no version", `"v":1,`, ``, ErrVersion},
		{"a future shape", `"v":1`, `"v":3,"config":[1]`, ErrVersion},
		{"round numbered wrong", `"no":2`, `"no":3`, ErrState},
		{"a stranger seated", `["u2","u1",""]`, `["u2","u9",""]`, ErrState},
		{"a person twice in a round", `["u2","u1",""]`, `["u2","u1","u1"]`, ErrState},
		{"the bye seated too", `"bye":"u4"`, `"bye":"u1"`, ErrState},
		{"an unknown bye", `"bye":"u4"`, `"bye":"u9"`, ErrState},
		{"an earlier round unfinished", `,"places":[{"place":1,"score":12},{"place":2,"score":7},{"place":3,"score":0}]`, ``, ErrState},
		{"bad places", `{"place":3,"score":0}`, `{"place":4,"score":0}`, ErrState},
		{"more rounds than the cup has", `"rounds":2`, `"rounds":1`, ErrState},
		{"bad sizes", `"sizes":[3,4]`, `"sizes":[4,3]`, ErrConfig},
		{"a person twice", `"id":"u4"`, `"id":"u1"`, ErrPeople},
	}
	for _, tc := range tests {
		bad := strings.Replace(v1, tc.old, tc.new, 1)
		if bad == v1 {
			t.Fatalf("%s: %q not in the fixture", tc.name, tc.old)
		}
		if _, err := Decode([]byte(bad)); !errors.Is(err, tc.want) {
			t.Errorf("%s: Decode = %v, want %v", tc.name, err, tc.want)
		}
	}
}
