package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// firstChat is the chat id of table 0; table i is firstChat - i.
const firstChat = -1_000_000_000_000

func chatOf(i int) int64 { return firstChat - int64(i) }

// pace is how the driver treats the bot's timer for a game's system seat
// (a deal after a quiet pause, the next round after the results).
type pace int

const (
	// paceFull measures the bot, not the game's clock: as soon as only the
	// system may act at a table, the driver brings its timer forward to now
	// and the table first in the line of the bot's timers (see hurry), and
	// the bot makes the system move at once, through its ordinary path.
	paceFull pace = iota
	// paceGame lets the bot's timers run in real time, as players see them.
	// The senders press whenever anything is legal, so a quiet pause never
	// runs out; a real-time table waits for the deal when nobody can act
	// (made by the bot's timers when they get to the table) and for the pause
	// after each round.
	paceGame
)

// parsePace reads a -system-pace value.
func parsePace(name string) (pace, bool) {
	switch name {
	case "full":
		return paceFull, true
	case "game":
		return paceGame, true
	}
	return 0, false
}

// name is the -system-pace value, as the JSON line says it ("pace").
func (p pace) name() string {
	if p == paceGame {
		return "game"
	}
	return "full"
}

// String says in the tool's output which pace ran.
func (p pace) String() string {
	if p == paceGame {
		return "the game's own (the bot's timers run in real time and take tables in their own order: a deal when nobody can act or after the quiet pause, the next round after the pause for the results)"
	}
	return "full speed (as soon as only the system may act, its timer is brought forward and the table goes first in the bot's timer line: deals and next rounds come at once)"
}

// driver feeds one bot process with updates, as Telegram would, and reads
// the tables back from the store to pick legal moves.
type driver struct {
	b      *bot.Bot
	st     *store.Redis
	tg     *instantTelegram
	game   adapter.Game   // the game every table plays
	games  []adapter.Game // the games the bot offers
	people int
	pace   pace
	nextID atomic.Int64
	// texts tell an applied press's answer (none, or the toast that
	// names the move) from a refusal.
	texts *bottest.Texts
	// hurried is, by table, the system move last put first in the
	// timers' line (its SystemAt), so each is put there once.
	hurried sync.Map

	cancel context.CancelFunc
	worker sync.WaitGroup
}

// newDriver starts a bot process (its workers included: timers, delivery) over st.
// unlimited lifts the bot's own rate limits, for runs that need every
// change delivered at once rather than at Telegram's pace.
func newDriver(st *store.Redis, g adapter.Game, people int, p pace, unlimited bool) (*driver, error) {
	cat, err := locales.New()
	if err != nil {
		return nil, err
	}
	cfg := bot.Config{Username: "loadbot", TurnTimeout: time.Hour}
	if unlimited {
		cfg.Limits = bot.Limits{GroupInterval: time.Microsecond, PrivateInterval: time.Microsecond,
			GlobalPerSecond: 1 << 30, GlobalSlice: time.Second}
	}
	texts, err := bottest.NewTexts()
	if err != nil {
		return nil, err
	}
	tg := &instantTelegram{}
	d := &driver{st: st, tg: tg, game: g, games: games.All(), people: people, pace: p, texts: texts}
	d.b = bot.New(bot.Params{Config: cfg, Store: st, Telegram: tg, Translator: cat, Games: d.games})
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	d.worker.Add(1)
	go func() { defer d.worker.Done(); d.b.Run(ctx) }()
	return d, nil
}

// stop ends the bot process.
func (d *driver) stop() {
	d.cancel()
	d.worker.Wait()
}

func user(id int64) models.User {
	return models.User{ID: id, FirstName: "U" + strconv.FormatInt(id, 10)}
}

func group(id int64) models.Chat {
	return models.Chat{ID: id, Type: models.ChatTypeSupergroup, Title: "Load"}
}

// peopleOf are the users seated at a table, the creator first.
func (d *driver) peopleOf(chat int64) []int64 {
	out := make([]int64, d.people)
	for i := range out {
		out[i] = -chat*10 + int64(i)
	}
	return out
}

func (d *driver) text(ctx context.Context, chat models.Chat, from int64, text string) error {
	u := user(from)
	return d.b.Tables.Handle(ctx, &models.Update{ID: d.nextID.Add(1), Message: &models.Message{Chat: chat, From: &u, Text: text}})
}

// press sends a button press and returns the bot's answer: none, or the
// toast naming the move, means the press was applied (texts.Accepted);
// anything else is the refusal the player would see.
// handMessage is the id of the hand message a seat's person holds: the one
// the bot recorded for it (a store shared with an earlier run may hold one
// this process never sent); 0 while none is recorded.
func (d *driver) handMessage(ctx context.Context, chat int64, gameNo, seat int) int {
	msgs, err := d.st.Messages(ctx, strconv.FormatInt(chat, 10))
	if err == nil {
		if r := view.ParseMessageRecord(msgs[view.Hand(gameNo, seat)]); r.ID != 0 {
			return r.ID
		}
	}
	return 0
}

func (d *driver) press(ctx context.Context, chat models.Chat, from int64, data string) (string, error) {
	return d.pressOn(ctx, chat, d.tg.latestIn(chat.ID), from, data)
}

// pressOn presses data on message msg in chat.
func (d *driver) pressOn(ctx context.Context, chat models.Chat, msg int, from int64, data string) (string, error) {
	id := d.nextID.Add(1)
	q := strconv.FormatInt(id, 10)
	err := d.b.Tables.Handle(ctx, &models.Update{ID: id, CallbackQuery: &models.CallbackQuery{
		ID: q, From: user(from), Data: data,
		Message: models.MaybeInaccessibleMessage{Message: &models.Message{ID: msg, Chat: chat}},
	}})
	if err != nil {
		return "", err
	}
	ans, ok := d.tg.answer(q)
	if !ok {
		return "", fmt.Errorf("press %q was not answered", data)
	}
	return ans, nil
}

func (d *driver) table(ctx context.Context, chat int64) (*record.Table, error) {
	t, _, err := d.record(ctx, chat)
	return t, err
}

// record loads a table and the version it was stored at.
func (d *driver) record(ctx context.Context, chat int64) (*record.Table, int64, error) {
	rec, err := d.st.Load(ctx, strconv.FormatInt(chat, 10))
	if err != nil {
		return nil, 0, err
	}
	t, err := record.Decode(rec.Data)
	return t, rec.Version, err
}

// hurry makes the system's move at a table come now: it brings a running
// system timer forward to now, and puts a table whose system move is due
// first in the line of the bot's timers (tables are claimed earliest due
// time first; a due time an hour early jumps the line). A real-time game
// is dealt by that line, which under a full load is busy with the other
// tables' timers: without this the driver would measure how long deals
// queue rather than what the bot applies. Only the timer and the due time
// are touched; the move is the bot's own, through its ordinary path. It
// reports whether a timer was brought forward (false: none was running, it
// was already due, or the bot changed the table meanwhile).
func (d *driver) hurry(ctx context.Context, chat int64, t *record.Table, version int64) (bool, error) {
	id := strconv.FormatInt(chat, 10)
	now := time.Now()
	switch {
	case t.SystemAt.IsZero():
		return false, nil
	case !t.SystemAt.After(now):
		if last, ok := d.hurried.Load(chat); ok && last.(time.Time).Equal(t.SystemAt) {
			return false, nil // already first in line, or being served
		}
		d.hurried.Store(chat, t.SystemAt)
		return false, d.st.Schedule(ctx, store.Timers, id, now.Add(-time.Hour))
	}
	t.SystemAt = now
	d.hurried.Store(chat, now)
	data, err := json.Marshal(t) // the record's own encoding (record.Decode reads JSON)
	if err != nil {
		return false, err
	}
	// A full commit sets the table's due time in the timers line exactly.
	_, err = d.st.Commit(ctx, id, store.Change{Version: version, Data: data, TimerAt: now.Add(-time.Hour)})
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// errNotInPlay reports a table whose game did not start.
var errNotInPlay = errors.New("not in play after setup")

// open starts a game at a group the way people do: /newgame <game> names
// the game, the others press «join», the creator «start». It checks the
// table is in play afterwards.
func (d *driver) open(ctx context.Context, chat int64) error {
	g := group(chat)
	people := d.peopleOf(chat)
	for _, p := range people {
		// What /start in private records; set directly, because the
		// greeting it sends waits for Telegram's global limit.
		if err := d.st.SetPointer(ctx, store.StartedKey(p), "1"); err != nil {
			return err
		}
	}
	if err := d.text(ctx, g, people[0], "/newgame "+d.game.ID()); err != nil {
		return err
	}
	t, err := d.table(ctx, chat)
	if err != nil {
		return fmt.Errorf("table %d after /newgame: %w", chat, err)
	}
	for _, p := range people[1:] {
		if _, err := d.press(ctx, g, p, bot.LobbyPayload(t, "join")); err != nil {
			return err
		}
	}
	if _, err := d.press(ctx, g, people[0], bot.LobbyPayload(t, "start")); err != nil {
		return err
	}
	if t, err = d.table(ctx, chat); err != nil {
		return err
	}
	if t.Phase != record.PhasePlaying || t.GameID != d.game.ID() {
		return fmt.Errorf("table %d %w: phase %q, game %q, %d seats", chat, errNotInPlay, t.Phase, t.GameID, len(t.Seats))
	}
	return nil
}

// step is what one call of move did.
type step struct {
	took    time.Duration // the press, from sending to its answer
	pressed bool          // a move was pressed (false: the game was over, or nobody can act)
	waiting bool          // only the system may act: the table waits for the bot's timer
	hurried bool          // the system's timer was brought forward (paceFull)
	applied bool          // the press was applied (false: refused)
	over    bool          // the table's game is over (nothing was pressed)
	answer  string        // the refusal, if any
}

// move presses a random legal move for a random seat that may act.
// When only the system may act, at full pace it hurries the system's timer.
func (d *driver) move(ctx context.Context, chat int64, rng *rand.Rand) (step, error) {
	t, version, err := d.record(ctx, chat)
	if err != nil {
		return step{}, err
	}
	st, err := bot.State(t, d.games...)
	if err != nil {
		return step{}, err
	}
	if st == nil || st.Over() || t.Phase != record.PhasePlaying {
		return step{over: true}, nil
	}
	var acting []game.Seat
	for _, s := range st.ToAct() {
		if s != game.System && len(st.Legal(s)) > 0 {
			acting = append(acting, s)
		}
	}
	if len(acting) == 0 {
		// The system moves next, on its own timer.
		if d.pace != paceFull {
			return step{waiting: true}, nil
		}
		hurried, err := d.hurry(ctx, chat, t, version)
		return step{waiting: true, hurried: hurried}, err
	}
	seat := acting[rng.IntN(len(acting))]
	legal := st.Legal(seat)
	data := bot.ActionPayload(t, int(seat), legal[rng.IntN(len(legal))])
	start := time.Now()
	// A seat's button lives in its person's private chat, and only a
	// press from there counts.
	// A seat's button is pressed on the hand its person was sent. The
	// driver acts on the stored state, which can run ahead of delivery
	// (a hand not sent yet, or replaced while the press was on its way:
	// «кнопка устарела»); then it presses again on the newest hand, as a
	// person would, for up to three seconds (a private chat's pace).
	uid := t.Seats[seat].UserID
	stale := d.texts.T("error.stale")
	var ans string
	for try := 0; try < 300; try++ {
		ans, err = d.pressOn(ctx, models.Chat{ID: uid, Type: models.ChatTypePrivate}, d.handMessage(ctx, chat, t.GameNo, int(seat)), uid, data)
		if err != nil || ans != stale {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return step{took: time.Since(start), pressed: true, applied: err == nil && d.texts.Accepted(ans), answer: ans}, err
}

// setup opens a game at each of n tables, with the given number of
// concurrent senders; any table not in play afterwards is an error.
func (d *driver) setup(ctx context.Context, n, clients int) error {
	return forTables(ctx, n, clients, func(ctx context.Context, i int) error { return d.open(ctx, chatOf(i)) })
}

// forTables runs fn for tables 0..n-1 on clients goroutines and returns the
// first error (the others stop taking tables then).
func forTables(ctx context.Context, n, clients int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := atomic.Int64{}
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range min(clients, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}
