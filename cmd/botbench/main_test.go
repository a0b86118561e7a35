package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
)

// TestEveryScenarioDeclaresItself: each scenario has a unique name, a
// summary, a doc, and flags botbench defines with defaults they accept
// (its -h parses them), and -h lists it.
func TestEveryScenarioDeclaresItself(t *testing.T) {
	var out, errs bytes.Buffer
	if code := bench.Main(context.Background(), []string{"-h"}, scenarios(), &out, &errs); code != bench.ExitOK {
		t.Fatalf("-h: exit %d, %s", code, errs.String())
	}
	var names []string
	for _, s := range scenarios() {
		if s.Name == "" || s.Summary == "" || strings.TrimSpace(s.Doc) == "" || s.Run == nil || len(s.Flags) == 0 {
			t.Errorf("scenario %q: summary %q, doc %d bytes, %d flags", s.Name, s.Summary, len(s.Doc), len(s.Flags))
		}
		if slices.Contains(names, s.Name) {
			t.Errorf("two scenarios named %q", s.Name)
		}
		names = append(names, s.Name)
		if !strings.Contains(out.String(), "  "+s.Name+" ") {
			t.Errorf("-h does not list %s:\n%s", s.Name, out.String())
		}
		var help, herrs bytes.Buffer
		code := bench.Main(context.Background(), []string{s.Name, "-h"}, scenarios(), &help, &herrs)
		if code != bench.ExitOK || herrs.Len() > 0 {
			t.Errorf("%s -h: exit %d, %s", s.Name, code, herrs.String())
		}
		for _, f := range s.Flags {
			if !strings.Contains(help.String(), "  -"+f+" ") {
				t.Errorf("%s -h does not list -%s:\n%s", s.Name, f, help.String())
			}
		}
		if !strings.Contains(help.String(), "go run ./cmd/botbench "+s.Name) {
			t.Errorf("%s -h shows no command to run:\n%s", s.Name, help.String())
		}
	}
}
