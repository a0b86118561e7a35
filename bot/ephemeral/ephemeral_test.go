package ephemeral_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

const token = "123:secret-token"

// world is a group of Ann and Bob with the bot's table in it, and both clients of the bot.
type world struct {
	srv      *telegramtest.Server
	clock    *telegramtest.FakeClock
	tg       *tgbot.Bot
	eph      *ephemeral.Client
	ann, bob *telegramtest.User
	g        *telegramtest.Chat
}

func newWorld(t *testing.T, opts ...telegramtest.Option) *world {
	t.Helper()
	w := &world{clock: telegramtest.NewFakeClock(time.Unix(1700000000, 0))}
	w.srv = telegramtest.NewServer(append([]telegramtest.Option{telegramtest.WithTB(t), telegramtest.WithClock(w.clock),
		telegramtest.WithToken(token)}, opts...)...)
	t.Cleanup(w.srv.Close)
	tg, err := tgbot.New(token, tgbot.WithServerURL(w.srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	w.tg, w.eph = tg, ephemeral.New(w.srv.URL, token, nil)
	w.ann, w.bob = w.srv.NewUser("Ann"), w.srv.NewUser("Bob")
	w.g = w.srv.NewGroup("Kitchen", w.ann, w.bob)
	return w
}

func keyboard(text, data string) *models.InlineKeyboardMarkup {
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: text, CallbackData: data}}}}
}

// pressTable posts the group's table with the bot's other client and presses its button as u.
func (w *world) pressTable(t *testing.T, u *telegramtest.User) (*telegramtest.Message, string) {
	t.Helper()
	m, err := w.tg.SendMessage(context.Background(), &tgbot.SendMessageParams{ChatID: w.g.ID(), Text: "Table", ReplyMarkup: keyboard("Hand", "hand")})
	if err != nil {
		t.Fatal(err)
	}
	table := w.g.Message(m.ID)
	q, err := u.PressAsync(table, "Hand")
	if err != nil {
		t.Fatal(err)
	}
	return table, q.ID
}

func (w *world) hand(receiver *telegramtest.User, query string) ephemeral.Message {
	return ephemeral.Message{ChatID: w.g.ID(), ReceiverID: receiver.ID(), CallbackQueryID: query,
		Content: ephemeral.Content{Text: "<b>A♠</b> K♥", ParseMode: models.ParseModeHTML, Markup: keyboard("A♠", "play:As"), NoPreview: true}}
}

func apiError(t *testing.T, err error) *ephemeral.Error {
	t.Helper()
	var e *ephemeral.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is no *ephemeral.Error", err)
	}
	return e
}

// TestSendEditDelete: a hand sent in answer to Ann's press is Ann's alone; she presses its
// button; it is edited, left unchanged (ErrNotModified) and deleted by its Ref.
func TestSendEditDelete(t *testing.T) {
	w, ctx := newWorld(t), context.Background()
	if err := w.eph.Probe(ctx, w.g.ID(), w.ann.ID()); err != nil {
		t.Fatalf("probe: %v", err)
	}
	_, q := w.pressTable(t, w.ann)
	ref, err := w.eph.Send(ctx, w.hand(w.ann, q))
	if err != nil {
		t.Fatal(err)
	}
	if ref != (ephemeral.Ref{ChatID: w.g.ID(), ReceiverID: w.ann.ID(), ID: 1}) {
		t.Fatalf("ref %+v", ref)
	}
	m := w.ann.LastEphemeral(w.g)
	if m == nil || m.Text != "A♠ K♥" || m.Keyboard[0][0].CallbackData != "play:As" || len(w.bob.Ephemeral(w.g)) != 0 {
		t.Fatalf("Ann sees %+v, Bob %d", m, len(w.bob.Ephemeral(w.g)))
	}
	if _, err := w.ann.PressAsync(m, "A♠"); err != nil {
		t.Fatal(err)
	}

	next := ephemeral.Content{Text: "K♥", Markup: keyboard("K♥", "play:Kh")}
	if err := w.eph.EditText(ctx, ref, next); err != nil {
		t.Fatal(err)
	}
	if m := w.ann.LastEphemeral(w.g); m.Text != "K♥" || m.Keyboard[0][0].Text != "K♥" {
		t.Fatalf("Ann sees %+v", m)
	}
	if err := w.eph.EditText(ctx, ref, next); !errors.Is(err, ephemeral.ErrNotModified) || errors.Is(err, ephemeral.ErrUnsupported) {
		t.Fatalf("the same edit: %v", err)
	}
	if err := w.eph.EditMarkup(ctx, ref, nil); err != nil {
		t.Fatal(err)
	}
	if m := w.ann.LastEphemeral(w.g); m.Keyboard != nil {
		t.Fatalf("buttons kept: %+v", m.Keyboard)
	}
	bobs := ref
	bobs.ReceiverID = w.bob.ID()
	if e := apiError(t, w.eph.Delete(ctx, bobs)); e.Code != http.StatusBadRequest || errors.Is(e, ephemeral.ErrUnsupported) {
		t.Fatalf("delete with another receiver: %v", e)
	}
	if err := w.eph.Delete(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if got := w.ann.Ephemeral(w.g); len(got) != 0 {
		t.Fatalf("deleted message seen: %+v", got)
	}
}

// TestInPlaceAndRefusals: in place of the table for Ann alone; a send that answers no press
// of a bot that is no administrator is an ordinary 400.
func TestInPlaceAndRefusals(t *testing.T) {
	w, ctx := newWorld(t), context.Background()
	table, q := w.pressTable(t, w.ann)
	if _, err := w.eph.Send(ctx, w.hand(w.bob, q)); apiError(t, err).Code != http.StatusBadRequest {
		t.Fatalf("Bob's hand for Ann's press: %v", err)
	}
	m := w.hand(w.ann, q)
	m.InPlace = true
	if _, err := w.eph.Send(ctx, m); err != nil {
		t.Fatal(err)
	}
	if v := w.ann.View(w.g); len(v) != 1 || v[0].EphemeralID == 0 {
		t.Fatalf("Ann's view %+v", v)
	}
	if v := w.bob.View(w.g); len(v) != 1 || v[0].ID != table.ID {
		t.Fatalf("Bob's view %+v", v)
	}
	_, err := w.eph.Send(ctx, w.hand(w.bob, ""))
	if e := apiError(t, err); e.Code != http.StatusBadRequest || errors.Is(err, ephemeral.ErrUnsupported) {
		t.Fatalf("no press: %v", err)
	}
	w.g.MakeBotAdmin()
	if _, err := w.eph.Send(ctx, w.hand(w.bob, "")); err != nil {
		t.Fatalf("an administrator's send: %v", err)
	}
}

// TestUnsupportedServer: a server older than Bot API 10.2 is told by the probe, by every edit
// and delete, and by a send it posted for everyone (which the caller then deletes).
func TestUnsupportedServer(t *testing.T) {
	w, ctx := newWorld(t, telegramtest.WithoutEphemeralMessages()), context.Background()
	if err := w.eph.Probe(ctx, w.g.ID(), w.ann.ID()); !errors.Is(err, ephemeral.ErrUnsupported) {
		t.Fatalf("probe: %v", err)
	}
	ref := ephemeral.Ref{ChatID: w.g.ID(), ReceiverID: w.ann.ID(), ID: 1}
	for _, err := range []error{w.eph.EditText(ctx, ref, ephemeral.Content{Text: "x"}), w.eph.EditMarkup(ctx, ref, nil), w.eph.Delete(ctx, ref)} {
		if !errors.Is(err, ephemeral.ErrUnsupported) || apiError(t, err).Code != http.StatusNotFound {
			t.Fatalf("edit or delete: %v", err)
		}
	}
	_, q := w.pressTable(t, w.ann)
	_, err := w.eph.Send(ctx, w.hand(w.ann, q))
	var pub *ephemeral.PublicError
	if !errors.As(err, &pub) || !errors.Is(err, ephemeral.ErrUnsupported) || pub.ChatID != w.g.ID() {
		t.Fatalf("send: %v", err)
	}
	if v := w.bob.View(w.g); len(v) != 2 || v[1].ID != pub.MessageID || v[1].Text != "A♠ K♥" {
		t.Fatalf("Bob sees %+v", v)
	}
	if _, err := w.tg.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: pub.ChatID, MessageID: pub.MessageID}); err != nil {
		t.Fatal(err)
	}
}

// TestDroppedMessage: a message Telegram loses on the way is sent, edited and deleted like any
// other, without an error: only its receiver never sees it.
func TestDroppedMessage(t *testing.T) {
	w, ctx := newWorld(t), context.Background()
	w.srv.DropEphemeral(1)
	_, q := w.pressTable(t, w.ann)
	ref, err := w.eph.Send(ctx, w.hand(w.ann, q))
	if err != nil || ref.ID == 0 {
		t.Fatalf("send: %+v %v", ref, err)
	}
	if err := w.eph.EditText(ctx, ref, ephemeral.Content{Text: "K♥"}); err != nil {
		t.Fatal(err)
	}
	if got, n := len(w.ann.Ephemeral(w.g)), w.srv.DroppedEphemeral(); got != 0 || n != 1 {
		t.Fatalf("Ann sees %d, %d dropped", got, n)
	}
	if err := w.eph.Delete(ctx, ref); err != nil {
		t.Fatal(err)
	}
}

// TestTooManyRequests: ephemeral sends count against the group's 20 a minute; the 21st is a
// 429 with its retry_after.
func TestTooManyRequests(t *testing.T) {
	w, ctx := newWorld(t), context.Background()
	w.g.MakeBotAdmin()
	for i := range 20 {
		if _, err := w.eph.Send(ctx, w.hand(w.ann, "")); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	_, err := w.eph.Send(ctx, w.hand(w.ann, ""))
	if e := apiError(t, err); e.Code != http.StatusTooManyRequests || e.RetryAfter < time.Second || errors.Is(err, ephemeral.ErrUnsupported) {
		t.Fatalf("21st send: %v (retry after %v)", err, e.RetryAfter)
	}
	if n := w.srv.TooManyRequestsCount(); n != 1 {
		t.Fatalf("%d 429s", n)
	}
}

// TestErrorsHideToken: a transport error names the method, never the token.
func TestErrorsHideToken(t *testing.T) {
	srv := telegramtest.NewServer()
	url := srv.URL
	srv.Close()
	err := ephemeral.New(url, token, nil).Delete(context.Background(), ephemeral.Ref{ChatID: -1, ReceiverID: 1, ID: 1})
	if err == nil || strings.Contains(err.Error(), "secret-token") || !strings.Contains(err.Error(), "deleteEphemeralMessage") {
		t.Fatalf("error %v", err)
	}
}
