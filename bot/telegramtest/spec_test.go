package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// recorder is a TB that keeps what the server reports, to test the reporting itself.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.msgs
	r.msgs = nil
	return out
}

// callMultipart posts fields (and files, by field name) as multipart/form-data, as go-telegram/bot does.
func callMultipart(t *testing.T, s *Server, method string, fields, files map[string]string) response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for k, content := range files {
		fw, err := w.CreateFormFile(k, k+".pem")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(content))
	}
	w.Close()
	resp, err := http.Post(s.URL+"/bot123:test/"+method, w.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, resp)
}

func TestSpecLoads(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	field := func(owner, name string) *specField {
		t.Helper()
		e := sp.methods[strings.ToLower(owner)]
		if e == nil {
			e = sp.types[owner]
		}
		if e == nil || e.byName[name] == nil {
			t.Fatalf("spec has no %s.%s", owner, name)
		}
		return e.byName[name]
	}
	// Limits read from the descriptions: if the wording changes, this notices.
	for key, want := range map[string]lengthLimit{
		"sendMessage.text":                   {min: 1, max: 4096, afterEntities: true},
		"editMessageText.text":               {min: 1, max: 4096, afterEntities: true},
		"answerCallbackQuery.text":           {min: 0, max: 200},
		"InlineKeyboardButton.callback_data": {min: 1, max: 64, bytes: true},
		"CopyTextButton.text":                {min: 1, max: 256},
		"BotCommand.command":                 {min: 1, max: 32},
		"BotCommand.description":             {min: 1, max: 256},
		"setWebhook.secret_token":            {min: 1, max: 256},
		"ReplyParameters.quote":              {min: 0, max: 1024, afterEntities: true},
	} {
		owner, name, _ := strings.Cut(key, ".")
		if got := field(owner, name).limit; got == nil || *got != want {
			t.Errorf("%s: limit %+v, want %+v", key, got, want)
		}
	}
	if c := field("BotCommandScopeChat", "type").constant; c != "chat" {
		t.Errorf("scope discriminator %q", c)
	}
	if u := field("editMessageText", "chat_id").unless; len(u) != 1 || u[0] != "inline_message_id" {
		t.Errorf("chat_id required unless %v", u)
	}
	if u := field("editMessageText", "inline_message_id").unless; len(u) != 2 {
		t.Errorf("inline_message_id required unless %v", u)
	}
	// The explicit tables must name fields the spec still has.
	for key := range limitAnswers {
		owner, name, _ := strings.Cut(key, ".")
		if field(owner, name).limit == nil {
			t.Errorf("%s has an answer for a limit the spec does not state", key)
		}
	}
	for key := range charRules {
		owner, name, _ := strings.Cut(key, ".")
		field(owner, name)
	}
	for typ, names := range exclusiveFields {
		for _, name := range names {
			field(typ, name)
		}
	}
	// Every method the fake simulates is in the spec, and every spec method is simulated.
	for name := range sp.methods {
		if canon, h := lookupMethod(name); h == nil || sp.methods[strings.ToLower(canon)].name != canon {
			t.Errorf("spec method %s: fake has %q", name, canon)
		}
	}
	if _, ok := sp.others["sendphoto"]; !ok {
		t.Error("other_methods lost sendPhoto")
	}
}

// TestSpecViolations sends one bad request per case to a strict server and checks the answer,
// the recorded violation and that the owning test was failed (through a recorder).
func TestSpecViolations(t *testing.T) {
	rec := &recorder{}
	s := NewServer(WithTB(rec), WithoutLimits())
	defer s.Close()
	u := s.NewUser("Ann")
	u.Start("")
	chat := strconv.FormatInt(u.ID(), 10)
	button := func(b string) string { return `{"inline_keyboard":[[` + b + `]]}` }

	cases := []struct {
		name    string
		method  string
		json    map[string]any    // sent as a JSON body when set
		form    map[string]string // otherwise multipart
		files   map[string]string
		code    int
		answer  string // the description must end with it
		param   string // Violation.Param
		problem string // Violation.Problem must contain it
	}{
		{name: "unknown method", method: "sendMesage", form: map[string]string{"chat_id": chat, "text": "x"},
			code: 404, answer: "Not Found", problem: "no such Bot API method"},
		{name: "method the fake lacks", method: "sendPhoto", form: map[string]string{"chat_id": chat, "photo": "AgAD"},
			code: 404, answer: "Not Found", problem: "does not simulate"},
		{name: "unknown parameter", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_to_message_id": "1"},
			code: 400, answer: `parameter "reply_to_message_id" is not supported by the method`, param: "reply_to_message_id", problem: "unknown parameter"},
		{name: "missing text", method: "sendMessage", form: map[string]string{"chat_id": chat},
			code: 400, answer: "Bad Request: message text is empty", param: "text", problem: "missing"},
		{name: "missing chat_id", method: "sendMessage", form: map[string]string{"text": "x"},
			code: 400, answer: "Bad Request: chat_id is empty", param: "chat_id", problem: "missing"},
		{name: "empty chat_id is missing", method: "getChat", form: map[string]string{"chat_id": ""},
			code: 400, answer: "Bad Request: chat_id is empty", param: "chat_id", problem: "missing"},
		{name: "missing callback_query_id", method: "answerCallbackQuery", form: map[string]string{"text": "x"},
			code: 400, answer: `Bad Request: Parameter "callback_query_id" is required`, param: "callback_query_id", problem: "missing"},
		{name: "edit without chat or inline message", method: "editMessageText", form: map[string]string{"message_id": "1", "text": "x"},
			code: 400, answer: "chat_id is empty", param: "chat_id", problem: "required when inline_message_id is not given"},
		{name: "string for Integer", method: "deleteMessage", form: map[string]string{"chat_id": chat, "message_id": "first"},
			code: 400, answer: `field "message_id" must be of type Integer`, param: "message_id", problem: `"first" is not Integer`},
		{name: "fraction for Integer", method: "answerCallbackQuery", form: map[string]string{"callback_query_id": "1", "cache_time": "1.5"},
			code: 400, param: "cache_time", problem: "is not Integer"},
		{name: "word for Boolean", method: "answerCallbackQuery", form: map[string]string{"callback_query_id": "1", "show_alert": "maybe"},
			code: 400, param: "show_alert", problem: "is not Boolean"},
		{name: "JSON number for String", method: "answerCallbackQuery", json: map[string]any{"callback_query_id": 17},
			code: 400, param: "callback_query_id", problem: "is not String"},
		{name: "file for String", method: "sendMessage", form: map[string]string{"chat_id": chat}, files: map[string]string{"text": "x"},
			code: 400, param: "text", problem: "a file was uploaded"},
		{name: "bad JSON in reply_markup", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": `{"inline_keyboard":[[{"text":"A",]]}`},
			code: 400, answer: "Bad Request: can't parse reply keyboard markup JSON object", param: "reply_markup", problem: "not valid JSON"},
		{name: "unknown button field", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": button(`{"text":"A","callback_data":"a","colour":"red"}`)},
			code: 400, answer: `can't parse inline keyboard button: unknown field "colour"`, param: "reply_markup.inline_keyboard[0][0].colour", problem: "unknown field"},
		{name: "button text not a String", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": button(`{"text":1,"callback_data":"a"}`)},
			code: 400, answer: `can't parse inline keyboard button: Field "text" must be of type String`, param: "reply_markup.inline_keyboard[0][0].text"},
		{name: "button without text", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": button(`{"callback_data":"a"}`)},
			code: 400, answer: `can't parse inline keyboard button: Can't find field "text"`, param: "reply_markup.inline_keyboard[0][0].text"},
		{name: "button with two kinds", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": button(`{"text":"A","callback_data":"a","url":"https://t.me/x"}`)},
			code: 400, param: "reply_markup.inline_keyboard[0][0]", problem: "exactly one"},
		{name: "button url scheme", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": button(`{"text":"A","url":"ftp://x"}`)},
			code: 400, answer: "Bad Request: BUTTON_URL_INVALID", param: "reply_markup.inline_keyboard[0][0].url"},
		{name: "rows not arrays", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": `{"inline_keyboard":[{"text":"A","callback_data":"a"}]}`},
			code: 400, answer: `can't parse InlineKeyboardMarkup: Field "inline_keyboard" must contain elements of type Array of InlineKeyboardButton`,
			param: "reply_markup.inline_keyboard[0]", problem: "an Object is not Array of InlineKeyboardButton"},
		{name: "callback_data too long", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": "x", "reply_markup": button(`{"text":"A","callback_data":"` + strings.Repeat("ж", 33) + `"}`)},
			code: 400, answer: "Bad Request: BUTTON_DATA_INVALID", param: "reply_markup.inline_keyboard[0][0].callback_data", problem: "66 bytes"},
		{name: "text too long", method: "sendMessage", form: map[string]string{"chat_id": chat, "text": strings.Repeat("a", 4097)},
			code: 400, answer: "Bad Request: message is too long", param: "text", problem: "4097 characters"},
		{name: "HTML text too long after parsing", method: "sendMessage", form: map[string]string{"chat_id": chat, "parse_mode": "HTML", "text": "<b>" + strings.Repeat("&lt;", 4097) + "</b>"},
			code: 400, answer: "Bad Request: message is too long", param: "text", problem: "4097 characters after entities parsing"},
		{name: "edit text too long", method: "editMessageText", form: map[string]string{"chat_id": chat, "message_id": "1", "text": strings.Repeat("🂡", 2049)},
			code: 400, answer: "Bad Request: message is too long", param: "text", problem: "4098 characters"},
		{name: "callback answer too long", method: "answerCallbackQuery", form: map[string]string{"callback_query_id": "1", "text": strings.Repeat("я", 201)},
			code: 400, answer: "Bad Request: MESSAGE_TOO_LONG", param: "text", problem: "201 characters"},
		{name: "command with capitals", method: "setMyCommands", form: map[string]string{"commands": `[{"command":"NewGame","description":"New game"}]`},
			code: 400, answer: "Bad Request: BOT_COMMAND_INVALID", param: "commands[0].command", problem: "lowercase"},
		{name: "command too long", method: "setMyCommands", form: map[string]string{"commands": `[{"command":"` + strings.Repeat("a", 33) + `","description":"x"}]`},
			code: 400, answer: "Bad Request: BOT_COMMAND_INVALID", param: "commands[0].command", problem: "33 characters"},
		{name: "command description too long", method: "setMyCommands", form: map[string]string{"commands": `[{"command":"help","description":"` + strings.Repeat("d", 257) + `"}]`},
			code: 400, answer: "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID", param: "commands[0].description", problem: "257 characters"},
		{name: "commands not an array", method: "setMyCommands", json: map[string]any{"commands": map[string]any{"command": "help", "description": "x"}},
			code: 400, param: "commands", problem: "an Object is not Array of BotCommand"},
		{name: "unknown scope type", method: "setMyCommands", form: map[string]string{"commands": `[]`, "scope": `{"type":"everyone"}`},
			code: 400, answer: "Bad Request: can't parse BotCommandScope: Unsupported type specified", param: "scope"},
		{name: "chat scope without chat_id", method: "getMyCommands", form: map[string]string{"scope": `{"type":"chat"}`},
			code: 400, answer: `can't parse BotCommandScopeChat: Can't find field "chat_id"`, param: "scope.chat_id"},
		{name: "reply parameters without message_id", method: "sendMessage", json: map[string]any{"chat_id": u.ID(), "text": "x", "reply_parameters": map[string]any{"chat_id": u.ID()}},
			code: 400, answer: `Can't find field "message_id"`, param: "reply_parameters.message_id"},
		{name: "link preview flag as text", method: "sendMessage", json: map[string]any{"chat_id": u.ID(), "text": "x", "link_preview_options": map[string]any{"is_disabled": "true"}},
			code: 400, answer: `Field "is_disabled" must be of type Boolean`, param: "link_preview_options.is_disabled"},
		{name: "entity without length", method: "sendMessage", json: map[string]any{"chat_id": u.ID(), "text": "x", "entities": []any{map[string]any{"type": "bold", "offset": 0}}},
			code: 400, answer: `can't parse MessageEntity: Can't find field "length"`, param: "entities[0].length"},
		{name: "allowed_updates not JSON", method: "getUpdates", form: map[string]string{"allowed_updates": "message"},
			code: 400, answer: "Bad Request: can't parse allowed updates JSON object", param: "allowed_updates"},
		{name: "allowed_updates of numbers", method: "getUpdates", json: map[string]any{"allowed_updates": []int{1}},
			code: 400, param: "allowed_updates[0]", problem: "the number 1 is not String"},
		{name: "secret token characters", method: "setWebhook", form: map[string]string{"url": "", "secret_token": "a b"},
			code: 400, answer: "Bad Request: secret token contains unallowed characters", param: "secret_token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r response
			if c.json != nil {
				r = callJSON(t, s, c.method, c.json)
			} else {
				r = callMultipart(t, s, c.method, c.form, c.files)
			}
			if r.OK || r.ErrorCode != c.code || !strings.HasSuffix(r.Description, c.answer) {
				t.Errorf("answer %d %q, want %d ending in %q", r.ErrorCode, r.Description, c.code, c.answer)
			}
			vs := s.Violations()
			if len(vs) == 0 {
				t.Fatal("no violation recorded")
			}
			v := vs[len(vs)-1]
			if v.Param != c.param || !strings.Contains(v.Problem, c.problem) || v.Answer != r.Description {
				t.Errorf("violation %+v, want param %q, problem with %q", v, c.param, c.problem)
			}
			if msgs := rec.take(); len(msgs) != 1 || !strings.Contains(msgs[0], c.method) {
				t.Errorf("reported %q, want one failure naming %s", msgs, c.method)
			}
		})
	}
	if n := len(s.Violations()); n != len(cases) {
		t.Errorf("%d violations for %d bad requests", n, len(cases))
	}
}

func TestSpecAllowViolations(t *testing.T) {
	rec := &recorder{}
	s := NewServer(WithTB(rec), AllowSpecViolations())
	defer s.Close()
	r := callForm(t, s, "sendMessage", url.Values{"chat_id": {"1"}, "text": {"x"}, "disable_web_page_preview": {"true"}})
	if r.OK || len(s.Violations()) != 1 || len(rec.take()) != 0 {
		t.Fatalf("answer %+v, violations %v", r, s.Violations())
	}
}

// TestSpecValidRequests makes every call the bot makes (and the rest the fake simulates) the way
// the bot makes them; the strict server fails this test on any violation.
func TestSpecValidRequests(t *testing.T) {
	s := NewServer(WithTB(t), WithoutLimits())
	defer s.Close()
	b, ctx := newClient(t, s), context.Background()
	ann, bob := s.NewUser("Ann"), s.NewUser("Bob")
	ann.Start("")
	g := s.NewForum("Kitchen", ann, bob)
	topic := g.NewTopic("Games")
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// The bot's poll loop posts JSON.
	getUpdates(t, s, map[string]any{"offset": 0, "timeout": 0, "allowed_updates": []string{"message", "callback_query", "my_chat_member"}})
	must(b.GetMe(ctx))
	must(b.DeleteWebhook(ctx, &bot.DeleteWebhookParams{}))

	cmds := []models.BotCommand{{Command: "newgame", Description: "Новая игра"}, {Command: "help", Description: strings.Repeat("х", 256)}}
	must(b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: cmds}))
	must(b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: cmds, LanguageCode: "ru"}))
	must(b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: cmds, Scope: &models.BotCommandScopeChatMember{ChatID: g.ID(), UserID: ann.ID()}}))
	must(b.GetMyCommands(ctx, &bot.GetMyCommandsParams{Scope: &models.BotCommandScopeAllGroupChats{}, LanguageCode: "en"}))
	must(b.DeleteMyCommands(ctx, &bot.DeleteMyCommandsParams{Scope: &models.BotCommandScopeChat{ChatID: g.ID()}}))

	disabled := true
	kb := keyboard(
		[]models.InlineKeyboardButton{{Text: "Play", CallbackData: strings.Repeat("d", 64)}, {Text: "Rules", URL: "https://t.me/trickchef_test_bot?start=rules"}},
		[]models.InlineKeyboardButton{{Text: "Pass", CallbackData: "t1:v3:pass"}})
	text := "<b>" + strings.Repeat("&lt;", 4000) + "</b> " + strings.Repeat("я", 95) // 4096 after parsing
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: g.ID(), MessageThreadID: topic.ThreadID(), Text: text,
		ParseMode: models.ParseModeHTML, ReplyMarkup: kb, LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: &disabled}})
	if err != nil {
		t.Fatal(err)
	}
	must(b.SendMessage(ctx, &bot.SendMessageParams{ChatID: ann.ID(), Text: "reply", ReplyParameters: &models.ReplyParameters{MessageID: 1, AllowSendingWithoutReply: true}}))
	must(b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: g.ID(), MessageID: m.ID, Text: "edited", ParseMode: models.ParseModeHTML,
		ReplyMarkup: kb, LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: &disabled}}))
	// The bot removes a keyboard by editing with an empty one.
	must(b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: g.ID(), MessageID: m.ID, Text: "edited",
		ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}}}))
	must(b.EditMessageReplyMarkup(ctx, &bot.EditMessageReplyMarkupParams{ChatID: g.ID(), MessageID: m.ID, ReplyMarkup: kb}))

	q, err := ann.PressDataAsync(g.Message(m.ID), "t1:v3:pass")
	if err != nil {
		t.Fatal(err)
	}
	must(b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: strings.Repeat("я", 200), ShowAlert: true}))
	q, _ = ann.PressDataAsync(g.Message(m.ID), "t1:v3:pass")
	must(b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, URL: "https://t.me/trickchef_test_bot?start=x"}))
	q, _ = ann.PressDataAsync(g.Message(m.ID), "t1:v3:pass")
	must(b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID}))

	must(b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: g.ID(), UserID: bob.ID()}))
	must(b.GetChatAdministrators(ctx, &bot.GetChatAdministratorsParams{ChatID: g.ID()}))
	must(b.GetChat(ctx, &bot.GetChatParams{ChatID: g.ID()}))
	must(b.PinChatMessage(ctx, &bot.PinChatMessageParams{ChatID: g.ID(), MessageID: m.ID, DisableNotification: true}))
	must(b.UnpinChatMessage(ctx, &bot.UnpinChatMessageParams{ChatID: g.ID(), MessageID: m.ID}))
	must(b.UnpinAllChatMessages(ctx, &bot.UnpinAllChatMessagesParams{ChatID: g.ID()}))
	must(b.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: g.ID(), Action: models.ChatActionTyping}))
	must(b.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: g.ID(), MessageID: m.ID}))
	must(b.SetWebhook(ctx, &bot.SetWebhookParams{URL: "https://example.com/hook", SecretToken: "s3cr3t-_", MaxConnections: 40,
		AllowedUpdates: []string{"message", "callback_query", "my_chat_member"}, DropPendingUpdates: true,
		Certificate: &models.InputFileUpload{Filename: "cert.pem", Data: strings.NewReader("-----BEGIN CERTIFICATE-----")}}))
	must(b.GetWebhookInfo(ctx))
	must(b.DeleteWebhook(ctx, &bot.DeleteWebhookParams{DropPendingUpdates: true}))
	must(b.LeaveChat(ctx, &bot.LeaveChatParams{ChatID: g.ID()}))
	must(b.Logout(ctx))
	must(b.Close(ctx))
	// Form-encoded and JSON bodies, chat_id as @username-style String or as a JSON string.
	if r := callForm(t, s, "sendMessage", url.Values{"chat_id": {strconv.FormatInt(ann.ID(), 10)}, "text": {"form"}, "disable_notification": {"True"}}); !r.OK {
		t.Fatal(r.Description)
	}
	if r := callJSON(t, s, "sendMessage", map[string]any{"chat_id": strconv.FormatInt(ann.ID(), 10), "text": "json", "protect_content": false}); !r.OK {
		t.Fatal(r.Description)
	}
	if v := s.Violations(); len(v) != 0 {
		t.Fatalf("violations %v", v)
	}
}

// checkAnswer checks a result against the method's return types in the spec.
func checkAnswer(t *testing.T, sp *apiSpec, method string, raw []byte) {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var first *fault
	for _, typ := range sp.methods[strings.ToLower(method)].returns {
		if typ == "Boolean" {
			typ = "True"
		}
		ft := sp.checkValue(v, typ, "", "")
		if ft == nil {
			return
		}
		if first == nil {
			first = ft
		}
	}
	t.Errorf("%s answered outside the Bot API: %s: %s\n%s", method, first.path, first.problem, raw)
}

// TestSpecAnswers checks the fake's own answers and updates against the Bot API types.
func TestSpecAnswers(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(WithTB(t), WithoutLimits())
	defer s.Close()
	ann, bob := s.NewUser("Ann", WithUsername("ann"), WithLastName("Lee"), WithLanguage("ru")), s.NewUser("Bob")
	ann.Start("deep")
	g := s.NewForum("Kitchen", ann, bob)
	g.MakeAdmin(bob)
	topic := g.NewTopic("Games")
	bob.Send(topic, "/newgame@trickchef_test_bot")
	old := s.NewBasicGroup("Old", ann)
	old.AddMember(bob)
	old.Migrate()
	old2 := s.NewGroup("Gone", ann)
	old2.KickBot()
	call := func(method string, body map[string]any) json.RawMessage {
		t.Helper()
		r := callJSON(t, s, method, body)
		if !r.OK {
			t.Fatalf("%s: %s", method, r.Description)
		}
		checkAnswer(t, sp, method, r.Result)
		return r.Result
	}
	kb := map[string]any{"inline_keyboard": [][]map[string]any{{{"text": "A", "callback_data": "a"}, {"text": "B", "url": "https://t.me/x"}}}}
	raw := call("sendMessage", map[string]any{"chat_id": g.ID(), "message_thread_id": topic.ThreadID(), "text": "<b>hi</b> <a href=\"https://t.me/x\">x</a>",
		"parse_mode": "HTML", "reply_markup": kb})
	var m models.Message
	json.Unmarshal(raw, &m)
	call("sendMessage", map[string]any{"chat_id": ann.ID(), "text": "re", "reply_parameters": map[string]any{"message_id": 1}})
	call("editMessageText", map[string]any{"chat_id": g.ID(), "message_id": m.ID, "text": "edited", "reply_markup": kb})
	call("editMessageReplyMarkup", map[string]any{"chat_id": g.ID(), "message_id": m.ID})
	call("editMessageReplyMarkup", map[string]any{"chat_id": g.ID(), "message_id": m.ID, "reply_markup": kb})
	if _, err := ann.PressAsync(g.Message(m.ID), "A"); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"getMe", "getWebhookInfo", "logOut", "close"} {
		call(method, nil)
	}
	for _, id := range []int64{ann.ID(), bob.ID(), s.Bot().ID, s.NewUser("C").ID()} {
		call("getChatMember", map[string]any{"chat_id": g.ID(), "user_id": id})
	}
	call("getChatAdministrators", map[string]any{"chat_id": g.ID()})
	call("getChat", map[string]any{"chat_id": g.ID()})
	call("getChat", map[string]any{"chat_id": ann.ID()})
	call("setMyCommands", map[string]any{"commands": []map[string]string{{"command": "help", "description": "Help"}}})
	call("getMyCommands", nil)
	call("deleteMyCommands", nil)
	call("sendChatAction", map[string]any{"chat_id": g.ID(), "action": "typing"})
	call("pinChatMessage", map[string]any{"chat_id": g.ID(), "message_id": m.ID})
	ann.Block()
	ann.Start("")
	// Every kind of update: messages with entities, service messages, topics, presses, my_chat_member.
	ups := call("getUpdates", map[string]any{"allowed_updates": []string{}})
	var list []json.RawMessage
	json.Unmarshal(ups, &list)
	if len(list) < 12 {
		t.Fatalf("only %d updates", len(list))
	}
	call("deleteMessage", map[string]any{"chat_id": g.ID(), "message_id": m.ID})
	call("leaveChat", map[string]any{"chat_id": g.ID()})
	call("getUpdates", map[string]any{"offset": -1})
}

func BenchmarkLoadSpec(b *testing.B) {
	for b.Loop() {
		if _, err := loadSpec(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpecCheck measures the check of a typical bot request: HTML text and a keyboard.
func BenchmarkSpecCheck(b *testing.B) {
	sp, err := loadSpec()
	if err != nil {
		b.Fatal(err)
	}
	row := `{"text":"A♠","callback_data":"t1:v3:c12","copy_text":{"text":""}}`
	p := params{"chat_id": "-1002000000001", "text": "<b>Hand</b> " + strings.Repeat("x", 500), "parse_mode": "HTML",
		"link_preview_options": `{"is_disabled":true}`,
		"reply_markup":         `{"inline_keyboard":[[` + strings.Repeat(row+",", 5) + row + `],[` + row + `]]}`}
	for b.Loop() {
		if v, _ := sp.check("sendMessage", p, nil); v != nil {
			b.Fatal(v)
		}
	}
}

// TestDeleteMessages: one call deletes several messages of a chat, counts
// once against the limits, and checks its parameters against the spec.
func TestDeleteMessages(t *testing.T) {
	s := NewServer(WithTB(t), WithoutLimits())
	defer s.Close()
	u := s.NewUser("Аня")
	u.Start("")
	b, err := bot.New("123:test", bot.WithServerURL(s.URL), bot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var ids []int
	for i := 0; i < 3; i++ {
		m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.ID(), Text: "x"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	before := s.CallsPerChat()[u.ID()]
	if _, err := b.DeleteMessages(ctx, &bot.DeleteMessagesParams{ChatID: u.ID(), MessageIDs: ids[:2]}); err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, m := range u.PrivateChat().Messages() {
		if m.Text == "x" {
			left++
		}
	}
	if left != 1 {
		t.Fatalf("%d messages left, want 1", left)
	}
	if n := s.CallsPerChat()[u.ID()] - before; n != 1 {
		t.Fatalf("deleteMessages counted %d calls, want 1", n)
	}
	if _, err := b.DeleteMessages(ctx, &bot.DeleteMessagesParams{ChatID: u.ID(), MessageIDs: ids[:2]}); err == nil {
		t.Fatal("deleting only deleted messages succeeded")
	}
}
