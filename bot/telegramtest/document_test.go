package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// sendDocument as the Bot API describes it: a file uploaded by
// go-telegram/bot (multipart), answered with the message and its document,
// which the user sees with its caption and buttons; sent again by its
// file_id; and refused as Telegram refuses: an empty file, an unknown
// file_id, a caption over 1024 characters, a user who never started the
// bot, an edit of its (absent) text.
func TestSendDocument(t *testing.T) {
	s := NewServer(WithTB(t))
	t.Cleanup(s.Close)
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	u := s.NewUser("Оля")
	u.Start("")
	b := newClient(t, s)
	ctx := context.Background()
	data := []byte(`{"game": "trickchef"}` + "\n")
	sent, err := b.SendDocument(ctx, &bot.SendDocumentParams{
		ChatID:    u.ID(),
		Document:  &models.InputFileUpload{Filename: "trickchef-3.json", Data: bytes.NewReader(data)},
		Caption:   "Ходы игры <b>«Трик-н-Шеф»</b>",
		ParseMode: models.ParseModeHTML,
		ReplyMarkup: models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{{Text: "Ещё", CallbackData: "x"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := sent.Document
	if d == nil || d.FileName != "trickchef-3.json" || d.MimeType != "application/json" || d.FileSize != int64(len(data)) || d.FileID == "" || d.FileUniqueID == "" {
		t.Fatalf("document %+v", d)
	}
	if sent.Caption != "Ходы игры «Трик-н-Шеф»" || len(sent.CaptionEntities) != 1 || sent.Text != "" {
		t.Fatalf("caption %q %+v, text %q", sent.Caption, sent.CaptionEntities, sent.Text)
	}
	m := u.PrivateChat().Last()
	if m.Document == nil || !bytes.Equal(m.Document.Data, data) || m.Caption != sent.Caption || m.Text != "" || len(m.Buttons()) != 1 {
		t.Fatalf("the user sees %+v", m)
	}
	raw, _ := json.Marshal(sent)
	checkAnswer(t, sp, "sendDocument", raw)

	// Again by file_id, in JSON: the same file, no caption.
	r := callJSON(t, s, "sendDocument", map[string]any{"chat_id": u.ID(), "document": d.FileID})
	if !r.OK {
		t.Fatalf("by file_id: %s", r.Description)
	}
	if again := u.PrivateChat().Last(); again.Document == nil || again.Document.FileID != d.FileID || again.Caption != "" {
		t.Fatalf("by file_id: %+v", again)
	}
	checkAnswer(t, sp, "sendDocument", r.Result)

	// An edit of the document's text: it has none.
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: "x"}); err == nil || !strings.Contains(err.Error(), "there is no text in the message to edit") {
		t.Fatalf("edit of a document's text: %v", err)
	}
	// Refusals, on a server that lets a request break the spec (a missing
	// document, a caption too long) to answer it as Telegram would.
	s2 := NewServer(AllowSpecViolations())
	t.Cleanup(s2.Close)
	v := s2.NewUser("Вера")
	v.Start("")
	id := strconv.FormatInt(v.ID(), 10)
	for _, c := range []struct {
		name   string
		fields map[string]string
		files  map[string]string
		want   string
	}{
		{"empty file", map[string]string{"chat_id": id}, map[string]string{"document": ""}, "file must be non-empty"},
		{"unknown file_id", map[string]string{"chat_id": id, "document": "BQACnope"}, nil, "wrong file identifier/HTTP URL specified"},
		{"long caption", map[string]string{"chat_id": id, "caption": strings.Repeat("я", 1025)}, map[string]string{"document": "x"}, "caption"},
		{"no document", map[string]string{"chat_id": id}, nil, "document"},
		{"never started", map[string]string{"chat_id": strconv.FormatInt(s2.NewUser("Петя").ID(), 10)}, map[string]string{"document": "x"}, "bot can't initiate conversation with a user"},
	} {
		r := callMultipart(t, s2, "sendDocument", c.fields, c.files)
		if r.OK || !strings.Contains(r.Description, c.want) {
			t.Errorf("%s: %v %q, want %q", c.name, r.OK, r.Description, c.want)
		}
	}
	if n := len(v.PrivateChat().BotMessages()); n != 0 {
		t.Errorf("refused documents left %d messages", n)
	}
}
