package tables

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/cmd/games"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/results"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// testGames are the real games, in menu order.
func testGames() view.Games {
	return view.Games(games.All())
}

// testGame is the real game with the given id.
func testGame(t testing.TB, id string) adapter.Game {
	t.Helper()
	g, ok := testGames().Get(id)
	if !ok {
		t.Fatalf("no game %q", id)
	}
	return g
}

// testBolt opens an embedded store in the test's temporary directory,
// closed when the test ends.
func testBolt(t testing.TB) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"), store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// clockAt is a clock stopped at now.
func clockAt(now time.Time) func() time.Time { return func() time.Time { return now } }

// newTables builds the tables as package bot wires them by default (a
// minute a move, robots at once), with the real games in menu order and
// the real catalog, the bot named trickchefbot: over st (nil: a fresh Bolt
// store), at now (nil: the real clock), its results kept where st keeps
// them. It calls no Telegram.
func newTables(t testing.TB, st Store, now func() time.Time) *Tables {
	t.Helper()
	return newTablesWith(t, st, now, nil)
}

// newTablesWith is newTables on a server that offers the hand in the
// group when groupHands says so (nil: it does not).
func newTablesWith(t testing.TB, st Store, now func() time.Time, groupHands func() bool) *Tables {
	t.Helper()
	if st == nil {
		st = testBolt(t)
	}
	if now == nil {
		now = time.Now
	}
	cat := golden.Catalog(t)
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)
	views := view.New(view.Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default, GroupHands: groupHands},
		testGames(), cat, now, log)
	var rs results.Store
	if s, ok := st.(results.Store); ok {
		rs = s
	}
	res := results.New(results.Params{Store: rs, Games: testGames(), Translator: cat, Log: log, Now: now})
	return New(Params{Config: Config{AIBudget: 200 * time.Millisecond, DefaultLang: locales.Default, WebLease: 90 * time.Second,
		Members: members.New(everyoneIn{}, now, log)},
		Store: st, Views: views, Results: res, Now: now, Log: log})
}

// everyoneIn answers getChatMember for the tables alone: everyone asked
// about is a member of the group (the checks themselves are tested end to
// end against the fake Bot API).
type everyoneIn struct{}

func (everyoneIn) GetChatMember(_ context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error) {
	return &models.ChatMember{Type: models.ChatMemberTypeMember, Member: &models.ChatMemberMember{User: &models.User{ID: p.UserID}}}, nil
}

// goldenTables are the tables the golden files are drawn with: the clock
// stopped at golden.Clock.
func goldenTables(t testing.TB) *Tables { return newTables(t, nil, clockAt(golden.Clock)) }

func containsLine(text, line string) bool { return slices.Contains(strings.Split(text, "\n"), line) }

func hasButtonText(m adapter.Message, text string) bool {
	for _, row := range m.Keyboard {
		for _, bt := range row {
			if bt.Text == text {
				return true
			}
		}
	}
	return false
}

func hasButtonData(m adapter.Message, data string) bool {
	for _, row := range m.Keyboard {
		for _, bt := range row {
			if bt.Data == data {
				return true
			}
		}
	}
	return false
}
