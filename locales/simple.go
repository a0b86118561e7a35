package locales

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Most messages use their arguments only as {{.Name}}. Rendering those by
// substitution gives the text go-i18n would (TestSimpleMatchesLocalizer
// compares every message of the catalog) at a fraction of the cost: the
// bot renders every view it redraws, and text/template was a seventh of
// its CPU under load. Anything richer goes through the localizer.

// simpleText is one form of a message cut at its {{.Name}} placeholders.
type simpleText []textPart

// textPart is literal text, or the argument named by field.
type textPart struct {
	lit   string
	field string
}

// simpleMessage holds a message's forms by plural category; nil when some
// form uses more of the template language than {{.Name}}.
type simpleMessage map[plural.Form]simpleText

// parseSimple cuts src at its placeholders, or reports that it has an
// action other than {{.Name}}.
func parseSimple(src string) (simpleText, bool) {
	var text simpleText
	for src != "" {
		open := strings.Index(src, "{{")
		if open < 0 {
			text = append(text, textPart{lit: src})
			break
		}
		if open > 0 {
			text = append(text, textPart{lit: src[:open]})
		}
		end := strings.Index(src[open:], "}}")
		if end < 0 {
			return nil, false
		}
		action := src[open+2 : open+end]
		name, ok := strings.CutPrefix(strings.TrimSpace(action), ".")
		if !ok || !isIdent(name) || strings.HasPrefix(action, "-") || strings.HasSuffix(action, "-") {
			return nil, false
		}
		text = append(text, textPart{field: name})
		src = src[open+end+2:]
	}
	return text, true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// newSimpleMessage prepares m for substitution, or returns nil.
func newSimpleMessage(m *i18n.Message) simpleMessage {
	byForm := map[plural.Form]string{
		plural.Zero: m.Zero, plural.One: m.One, plural.Two: m.Two,
		plural.Few: m.Few, plural.Many: m.Many, plural.Other: m.Other,
	}
	sm := make(simpleMessage)
	for form, src := range byForm {
		if src == "" {
			continue
		}
		text, ok := parseSimple(src)
		if !ok {
			return nil
		}
		sm[form] = text
	}
	return sm
}

// renderSimple renders sm with args (name/value pairs). ok is false when
// the localizer must decide: a count or value it does not format the same
// way, or a plural form the message lacks.
func renderSimple(tag language.Tag, sm simpleMessage, plurals bool, args []any) (s string, ok bool, err error) {
	form := plural.Other
	if plurals {
		n, found := arg(args, CountArg)
		if !found {
			return "", false, nil
		}
		i, isInt := n.(int)
		if !isInt {
			return "", false, nil
		}
		if i < 0 {
			i = -i
		}
		form = plural.Cardinal.MatchPlural(tag, i, 0, 0, 0, 0)
	}
	text, found := sm[form]
	if !found {
		return "", false, nil
	}
	var b strings.Builder
	for _, p := range text {
		if p.field == "" {
			b.WriteString(p.lit)
			continue
		}
		v, found := arg(args, p.field)
		if !found {
			return "", true, fmt.Errorf("map has no entry for key %q", p.field)
		}
		switch v := v.(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		default:
			if v == nil {
				return "", false, nil
			}
			switch reflect.TypeOf(v).Kind() {
			case reflect.Pointer, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
				return "", false, nil
			}
			fmt.Fprint(&b, v)
		}
	}
	return b.String(), true, nil
}

// arg finds name among name/value pairs (already checked to be pairs).
func arg(args []any, name string) (any, bool) {
	for i := len(args) - 2; i >= 0; i -= 2 { // the last pair wins, as in a map
		if args[i] == name {
			return args[i+1], true
		}
	}
	return nil, false
}

// checkArgs reports args that are not name/value pairs.
func checkArgs(args []any) error {
	if len(args)%2 != 0 {
		return fmt.Errorf("odd number of args (%d): want name/value pairs", len(args))
	}
	for i := 0; i < len(args); i += 2 {
		if name, ok := args[i].(string); !ok || name == "" {
			return fmt.Errorf("arg %d: name must be a non-empty string, got %#v", i, args[i])
		}
	}
	return nil
}
