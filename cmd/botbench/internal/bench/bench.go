// Package bench is botbench's frame: what a scenario is, the one set of
// flags every scenario draws from, and how a run is reported (progress as
// it goes, the last line one JSON object with the numbers).
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
)

// Scenario is one measurement of the real bot against the fake Bot API.
// A new one is a package with a function returning its Scenario, added to
// the list in cmd/botbench's main.
type Scenario struct {
	// Name is the command-line word: botbench <Name> [flags].
	Name string
	// Summary is its line in botbench -h.
	Summary string
	// Doc is what botbench <Name> -h prints above its flags: what is
	// measured and how, and commands worth running.
	Doc string
	// Flags are the flags it reads, in the order -h lists them; any other
	// flag given is refused, but -cpuprofile, which every scenario takes.
	Flags []string
	// Defaults are its own defaults, where they differ from the flag's.
	Defaults map[string]string
	// Run measures with the flags' values, writing progress and the
	// human-readable report to out, and returns what the last line shows
	// as JSON. With an error it may still return what was measured before
	// it (nil: nothing to show). An error made with Usagef is the command
	// line's fault (exit code 2).
	Run func(ctx context.Context, o Options, out io.Writer) (any, error)
}

// Exit codes of Main.
const (
	ExitOK     = 0
	ExitFailed = 1 // a measurement failed (what it measured is still printed)
	ExitUsage  = 2 // a bad command line
)

// usageError is a bad command line, found by a scenario or by Main.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Usagef makes an error that blames the command line: Main prints it with
// the hint to run -h, and exits with ExitUsage.
func Usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// Main runs botbench's command line (the scenario's name first, then its
// flags) and returns the exit code. The report goes to stdout, its last
// line the JSON object; problems go to stderr.
func Main(ctx context.Context, args []string, scenarios []Scenario, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		overview(stderr, scenarios)
		return ExitUsage
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" || name == "help" {
		overview(stdout, scenarios)
		return ExitOK
	}
	i := slices.IndexFunc(scenarios, func(s Scenario) bool { return s.Name == name })
	if i < 0 {
		fmt.Fprintf(stderr, "botbench: unknown scenario %q (have %s; botbench -h tells more)\n", name, strings.Join(names(scenarios), ", "))
		return ExitUsage
	}
	s := scenarios[i]
	o, err := parse(s, args[1:], scenarios)
	if errors.Is(err, flag.ErrHelp) {
		help(stdout, s)
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "botbench %s: %v (botbench %s -h lists its flags)\n", s.Name, err, s.Name)
		return ExitUsage
	}
	if o.CPUProfile != "" {
		stop, err := profile(o.CPUProfile)
		if err != nil {
			fmt.Fprintf(stderr, "botbench %s: %v\n", s.Name, err)
			return ExitUsage
		}
		defer stop()
	}
	res, err := s.Run(ctx, o, stdout)
	if res != nil {
		line, merr := json.Marshal(res)
		if merr != nil {
			fmt.Fprintf(stderr, "botbench %s: the result as JSON: %v\n", s.Name, merr)
			return ExitFailed
		}
		fmt.Fprintln(stdout, string(line))
	}
	var bad usageError
	switch {
	case errors.As(err, &bad):
		fmt.Fprintf(stderr, "botbench %s: %v (botbench %s -h lists its flags)\n", s.Name, err, s.Name)
		return ExitUsage
	case err != nil:
		fmt.Fprintf(stderr, "botbench %s: %v\n", s.Name, err)
		return ExitFailed
	}
	return ExitOK
}

// flagSet declares every flag on a new set, with s's defaults. The set
// reports errors and help to its caller only.
func flagSet(s Scenario, o *Options) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet("botbench "+s.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	o.define(fs)
	for _, name := range s.Flags {
		if fs.Lookup(name) == nil {
			return nil, fmt.Errorf("scenario %s reads -%s, which botbench does not define", s.Name, name)
		}
	}
	for name, def := range s.Defaults {
		f := fs.Lookup(name)
		if f == nil || !slices.Contains(s.Flags, name) {
			return nil, fmt.Errorf("scenario %s sets a default of -%s, which it does not read", s.Name, name)
		}
		if err := f.Value.Set(def); err != nil {
			return nil, fmt.Errorf("scenario %s: default of -%s: %w", s.Name, name, err)
		}
		f.DefValue = def
	}
	return fs, nil
}

// parse reads s's flags from args. A flag of botbench that s does not
// read is refused, naming the scenarios that read it, before any value is
// looked at.
func parse(s Scenario, args []string, all []Scenario) (Options, error) {
	var o Options
	fs, err := flagSet(s, &o)
	if err != nil {
		return o, err
	}
	given, err := flagNames(fs, args)
	if err != nil {
		return o, err
	}
	o.given = map[string]bool{}
	for _, name := range given {
		if !reads(s, name) {
			return o, fmt.Errorf("-%s is not read by %s%s", name, s.Name, readers(name, all))
		}
		o.given[name] = true
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: flags only, after the scenario's name", fs.Arg(0))
	}
	return o, nil
}

// flagNames lists the flags of fs that args give, whatever their values.
func flagNames(fs *flag.FlagSet, args []string) ([]string, error) {
	names := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	names.SetOutput(io.Discard)
	names.Usage = func() {}
	fs.VisitAll(func(f *flag.Flag) {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		names.Var(anyValue{isBool: ok && b.IsBoolFlag()}, f.Name, "")
	})
	if err := names.Parse(args); err != nil {
		return nil, err
	}
	var out []string
	names.Visit(func(f *flag.Flag) { out = append(out, f.Name) })
	return out, nil
}

// anyValue takes any value of a flag, as flagNames needs; a bool flag
// stays one, so it takes no value of its own.
type anyValue struct{ isBool bool }

func (anyValue) String() string     { return "" }
func (anyValue) Set(string) error   { return nil }
func (v anyValue) IsBoolFlag() bool { return v.isBool }

// frameFlag is the flag every scenario takes, read by Main itself.
const frameFlag = "cpuprofile"

// reads reports whether s takes the flag.
func reads(s Scenario, flagName string) bool {
	return flagName == frameFlag || slices.Contains(s.Flags, flagName)
}

// readers says which scenarios read a flag, for the refusal of it.
func readers(flagName string, all []Scenario) string {
	var out []string
	for _, s := range all {
		if slices.Contains(s.Flags, flagName) {
			out = append(out, s.Name)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (it is " + strings.Join(out, "'s, ") + "'s)"
}

// overview is botbench -h: every scenario in a line.
func overview(w io.Writer, scenarios []Scenario) {
	fmt.Fprint(w, `botbench runs the real bot against the fake Bot API (and a real Redis) and
measures it. The last line of every run is one JSON object with the numbers.

usage: go run ./cmd/botbench <scenario> [flags]

scenarios:
`)
	for _, s := range scenarios {
		fmt.Fprintf(w, "  %-9s %s\n", s.Name, s.Summary)
	}
	fmt.Fprint(w, `
go run ./cmd/botbench <scenario> -h tells what a scenario measures and the
flags it reads; a flag means the same in every scenario that reads it.
`)
}

// help is botbench <scenario> -h: its doc, then its flags and defaults.
func help(w io.Writer, s Scenario) {
	fmt.Fprintf(w, "usage: go run ./cmd/botbench %s [flags]\n\n%s\n\nflags:\n", s.Name, strings.TrimSpace(s.Doc))
	var o Options
	fs, err := flagSet(s, &o)
	if err != nil {
		fmt.Fprintln(w, err)
		return
	}
	for _, name := range append(slices.Clone(s.Flags), frameFlag) {
		f := fs.Lookup(name)
		kind, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  -%s %s\n    \t%s", f.Name, kind, usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	}
}

// profile starts a CPU profile into path; stop ends it.
func profile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func names(scenarios []Scenario) []string {
	out := make([]string, len(scenarios))
	for i, s := range scenarios {
		out[i] = s.Name
	}
	return out
}
