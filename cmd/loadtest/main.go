// Command loadtest measures how many updates one bot process applies per
// second against a real Redis, and what each active table costs there.
// Telegram is replaced by an in-process stand-in that answers at once, so
// the numbers are the bot's own (Redis round trips, engine, rendering).
// The delivery worker runs with the production rate limits.
//
//	go run ./cmd/loadtest -tables 10,100,1000,10000 -duration 10s
//
// For each table count it prints updates/s, apply latency percentiles and
// Redis memory per table; the last line is JSON with every result.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// result is one table count's measurement.
type result struct {
	Tables        int     `json:"tables"`
	SetupSeconds  float64 `json:"setup_s"`
	Updates       int64   `json:"updates"`
	UpdatesPerSec float64 `json:"updates_per_s"`
	P50ms         float64 `json:"apply_p50_ms"`
	P99ms         float64 `json:"apply_p99_ms"`
	BytesPerTable int64   `json:"redis_bytes_per_table"`
}

func main() {
	counts := flag.String("tables", "10,100,1000", "active table counts to measure, comma-separated")
	duration := flag.Duration("duration", 10*time.Second, "load time per table count")
	clients := flag.Int("clients", 8, "concurrent update senders")
	redisURL := flag.String("redis", envOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis to use")
	flag.Parse()
	var results []result
	for _, c := range strings.Split(*counts, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "loadtest: bad table count %q\n", c)
			os.Exit(2)
		}
		r, err := measure(n, *duration, *clients, *redisURL)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		fmt.Printf("%6d tables: %7.0f updates/s, apply p50 %.2f ms, p99 %.2f ms, Redis %d bytes/table (setup %.1f s)\n",
			r.Tables, r.UpdatesPerSec, r.P50ms, r.P99ms, r.BytesPerTable, r.SetupSeconds)
		results = append(results, r)
	}
	out, _ := json.Marshal(map[string]any{"clients": *clients, "duration_s": duration.Seconds(), "results": results})
	fmt.Println(string(out))
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// driver feeds one bot process with updates.
type driver struct {
	b      *bot.Bot
	st     *store.Redis
	nextID atomic.Int64
}

func (d *driver) send(ctx context.Context, u *models.Update) error {
	u.ID = d.nextID.Add(1)
	return d.b.HandleUpdate(ctx, u)
}

func user(id int64) models.User {
	return models.User{ID: id, FirstName: "U" + strconv.FormatInt(id, 10)}
}

func group(id int64) models.Chat {
	return models.Chat{ID: id, Type: models.ChatTypeSupergroup, Title: "Load"}
}

func (d *driver) text(ctx context.Context, chat models.Chat, from int64, text string) error {
	u := user(from)
	return d.send(ctx, &models.Update{Message: &models.Message{Chat: chat, From: &u, Text: text}})
}

func (d *driver) press(ctx context.Context, chat models.Chat, from int64, data string) error {
	return d.send(ctx, &models.Update{CallbackQuery: &models.CallbackQuery{
		ID: "q", From: user(from), Data: data,
		Message: models.MaybeInaccessibleMessage{Message: &models.Message{Chat: chat}},
	}})
}

func (d *driver) table(ctx context.Context, chat int64) (*bot.Table, error) {
	rec, err := d.st.Load(ctx, strconv.FormatInt(chat, 10))
	if err != nil {
		return nil, err
	}
	return bot.DecodeTable(rec.Data)
}

// open starts a 3-person game at a group.
func (d *driver) open(ctx context.Context, chat int64) error {
	g := group(chat)
	people := []int64{-chat * 10, -chat*10 + 1, -chat*10 + 2}
	for _, p := range people {
		// What /start in private records; set directly, because the
		// greeting it sends waits for Telegram's global 30/s limit.
		if err := d.st.SetPointer(ctx, "started:"+strconv.FormatInt(p, 10), "1"); err != nil {
			return err
		}
	}
	if err := d.text(ctx, g, people[0], "/newgame"); err != nil {
		return err
	}
	for i, button := range []string{"join", "join", "start"} {
		t, err := d.table(ctx, chat)
		if err != nil {
			return err
		}
		who := people[0]
		if button == "join" {
			who = people[i+1]
		}
		if err := d.press(ctx, g, who, bot.LobbyPayload(t, button)); err != nil {
			return err
		}
	}
	return nil
}

// move presses a random legal move for whoever must act at the group.
func (d *driver) move(ctx context.Context, chat int64, rng *rand.Rand) (time.Duration, bool, error) {
	t, err := d.table(ctx, chat)
	if err != nil {
		return 0, false, err
	}
	st, err := bot.State(t, bot.Trickchef(), bot.Sausages())
	if err != nil {
		return 0, false, err
	}
	if st == nil || st.Over() {
		return 0, false, d.open(ctx, chat) // the game ended: deal a new one
	}
	seat := int(st.ToAct()[0])
	legal := st.Legal(st.ToAct()[0])
	data := bot.ActionPayload(t, seat, legal[rng.IntN(len(legal))])
	start := time.Now()
	err = d.press(ctx, group(chat), t.Seats[seat].UserID, data)
	return time.Since(start), true, err
}

func measure(n int, duration time.Duration, clients int, redisURL string) (result, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prefix := "loadtest:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
	st, err := store.DialRedis(ctx, redisURL, prefix)
	if err != nil {
		return result{}, err
	}
	defer st.Close()
	cat, err := locales.New()
	if err != nil {
		return result{}, err
	}
	b := bot.New(bot.Config{Username: "loadbot", TurnTimeout: time.Hour}, st, &instantTelegram{}, cat, bot.WithGames(bot.Trickchef(), bot.Sausages()))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.RunWorker(ctx) }()
	defer wg.Wait()
	defer cancel()
	d := &driver{b: b, st: st}

	memBefore, err := st.UsedMemory(ctx)
	if err != nil {
		return result{}, err
	}
	setup := time.Now()
	chats := make(chan int64)
	var setupErr atomic.Value
	var sw sync.WaitGroup
	for w := 0; w < clients; w++ {
		sw.Add(1)
		go func() {
			defer sw.Done()
			for c := range chats {
				if err := d.open(ctx, c); err != nil {
					setupErr.Store(err)
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		chats <- -1_000_000_000_000 - int64(i)
	}
	close(chats)
	sw.Wait()
	if err, _ := setupErr.Load().(error); err != nil {
		return result{}, fmt.Errorf("setup: %w", err)
	}
	r := result{Tables: n, SetupSeconds: time.Since(setup).Seconds()}
	time.Sleep(500 * time.Millisecond) // let the first deliveries settle
	memAfter, err := st.UsedMemory(ctx)
	if err != nil {
		return result{}, err
	}
	r.BytesPerTable = (memAfter - memBefore) / int64(n)

	var mu sync.Mutex
	var lat []time.Duration
	var count atomic.Int64
	stop := time.Now().Add(duration)
	var lw sync.WaitGroup
	for w := 0; w < clients; w++ {
		lw.Add(1)
		go func(w int) {
			defer lw.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			var mine []time.Duration
			for time.Now().Before(stop) {
				chat := -1_000_000_000_000 - int64(rng.IntN(n))
				took, ok, err := d.move(ctx, chat, rng)
				if err != nil || !ok {
					continue
				}
				mine = append(mine, took)
				count.Add(1)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}(w)
	}
	lw.Wait()
	r.Updates = count.Load()
	r.UpdatesPerSec = float64(r.Updates) / duration.Seconds()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
		r.P50ms, r.P99ms = ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100])
	}
	cleanup(ctx, st, n)
	return r, nil
}

func cleanup(ctx context.Context, st *store.Redis, n int) {
	for i := 0; i < n; i++ {
		st.Delete(ctx, strconv.FormatInt(-1_000_000_000_000-int64(i), 10))
	}
}

// instantTelegram answers every call at once, like a Bot API server with
// no latency: the load test measures the bot, not the network.
type instantTelegram struct{ nextID atomic.Int64 }

func (t *instantTelegram) msg(chat any) *models.Message {
	id, _ := chat.(int64)
	return &models.Message{ID: int(t.nextID.Add(1)), Chat: models.Chat{ID: id}}
}

func (t *instantTelegram) GetMe(context.Context) (*models.User, error) {
	return &models.User{ID: 1, IsBot: true, Username: "loadbot"}, nil
}
func (t *instantTelegram) SendMessage(_ context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	return t.msg(p.ChatID), nil
}
func (t *instantTelegram) EditMessageText(_ context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	return t.msg(p.ChatID), nil
}
func (t *instantTelegram) DeleteMessage(context.Context, *tgbot.DeleteMessageParams) (bool, error) {
	return true, nil
}
func (t *instantTelegram) AnswerCallbackQuery(context.Context, *tgbot.AnswerCallbackQueryParams) (bool, error) {
	return true, nil
}
func (t *instantTelegram) SetMyCommands(context.Context, *tgbot.SetMyCommandsParams) (bool, error) {
	return true, nil
}
func (t *instantTelegram) GetChatMember(context.Context, *tgbot.GetChatMemberParams) (*models.ChatMember, error) {
	return &models.ChatMember{Type: models.ChatMemberTypeMember}, nil
}
