package telegramtest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

func newClient(t *testing.T, s *Server) *bot.Bot {
	t.Helper()
	b, err := bot.New("123:test", bot.WithServerURL(s.URL), bot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type response struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  responseParams  `json:"parameters"`
}

// callJSON posts a JSON body the way many clients (and our own poll loop) do.
func callJSON(t *testing.T, s *Server, method string, body any) response {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(s.URL+"/bot123:test/"+method, "application/json", strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, resp)
}

func callForm(t *testing.T, s *Server, method string, v url.Values) response {
	t.Helper()
	resp, err := http.PostForm(s.URL+"/bot123:test/"+method, v)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, resp)
}

func decode(t *testing.T, resp *http.Response) response {
	t.Helper()
	defer resp.Body.Close()
	var r response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if !r.OK && resp.StatusCode != r.ErrorCode {
		t.Errorf("HTTP status %d, error_code %d", resp.StatusCode, r.ErrorCode)
	}
	return r
}

func getUpdates(t *testing.T, s *Server, body map[string]any) []models.Update {
	t.Helper()
	r := callJSON(t, s, "getUpdates", body)
	if !r.OK {
		t.Fatalf("getUpdates: %d %s", r.ErrorCode, r.Description)
	}
	var ups []models.Update
	if err := json.Unmarshal(r.Result, &ups); err != nil {
		t.Fatal(err)
	}
	return ups
}

func wantErr(t *testing.T, err error, sentinel error, desc string) {
	t.Helper()
	if err == nil || !errors.Is(err, sentinel) || !strings.HasSuffix(err.Error(), desc) {
		t.Fatalf("got error %v, want %v ending in %q", err, sentinel, desc)
	}
}

func keyboard(rows ...[]models.InlineKeyboardButton) *models.InlineKeyboardMarkup {
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}

func TestSendEditNotModifiedNotFound(t *testing.T) {
	s := NewServer(WithTB(t), WithoutLimits())
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	alice := s.NewUser("Alice")
	alice.Start("")
	kb := keyboard([]models.InlineKeyboardButton{{Text: "Play", CallbackData: "p:1"}, {Text: "Rules", URL: "https://example.com"}})
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: alice.ID(), Text: "<b>Your</b> hand", ParseMode: models.ParseModeHTML, ReplyMarkup: kb})
	if err != nil {
		t.Fatal(err)
	}
	if m.From == nil || m.From.ID != s.Bot().ID || m.Chat.ID != alice.ID() || m.Text != "Your hand" || m.Date == 0 {
		t.Fatalf("bad message %+v", m)
	}
	if len(m.Entities) != 1 || m.Entities[0].Type != models.MessageEntityTypeBold || m.Entities[0].Length != 4 {
		t.Fatalf("entities %+v", m.Entities)
	}
	last := alice.PrivateChat().Last()
	if last.ID != m.ID || last.Keyboard[0][0] != (Button{Text: "Play", CallbackData: "p:1"}) || last.Keyboard[0][1].URL == "" {
		t.Fatalf("chat shows %+v", last)
	}

	edited, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: alice.ID(), MessageID: m.ID, Text: "New hand", ReplyMarkup: kb})
	if err != nil || edited.Text != "New hand" || edited.EditDate == 0 {
		t.Fatalf("edit: %v %+v", err, edited)
	}
	_, err = b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: alice.ID(), MessageID: m.ID, Text: "New hand", ReplyMarkup: kb})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: "+notModified)

	// Telegram drops the keyboard when an edit does not repeat it.
	if _, err = b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: alice.ID(), MessageID: m.ID, Text: "New hand"}); err != nil {
		t.Fatal(err)
	}
	if kb := alice.PrivateChat().Message(m.ID).Keyboard; kb != nil {
		t.Fatalf("keyboard kept: %v", kb)
	}
	_, err = b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: alice.ID(), MessageID: 999, Text: "x"})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: message to edit not found")

	if _, err = b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: alice.ID(), MessageID: m.ID}); err != nil {
		t.Fatal(err)
	}
	if alice.PrivateChat().Message(m.ID) != nil {
		t.Fatal("deleted message still shown")
	}
	_, err = b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: alice.ID(), MessageID: m.ID})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: message to delete not found")
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: -42, Text: "x"})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: chat not found")
}

func TestStartBlockAndDeepLink(t *testing.T) {
	s := NewServer(WithTB(t))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	alice := s.NewUser("Alice", WithUsername("alice"), WithLanguage("ru"))
	_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: alice.ID(), Text: "hi"})
	wantErr(t, err, bot.ErrorForbidden, "Forbidden: bot can't initiate conversation with a user")

	alice.Start("join_t42")
	ups := getUpdates(t, s, map[string]any{})
	if len(ups) != 1 || ups[0].Message == nil {
		t.Fatalf("updates %+v", ups)
	}
	msg := ups[0].Message
	if msg.Text != "/start join_t42" || msg.From.LanguageCode != "ru" || msg.Chat.Type != "private" ||
		len(msg.Entities) != 1 || msg.Entities[0].Type != "bot_command" || msg.Entities[0].Length != 6 {
		t.Fatalf("start message %+v", msg)
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: alice.ID(), Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	alice.Block()
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: alice.ID(), Text: "hi"})
	wantErr(t, err, bot.ErrorForbidden, "Forbidden: bot was blocked by the user")
	ups = getUpdates(t, s, map[string]any{"offset": ups[0].ID + 1})
	if len(ups) != 1 || ups[0].MyChatMember == nil || ups[0].MyChatMember.NewChatMember.Type != models.ChatMemberTypeBanned {
		t.Fatalf("block update %+v", ups)
	}
}

func TestValidation(t *testing.T) {
	s := NewServer(WithTB(t), AllowSpecViolations(), WithoutLimits())
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	u := s.NewUser("Ann")
	u.Start("")
	send := func(p *bot.SendMessageParams) error {
		p.ChatID = u.ID()
		_, err := b.SendMessage(ctx, p)
		return err
	}
	data := strings.Repeat("я", 32) // 64 bytes: the maximum
	if err := send(&bot.SendMessageParams{Text: "ok", ReplyMarkup: keyboard([]models.InlineKeyboardButton{{Text: "x", CallbackData: data}})}); err != nil {
		t.Fatal(err)
	}
	err := send(&bot.SendMessageParams{Text: "ok", ReplyMarkup: keyboard([]models.InlineKeyboardButton{{Text: "x", CallbackData: data + "a"}})})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: BUTTON_DATA_INVALID")

	err = send(&bot.SendMessageParams{Text: strings.Repeat("a", 4097)})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: message is too long")
	// 2049 emoji are 4098 UTF-16 code units although only 2049 characters.
	err = send(&bot.SendMessageParams{Text: strings.Repeat("🂡", 2049)})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: message is too long")
	if err := send(&bot.SendMessageParams{Text: strings.Repeat("я", 4096)}); err != nil {
		t.Fatal(err)
	}
	err = send(&bot.SendMessageParams{Text: " "})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: message text is empty")
	err = send(&bot.SendMessageParams{Text: "<b>bold <i>both</b></i>", ParseMode: models.ParseModeHTML})
	wantErr(t, err, bot.ErrorBadRequest, `Bad Request: can't parse entities: Unmatched end tag at byte offset 15, expected "</i>", found "</b>"`)
	err = send(&bot.SendMessageParams{Text: "<b>open", ParseMode: models.ParseModeHTML})
	wantErr(t, err, bot.ErrorBadRequest, `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`)
	err = send(&bot.SendMessageParams{Text: "<div>x</div>", ParseMode: models.ParseModeHTML})
	wantErr(t, err, bot.ErrorBadRequest, `Bad Request: can't parse entities: Unsupported start tag "div" at byte offset 0`)
	if err := send(&bot.SendMessageParams{Text: "1 &lt; 2 <a href=\"https://t.me/x\">link</a>", ParseMode: models.ParseModeHTML}); err != nil {
		t.Fatal(err)
	}
	if got := u.PrivateChat().Last(); got.Text != "1 < 2 link" || got.Entities[0].URL != "https://t.me/x" || got.Entities[0].Offset != 6 {
		t.Fatalf("html parsed to %+v", got)
	}
	// Too long callback_data and text break the Bot API; empty or malformed text only fails on Telegram's side.
	if v := s.Violations(); len(v) != 3 {
		t.Fatalf("violations %v", v)
	}
}

func TestGroupRateLimit(t *testing.T) {
	clock := NewFakeClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	s := NewServer(WithTB(t), WithClock(clock))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	g := s.NewGroup("Kitchen", s.NewUser("A"))
	for i := range 20 {
		if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: g.ID(), Text: "m"}); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		clock.Advance(time.Second)
	}
	_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: g.ID(), Text: "m"})
	var tooMany *bot.TooManyRequestsError
	if !errors.As(err, &tooMany) || tooMany.RetryAfter != 40 || !strings.HasSuffix(tooMany.Message, "Too Many Requests: retry after 40") {
		t.Fatalf("21st message: %v", err)
	}
	// answerCallbackQuery and getUpdates are not limited; another group has its own budget.
	getUpdates(t, s, map[string]any{})
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: s.NewGroup("Other").ID(), Text: "m"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(40 * time.Second)
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: g.ID(), Text: "m"}); err != nil {
		t.Fatal(err)
	}
	if n := s.TooManyRequestsCount(); n != 1 {
		t.Fatalf("429 count %d", n)
	}
	if p := s.PeakCalls(g.ID(), time.Minute); p != 20 {
		t.Fatalf("peak %d, want 20", p)
	}
	if id, n := s.PeakCallsAnyChat(time.Minute); id != g.ID() || n != 20 {
		t.Fatalf("peak over chats: %d in %d", n, id)
	}
	if n := s.CallsPerChat()[g.ID()]; n != 21 {
		t.Fatalf("calls to group %d, want 21", n)
	}
}

func TestPrivateAndGlobalLimits(t *testing.T) {
	clock := NewFakeClock(time.Unix(1700000000, 0))
	s := NewServer(WithTB(t), WithClock(clock), WithLimits(Limits{Private: Rate{N: 1, Per: time.Second}, Global: Rate{N: 2, Per: time.Second}}))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	u1, u2, u3 := s.NewUser("A"), s.NewUser("B"), s.NewUser("C")
	for _, u := range []*User{u1, u2, u3} {
		u.Start("")
	}
	send := func(u *User) error {
		_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.ID(), Text: "m"})
		return err
	}
	var tooMany *bot.TooManyRequestsError
	if err := send(u1); err != nil {
		t.Fatal(err)
	}
	if err := send(u1); !errors.As(err, &tooMany) || tooMany.RetryAfter != 1 {
		t.Fatalf("private limit: %v", err)
	}
	if err := send(u2); err != nil {
		t.Fatal(err)
	}
	if err := send(u3); !errors.As(err, &tooMany) {
		t.Fatalf("global limit: %v", err)
	}
	clock.Advance(time.Second)
	if err := send(u3); err != nil {
		t.Fatal(err)
	}
}

func TestGetUpdatesOffsetsAndLongPoll(t *testing.T) {
	s := NewServer(WithTB(t))
	defer s.Close()
	u := s.NewUser("Ann")
	g := s.NewGroup("G", u) // my_chat_member for the bot
	u.Send(g, "/newgame@trickchef_test_bot now")
	ups := getUpdates(t, s, map[string]any{"limit": 1})
	if len(ups) != 1 || ups[0].MyChatMember == nil {
		t.Fatalf("first update %+v", ups)
	}
	first := ups[0].ID
	// Without a new offset the same updates come again: nothing is lost before it is confirmed.
	ups = getUpdates(t, s, map[string]any{})
	if len(ups) != 2 || ups[0].ID != first {
		t.Fatalf("redelivery %+v", ups)
	}
	cmd := ups[1].Message
	if cmd.Text != "/newgame@trickchef_test_bot now" || cmd.Entities[0].Length != len("/newgame@trickchef_test_bot") || cmd.Chat.ID != g.ID() {
		t.Fatalf("command %+v", cmd)
	}
	// Form-encoded offset confirms both.
	r := callForm(t, s, "getUpdates", url.Values{"offset": {"0"}, "timeout": {"0"}})
	if !r.OK {
		t.Fatal(r.Description)
	}
	if got := getUpdates(t, s, map[string]any{"offset": ups[1].ID + 1}); len(got) != 0 {
		t.Fatalf("confirmed updates came back: %+v", got)
	}

	start := time.Now()
	done := make(chan []models.Update)
	go func() {
		done <- getUpdates(t, s, map[string]any{"offset": ups[1].ID + 1, "timeout": 5})
	}()
	if err := s.WaitFor(time.Second, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.pollGen > 0 }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // let the poll park
	u.Send(g, "hello")
	got := <-done
	if len(got) != 1 || got[0].Message.Text != "hello" || time.Since(start) > 2*time.Second {
		t.Fatalf("long poll got %+v after %v", got, time.Since(start))
	}

	// allowed_updates filters kinds.
	u.Send(g, "x")
	if got := getUpdates(t, s, map[string]any{"offset": got[0].ID + 1, "allowed_updates": []string{"callback_query"}}); len(got) != 0 {
		t.Fatalf("filtered update delivered: %+v", got)
	}
}

func TestWebhookDeliveryAndRetry(t *testing.T) {
	s := NewServer(WithTB(t), WithWebhookRetry(5*time.Millisecond))
	defer s.Close()
	var mu sync.Mutex
	var got []models.Update
	var secrets []string
	fails := 2
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		secrets = append(secrets, r.Header.Get("X-Telegram-Bot-Api-Secret-Token"))
		if fails > 0 {
			fails--
			w.WriteHeader(500)
			return
		}
		var u models.Update
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &u); err != nil {
			t.Error(err)
		}
		got = append(got, u)
	}))
	defer hook.Close()

	u := s.NewUser("Ann")
	u.Start("a")
	if r := callJSON(t, s, "setWebhook", map[string]any{"url": hook.URL, "secret_token": "s3cr3t"}); !r.OK {
		t.Fatal(r.Description)
	}
	u.Start("b")
	err := s.WaitFor(2*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == 2 })
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if got[0].Message.Text != "/start a" || got[1].Message.Text != "/start b" || len(secrets) != 4 || secrets[0] != "s3cr3t" {
		t.Fatalf("delivered %+v with secrets %v", got, secrets)
	}
	mu.Unlock()
	r := callJSON(t, s, "getUpdates", map[string]any{})
	if r.ErrorCode != 409 || r.Description != "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first" {
		t.Fatalf("getUpdates with webhook: %+v", r)
	}
	var info models.WebhookInfo
	r = callJSON(t, s, "getWebhookInfo", nil)
	if err := json.Unmarshal(r.Result, &info); err != nil || info.URL != hook.URL || info.LastErrorMessage == "" || info.PendingUpdateCount != 0 {
		t.Fatalf("webhook info %+v %v", info, err)
	}
	callJSON(t, s, "deleteWebhook", map[string]any{"drop_pending_updates": true})
	if ups := getUpdates(t, s, map[string]any{}); len(ups) != 0 {
		t.Fatalf("updates after delete %+v", ups)
	}
}

// answerer is a minimal bot loop: it answers every callback query with its data.
func answerer(t *testing.T, s *Server, stop <-chan struct{}) {
	offset := int64(0)
	for {
		select {
		case <-stop:
			return
		default:
		}
		r := callJSON(t, s, "getUpdates", map[string]any{"offset": offset, "timeout": 1})
		var ups []models.Update
		_ = json.Unmarshal(r.Result, &ups)
		for _, u := range ups {
			offset = u.ID + 1
			if q := u.CallbackQuery; q != nil {
				if q.Message.Message == nil || q.ChatInstance == "" {
					t.Errorf("query without message: %+v", q)
				}
				callForm(t, s, "answerCallbackQuery", url.Values{"callback_query_id": {q.ID}, "text": {"got " + q.Data}, "show_alert": {"true"}})
			}
		}
	}
}

func TestPressWaitsForAnswer(t *testing.T) {
	s := NewServer(WithTB(t))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	u := s.NewUser("Ann")
	u.Start("")
	getUpdates(t, s, map[string]any{"offset": -1})
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.ID(), Text: "Pick", ReplyMarkup: keyboard(
		[]models.InlineKeyboardButton{{Text: "A♠", CallbackData: "t1:v3:c12"}, {Text: "Pass", CallbackData: "t1:v3:pass"}})})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { answerer(t, s, stop) })
	defer func() { close(stop); wg.Wait() }()

	msg := u.PrivateChat().Message(m.ID)
	ans, err := u.Press(msg, "A♠")
	if err != nil || ans.Text != "got t1:v3:c12" || !ans.ShowAlert {
		t.Fatalf("press: %+v %v", ans, err)
	}
	if ans, err = u.PressData(msg, "garbage\x00"); err != nil || ans.Text != "got garbage\x00" {
		t.Fatalf("press data: %+v %v", ans, err)
	}
	if ans, err = u.PressFunc(msg, func(b Button) bool { return strings.HasSuffix(b.CallbackData, ":pass") }); err != nil || ans.Text != "got t1:v3:pass" {
		t.Fatalf("press func: %+v %v", ans, err)
	}
	if _, err := u.Press(msg, "Nope"); err == nil {
		t.Fatal("pressed a missing button")
	}
}

func TestQueryTooOldAndTwice(t *testing.T) {
	clock := NewFakeClock(time.Unix(1700000000, 0))
	s := NewServer(WithTB(t), WithClock(clock))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	u := s.NewUser("Ann")
	u.Start("")
	m, _ := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.ID(), Text: "Pick", ReplyMarkup: keyboard(
		[]models.InlineKeyboardButton{{Text: "Go", CallbackData: "go"}})})
	msg := u.PrivateChat().Message(m.ID)
	const tooOld = "Bad Request: query is too old and response timeout expired or query ID is invalid"

	q, err := u.PressAsync(msg, "Go")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: "ok"}); err != nil {
		t.Fatal(err)
	}
	if a, err := q.Wait(time.Second); err != nil || a.Text != "ok" {
		t.Fatalf("answer %+v %v", a, err)
	}
	_, err = b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID})
	wantErr(t, err, bot.ErrorBadRequest, tooOld)

	q, _ = u.PressAsync(msg, "Go")
	clock.Advance(16 * time.Second)
	_, err = b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID})
	wantErr(t, err, bot.ErrorBadRequest, tooOld)
	_, err = b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: "nope"})
	wantErr(t, err, bot.ErrorBadRequest, tooOld)
	if _, err := q.Wait(10 * time.Millisecond); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("wait: %v", err)
	}
}

func TestMigrateAndKick(t *testing.T) {
	s := NewServer(WithTB(t))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	ann := s.NewUser("Ann")
	old := s.NewBasicGroup("Old", ann)
	sg := old.Migrate()
	_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: old.ID(), Text: "x"})
	var mig *bot.MigrateError
	if !errors.As(err, &mig) || int64(mig.MigrateToChatID) != sg.ID() || !strings.HasSuffix(mig.Message, "Bad Request: group chat was upgraded to a supergroup chat") {
		t.Fatalf("send to migrated group: %v", err)
	}
	if sg.ID() > -1000000000000 {
		t.Fatalf("supergroup id %d", sg.ID())
	}
	ups := getUpdates(t, s, map[string]any{})
	var to, from int64
	for _, u := range ups {
		if u.Message != nil {
			to, from = max(to, -u.Message.MigrateToChatID), max(from, -u.Message.MigrateFromChatID)
		}
	}
	if -to != sg.ID() || -from != old.ID() {
		t.Fatalf("migration messages: to %d from %d", -to, -from)
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: sg.ID(), Text: "x"}); err != nil {
		t.Fatal(err)
	}

	sg.KickBot()
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: sg.ID(), Text: "x"})
	wantErr(t, err, bot.ErrorForbidden, "Forbidden: bot was kicked from the supergroup chat")
	ups = getUpdates(t, s, map[string]any{"offset": ups[len(ups)-1].ID + 1})
	if len(ups) != 1 || ups[0].MyChatMember == nil || ups[0].MyChatMember.Chat.ID != sg.ID() ||
		ups[0].MyChatMember.NewChatMember.Type != models.ChatMemberTypeBanned {
		t.Fatalf("kick update %+v", ups)
	}
	basic := s.NewBasicGroup("Basic", ann)
	basic.KickBot()
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: basic.ID(), Text: "x"})
	wantErr(t, err, bot.ErrorForbidden, "Forbidden: bot was kicked from the group chat")
}

func TestForumTopics(t *testing.T) {
	s := NewServer(WithTB(t))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	ann := s.NewUser("Ann")
	f := s.NewForum("Forum", ann)
	topic := f.NewTopic("Games")
	ann.Send(topic, "/newgame")
	ups := getUpdates(t, s, map[string]any{})
	last := ups[len(ups)-1].Message
	if last.MessageThreadID != topic.ThreadID() || !last.IsTopicMessage || !last.Chat.IsForum {
		t.Fatalf("topic message %+v", last)
	}
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: f.ID(), MessageThreadID: topic.ThreadID(), Text: "lobby"})
	if err != nil || m.MessageThreadID != topic.ThreadID() {
		t.Fatalf("send to topic: %v %+v", err, m)
	}
	if got := topic.Messages(); len(got) != 3 || got[2].Text != "lobby" {
		t.Fatalf("topic messages %+v", got)
	}
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: f.ID(), MessageThreadID: 999, Text: "x"})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: message thread not found")
}

func TestTokenFaultsCommandsMembers(t *testing.T) {
	s := NewServer(WithTB(t), AllowSpecViolations(), WithToken("123:test"), WithBot(42, "other_bot"))
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	bad, _ := bot.New("999:wrong", bot.WithServerURL(s.URL), bot.WithSkipGetMe())
	_, err := bad.GetMe(ctx)
	wantErr(t, err, bot.ErrorUnauthorized, "Unauthorized")
	me, err := b.GetMe(ctx)
	if err != nil || me.ID != 42 || me.Username != "other_bot" || !me.IsBot {
		t.Fatalf("getMe %+v %v", me, err)
	}

	s.FailNext("sendMessage", 1, TooManyRequests(2))
	s.FailNext("getMe", 1, InternalError())
	u := s.NewUser("Ann")
	u.Start("")
	_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.ID(), Text: "x"})
	var tooMany *bot.TooManyRequestsError
	if !errors.As(err, &tooMany) || tooMany.RetryAfter != 2 {
		t.Fatalf("fault: %v", err)
	}
	if _, err = b.GetMe(ctx); err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("fault 500: %v", err)
	}
	if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.ID(), Text: "x"}); err != nil {
		t.Fatal(err)
	}

	ru := []models.BotCommand{{Command: "newgame", Description: "Новая игра"}}
	en := []models.BotCommand{{Command: "newgame", Description: "New game"}, {Command: "help", Description: "Help"}}
	if _, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: ru, LanguageCode: "ru"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: en, Scope: &models.BotCommandScopeAllGroupChats{}}); err != nil {
		t.Fatal(err)
	}
	got, err := b.GetMyCommands(ctx, &bot.GetMyCommandsParams{LanguageCode: "ru"})
	if err != nil || len(got) != 1 || got[0].Description != "Новая игра" || len(s.MyCommands("all_group_chats", "")) != 2 || len(s.MyCommands("default", "")) != 0 {
		t.Fatalf("commands %+v %v", got, err)
	}
	_, err = b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "New-Game", Description: "x"}}})
	wantErr(t, err, bot.ErrorBadRequest, "Bad Request: BOT_COMMAND_INVALID")

	bob := s.NewUser("Bob")
	g := s.NewGroup("G", u, bob)
	g.MakeAdmin(bob)
	for id, want := range map[int64]models.ChatMemberType{u.ID(): models.ChatMemberTypeOwner, bob.ID(): models.ChatMemberTypeAdministrator, 42: models.ChatMemberTypeMember, s.NewUser("C").ID(): models.ChatMemberTypeLeft} {
		m, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: g.ID(), UserID: id})
		if err != nil || m.Type != want {
			t.Fatalf("member %d: %+v %v, want %s", id, m, err, want)
		}
	}
	admins, err := b.GetChatAdministrators(ctx, &bot.GetChatAdministratorsParams{ChatID: g.ID()})
	if err != nil || len(admins) != 2 {
		t.Fatalf("admins %+v %v", admins, err)
	}
	calls := s.Calls()
	if c := calls[len(calls)-1]; c.Method != "getChatAdministrators" || c.ChatID != g.ID() || !c.OK {
		t.Fatalf("last call %+v", c)
	}
	if v := s.Violations(); len(v) != 1 || v[0].Param != "commands[0].command" {
		t.Fatalf("violations %v", v)
	}
}

// TestConcurrent exercises the server from many goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	s := NewServer(WithTB(t), WithoutLimits())
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	g := s.NewGroup("G")
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Go(func() { answerer(t, s, stop) })
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: g.ID(), Text: "board", ReplyMarkup: keyboard([]models.InlineKeyboardButton{{Text: "Go", CallbackData: "go"}})})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			u := s.NewUser("U")
			g.AddMember(u)
			u.Send(g, "hi")
			if _, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: g.ID(), Text: "m"}); err != nil {
				t.Error(err)
			}
			if _, err := u.Press(g.Message(m.ID), "Go"); err != nil {
				t.Error(err)
			}
			_ = g.Messages()
			_ = i
		})
	}
	wg.Wait()
	close(stop)
	bg.Wait()
	if n := len(g.BotMessages()); n != 9 {
		t.Fatalf("bot messages %d", n)
	}
}

func TestJSONAndFormBodies(t *testing.T) {
	s := NewServer(WithTB(t), AllowSpecViolations(), WithoutLimits())
	defer s.Close()
	u := s.NewUser("Ann")
	u.Start("")
	r := callJSON(t, s, "sendMessage", map[string]any{
		"chat_id": u.ID(), "text": "json", "disable_notification": true,
		"reply_markup":         map[string]any{"inline_keyboard": [][]map[string]any{{{"text": "A", "callback_data": "a"}}}},
		"link_preview_options": map[string]any{"is_disabled": true},
		"reply_parameters":     map[string]any{"message_id": 1},
	})
	var m models.Message
	if err := json.Unmarshal(r.Result, &m); !r.OK || err != nil || m.ReplyMarkup == nil || m.ReplyMarkup.InlineKeyboard[0][0].CallbackData != "a" || m.ReplyToMessage == nil {
		t.Fatalf("json send: %+v %v", r, err)
	}
	if strings.Contains(string(r.Result), "copy_text") {
		t.Fatalf("result carries copy_text: %s", r.Result)
	}
	r = callForm(t, s, "sendMessage", url.Values{"chat_id": {strconv.FormatInt(u.ID(), 10)}, "text": {"form"},
		"reply_markup": {`{"inline_keyboard":[[{"text":"B","callback_data":""}]]}`}})
	if r.OK || r.Description != "Bad Request: BUTTON_DATA_INVALID" {
		t.Fatalf("form send: %+v", r)
	}
	r = callForm(t, s, "sendMessage", url.Values{"chat_id": {strconv.FormatInt(u.ID(), 10)}, "text": {"form"},
		"reply_markup": {`{"inline_keyboard":[[{"text":"B"}]]}`}})
	if r.OK || !strings.Contains(r.Description, "Text buttons are unallowed") {
		t.Fatalf("form send: %+v", r)
	}
	r = callForm(t, s, "sendMessage", url.Values{"chat_id": {strconv.FormatInt(u.ID(), 10)}})
	if r.OK || r.Description != "Bad Request: message text is empty" {
		t.Fatalf("no text: %+v", r)
	}
	if got := u.PrivateChat().Last(); got.Text != "json" || got.ReplyToID != 1 {
		t.Fatalf("last %+v", got)
	}
	if v := s.Violations(); len(v) != 3 {
		t.Fatalf("violations %v", v)
	}
}

// TestWebAppButtonsOnlyInPrivate: Telegram offers web_app buttons in
// private chats only, and opens HTTPS addresses only.
func TestWebAppButtonsOnlyInPrivate(t *testing.T) {
	s := NewServer()
	defer s.Close()
	u := s.NewUser("Аня")
	u.Start("")
	g := s.NewGroup("Группа", u)
	kb := func(addr string) map[string]any {
		return map[string]any{"inline_keyboard": [][]map[string]any{{{"text": "Стол", "web_app": map[string]string{"url": addr}}}}}
	}
	if r := callJSON(t, s, "sendMessage", map[string]any{"chat_id": u.ID(), "text": "рука", "reply_markup": kb("https://example.org/t")}); !r.OK {
		t.Fatalf("web_app in private refused: %s", r.Description)
	}
	if r := callJSON(t, s, "sendMessage", map[string]any{"chat_id": g.ID(), "text": "стол", "reply_markup": kb("https://example.org/t")}); r.OK || !strings.Contains(r.Description, "BUTTON_TYPE_INVALID") {
		t.Fatalf("web_app in a group: ok=%v %s", r.OK, r.Description)
	}
	if r := callJSON(t, s, "sendMessage", map[string]any{"chat_id": u.ID(), "text": "рука", "reply_markup": kb("http://example.org/t")}); r.OK {
		t.Fatal("a web_app button with an http address was accepted")
	}
	if m := u.PrivateChat().Last(); m == nil || len(m.Buttons()) != 1 || m.Buttons()[0].WebApp != "https://example.org/t" {
		t.Fatalf("the private message's web_app button: %+v", m)
	}
}

// TestMembersLeaving: a member who leaves (or is removed) is no member for
// getChatMember; the bot sees a left_chat_member service message unless the
// group hides them, and a chat_member update only where it is an
// administrator and asked for those in allowed_updates.
func TestMembersLeaving(t *testing.T) {
	s := NewServer(WithTB(t), WithoutLimits())
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	owner, ann, bob, cat := s.NewUser("Owner"), s.NewUser("Ann"), s.NewUser("Bob"), s.NewUser("Cat")
	g := s.NewGroup("G", owner, ann, bob, cat)
	status := func(u *User) models.ChatMemberType {
		t.Helper()
		m, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: g.ID(), UserID: u.ID()})
		if err != nil {
			t.Fatal(err)
		}
		return m.Type
	}
	all := []string{"message", "callback_query", "my_chat_member", "chat_member"}
	offset := int64(0)
	next := func(allowed []string) []models.Update {
		t.Helper()
		ups := getUpdates(t, s, map[string]any{"offset": offset, "allowed_updates": allowed})
		if len(ups) > 0 {
			offset = ups[len(ups)-1].ID + 1
		}
		return ups
	}
	next(all) // the bot added to the group

	// The bot a plain member: the service message only.
	ann.Leave(g)
	ups := next(all)
	if len(ups) != 1 || ups[0].Message == nil || ups[0].Message.LeftChatMember == nil || ups[0].Message.LeftChatMember.ID != ann.ID() || ups[0].Message.From.ID != ann.ID() {
		t.Fatalf("ann left: updates %+v, want one left_chat_member message from her", ups)
	}
	if got := status(ann); got != models.ChatMemberTypeLeft {
		t.Fatalf("ann after leaving: %s", got)
	}

	// An administrator that asked: both, the removal by the owner a ban.
	g.MakeBotAdmin()
	if ups := next(all); len(ups) != 1 || ups[0].MyChatMember == nil || ups[0].MyChatMember.NewChatMember.Type != models.ChatMemberTypeAdministrator {
		t.Fatalf("bot promoted: updates %+v", ups)
	}
	g.RemoveMember(bob)
	ups = next(all)
	if len(ups) != 2 || ups[0].Message == nil || ups[0].Message.LeftChatMember == nil || ups[0].Message.From.ID != owner.ID() ||
		ups[1].ChatMember == nil || ups[1].ChatMember.NewChatMember.Type != models.ChatMemberTypeBanned ||
		ups[1].ChatMember.OldChatMember.Type != models.ChatMemberTypeMember || ups[1].ChatMember.From.ID != owner.ID() {
		t.Fatalf("bob removed: updates %+v, want left_chat_member and chat_member (member → kicked) by the owner", ups)
	}
	if got := status(bob); got != models.ChatMemberTypeBanned {
		t.Fatalf("bob after removal: %s", got)
	}

	// Not asked for: no chat_member; a group that hides service messages:
	// nothing at all.
	g.HideMemberMessages()
	cat.Leave(g)
	if ups := next([]string{"message", "callback_query", "my_chat_member"}); len(ups) != 0 {
		t.Fatalf("cat left a quiet group, chat_member not asked for: updates %+v", ups)
	}
	next(all) // asked for again: from now on
	g.AddMember(ann)
	if ups := next(all); len(ups) != 1 || ups[0].ChatMember == nil || ups[0].ChatMember.NewChatMember.Type != models.ChatMemberTypeMember {
		t.Fatalf("ann back in a quiet group: updates %+v, want the chat_member alone", ups)
	}
	if got := status(ann); got != models.ChatMemberTypeMember {
		t.Fatalf("ann back: %s", got)
	}
}
