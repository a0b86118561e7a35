// Package bottest runs the bot against the fake Bot API server
// (telegramtest) with simulated players, for end-to-end tests and for the
// measurement tool cmd/botbench (pace). It reads the bot's Russian button labels
// and answers from the message catalog (Texts), so a reworded text changes
// no test.
package bottest

import (
	"context"
	"errors"
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/ingest"
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
	// Games are the games the bot offers (bot.Params.Games).
	Games []adapter.Game
	Cfg   bot.Config
	Log   zerolog.Logger
	// Answered, if set, observes each button press's handling time.
	Answered func(time.Duration)
	// Now, if set, is the bot's clock (bot.Params.Now): a test of long
	// games moves it on by hours.
	Now func() time.Time
	// StoreClock keeps the bot's clock (Now, or the machine's) on the
	// store's (bot.Params.StoreClock): a replica whose machine clock is off.
	StoreClock bool
	// NoPoll runs the bot without fetching updates: a second replica,
	// sharing the store and the fake server, of a bot that polls.
	NoPoll bool
	// GroupHands offers the hand in the group (bot.Params.GroupHands),
	// through the fake's ephemeral messages.
	GroupHands bool

	// Bot is the running bot process (nil while stopped).
	Bot *bot.Bot

	cancel context.CancelFunc
	done   sync.WaitGroup

	// texts is loaded once, on first use, and kept for the harness's
	// lifetime: the bot renders with its catalog and the harness finds the
	// bot's texts in it. A harness is built as a literal, and some are
	// never started, hence the lazy load.
	textsOnce sync.Once
	texts     *Texts
	textsErr  error
}

// Texts reads the bot's Russian texts from the message catalog: tests find
// messages, press buttons and check answers by key, never by a typed
// phrase, so rewording a text changes no test of logic.
type Texts struct {
	cat *locales.Catalog
}

// NewTexts loads the message catalog.
func NewTexts() (*Texts, error) {
	cat, err := locales.New()
	if err != nil {
		return nil, err
	}
	return &Texts{cat: cat}, nil
}

// T is the Russian text of key as the bot sends it: a button label or a
// press's answer exactly, a message in Telegram HTML (see Shown). Plural
// messages need "Count", n; templates their named args. A missing key or
// argument panics: the test itself is wrong, and the key echoed back (what
// the catalog renders then) could let a check that a text is absent pass.
func (x *Texts) T(key string, args ...any) string {
	s, err := x.cat.Render(locales.Russian, key, args...)
	if err != nil {
		panic("bottest: " + err.Error())
	}
	return s
}

// Accepted reports whether a press's answer says it was applied: no text,
// or the toast that confirms a move («Ход принят: 🟨9»), in any of the
// catalog's languages. Any other answer is a refusal.
func (x *Texts) Accepted(answer string) bool {
	if answer == "" {
		return true
	}
	for _, lang := range x.cat.Langs() {
		if answer == x.cat.T(lang, "move.toast_plain") {
			return true
		}
		const mark = "\x00"
		before, after, _ := strings.Cut(x.cat.T(lang, "move.toast", "Move", mark), mark)
		if len(answer) > len(before)+len(after) && strings.HasPrefix(answer, before) && strings.HasSuffix(answer, after) {
			return true
		}
	}
	return false
}

// Shown is T as a chat shows the message: tags stripped, entities decoded.
func (x *Texts) Shown(key string, args ...any) string {
	return Plain(x.T(key, args...))
}

// Unmarked is a message's shown text without the line that marks it as a
// possible repeat (an announcement sent again after Telegram left a send
// of it unanswered), and whether it had that line.
func (x *Texts) Unmarked(text string) (string, bool) {
	return strings.CutPrefix(text, x.Shown("delivery.repeat")+"\n\n")
}

// Around splits key's shown text where the value of the placeholder arg
// goes: every rendering starts with before and ends with after, whatever
// the value. args fill the other placeholders. arg must not be the plural
// "Count".
func (x *Texts) Around(key, arg string, args ...any) (before, after string) {
	const mark = "\x00"
	s := x.Shown(key, append([]any{arg, mark}, args...)...)
	before, after, ok := strings.Cut(s, mark)
	if !ok {
		panic("bottest: " + key + " does not show " + arg)
	}
	return before, after
}

// Won matches the final result of any game: the message that names the
// winner or the winners.
func (x *Texts) Won() func(*telegramtest.Message) bool {
	one, _ := x.Around("result.winner", "Name")
	many, _ := x.Around("result.winners", "Names")
	return func(m *telegramtest.Message) bool {
		return strings.Contains(m.Text, one) || strings.Contains(m.Text, many)
	}
}

// Plain is Telegram HTML as a chat shows it: tags stripped, character
// references decoded. The catalog writes a literal < as &lt;, so every <
// opens a tag.
func Plain(s string) string {
	var sb strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			sb.WriteString(s)
			break
		}
		sb.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		s = s[i+j+1:]
	}
	return html.UnescapeString(sb.String())
}

// catalog is the harness's Texts, loaded on first use.
func (h *Harness) catalog() (*Texts, error) {
	h.textsOnce.Do(func() { h.texts, h.textsErr = NewTexts() })
	return h.texts, h.textsErr
}

// mustCatalog is catalog for the helpers that cannot return an error.
func (h *Harness) mustCatalog() *Texts {
	x, err := h.catalog()
	if err != nil {
		panic("bottest: " + err.Error())
	}
	return x
}

// T is Texts.T of the harness's catalog.
func (h *Harness) T(key string, args ...any) string { return h.mustCatalog().T(key, args...) }

// Accepted is Texts.Accepted of the harness's catalog.
func (h *Harness) Accepted(answer string) bool { return h.mustCatalog().Accepted(answer) }

// Shown is Texts.Shown of the harness's catalog.
func (h *Harness) Shown(key string, args ...any) string {
	return h.mustCatalog().Shown(key, args...)
}

// Around is Texts.Around of the harness's catalog.
func (h *Harness) Around(key, arg string, args ...any) (before, after string) {
	return h.mustCatalog().Around(key, arg, args...)
}

// Unmarked is Texts.Unmarked of the harness's catalog.
func (h *Harness) Unmarked(text string) (string, bool) { return h.mustCatalog().Unmarked(text) }

// Won is Texts.Won of the harness's catalog.
func (h *Harness) Won() func(*telegramtest.Message) bool { return h.mustCatalog().Won() }

// Start runs a bot process: its workers and the update poller.
func (h *Harness) Start() error {
	x, err := h.catalog()
	if err != nil {
		return err
	}
	cat := x.cat
	tg, err := tgbot.New(Token, tgbot.WithServerURL(h.Srv.URL), tgbot.WithSkipGetMe())
	if err != nil {
		return err
	}
	p := bot.Params{Config: h.Cfg, Store: h.Store, Telegram: tg, Translator: cat, Games: h.Games, Log: h.Log,
		Now: h.Now, StoreClock: h.StoreClock, Answered: h.Answered}
	if h.GroupHands {
		p.GroupHands = ephemeral.New(h.Srv.URL, Token, nil)
	}
	b := bot.New(p)
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Init(ctx); err != nil {
		cancel()
		return err
	}
	h.cancel = cancel
	h.Bot = b
	h.done.Add(2)
	go func() { defer h.done.Done(); b.Run(ctx) }()
	go func() {
		defer h.done.Done()
		if h.NoPoll {
			return // another replica fetches the updates
		}
		b.Ingest.Poll(ctx, &ingest.Poller{APIURL: h.Srv.URL, Token: Token, Timeout: time.Second})
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
	x, err := h.catalog()
	if err != nil {
		return err
	}
	u.Start("")
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, Contains(x.Shown("start.greeting"))); err != nil {
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
	x, err := h.catalog()
	if err != nil {
		return nil, err
	}
	join := x.T("lobby.join_button")
	creator.Send(group, "/newgame@"+h.Srv.Bot().Username+" "+gameID)
	lobby, err := group.WaitMessage(10*time.Second, HasButton(join))
	if err != nil {
		return nil, fmt.Errorf("no lobby: %w", err)
	}
	for _, u := range others {
		ans, err := u.Press(lobby, join)
		if err != nil {
			return nil, fmt.Errorf("join %s: %w", u.User().FirstName, err)
		}
		if want := x.T("lobby.joined"); ans.Text != want {
			return nil, fmt.Errorf("join %s answered %q, want %q", u.User().FirstName, ans.Text, want)
		}
	}
	for i := 0; i < robots; i++ {
		if _, err := creator.Press(lobby, x.T("lobby.ai_button")); err != nil {
			return nil, err
		}
	}
	return lobby, nil
}

// StartGame presses Start as the creator.
func (h *Harness) StartGame(creator *telegramtest.User, lobby *telegramtest.Message) error {
	x, err := h.catalog()
	if err != nil {
		return err
	}
	ans, err := creator.Press(lobby, x.T("lobby.start_button"))
	if err != nil {
		return err
	}
	if want := x.T("lobby.started"); ans.Text != want {
		return fmt.Errorf("start answered %q, want %q", ans.Text, want)
	}
	return nil
}

// Playable finds the newest message of u's private chat with a move to
// make and its first playable button (cards in brackets are not playable).
func Playable(u *telegramtest.User) (*telegramtest.Message, telegramtest.Button, bool) {
	return PlayableAt(u, "")
}

// PlayableAt is Playable for one table's buttons (table is its id, as in
// callback data; "" for any table): a person who plays at a group's table
// and at their practice table has the hands of both in one chat.
func PlayableAt(u *telegramtest.User, table string) (*telegramtest.Message, telegramtest.Button, bool) {
	prefix := "a:"
	if table != "" {
		prefix += table + ":"
	}
	msgs := u.PrivateChat().Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, row := range msgs[i].Keyboard {
			for _, b := range row {
				if strings.HasPrefix(b.CallbackData, prefix) && !strings.HasPrefix(b.Text, "(") {
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
	return h.PlayerAt(u, "", done, think)
}

// PlayerAt is Player pressing only the buttons of one table (its id; ""
// for any): PlayableAt.
func (h *Harness) PlayerAt(u *telegramtest.User, table string, done <-chan struct{}, think func() time.Duration) func() []string {
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
				m, b, ok := PlayableAt(u, table)
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
			if !thinkFirst(done, think) {
				return
			}
			pressed[btn.CallbackData] = true
			ans, err := u.PressData(msg, btn.CallbackData)
			if err == nil && !h.mustCatalog().Accepted(ans.Text) {
				answers = append(answers, ans.Text)
			}
		}
	}()
	return func() []string { <-finished; return answers }
}

// ErrNoResult says a game did not reach its final message in time.
var ErrNoResult = errors.New("the game did not end")

// PlayToEnd runs the people until the group shows the final result: the
// announcement that carries the «play again» button, whatever the game.
func (h *Harness) PlayToEnd(group *telegramtest.Chat, people []*telegramtest.User, timeout time.Duration, think func() time.Duration) (*telegramtest.Message, error) {
	x, err := h.catalog()
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	var waits []func() []string
	for _, u := range people {
		waits = append(waits, h.Player(u, done, think))
	}
	final, err := group.WaitMessage(timeout, HasButton(x.T("again.button")))
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
