package bottest

import (
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// A real-time game has no turns: a simulated person there presses any of
// the buttons their newest message shows, at their own pace, whether or
// not the message is up to date, and may press the same button again.
// Player (press the first playable button once) cannot play that.

// Presses counts what a random presser did and what the bot answered.
type Presses struct {
	Made       int            // presses sent
	Accepted   int            // answered without a refusal (an empty toast)
	Refused    map[string]int // answered with a toast, by its text
	Unanswered int            // not answered within the wait
	Failed     int            // not sent (the message was gone)
}

// ActionMessage finds the newest message of u's private chat with action
// buttons, and those buttons.
func ActionMessage(u *telegramtest.User) (*telegramtest.Message, []telegramtest.Button) {
	msgs := u.PrivateChat().Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		var bs []telegramtest.Button
		for _, b := range msgs[i].Buttons() {
			if strings.HasPrefix(b.CallbackData, "a:") {
				bs = append(bs, b)
			}
		}
		if len(bs) > 0 {
			return msgs[i], bs
		}
	}
	return nil, nil
}

// PressRandomly makes u press a random action button of its newest
// message after every pause (pace), waiting up to wait for each answer,
// until done is closed. The returned function waits for the presser to
// stop and gives its counts.
func PressRandomly(u *telegramtest.User, done <-chan struct{}, pace func() time.Duration, rng *rand.Rand, wait time.Duration) func() Presses {
	p := Presses{Refused: map[string]int{}}
	texts, err := NewTexts()
	if err != nil {
		panic("bottest: " + err.Error())
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(pace()):
			}
			msg, bs := ActionMessage(u)
			if msg == nil {
				continue
			}
			q, err := u.PressDataAsync(msg, bs[rng.IntN(len(bs))].CallbackData)
			if err != nil {
				p.Failed++
				continue
			}
			p.Made++
			ans, err := q.Wait(wait)
			switch {
			case err != nil:
				p.Unanswered++
			case texts.Accepted(ans.Text):
				p.Accepted++
			default:
				p.Refused[ans.Text]++
			}
		}
	}()
	return func() Presses { <-finished; return p }
}

// Pace draws pauses uniformly from [lo, hi) from a seeded generator that
// several pressers may share.
func Pace(lo, hi time.Duration, seed uint64) func() time.Duration {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 0x9ace))
	return func() time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
	}
}
