package bot_test

// Fuzz tests of the two ways anyone in a group can talk to the bot: the
// callback data of a button press and the text of a command. Run as normal
// tests they check the seed corpus; to fuzz:
//
//	go test ./bot -run '^$' -fuzz FuzzCallbackData -fuzztime 60s
//	go test ./bot -run '^$' -fuzz FuzzCommandText -fuzztime 60s

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/record"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// answerCounter is the Bot API client of a fuzzed bot: calls go to the fake
// server, except answerCallbackQuery, which is counted per query id.
type answerCounter struct {
	bot.Telegram
	mu      sync.Mutex
	answers map[string]int
}

func (a *answerCounter) AnswerCallbackQuery(_ context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.answers[p.CallbackQueryID]++
	return true, nil
}

func (a *answerCounter) count(id string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.answers[id]
}

// fuzzTable is a game in progress, waiting for Аня's chef pick, and a bot
// over its store that nothing else drives: the harness that set it up is
// stopped, so any change is the fuzzed input's doing.
type fuzzTable struct {
	bot      *bot.Bot
	tg       *answerCounter
	store    *store.Redis
	rc       redis.UniversalClient
	prefix   string
	id       string
	group    models.Chat
	tableMsg int
	hand     *telegramtest.Message // Аня's hand, for seed payloads
	owner    *telegramtest.User    // Аня: created the table, owns the group
	member   *telegramtest.User    // Борис: seated, neither creator nor admin
	stranger *telegramtest.User    // in the group, not at the table
	updates  atomic.Int64
}

func newFuzzTable(f *testing.F) *fuzzTable {
	f.Helper()
	srv := telegramtest.NewServer(telegramtest.WithoutLimits(), telegramtest.WithTB(f))
	f.Cleanup(srv.Close)
	rc := redistest.Client(f)
	prefix := redistest.Prefix(f)
	st := store.NewRedis(rc, prefix, store.Config{})
	// A time for a move that never runs out while fuzzing, and a group of
	// one table: with more, /newgame and ▶️ open the next free table while
	// this game runs, and a press or a command then rightly creates a table
	// (bot/tables_e2e_test.go plays that); with one they are answered that
	// every table is taken, and must change nothing like any other.
	const turn, maxTables = 59 * time.Minute, 1
	h := &bottest.Harness{Games: allGames(), Srv: srv, Store: st, Cfg: bot.Config{TurnTimeout: turn, MaxTables: maxTables}, Log: zerolog.Nop()}
	if err := h.Start(); err != nil {
		f.Fatal(err)
	}
	ft := &fuzzTable{store: st, rc: rc, prefix: prefix}
	ft.owner, ft.member, ft.stranger = srv.NewUser("Аня"), srv.NewUser("Борис"), srv.NewUser("Чужой")
	c := srv.NewUser("Вера")
	for _, u := range []*telegramtest.User{ft.owner, ft.member, ft.stranger, c} {
		if err := h.Begin(u); err != nil {
			f.Fatal(err)
		}
	}
	group := srv.NewGroup("Фазз", ft.owner, ft.member, c, ft.stranger)
	lobby, err := h.Lobby(group, ft.owner, []*telegramtest.User{ft.member, c}, 0)
	if err != nil {
		f.Fatal(err)
	}
	if err := h.StartGame(ft.owner, lobby); err != nil {
		f.Fatal(err)
	}
	if ft.hand, err = ft.owner.PrivateChat().WaitMessage(10*time.Second, bottest.Contains(h.Shown("trickchef.hand_pick"))); err != nil {
		f.Fatal(err)
	}
	table, err := group.WaitMessage(10*time.Second, inRound(h, 1))
	if err != nil {
		f.Fatal(err)
	}
	h.Stop()
	ft.id, ft.group, ft.tableMsg = strconv.FormatInt(group.ID(), 10), group.Chat(), table.ID

	client, err := tgbot.New(bottest.Token, tgbot.WithServerURL(srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		f.Fatal(err)
	}
	cat, err := locales.New()
	if err != nil {
		f.Fatal(err)
	}
	ft.tg = &answerCounter{Telegram: client, answers: map[string]int{}}
	ft.bot = bot.New(bot.Params{Config: bot.Config{Username: srv.Bot().Username, TurnTimeout: turn, MaxTables: maxTables}, Store: st, Telegram: ft.tg, Translator: cat, Log: zerolog.Nop(), Games: allGames()})
	return ft
}

// tables lists the ids of all table records in the store.
func (ft *fuzzTable) tables(t *testing.T) []string {
	t.Helper()
	var ids []string
	iter := ft.rc.Scan(context.Background(), 0, ft.prefix+"t:*:rec", 1000).Iterator()
	for iter.Next(context.Background()) {
		ids = append(ids, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

func (ft *fuzzTable) load(t *testing.T) (*record.Table, int64) {
	t.Helper()
	rec, err := ft.store.Load(context.Background(), ft.id)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := record.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return tab, rec.Version
}

func (ft *fuzzTable) nextUpdate() int64 { return 700000000 + ft.updates.Add(1) }

// withTable puts the real table id where a seed says {T}.
func (ft *fuzzTable) withTable(s string) string { return strings.ReplaceAll(s, "{T}", ft.id) }

// FuzzCallbackData presses a button with arbitrary data as a stranger: on
// the group's table message or in the stranger's private chat. The press
// must be handled without error (an error means Telegram delivers the
// update again, forever), answered exactly once, and change no table.
func FuzzCallbackData(f *testing.F) {
	ft := newFuzzTable(f)
	for _, row := range ft.hand.Keyboard {
		for _, b := range row {
			if b.CallbackData != "" {
				f.Add(b.CallbackData, true)
				f.Add(strings.ReplaceAll(b.CallbackData, ft.id, "{T}"), false)
			}
		}
	}
	for _, s := range []string{
		"a:{T}:1:0:0:0", "a:{T}:1:1:0:0", "a:{T}:1:0:0:99999", "a:{T}:1:9:0:0", "a:{T}:0:0:0:0",
		"a:{T}:1:-1:0:0", "a:{T}:1:0:-1:0", "a:{T}:1:0:0:-5", "a:{T}:2:0:0:0",
		"m:{T}:1:0:0:0", "m:{T}:1:0:0:1", "m:{T}:1:1:0:-1", "m:{T}:1:0:0:21",
		"i:{T}:1:0", "i:{T}:1:2", "i:{T}:1:7", "b:{T}:1:0", "b:{T}:1:1",
		"s:{T}:1:1", "s:{T}:1:0", "s:{T}:0:1",
		"l:{T}:1:1", "l:{T}:1:2", "l:{T}:1:3", "l:{T}:1:4", "l:{T}:1:5", "l:{T}:1:6", "l:{T}:1:7:0", "l:{T}:1:8", "l:{T}:1:99",
		"l:{T}:2:1", "l:-100200:1:1", "l:-1002000000999:1:1", "a:-1:1:0:0:0", "s:5:0:1", "l:{T}_7:1:1",
		"a:+{T}:1:0:0:0", "a:{T}:01:0:0:0", "a:{T}:1:0:0:0:0", "a:{T}:1:0:0", "a:{T}::0:0:0", "a:{T}:1:0:0:9223372036854775807",
		"", ":", "::", "a", "a:", "garbage", "x:{T}:1:0", strings.Repeat("x", 64), strings.Repeat("9", 65),
		"a:{T}:1:0:0:0\x00", "l:{T}:1:1 ", "l:{T}\n:1:1", "ж:{T}:1:1",
		"o:{T}:0:trickchef", "o:{T}:0:sausages", "o:{T}:1:chef", "o:{T}:0:nosuchgame", "o:{T}:0:", "o:{T}:0:chef:1",
		"o:-100200:0:chef", "o:{T}:0:Chef", "g:{T}:0:en", "g:{T}:0:ru", "g:{T}:0:de", "g:{T}:0:EN", "g:{T}:0:en:1",
		"g:{T}:1:en", "g:-100200:0:en", "g:{T}:0:", "k:{T}:1:sausages", "k:{T}:1:trickchef", "k:{T}:0:chef",
		"x:{T}:1:0:1", "x:{T}:1:0:2", "x:{T}:1:0:0", "x:{T}:1:0:3", "x:{T}:1:7:2", "x:{T}:0:0:2", "x:{T}:1:-1:2",
	} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, data string, inGroup bool) {
		data = ft.withTable(data)
		before, v0 := ft.load(t)
		tables := len(ft.tables(t))
		id := ft.nextUpdate()
		chat, msgID := ft.group, ft.tableMsg
		if !inGroup {
			chat, msgID = models.Chat{ID: ft.stranger.ID(), Type: models.ChatTypePrivate, FirstName: "Чужой"}, 1
		}
		u := &models.Update{ID: id, CallbackQuery: &models.CallbackQuery{
			ID: "fz" + strconv.FormatInt(id, 10), From: ft.stranger.User(), ChatInstance: "1", Data: data,
			Message: models.MaybeInaccessibleMessage{
				Type:    models.MaybeInaccessibleMessageTypeMessage,
				Message: &models.Message{ID: msgID, Chat: chat, Date: int(time.Now().Unix())},
			},
		}}
		if err := ft.bot.Tables.Handle(context.Background(), u); err != nil {
			t.Fatalf("press %q: error %v (the update would be delivered again and again)", data, err)
		}
		if n := ft.tg.count(u.CallbackQuery.ID); n != 1 {
			t.Errorf("press %q answered %d times, want once", data, n)
		}
		after, v := ft.load(t)
		if v != v0 || !reflect.DeepEqual(before, after) {
			t.Errorf("a stranger's press %q changed the table: version %d → %d", data, v0, v)
		}
		if n := len(ft.tables(t)); n != tables {
			t.Errorf("a stranger's press %q created a table (%d → %d)", data, tables, n)
		}
	})
}

// FuzzCommandText sends arbitrary text as a seated player who is neither
// the table's creator nor an admin. It must be handled without error and
// never touch the game: no move, no stop, no new game; only announcements
// (and /lang) may change the record.
func FuzzCommandText(f *testing.F) {
	ft := newFuzzTable(f)
	for _, s := range []string{
		"/newgame", "/newgame@trickchef_test_bot", "/newgame trickchef", "/newgame Трик-н-Шеф", "/newgame nosuchgame",
		"/stop", "/stop@trickchef_test_bot", "/table", "/rules", "/help", "/start", "/start j{T}", "/lang", "/lang en", "/lang ru",
		"/lang de", "/foo@trickchef_test_bot", "/rules nosuchgame", "/newgame сосиски", "/start rchef",
		"/NEWGAME", "/Stop", "/newgame@otherbot", "/newgame@", "/@trickchef_test_bot", "/", "//", "/ ", " /newgame",
		"/newgame\n/stop", "/stop\tnow", "/lang русский", "/lang xx yy zz", "hello", "", "стоп", "/стоп",
		"/newgame@TRICKCHEF_TEST_BOT", "/table@trickchef_test_bot extra", strings.Repeat("/", 100),
		"/" + strings.Repeat("a", 4000), "/start " + strings.Repeat("j", 70), "\x00/newgame", "/newgame\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		text = ft.withTable(text)
		before, _ := ft.load(t)
		id := ft.nextUpdate()
		u := &models.Update{ID: id, Message: &models.Message{
			ID: int(id % 1000000), From: ptr(ft.member.User()), Chat: ft.group, Text: text, Date: int(time.Now().Unix()),
		}}
		if err := ft.bot.Tables.Handle(context.Background(), u); err != nil {
			t.Fatalf("command %q: error %v (the update would be delivered again and again)", text, err)
		}
		after, _ := ft.load(t)
		// Fields a member's command may change: the chat title, the time
		// of the last change and the table's reposts (/table) — not the
		// language: that is for admins and the table's creator.
		after.Updated, after.Title, after.Reposts = before.Updated, before.Title, before.Reposts
		if !reflect.DeepEqual(before, after) {
			t.Errorf("a member's %q changed the game:\nbefore %+v\nafter  %+v", text, before, after)
		}
		if after.Phase != record.PhasePlaying {
			t.Fatalf("%q: the game is no longer being played (%s)", text, after.Phase)
		}
		st, err := bot.Replay(after, allGames()...)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := st.MarshalBinary(); string(got) != string(after.State) {
			t.Errorf("%q: the stored game no longer replays from its log", text)
		}
	})
}

func ptr[T any](v T) *T { return &v }
