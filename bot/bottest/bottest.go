// Package bottest runs the bot against the fake Bot API server
// (telegramtest) with simulated players, for end-to-end tests and for the
// measurement tool cmd/pacegame. It knows the bot's Russian button labels.
package bottest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/locales"
)

// Token is the token the simulated bot uses; the fake server accepts any.
const Token = "123456:TEST-token-for-the-fake-bot-api"

// Harness is one fake Telegram, one store and a bot process that can be
// stopped (as by a crash) and started again over the same store.
type Harness struct {
	Srv   *telegramtest.Server
	Store bot.Store
	// Games are the games the bot offers (bot.WithGames).
	Games []bot.Game
	Cfg   bot.Config
	Log   zerolog.Logger
	// Answered, if set, observes each button press's handling time.
	Answered func(time.Duration)

	// Bot is the running bot process (nil while stopped).
	Bot *bot.Bot

	cancel context.CancelFunc
	done   sync.WaitGroup
}

// Start runs a bot process: the delivery worker and the update poller.
func (h *Harness) Start() error {
	cat, err := locales.New()
	if err != nil {
		return err
	}
	tg, err := tgbot.New(Token, tgbot.WithServerURL(h.Srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		return err
	}
	opts := []bot.Option{bot.WithLogger(h.Log), bot.WithGames(h.Games...)}
	if h.Answered != nil {
		opts = append(opts, bot.WithAnswerObserver(h.Answered))
	}
	b := bot.New(h.Cfg, h.Store, tg, cat, opts...)
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Init(ctx); err != nil {
		cancel()
		return err
	}
	h.cancel = cancel
	h.Bot = b
	h.done.Add(2)
	go func() { defer h.done.Done(); b.RunWorker(ctx) }()
	go func() {
		defer h.done.Done()
		b.Poll(ctx, &bot.Poller{APIURL: h.Srv.URL, Token: Token, Timeout: time.Second})
	}()
	return nil
}

// Stop ends the bot process abruptly: whatever was not committed is lost.
func (h *Harness) Stop() {
	if h.cancel != nil {
		h.cancel()
		h.done.Wait()
		h.cancel = nil
		h.Bot = nil
	}
}

// Contains matches a message whose text contains sub.
func Contains(sub string) func(*telegramtest.Message) bool {
	return func(m *telegramtest.Message) bool { return strings.Contains(m.Text, sub) }
}

// HasButton matches a message with a button labelled text.
func HasButton(text string) func(*telegramtest.Message) bool {
	return func(m *telegramtest.Message) bool {
		_, ok := m.Button(text)
		return ok
	}
}

// Begin makes u open the private chat with the bot and waits for the greeting.
func (h *Harness) Begin(u *telegramtest.User) error {
	u.Start("")
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, Contains("Привет")); err != nil {
		return fmt.Errorf("no greeting for %s: %w", u.User().FirstName, err)
	}
	return nil
}

// Lobby opens a Трик-н-Шеф lobby in the group, seats the others through
// the Join button and adds robots.
func (h *Harness) Lobby(group *telegramtest.Chat, creator *telegramtest.User, others []*telegramtest.User, robots int) (*telegramtest.Message, error) {
	return h.LobbyFor("trickchef", group, creator, others, robots)
}

// LobbyFor is Lobby for the game with the given id ("sausages", …).
func (h *Harness) LobbyFor(gameID string, group *telegramtest.Chat, creator *telegramtest.User, others []*telegramtest.User, robots int) (*telegramtest.Message, error) {
	creator.Send(group, "/newgame@"+h.Srv.Bot().Username+" "+gameID)
	lobby, err := group.WaitMessage(10*time.Second, HasButton("✋ Присоединиться"))
	if err != nil {
		return nil, fmt.Errorf("no lobby: %w", err)
	}
	for _, u := range others {
		ans, err := u.Press(lobby, "✋ Присоединиться")
		if err != nil {
			return nil, fmt.Errorf("join %s: %w", u.User().FirstName, err)
		}
		if ans.Text != "Вы за столом!" {
			return nil, fmt.Errorf("join %s answered %q", u.User().FirstName, ans.Text)
		}
	}
	for i := 0; i < robots; i++ {
		if _, err := creator.Press(lobby, "🤖 Добавить робота"); err != nil {
			return nil, err
		}
	}
	return lobby, nil
}

// StartGame presses Start as the creator.
func (h *Harness) StartGame(creator *telegramtest.User, lobby *telegramtest.Message) error {
	ans, err := creator.Press(lobby, "▶️ Начать")
	if err != nil {
		return err
	}
	if ans.Text != "Поехали!" {
		return fmt.Errorf("start answered %q", ans.Text)
	}
	return nil
}

// Playable finds the newest message of u's private chat with a move to
// make and its first playable button (cards in brackets are not playable).
func Playable(u *telegramtest.User) (*telegramtest.Message, telegramtest.Button, bool) {
	msgs := u.PrivateChat().Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, row := range msgs[i].Keyboard {
			for _, b := range row {
				if strings.HasPrefix(b.CallbackData, "a:") && !strings.HasPrefix(b.Text, "(") {
					return msgs[i], b, true
				}
			}
		}
	}
	return nil, telegramtest.Button{}, false
}

// Player presses u's first playable button whenever a new one shows, after
// think (nil: at once), until done is closed. The returned function waits
// for the player to stop and gives the non-empty answers it got.
func (h *Harness) Player(u *telegramtest.User, done <-chan struct{}, think func() time.Duration) func() []string {
	var answers []string
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		pressed := map[string]bool{}
		for {
			var msg *telegramtest.Message
			var btn telegramtest.Button
			// A short wait, so a closed done is noticed even when nothing
			// changes at Telegram (the bot may be stopped).
			h.Srv.WaitFor(200*time.Millisecond, func() bool {
				select {
				case <-done:
					return true
				default:
				}
				m, b, ok := Playable(u)
				if ok && !pressed[b.CallbackData] {
					msg, btn = m, b
					return true
				}
				return false
			})
			select {
			case <-done:
				return
			default:
			}
			if msg == nil {
				continue
			}
			if think != nil {
				select {
				case <-done:
					return
				case <-time.After(think()):
				}
			}
			pressed[btn.CallbackData] = true
			ans, err := u.PressData(msg, btn.CallbackData)
			if err == nil && ans.Text != "" {
				answers = append(answers, ans.Text)
			}
		}
	}()
	return func() []string { <-finished; return answers }
}

// ErrNoResult says a game did not reach its final message in time.
var ErrNoResult = errors.New("the game did not end")

// PlayToEnd runs the people until the group shows the final result.
func (h *Harness) PlayToEnd(group *telegramtest.Chat, people []*telegramtest.User, timeout time.Duration, think func() time.Duration) (*telegramtest.Message, error) {
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.Player(u, done, think))
	}
	final, err := group.WaitMessage(timeout, Contains("Победител"))
	close(done)
	for _, w := range waits {
		w()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoResult, err)
	}
	return final, nil
}

// HumanPace thinks like a person: uniformly between half and one and a
// half times mean.
func HumanPace(mean time.Duration, rng *rand.Rand) func() time.Duration {
	var mu sync.Mutex
	return func() time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return mean/2 + time.Duration(rng.Int64N(int64(mean)+1))
	}
}
