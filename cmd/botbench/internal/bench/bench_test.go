package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"
)

// fakes are two scenarios that share -tables and -pace, each with its own
// default, and record what they were run with.
func fakes(ran *[]Options, result any, err error) []Scenario {
	run := func(_ context.Context, o Options, out io.Writer) (any, error) {
		*ran = append(*ran, o)
		io.WriteString(out, "a report line\n")
		return result, err
	}
	return []Scenario{
		{Name: "one", Summary: "the first", Doc: "One measures.", Flags: []string{"tables", "pace", "pages"},
			Defaults: map[string]string{"tables": "1,2"}, Run: run},
		{Name: "two", Summary: "the second", Doc: "Two measures.", Flags: []string{"tables", "pace", "flood-rate"},
			Defaults: map[string]string{"tables": "", "pace": "5s"}, Run: run},
	}
}

func runMain(args ...string) (code int, stdout, stderr string, ran []Options) {
	return mainWith(map[string]int{"n": 1}, nil, args...)
}

func mainWith(result any, err error, args ...string) (code int, stdout, stderr string, ran []Options) {
	var out, errs bytes.Buffer
	code = Main(context.Background(), args, fakes(&ran, result, err), &out, &errs)
	return code, out.String(), errs.String(), ran
}

func TestHelpListsTheScenarios(t *testing.T) {
	code, out, _, ran := runMain("-h")
	if code != ExitOK || len(ran) != 0 {
		t.Fatalf("-h: exit %d, ran %d", code, len(ran))
	}
	for _, want := range []string{"one", "the first", "two", "the second", "<scenario> -h"} {
		if !strings.Contains(out, want) {
			t.Errorf("-h does not say %q:\n%s", want, out)
		}
	}
	if code, _, errs, _ := runMain(); code != ExitUsage || !strings.Contains(errs, "one") {
		t.Errorf("no scenario: exit %d, %q", code, errs)
	}
	if code, _, errs, _ := runMain("three"); code != ExitUsage || !strings.Contains(errs, `unknown scenario "three" (have one, two`) {
		t.Errorf("an unknown scenario: exit %d, %q", code, errs)
	}
}

// TestScenarioHelp: a scenario's -h is its doc and the flags it reads,
// with its own defaults, and -cpuprofile, which every scenario takes.
func TestScenarioHelp(t *testing.T) {
	code, out, _, ran := runMain("two", "-h")
	if code != ExitOK || len(ran) != 0 {
		t.Fatalf("two -h: exit %d, ran %d", code, len(ran))
	}
	for _, want := range []string{"Two measures.", "-tables", "-pace duration", "(default 5s)", "-flood-rate", "-cpuprofile"} {
		if !strings.Contains(out, want) {
			t.Errorf("two -h does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "-pages") || strings.Contains(out, "-game") {
		t.Errorf("two -h lists flags it does not read:\n%s", out)
	}
}

// TestFlagsMeanTheSameWithTheirScenariosDefaults: the same flag in both
// scenarios, each with its defaults, and Given tells a default from a
// value given.
func TestFlagsMeanTheSameWithTheirScenariosDefaults(t *testing.T) {
	_, _, _, ran := runMain("one", "-pace", "3s")
	_, _, _, ran2 := runMain("two", "-tables", "7,8")
	if len(ran) != 1 || len(ran2) != 1 {
		t.Fatalf("ran %d and %d times", len(ran), len(ran2))
	}
	one, two := ran[0], ran2[0]
	if !slices.Equal(one.Tables, []int{1, 2}) || one.Pace != 3*time.Second || !one.Given("pace") || one.Given("tables") {
		t.Errorf("one -pace 3s: tables %v, pace %v, given pace %v, tables %v", one.Tables, one.Pace, one.Given("pace"), one.Given("tables"))
	}
	if !slices.Equal(two.Tables, []int{7, 8}) || two.Pace != 5*time.Second || two.FloodRate != 20 {
		t.Errorf("two -tables 7,8: tables %v, pace %v, flood rate %v", two.Tables, two.Pace, two.FloodRate)
	}
	_, _, _, ran = runMain("two")
	if len(ran) != 1 || ran[0].Tables != nil {
		t.Errorf("two's default of -tables is none: %v", ran)
	}
}

// TestRefusesWhatItDoesNotRead: a flag of another scenario is refused by
// name, before its value is read, and nothing runs; so is a bad value, an
// unknown flag and a stray argument.
func TestRefusesWhatItDoesNotRead(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"two", "-pages"}, "-pages is not read by two (it is one's)"},
		{[]string{"one", "-flood-rate", "fast"}, "-flood-rate is not read by one (it is two's)"},
		{[]string{"one", "-clients", "3"}, "-clients is not read by one"},
		{[]string{"one", "-tables", "0"}, `bad table count "0"`},
		{[]string{"one", "-pace", "soon"}, `invalid value "soon" for flag -pace`},
		{[]string{"one", "-nope"}, "-nope"},
		{[]string{"one", "-pages", "x"}, `unexpected argument "x"`},
	} {
		code, _, errs, ran := runMain(c.args...)
		if code != ExitUsage || len(ran) != 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, c.args[0]+" -h") {
			t.Errorf("%q: exit %d, ran %d times, %q; want exit 2 saying %q", c.args, code, len(ran), errs, c.want)
		}
	}
}

// TestLastLineIsJSON: the report, then the result as one JSON object;
// with an error too, when the scenario returns what it measured before it.
func TestLastLineIsJSON(t *testing.T) {
	last := func(out string) map[string]any {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
			t.Fatalf("last line: %v\n%s", err, out)
		}
		return m
	}
	code, out, _, _ := runMain("one")
	if code != ExitOK || !strings.HasPrefix(out, "a report line\n") || last(out)["n"] != 1.0 {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, errs, _ := mainWith(map[string]int{"rows": 2}, errors.New("table 3 stuck"), "one")
	if code != ExitFailed || last(out)["rows"] != 2.0 || !strings.Contains(errs, "botbench one: table 3 stuck") {
		t.Errorf("a failure: exit %d, %q:\n%s", code, errs, out)
	}
	code, out, errs, _ = mainWith(nil, Usagef("-people: 2-4"), "one")
	if code != ExitUsage || strings.Contains(out, "{") || !strings.Contains(errs, "-people: 2-4") {
		t.Errorf("a scenario's usage error: exit %d, %q:\n%s", code, errs, out)
	}
}

// TestGameAllIsEveryGameTheBotOffers: -game all plays every game the bot
// offers (cmd/games, which cmd/trickchef wires in), in its order;
// a scenario of one game refuses it, and an unknown id is named.
func TestGameAllIsEveryGameTheBotOffers(t *testing.T) {
	var offered, played []string
	for _, g := range games.All() {
		offered = append(offered, g.ID())
	}
	gs, err := Options{Game: "all"}.Games()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		played = append(played, g.ID())
	}
	if len(offered) == 0 || !slices.Equal(offered, played) {
		t.Errorf("the bot offers %v, -game all plays %v", offered, played)
	}
	if gs, err := (Options{Game: offered[0]}).Games(); err != nil || len(gs) != 1 || gs[0].ID() != offered[0] {
		t.Errorf("-game %s: %v, %v", offered[0], gs, err)
	}
	var bad usageError
	if _, err := (Options{Game: "all"}).OneGame(); !errors.As(err, &bad) {
		t.Errorf("one game, -game all: %v", err)
	}
	if _, err := (Options{Game: "poker"}).Games(); !errors.As(err, &bad) || !strings.Contains(err.Error(), offered[0]) {
		t.Errorf("-game poker: %v", err)
	}
	if _, err := (Options{Tables: []int{1, 2}}).OneCount(); !errors.As(err, &bad) {
		t.Errorf("one count of two: %v", err)
	}
}
