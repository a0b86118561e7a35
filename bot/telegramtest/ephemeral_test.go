package telegramtest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// ephemeralWorld is a group of Ann and Bob with the bot's table in it, a button on it.
type ephemeralWorld struct {
	s        *Server
	clock    *FakeClock
	ann, bob *User
	g        *Chat
	table    *Message
}

func newEphemeralWorld(t *testing.T, opts ...Option) *ephemeralWorld {
	t.Helper()
	w := &ephemeralWorld{clock: NewFakeClock(time.Unix(1700000000, 0))}
	w.s = NewServer(append([]Option{WithTB(t), WithClock(w.clock)}, opts...)...)
	t.Cleanup(w.s.Close)
	w.ann, w.bob = w.s.NewUser("Ann"), w.s.NewUser("Bob")
	w.g = w.s.NewGroup("Kitchen", w.ann, w.bob)
	r := callJSON(t, w.s, "sendMessage", map[string]any{"chat_id": w.g.ID(), "text": "Table",
		"reply_markup": buttons("Hand", "hand")})
	if !r.OK {
		t.Fatalf("table: %s", r.Description)
	}
	w.table = w.g.Last()
	return w
}

func buttons(text, data string) map[string]any {
	return map[string]any{"inline_keyboard": [][]map[string]any{{{"text": text, "callback_data": data}}}}
}

// press presses a button and leaves the query unanswered (the bot would answer it).
func (w *ephemeralWorld) press(t *testing.T, u *User, m *Message, button string) *Query {
	t.Helper()
	q, err := u.PressAsync(m, button)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// send is sendMessage with ephemeral_message_parameters and a button.
func (w *ephemeralWorld) send(t *testing.T, chat int64, ep map[string]any) response {
	t.Helper()
	return callJSON(t, w.s, "sendMessage", map[string]any{"chat_id": chat, "text": "<b>A♠</b> K♥",
		"parse_mode": "HTML", "reply_markup": buttons("A♠", "play:As"), "ephemeral_message_parameters": ep})
}

// sentEphemeral is the part of an answer's Message the ephemeral methods add.
type sentEphemeral struct {
	MessageID          int `json:"message_id"`
	EphemeralMessageID int `json:"ephemeral_message_id"`
	Chat               struct{ ID int64 }
	From               struct{ ID int64 }
	ReceiverUser       *struct{ ID int64 } `json:"receiver_user"`
	Text               string
}

func wantRefused(t *testing.T, r response, code int, desc string) {
	t.Helper()
	if r.OK || r.ErrorCode != code || r.Description != desc {
		t.Fatalf("got ok=%v %d %q, want %d %q", r.OK, r.ErrorCode, r.Description, code, desc)
	}
}

// TestEphemeralSeenOnlyByReceiver: an ephemeral message sent in answer to Ann's press is Ann's
// alone — her view of the group shows it after the table, Bob's and the chat's history do not —
// and a press on it carries message_id 0, its ephemeral_message_id and receiver_user.
func TestEphemeralSeenOnlyByReceiver(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	w := newEphemeralWorld(t)
	q := w.press(t, w.ann, w.table, "Hand")
	r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": q.ID})
	if !r.OK {
		t.Fatalf("send: %s", r.Description)
	}
	checkAnswer(t, sp, "sendMessage", r.Result)
	var m sentEphemeral
	json.Unmarshal(r.Result, &m)
	if m.MessageID != 0 || m.EphemeralMessageID != 1 || m.Chat.ID != w.g.ID() || m.From.ID != w.s.Bot().ID ||
		m.ReceiverUser == nil || m.ReceiverUser.ID != w.ann.ID() || m.Text != "A♠ K♥" {
		t.Fatalf("answer %s", r.Result)
	}

	mine := w.ann.Ephemeral(w.g)
	if len(mine) != 1 || mine[0].ID != 0 || mine[0].EphemeralID != 1 || mine[0].ReceiverID != w.ann.ID() ||
		mine[0].Text != "A♠ K♥" || !mine[0].FromBot || mine[0].Keyboard[0][0].CallbackData != "play:As" {
		t.Fatalf("Ann sees %+v", mine)
	}
	if got := w.bob.Ephemeral(w.g); len(got) != 0 {
		t.Fatalf("Bob sees %+v", got)
	}
	if got := w.g.Messages(); len(got) != 1 || got[0].ID != w.table.ID {
		t.Fatalf("the history has %+v", got)
	}
	if v := w.ann.View(w.g); len(v) != 2 || v[0].ID != w.table.ID || v[1].EphemeralID != 1 {
		t.Fatalf("Ann's view %+v", v)
	}
	if v := w.bob.View(w.g); len(v) != 1 || v[0].ID != w.table.ID {
		t.Fatalf("Bob's view %+v", v)
	}
	if _, err := w.bob.PressAsync(mine[0], "A♠"); err == nil {
		t.Fatal("Bob pressed Ann's ephemeral message")
	}

	callJSON(t, w.s, "getUpdates", map[string]any{"offset": -1})
	w.press(t, w.ann, mine[0], "A♠")
	r = callJSON(t, w.s, "getUpdates", map[string]any{"offset": -1})
	checkAnswer(t, sp, "getUpdates", r.Result)
	var ups []struct {
		CallbackQuery struct {
			From    struct{ ID int64 }
			Message sentEphemeral
			Data    string
		} `json:"callback_query"`
	}
	json.Unmarshal(r.Result, &ups)
	if len(ups) != 1 {
		t.Fatalf("updates %s", r.Result)
	}
	cq := ups[0].CallbackQuery
	if cq.From.ID != w.ann.ID() || cq.Data != "play:As" || cq.Message.MessageID != 0 || cq.Message.EphemeralMessageID != 1 ||
		cq.Message.ReceiverUser == nil || cq.Message.ReceiverUser.ID != w.ann.ID() || cq.Message.Chat.ID != w.g.ID() {
		t.Fatalf("callback query %s", r.Result)
	}
	if m, err := w.ann.WaitEphemeral(w.g, time.Second, func(m *Message) bool { return m.EphemeralID == 1 }); err != nil || m.Text != "A♠ K♥" {
		t.Fatalf("wait: %+v %v", m, err)
	}
	if _, err := w.bob.WaitEphemeral(w.g, 10*time.Millisecond, func(*Message) bool { return true }); err == nil {
		t.Fatal("Bob waited for Ann's message")
	}
}

// TestEphemeralEditDelete: edits and deletes name the chat, the receiver and the ephemeral
// message; another receiver or a deleted message is "not found", an unchanged one "not modified".
func TestEphemeralEditDelete(t *testing.T) {
	w := newEphemeralWorld(t)
	q := w.press(t, w.ann, w.table, "Hand")
	if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": q.ID}); !r.OK {
		t.Fatal(r.Description)
	}
	at := func(receiver int64, more map[string]any) map[string]any {
		p := map[string]any{"chat_id": w.g.ID(), "receiver_user_id": receiver, "ephemeral_message_id": 1}
		for k, v := range more {
			p[k] = v
		}
		return p
	}
	w.clock.Advance(time.Hour) // edits have no window of their own
	r := callJSON(t, w.s, "editEphemeralMessageText", at(w.ann.ID(), map[string]any{"text": "K♥", "reply_markup": buttons("K♥", "play:Kh")}))
	if !r.OK || string(r.Result) != "true" {
		t.Fatalf("edit: %s %s", r.Description, r.Result)
	}
	if m := w.ann.LastEphemeral(w.g); m.Text != "K♥" || m.EditDate.IsZero() || m.Keyboard[0][0].Text != "K♥" {
		t.Fatalf("Ann sees %+v", m)
	}
	r = callJSON(t, w.s, "editEphemeralMessageText", at(w.ann.ID(), map[string]any{"text": "K♥", "reply_markup": buttons("K♥", "play:Kh")}))
	wantRefused(t, r, 400, "Bad Request: "+notModified)
	r = callJSON(t, w.s, "editEphemeralMessageText", at(w.bob.ID(), map[string]any{"text": "x"}))
	wantRefused(t, r, 400, "Bad Request: message to edit not found")
	r = callJSON(t, w.s, "editEphemeralMessageReplyMarkup", at(w.ann.ID(), map[string]any{"reply_markup": buttons("K♥", "play:Kh")}))
	wantRefused(t, r, 400, "Bad Request: "+notModified)
	if r = callJSON(t, w.s, "editEphemeralMessageReplyMarkup", at(w.ann.ID(), nil)); !r.OK {
		t.Fatal(r.Description)
	}
	if m := w.ann.LastEphemeral(w.g); m.Keyboard != nil {
		t.Fatalf("keyboard kept: %+v", m.Keyboard)
	}
	r = callJSON(t, w.s, "deleteEphemeralMessage", at(w.bob.ID(), nil))
	wantRefused(t, r, 400, "Bad Request: message to delete not found")
	if r = callJSON(t, w.s, "deleteEphemeralMessage", at(w.ann.ID(), nil)); !r.OK || string(r.Result) != "true" {
		t.Fatal(r.Description)
	}
	if got := w.ann.Ephemeral(w.g); len(got) != 0 {
		t.Fatalf("deleted message still seen: %+v", got)
	}
	r = callJSON(t, w.s, "deleteEphemeralMessage", at(w.ann.ID(), nil))
	wantRefused(t, r, 400, "Bad Request: message to delete not found")
	r = callJSON(t, w.s, "editEphemeralMessageText", at(w.ann.ID(), map[string]any{"text": "x"}))
	wantRefused(t, r, 400, "Bad Request: message to edit not found")
	// The call log tells the ephemeral calls from the table's own send.
	var marked []string
	for i, c := range w.s.Calls() {
		if c.Ephemeral != (i > 0) { // the first is the table's send
			t.Errorf("call %d, %s, marked ephemeral %v", i, c.Method, c.Ephemeral)
		}
		if c.Ephemeral && c.OK {
			marked = append(marked, c.Method)
		}
	}
	if want := "sendMessage editEphemeralMessageText editEphemeralMessageReplyMarkup deleteEphemeralMessage"; strings.Join(marked, " ") != want {
		t.Errorf("ephemeral calls that succeeded: %v, want %s", marked, want)
	}
}

// TestEphemeralOnlyInAnswer: a bot that is not the group's administrator sends an ephemeral
// message only to the member whose press it answers, in that chat, within 15 seconds of it.
func TestEphemeralOnlyInAnswer(t *testing.T) {
	w := newEphemeralWorld(t)
	other := w.s.NewGroup("Other", w.ann)
	callJSON(t, w.s, "sendMessage", map[string]any{"chat_id": other.ID(), "text": "T", "reply_markup": buttons("Hand", "hand")})
	w.ann.Start("")
	carol := w.s.NewUser("Carol")
	annQ := w.press(t, w.ann, w.table, "Hand")
	bobQ := w.press(t, w.bob, w.table, "Hand")
	elsewhere := w.press(t, w.ann, other.Last(), "Hand")
	for _, c := range []struct {
		name string
		chat int64
		ep   map[string]any
		want string
	}{
		{"no press, not an administrator", w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID()}, ephNoTrigger},
		{"a private chat", w.ann.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": annQ.ID}, ephNotGroup},
		{"not a member", w.g.ID(), map[string]any{"receiver_user_id": carol.ID(), "callback_query_id": annQ.ID}, ephNoReceiver},
		{"the bot", w.g.ID(), map[string]any{"receiver_user_id": w.s.Bot().ID, "callback_query_id": annQ.ID}, ephNoReceiver},
		{"another's press", w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": bobQ.ID}, ephQueryElsewhere},
		{"a press in another chat", w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": elsewhere.ID}, ephQueryElsewhere},
		{"no such press", w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": "42"}, ephQueryInvalid},
		{"in place, no press", w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "replace_callback_query_message": true}, ephNoReplace},
	} {
		t.Run(c.name, func(t *testing.T) { wantRefused(t, w.send(t, c.chat, c.ep), 400, "Bad Request: "+c.want) })
	}
	// A reply to an incoming ephemeral message: the fake has none (no ephemeral commands).
	r := callJSON(t, w.s, "sendMessage", map[string]any{"chat_id": w.g.ID(), "text": "x",
		"reply_parameters": map[string]any{"ephemeral_message_id": 7}})
	wantRefused(t, r, 400, "Bad Request: "+ephReplyNotFound)

	// The press's own answer is fine, and so is a press on the ephemeral message, answered with
	// a new one — but not in its place.
	if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": annQ.ID}); !r.OK {
		t.Fatal(r.Description)
	}
	onEph := w.press(t, w.ann, w.ann.LastEphemeral(w.g), "A♠")
	wantRefused(t, w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": onEph.ID,
		"replace_callback_query_message": true}), 400, "Bad Request: "+ephNoReplace)
	if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": onEph.ID}); !r.OK {
		t.Fatal(r.Description)
	}
	w.clock.Advance(ephemeralWindow + time.Second)
	wantRefused(t, w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": onEph.ID}),
		400, "Bad Request: "+ephQueryInvalid)

	// An administrator writes to any member at any time.
	w.g.MakeBotAdmin()
	if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.bob.ID()}); !r.OK {
		t.Fatal(r.Description)
	}
	r = callJSON(t, w.s, "getChatMember", map[string]any{"chat_id": w.g.ID(), "user_id": w.s.Bot().ID})
	if !r.OK || !strings.Contains(string(r.Result), `"status":"administrator"`) {
		t.Fatalf("the bot is %s", r.Result)
	}
	if sp, err := loadSpec(); err == nil {
		checkAnswer(t, sp, "getChatMember", r.Result)
	}
	if got := len(w.bob.Ephemeral(w.g)); got != 1 {
		t.Fatalf("Bob sees %d", got)
	}
}

// TestEphemeralSpecChecked: the new methods and parameters are checked like every other.
func TestEphemeralSpecChecked(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	if l := sp.methods["editephemeralmessagetext"].byName["text"]; l.limit == nil || l.limit.max != 4096 || len(l.unless) != 1 || l.unless[0] != "rich_message" {
		t.Fatalf("editEphemeralMessageText.text: %+v", l)
	}
	if u := sp.types["ReplyParameters"].byName["message_id"].unless; len(u) != 1 || u[0] != "ephemeral_message_id" {
		t.Fatalf("ReplyParameters.message_id required unless %v", u)
	}
	if !sp.types["EphemeralMessageParameters"].byName["receiver_user_id"].required {
		t.Fatal("receiver_user_id is optional")
	}
	rec := &recorder{}
	w := newEphemeralWorld(t, WithTB(rec))
	for _, c := range []struct {
		method string
		body   map[string]any
		code   int
		answer string
	}{
		{"editEphemeralMessageText", map[string]any{"chat_id": w.g.ID(), "receiver_user_id": w.ann.ID(), "text": "x"},
			400, `Bad Request: Parameter "ephemeral_message_id" is required`},
		{"editEphemeralMessageText", map[string]any{"chat_id": w.g.ID(), "receiver_user_id": w.ann.ID(), "ephemeral_message_id": 1},
			400, "Bad Request: message text is empty"},
		{"deleteEphemeralMessage", map[string]any{"chat_id": w.g.ID(), "ephemeral_message_id": 1},
			400, `Bad Request: Parameter "receiver_user_id" is required`},
		{"sendMessage", map[string]any{"chat_id": w.g.ID(), "text": "x", "ephemeral_message_parameters": map[string]any{"callback_query_id": "1"}},
			400, `Bad Request: can't parse EphemeralMessageParameters: Can't find field "receiver_user_id"`},
		{"sendMessage", map[string]any{"chat_id": w.g.ID(), "text": "x", "receiver_user_id": w.ann.ID()},
			400, `Bad Request: parameter "receiver_user_id" is not supported by the method`}, // 10.2's, gone in 10.3
		{"editEphemeralMessageCaption", map[string]any{"chat_id": w.g.ID()}, 404, "Not Found"}, // not simulated
	} {
		wantRefused(t, callJSON(t, w.s, c.method, c.body), c.code, c.answer)
		if got := rec.take(); len(got) != 1 {
			t.Errorf("%s %v: reported %q", c.method, c.body, got)
		}
	}
}

// TestEphemeralInPlace: shown in place of the pressed message, for the receiver alone, until
// it is deleted.
func TestEphemeralInPlace(t *testing.T) {
	w := newEphemeralWorld(t)
	callJSON(t, w.s, "sendMessage", map[string]any{"chat_id": w.g.ID(), "text": "Later"})
	q := w.press(t, w.ann, w.table, "Hand")
	if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": q.ID,
		"replace_callback_query_message": true}); !r.OK {
		t.Fatal(r.Description)
	}
	if v := w.ann.View(w.g); len(v) != 2 || v[0].EphemeralID != 1 || v[1].Text != "Later" {
		t.Fatalf("Ann's view %+v", v)
	}
	if v := w.bob.View(w.g); len(v) != 2 || v[0].ID != w.table.ID {
		t.Fatalf("Bob's view %+v", v)
	}
	if _, err := w.ann.PressAsync(w.table, "Hand"); err == nil {
		t.Fatal("Ann pressed the table she does not see")
	}
	w.press(t, w.bob, w.table, "Hand")
	r := callJSON(t, w.s, "deleteEphemeralMessage", map[string]any{"chat_id": w.g.ID(), "receiver_user_id": w.ann.ID(), "ephemeral_message_id": 1})
	if !r.OK {
		t.Fatal(r.Description)
	}
	if v := w.ann.View(w.g); len(v) != 2 || v[0].ID != w.table.ID {
		t.Fatalf("Ann's view after the delete %+v", v)
	}
}

// TestEphemeralDropped: a dropped message is sent, edited and deleted as any, and never seen.
func TestEphemeralDropped(t *testing.T) {
	w := newEphemeralWorld(t)
	w.g.MakeBotAdmin()
	w.s.DropEphemeral(0.5)
	for range 4 {
		if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID()}); !r.OK {
			t.Fatal(r.Description)
		}
	}
	if got, n := w.ann.Ephemeral(w.g), w.s.DroppedEphemeral(); len(got) != 2 || got[0].EphemeralID != 1 || got[1].EphemeralID != 3 || n != 2 {
		t.Fatalf("Ann sees %+v, %d dropped", got, n)
	}
	r := callJSON(t, w.s, "editEphemeralMessageText", map[string]any{"chat_id": w.g.ID(), "receiver_user_id": w.ann.ID(),
		"ephemeral_message_id": 2, "text": "edited"})
	if !r.OK {
		t.Fatal(r.Description)
	}
	if _, err := w.ann.PressAsync(&Message{ChatID: w.g.ID(), EphemeralID: 2}, "A♠"); err == nil {
		t.Fatal("pressed a message that never arrived")
	}
	w.s.DropEphemeral(1)
	w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID()})
	w.s.DropEphemeral(0)
	w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID()})
	if got, n := len(w.ann.Ephemeral(w.g)), w.s.DroppedEphemeral(); got != 3 || n != 3 {
		t.Fatalf("Ann sees %d, %d dropped", got, n)
	}
}

// TestEphemeralUnknownServer: a server older than Bot API 10.2 answers the new methods 404 and
// posts an ephemeral send for everyone, having ignored the parameter it does not know.
func TestEphemeralUnknownServer(t *testing.T) {
	w := newEphemeralWorld(t, WithoutEphemeralMessages())
	p := map[string]any{"chat_id": w.g.ID(), "receiver_user_id": w.ann.ID(), "ephemeral_message_id": 1}
	wantRefused(t, callJSON(t, w.s, "deleteEphemeralMessage", p), 404, "Not Found: method not found")
	wantRefused(t, callJSON(t, w.s, "editEphemeralMessageReplyMarkup", p), 404, "Not Found: method not found")
	p["text"] = "x"
	wantRefused(t, callJSON(t, w.s, "editEphemeralMessageText", p), 404, "Not Found: method not found")
	q := w.press(t, w.ann, w.table, "Hand")
	r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID(), "callback_query_id": q.ID})
	var m sentEphemeral
	json.Unmarshal(r.Result, &m)
	if !r.OK || m.MessageID == 0 || m.EphemeralMessageID != 0 || m.ReceiverUser != nil {
		t.Fatalf("send: %s %s", r.Description, r.Result)
	}
	if v := w.bob.View(w.g); len(v) != 2 || v[1].Text != "A♠ K♥" {
		t.Fatalf("Bob's view %+v", v)
	}
	if len(w.s.Violations()) != 0 {
		t.Fatalf("violations %v", w.s.Violations())
	}
}

// TestEphemeralLimits: ephemeral sends, edits and deletes count against the group's 20 a
// minute with every other message (the documentation names no limits of their own).
func TestEphemeralLimits(t *testing.T) {
	w := newEphemeralWorld(t) // the table was the first of the group's 20
	w.g.MakeBotAdmin()
	for i := range 18 {
		if r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID()}); !r.OK {
			t.Fatalf("send %d: %s", i, r.Description)
		}
	}
	p := map[string]any{"chat_id": w.g.ID(), "receiver_user_id": w.ann.ID(), "ephemeral_message_id": 1}
	if r := callJSON(t, w.s, "deleteEphemeralMessage", p); !r.OK {
		t.Fatal(r.Description)
	}
	r := w.send(t, w.g.ID(), map[string]any{"receiver_user_id": w.ann.ID()})
	if r.OK || r.ErrorCode != 429 || r.Parameters.RetryAfter < 1 {
		t.Fatalf("21st call: %v %d %q", r.OK, r.ErrorCode, r.Description)
	}
	p["ephemeral_message_id"], p["text"] = 2, "x"
	if r := callJSON(t, w.s, "editEphemeralMessageText", p); r.ErrorCode != 429 {
		t.Fatalf("edit over the limit: %v %d %q", r.OK, r.ErrorCode, r.Description)
	}
	if n := w.s.CallsPerChat()[w.g.ID()]; n != 20 {
		t.Fatalf("%d calls counted", n)
	}
	w.clock.Advance(time.Minute)
	if r := callJSON(t, w.s, "editEphemeralMessageText", p); !r.OK {
		t.Fatal(r.Description)
	}
}
