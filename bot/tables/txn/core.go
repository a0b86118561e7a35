package txn

import (
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/retry"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// Store is the part of the store the transaction uses: the records and
// their commits, the pointers it keeps beside them, and the failures it
// counts.
type Store interface {
	retry.Store
	Load(ctx context.Context, table string) (store.Record, error)
	LoadFor(ctx context.Context, table string, updateID int64, view string) (store.Record, bool, string, error)
	Commit(ctx context.Context, table string, c store.Change) (int64, error)
	Applied(ctx context.Context, table string, updateID int64) (bool, error)
	Pointer(ctx context.Context, key string) (string, error)
	SetPointer(ctx context.Context, key, value string) error
	Messages(ctx context.Context, table string) (map[string]string, error)
}

// Txn is the tables' one transaction: what it reads and commits through,
// and who it tells of a commit.
type Txn struct {
	store       Store
	views       *view.Renderer
	defaultLang string
	now         func() time.Time
	log         zerolog.Logger
	metrics     *metrics.Metrics // nil: not measured
	// wake is called after every commit: delivery (and the timers) look at
	// the table at once.
	wake func()
	// cupOf, if set, tells which cup's round holds a table, from its
	// cup's host: a salvaged record keeps its place in a cup by it.
	cupOf CupOf
}

// CupOf tells which cup's round table id is, and false when none is
// waiting for it (its cup's host says so: the table's own record may be
// unreadable).
type CupOf func(ctx context.Context, id string) (record.CupTable, bool)

// CupsFrom sets where a salvaged table learns its place in a cup.
func (c *Txn) CupsFrom(f CupOf) { c.cupOf = f }

// New builds the transaction over st; views decode and name the tables,
// defaultLang is a fresh table's language.
func New(st Store, views *view.Renderer, defaultLang string, now func() time.Time, log zerolog.Logger, m *metrics.Metrics) *Txn {
	return &Txn{store: st, views: views, defaultLang: defaultLang, now: now, log: log, metrics: m, wake: func() {}}
}

// OnCommit sets what a commit calls.
func (c *Txn) OnCommit(wake func()) { c.wake = wake }

// Wake tells delivery and the timers that a table changed.
func (c *Txn) Wake() { c.wake() }

// Decode is the table's game and its decoded state.
// A game that cannot read its state (or a game the bot no longer offers)
// is a broken table: Transact fences it off.
func Decode(views *view.Renderer, t *record.Table) (adapter.Game, game.State, error) {
	g, st, err := views.Decode(t)
	if err != nil {
		return nil, nil, Broken(err)
	}
	return g, st, nil
}

// HasStarted reports whether user opened the private chat (the bot may
// write to them). It only reads the store.
func (c *Txn) HasStarted(ctx context.Context, user int64) bool {
	_, err := c.store.Pointer(ctx, store.StartedKey(user))
	return err == nil
}

// UserLang picks a language for a user from their Telegram client.
func (c *Txn) UserLang(u *models.User) string {
	if u != nil {
		if lang := locales.Normalize(u.LanguageCode); lang != "" {
			return lang
		}
	}
	return c.defaultLang
}

// CloseTable ends whatever the table was doing without a result.
func CloseTable(t *record.Table) {
	t.Phase = record.PhaseIdle
	t.StopTimers()
	t.StopAsked = 0
}

// GiveToken mints table id's token when it has none (a commit mints it),
// and returns the token.
func (c *Txn) GiveToken(ctx context.Context, id string) (string, error) {
	t, _, err := c.Transact(ctx, id, 0, func(t *record.Table, ch *Change) error {
		if t.Token != "" {
			return refusal.ErrNoChange
		}
		return nil
	})
	if err != nil && !errors.Is(err, refusal.ErrNoChange) {
		return "", err
	}
	return t.Token, nil
}

// nameTable begins what a change of table 2 and on (or of a Numbered
// table 1) posts to its group with the table's name (view.Named): «Стол
// 2», then the text. What is the group's (PostGroup) is not named.
func (c *Txn) nameTable(t *record.Table, ch *Change) {
	l := c.views.Loc(t.Lang)
	if view.TableName(l, t) == "" {
		return
	}
	for i := range ch.Outbox {
		if e := &ch.Outbox[i]; e.ChatID == t.ChatID && !ch.group[i] {
			e.Text = view.Named(l, t, e.Text)
		}
	}
}
