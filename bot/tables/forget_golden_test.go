package tables

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
)

// TestGoldenForget pins /forgetme in every language: the question, which
// says what goes and what stays, its two outcomes, and the answer in a
// group (go test ./bot/tables -run Golden -update).
func TestGoldenForget(t *testing.T) {
	tb := goldenTables(t)
	var sb strings.Builder
	for _, lang := range tb.views.Langs() {
		l := tb.views.Loc(lang)
		fmt.Fprintf(&sb, "════ %s: /forgetme in private\n%s\n", lang, golden.Show(tb.forget.ForgetQuestion(l, 42)))
		for _, key := range []string{"forget.done", "forget.kept", "forget.private_only"} {
			fmt.Fprintf(&sb, "════ %s: %s\n%s\n", lang, key, golden.Show(adapter.Message{Text: l.T(key)}))
		}
	}
	golden.Check(t, "forget", sb.String())
}
