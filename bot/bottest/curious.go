package bottest

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// AnswerWithin is how long Telegram shows a pressed button's spinner: a
// press the bot has not answered by then is, for the person, never
// answered.
const AnswerWithin = 15 * time.Second

// CuriousStats is what a curious person did and how the bot answered.
type CuriousStats struct {
	Presses  int            // buttons pressed
	Commands int            // commands sent
	Answers  map[string]int // answers by toast text ("" for a silent one)
	// Unanswered are the callback data of presses not answered within
	// AnswerWithin.
	Unanswered []string
	// Latency is press → answer of every answered press, in press order.
	Latency []time.Duration
}

// Curious makes u press whatever they can see, like a person finding
// their way: every pause (pace) one of the buttons on the last messages
// of a random chat among chats (their private chat included by the
// caller) — hands, lobby, rules pages, /stop questions, old messages —
// and now and then a command of commands[chat] instead. It does not wait
// for an answer before the next press, as a person pressing quickly does
// not. It stops when done is closed; the returned function waits until
// every press was answered or AnswerWithin passed, and reports.
func Curious(u *telegramtest.User, chats []*telegramtest.Chat, commands map[int64][]string, done <-chan struct{}, pace func() time.Duration, rng *rand.Rand) func() CuriousStats {
	st := CuriousStats{Answers: map[string]int{}}
	var mu sync.Mutex
	var waiting sync.WaitGroup
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(pace()):
			}
			chat := chats[rng.IntN(len(chats))]
			if cmds := commands[chat.ID()]; len(cmds) > 0 && rng.IntN(8) == 0 {
				u.Send(chat, cmds[rng.IntN(len(cmds))])
				mu.Lock()
				st.Commands++
				mu.Unlock()
				continue
			}
			msg, data, ok := visibleButton(chat, rng)
			if !ok {
				continue
			}
			pressed := time.Now()
			q, err := u.PressDataAsync(msg, data)
			if err != nil {
				continue // the message is gone
			}
			mu.Lock()
			st.Presses++
			mu.Unlock()
			waiting.Add(1)
			go func() {
				defer waiting.Done()
				ans, err := q.Wait(AnswerWithin)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					st.Unanswered = append(st.Unanswered, data)
					return
				}
				st.Answers[ans.Text]++
				st.Latency = append(st.Latency, time.Since(pressed))
			}()
		}
	}()
	return func() CuriousStats {
		<-finished
		waiting.Wait()
		mu.Lock()
		defer mu.Unlock()
		return st
	}
}

// visibleButton picks a button with callback data on one of the last
// messages of chat that have any.
func visibleButton(chat *telegramtest.Chat, rng *rand.Rand) (*telegramtest.Message, string, bool) {
	const look = 8 // messages a person scrolls back through
	msgs := chat.Messages()
	var withButtons []*telegramtest.Message
	for i := len(msgs) - 1; i >= 0 && len(withButtons) < look; i-- {
		for _, b := range msgs[i].Buttons() {
			if b.CallbackData != "" {
				withButtons = append(withButtons, msgs[i])
				break
			}
		}
	}
	if len(withButtons) == 0 {
		return nil, "", false
	}
	m := withButtons[rng.IntN(len(withButtons))]
	var data []string
	for _, b := range m.Buttons() {
		if b.CallbackData != "" {
			data = append(data, b.CallbackData)
		}
	}
	return m, data[rng.IntN(len(data))], true
}
