package cupplay

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/play"
	"github.com/trickchef/trickchef/bot/tables/standings"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// The cups are tested over the embedded store and a real Redis.
func TestMain(m *testing.M) { redistest.Main(m) }

// testStore is the store the cups' tests need: the transaction's and the
// tips' pointers.
type testStore interface {
	txn.Store
	play.TipsStore
}

// testBolt opens an embedded store in the test's temporary directory.
func testBolt(t testing.TB) *store.Bolt {
	t.Helper()
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "b.db"), store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// testGame is the real game with the given id.
func testGame(t testing.TB, id string) adapter.Game {
	t.Helper()
	g, ok := view.Games(games.All()).Get(id)
	if !ok {
		t.Fatalf("no game %q", id)
	}
	return g
}

// noPlays: nobody has played anything (tips are not what is tested).
type noPlays struct{}

func (noPlays) Played(context.Context, int64, string) bool { return false }

// everyoneIn: everyone asked about is a member of the group.
type everyoneIn struct{}

func (everyoneIn) GetChatMember(_ context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error) {
	return &models.ChatMember{Type: models.ChatMemberTypeMember, Member: &models.ChatMemberMember{User: &models.User{ID: p.UserID}}}, nil
}

// rig is the cups' runtime over st, built as the tables build it, with
// the jobs that run a host's cup jobs.
type rig struct {
	tx    *txn.Txn
	cups  *Cups
	jobs  *standings.Jobs
	limit int
	// belong takes a person who left the group out of its tables and cups.
	belong *lobby.Belonging
}

func newRig(t testing.TB, st testStore) *rig {
	t.Helper()
	now := time.Now
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)
	views := view.New(view.Config{Username: "trickchefbot", TurnTimeout: time.Minute, DefaultLang: locales.Default},
		view.Games(games.All()), golden.Catalog(t), now, log)
	tx := txn.New(st, views, locales.Default, now, log, nil)
	tips := play.NewTips(st, noPlays{}, tx, views)
	moves := play.NewMoves(views, tips, 0, 200*time.Millisecond, now, log, nil)
	names := lobby.NewNames(views)
	menus := lobby.NewMenus(views, tx, nil)
	lb := lobby.New(members.New(everyoneIn{}, now, log), views, tx, names, moves, tips, menus, now)
	group := lobby.NewGroup(tx, 0)
	leaving := play.NewLeaving(views, moves, now)
	c := New(tx, views, st, group, names, lb, leaving, now, log)
	jobs := standings.NewJobs(nil, nil, tx, views)
	jobs.WithCups(c)
	belong := lobby.NewBelonging(members.New(everyoneIn{}, now, log), st, tx, views, group, leaving, log)
	belong.ThenGone(c.Gone)
	return &rig{tx: tx, cups: c, jobs: jobs, limit: group.Limit(), belong: belong}
}

// load is table id as committed.
func (r *rig) load(t testing.TB, id string) *record.Table {
	t.Helper()
	tab, _, err := r.tx.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// startCupOfSix opens a cup of Трик-н-Шеф for six people (user ids 1…6)
// at host and starts it: the host after the start, its round's tables
// not opened yet (its job).
func startCupOfSix(t *testing.T, tb *rig, host string) *record.Table {
	t.Helper()
	gatherCupOfSix(t, tb, host)
	h, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Press(h, h.GameNo, cups.Start, cups.Person{User: 1}, false, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// gatherCupOfSix opens a cup of Трик-н-Шеф at host and has six people
// (user ids 1…6) join it, not started.
func gatherCupOfSix(t *testing.T, tb *rig, host string) {
	t.Helper()
	g := testGame(t, "trickchef")
	if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
		return env.Open(h, g, 2, cups.Person{User: 1, Name: "Аня"}, true)
	}); err != nil {
		t.Fatal(err)
	}
	for u := int64(2); u <= 6; u++ {
		if _, err := cupChangeAt(t, tb, host, func(h *record.Table, env cups.Env) (cups.Out, error) {
			return env.Press(h, h.GameNo, cups.Join, cups.Person{User: u, Name: "P"}, false, true)
		}); err != nil {
			t.Fatal(err)
		}
	}
}
