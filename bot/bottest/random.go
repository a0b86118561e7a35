package bottest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// GameButtons returns the newest message of u's private chat that has game
// buttons (a move "a:" or a step of a multi-press choice "m:"), with those
// buttons.
func GameButtons(u *telegramtest.User) (*telegramtest.Message, []telegramtest.Button) {
	msgs := u.PrivateChat().Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		var bs []telegramtest.Button
		for _, b := range msgs[i].Buttons() {
			if strings.HasPrefix(b.CallbackData, "a:") || strings.HasPrefix(b.CallbackData, "m:") {
				bs = append(bs, b)
			}
		}
		if len(bs) > 0 {
			return msgs[i], bs
		}
	}
	return nil, nil
}

// signature identifies what a message shows, so a player presses once per
// version of it.
func signature(m *telegramtest.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\x00%s", m.ID, m.Text)
	for _, bt := range m.Buttons() {
		b.WriteString("\x00" + bt.CallbackData)
	}
	return b.String()
}

// RandomStats is what a RandomPlayer did.
type RandomStats struct {
	Presses int      // buttons pressed
	Drafts  int      // of them, steps of a multi-press choice
	Answers []string // the non-empty answers (toasts)
	Errors  []error  // presses the bot did not answer in time
	Log     []Press  // every press, in order
}

// Press is one button press and its answer.
type Press struct {
	Data     string    // the button's callback data
	At       time.Time // pressed
	Answered time.Time // answered (zero if not)
	Answer   string    // the answer's text ("" when accepted silently)
}

// RandomPlayer plays u like a person who tries anything: whenever u's
// newest message with game buttons shows something new, it presses one of
// them at random after think (nil: at once) — moves and the steps of
// multi-press choices alike, "back" included. It presses once per version
// of the message, and again after stuck when nothing changed (a press lost
// to a race). It stops when done is closed; the returned function waits
// for that and reports what it did.
func (h *Harness) RandomPlayer(u *telegramtest.User, done <-chan struct{}, rng *rand.Rand, think func() time.Duration) func() RandomStats {
	const stuck = 20 * time.Second
	// rng may be shared by the players of one game, and a *rand.Rand is
	// not safe for concurrent use: each player draws from its own, seeded
	// from rng here, before its goroutine starts.
	own := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	pick := func(n int) int { return own.IntN(n) }
	var st RandomStats
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var last string
		var lastAt time.Time
		for {
			var msg *telegramtest.Message
			var btns []telegramtest.Button
			h.Srv.WaitFor(200*time.Millisecond, func() bool {
				select {
				case <-done:
					return true
				default:
				}
				m, bs := GameButtons(u)
				if m == nil || (signature(m) == last && time.Since(lastAt) < stuck) {
					return false
				}
				msg, btns = m, bs
				return true
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
			b := btns[pick(len(btns))]
			last, lastAt = signature(msg), time.Now()
			st.Presses++
			if strings.HasPrefix(b.CallbackData, "m:") {
				st.Drafts++
			}
			pr := Press{Data: b.CallbackData, At: time.Now()}
			ans, err := u.PressData(msg, b.CallbackData)
			if err == nil {
				pr.Answered, pr.Answer = time.Now(), ans.Text
			}
			st.Log = append(st.Log, pr)
			switch {
			case err != nil:
				select {
				case <-done: // the test is over: the bot may be gone
				default:
					st.Errors = append(st.Errors, fmt.Errorf("%s pressed %q: %w", u.User().FirstName, b.Text, err))
				}
			case !h.Accepted(ans.Text):
				st.Answers = append(st.Answers, ans.Text)
			}
		}
	}()
	return func() RandomStats { <-finished; return st }
}
