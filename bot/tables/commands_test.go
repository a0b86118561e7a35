package tables

import (
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/view"
)

// TestCommandsAreDeclaredOnce: every command the catalog describes is
// declared (commands.list), and every declared command has every text its
// declaration needs — its menu line, and a /help line for each place it
// works and is listed — in every language. Nothing else of the catalog
// names a command.
func TestCommandsAreDeclaredOnce(t *testing.T) {
	cat := golden.Catalog(t)
	views := view.New(view.Config{Username: "trickchefbot"}, nil, cat, nil, zerolog.Nop())
	tb := New(Params{Views: views, Log: zerolog.Nop()})
	declared := map[string]command{}
	for _, c := range tb.commands.list() {
		if _, twice := declared[c.name]; twice {
			t.Errorf("/%s is declared twice", c.name)
		}
		declared[c.name] = c
	}
	needs := func(c command) []string {
		keys := []string{"menu"}
		if c.group != nil && !c.quiet {
			keys = append(keys, "group")
		}
		if c.private != nil && !c.quiet {
			keys = append(keys, "private")
		}
		if c.group != nil && !c.quiet && (c.private == nil || c.differs) {
			keys = append(keys, "elsewhere")
		}
		return keys
	}
	for name, c := range declared {
		for _, k := range needs(c) {
			if key := "commands." + name + "." + k; !cat.Has(key) {
				t.Errorf("/%s has no text %s", name, key)
			}
		}
	}
	for _, key := range cat.Keys() {
		rest, ok := strings.CutPrefix(key, "commands.")
		if !ok {
			continue
		}
		name, k, _ := strings.Cut(rest, ".")
		c, ok := declared[name]
		switch {
		case !ok:
			t.Errorf("the catalog describes /%s (%s), which no command declares", name, key)
		case !slices.Contains(needs(c), k):
			t.Errorf("%s describes /%s where it does nothing or is not listed", key, name)
		}
	}
	// The help texts list the commands from the declarations, not by hand
	// (prose may still name one: «отправьте там /newgame»).
	for _, lang := range cat.Langs() {
		for _, key := range []string{"help.group", "help.private"} {
			text := cat.T(lang, key, "Games", "", "Commands", "", "Here", "", "InGroups", "", "GroupHand", "")
			for name := range declared {
				if strings.Contains(text, "/"+name+" — ") {
					t.Errorf("%s/%s names /%s by hand", lang, key, name)
				}
			}
		}
	}
}

// TestHelpListsTheDeclaredCommands: the group's /help lists every command
// that works there, in the declared order; the private /help lists those
// that work in private, and names what the others do in a group.
func TestHelpListsTheDeclaredCommands(t *testing.T) {
	cat := golden.Catalog(t)
	views := view.New(view.Config{Username: "trickchefbot"}, nil, cat, nil, zerolog.Nop())
	tb := New(Params{Views: views, Log: zerolog.Nop()})
	l := views.Loc("ru")
	group := tb.commands.groupHelpLines(l)
	here, inGroups := tb.commands.privateHelpLines(l)
	last := -1
	for _, c := range tb.commands.list() {
		at := strings.Index(group, "/"+c.name+" — ")
		switch {
		case c.group != nil && !c.quiet && at < 0:
			t.Errorf("the group's /help lacks /%s", c.name)
		case (c.group == nil || c.quiet) && at >= 0:
			t.Errorf("the group's /help lists /%s", c.name)
		case at >= 0 && at < last:
			t.Errorf("/%s is out of the declared order in the group's /help", c.name)
		}
		if at >= 0 {
			last = at
		}
		if listed := strings.Contains(here, "/"+c.name+" — "); listed != (c.private != nil && !c.quiet) {
			t.Errorf("/%s listed in private: %v", c.name, listed)
		}
		if listed := strings.Contains(inGroups, "/"+c.name+" — "); listed != (c.group != nil && !c.quiet && (c.private == nil || c.differs)) {
			t.Errorf("/%s listed among what works in a group: %v", c.name, listed)
		}
	}
}
