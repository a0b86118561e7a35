package tables

import (
	"context"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/internal/members"
	"github.com/trickchef/trickchef/bot/internal/retry"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/store"
)

// Config is what the tables are told from outside. (A person's time for a
// move is the views': view.Renderer.TurnTime, one source for the timers
// and every text that names it.)
type Config struct {
	AIDelay     time.Duration // pause before a robot (or the bot for a person) moves
	AIBudget    time.Duration // how long a searching robot may think
	DefaultLang string
	// WebLease is how long a page that said it is visible counts as
	// visible without saying it again.
	WebLease time.Duration
	// MaxTables is how many tables a group (or topic) may hold at once,
	// 1 to record.MaxLimit (0: 4). /newgame opens the next free one.
	MaxTables int
	// Members answers whether someone belongs at a group's table: who
	// presses its buttons or comes by its join link (belong.go; shared
	// with the «Стол» page, and told by the tables who left); nil: a
	// cache of the tables' own.
	Members *members.Cache
}

// Store is the part of the store the tables use: the records and their
// commits, the timers' queue, pointers, and what a group's upgrade moves.
type Store interface {
	lease.Store
	retry.Store
	Load(ctx context.Context, table string) (store.Record, error)
	LoadFor(ctx context.Context, table string, updateID int64, view string) (store.Record, bool, string, error)
	Commit(ctx context.Context, table string, c store.Change) (int64, error)
	Applied(ctx context.Context, table string, updateID int64) (bool, error)
	Delete(ctx context.Context, table string) error
	Pointer(ctx context.Context, key string) (string, error)
	SetPointer(ctx context.Context, key, value string) error
	Messages(ctx context.Context, table string) (map[string]string, error)
	SetMessage(ctx context.Context, table, view, record string) error
	Outbox(ctx context.Context, table string, n int) ([]store.Envelope, error)
	// The finished games kept for their reviews (standings/reviews.go), and the
	// queue of reviews asked for.
	Schedule(ctx context.Context, q store.Queue, name string, at time.Time) error
	KeepGame(ctx context.Context, ref string, people []int64, data []byte) error
	KeptGame(ctx context.Context, ref string) ([]byte, error)
	KeptGames(ctx context.Context, user int64, n int) ([]string, error)
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
	// Forgetting a person (standings/forget.go): what the store cannot read itself.
	RewriteKeptGame(ctx context.Context, ref string, data []byte, drop []int64) error
	DropKeptGame(ctx context.Context, ref string) error
	DropDeadLetters(ctx context.Context, match func(store.DeadLetter) bool) (int, error)
	Pointers(ctx context.Context, prefix string) (map[string]string, error)
	DeletePointer(ctx context.Context, key, value string) error
	// PlayerChats are the groups a person has results in: forget visits
	// their tables (a group's season is kept at its table 1).
	PlayerChats(ctx context.Context, player string) ([]int64, error)
}

// Telegram is the part of the Bot API the tables call: who the bot is, its
// command menus, whether someone administers a group, and the answer to a
// press (not rate-limited). Nothing here posts to a chat: that is
// delivery's alone.
type Telegram interface {
	GetMe(ctx context.Context) (*models.User, error)
	SetMyCommands(ctx context.Context, p *tgbot.SetMyCommandsParams) (bool, error)
	GetChatMember(ctx context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error)
	AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error)
}

// Results is what the tables ask of the results role.
type Results interface {
	// Record stores a finished game once and rates it: the seats' rating
	// changes, nil when this call did not rate it.
	Record(ctx context.Context, e *record.Result) ([]record.RatingChange, error)
	// Valid reports whether a finished game can be recorded at all.
	Valid(e *record.Result) bool
	// PrivateResult is seat i's own result of e, in private; again
	// offers «play again».
	PrivateResult(t *record.Table, e *record.Result, i int, rc *record.RatingChange, again bool) adapter.Message
	// WebRatings are the rating changes the page shows, by player id.
	WebRatings(e *record.Result, changes []record.RatingChange) map[string][2]float64
	// Answer renders a group's results command.
	Answer(ctx context.Context, t *record.Table, q *record.Query) adapter.Message
	// PrivateStats answers /stats in private.
	PrivateStats(ctx context.Context, l adapter.Loc, user int64, name string) (adapter.Message, error)
	// PrivateSeasons answers /season in private; group gives a group's
	// own table (nil when unknown).
	PrivateSeasons(ctx context.Context, l adapter.Loc, user int64, name string, group func(chat int64) *record.Table) (adapter.Message, error)
	// Played reports whether user has a recorded game of gameID.
	Played(ctx context.Context, user int64, gameID string) bool
	// Forget deletes a person's results and ratings everywhere.
	Forget(ctx context.Context, user int64) error
	// MoveChat merges a group's results into the supergroup it became.
	MoveChat(ctx context.Context, from, to int64) error
}

// calls are the Bot API calls the router makes itself: who administers a
// group, and the answer to a press.
type calls struct {
	tg  Telegram
	log zerolog.Logger
}

// isAdmin asks Telegram whether a user administers the group.
func (c *calls) isAdmin(ctx context.Context, chatID, userID int64) bool {
	cm, err := c.tg.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: chatID, UserID: userID})
	if err != nil {
		c.log.Warn().Err(err).Int64("chat", chatID).Msg("getChatMember failed")
		return false
	}
	return cm.Type == models.ChatMemberTypeOwner || cm.Type == models.ChatMemberTypeAdministrator
}

// answer answers a press: a toast (or an alert), or a link to open.
func (c *calls) answer(ctx context.Context, q *models.CallbackQuery, text string, alert bool, url string) {
	_, err := c.tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{
		CallbackQueryID: q.ID,
		Text:            text,
		ShowAlert:       alert,
		URL:             url,
	})
	if err != nil {
		c.log.Debug().Err(err).Msg("answerCallbackQuery failed")
	}
}
