package load

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot"
)

// instantTelegram answers every call at once, like a Bot API server with
// no latency: the load test measures the bot, not the network. It keeps
// the answer to each button press until the driver takes it, so the driver
// knows whether its press was applied.
type instantTelegram struct {
	// Telegram is nil: a method the bot starts calling that is not
	// implemented below fails loudly (a nil call) instead of the tool
	// silently no longer compiling against a newer bot.
	bot.Telegram

	nextID  atomic.Int64
	answers sync.Map // callback query id → answer text
	latest  sync.Map // chat id → the id of the last message sent there
}

// latestIn returns the id of the last message sent to chat (a person's
// hand, in a private chat): the message whose buttons a player presses.
func (t *instantTelegram) latestIn(chat int64) int {
	v, _ := t.latest.Load(chat)
	id, _ := v.(int)
	return id
}

// answer returns and forgets the answer to a button press.
func (t *instantTelegram) answer(queryID string) (string, bool) {
	v, ok := t.answers.LoadAndDelete(queryID)
	if !ok {
		return "", false
	}
	return v.(string), true
}

func (t *instantTelegram) msg(chat any) *models.Message {
	var id int64
	switch c := chat.(type) {
	case int64:
		id = c
	case int:
		id = int64(c)
	case string:
		id, _ = strconv.ParseInt(c, 10, 64)
	}
	return &models.Message{ID: int(t.nextID.Add(1)), Chat: models.Chat{ID: id}}
}

func (t *instantTelegram) GetMe(context.Context) (*models.User, error) {
	return &models.User{ID: 1, IsBot: true, Username: "loadbot"}, nil
}

func (t *instantTelegram) SendMessage(_ context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	m := t.msg(p.ChatID)
	t.latest.Store(m.Chat.ID, m.ID)
	return m, nil
}

// SendDocument posts a file (a finished game's deal, in private). It is
// no hand, so the message the driver presses stays the latest one.
func (t *instantTelegram) SendDocument(_ context.Context, p *tgbot.SendDocumentParams) (*models.Message, error) {
	return t.msg(p.ChatID), nil
}

// edited answers an edit as Telegram does: with the edited message.
func (t *instantTelegram) edited(chat any, id int) *models.Message {
	m := t.msg(chat)
	m.ID = id
	return m
}

func (t *instantTelegram) EditMessageText(_ context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	return t.edited(p.ChatID, p.MessageID), nil
}

func (t *instantTelegram) EditMessageReplyMarkup(_ context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error) {
	return t.edited(p.ChatID, p.MessageID), nil
}

func (t *instantTelegram) DeleteMessage(context.Context, *tgbot.DeleteMessageParams) (bool, error) {
	return true, nil
}

func (t *instantTelegram) DeleteMessages(context.Context, *tgbot.DeleteMessagesParams) (bool, error) {
	return true, nil
}

func (t *instantTelegram) AnswerCallbackQuery(_ context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error) {
	t.answers.Store(p.CallbackQueryID, p.Text)
	return true, nil
}

func (t *instantTelegram) SetMyCommands(context.Context, *tgbot.SetMyCommandsParams) (bool, error) {
	return true, nil
}

func (t *instantTelegram) GetChatMember(context.Context, *tgbot.GetChatMemberParams) (*models.ChatMember, error) {
	return &models.ChatMember{Type: models.ChatMemberTypeMember}, nil
}
