package bottest

import (
	"strings"
	"sync"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// GroupStats is what a person who plays from the group did and heard.
type GroupStats struct {
	// Opened: «🖐 Мои карты» was pressed and answered.
	Opened bool
	// Moves counts presses on the hand in the group that the bot accepted
	// (an empty toast or one naming the move); Refused those it refused,
	// by toast; Unanswered presses it never answered.
	Moves, Unanswered int
	Refused           map[string]int
	// FirstMove is when the first move from the group was accepted: from
	// then on the person's private chat should stay quiet.
	FirstMove time.Time
}

// GroupPlayer plays u's game from the group, as a person who never looks
// at the private chat: once the group's table offers «🖐 Мои карты», it
// presses it, then presses the first playable button of u's hand there
// whenever the hand changes, after think (nil: at once), until done is
// closed. The returned function waits for it to stop and gives its stats.
func (h *Harness) GroupPlayer(u *telegramtest.User, group *telegramtest.Chat, done <-chan struct{}, think func() time.Duration) func() GroupStats {
	st := GroupStats{Refused: map[string]int{}}
	var mu sync.Mutex
	finished := make(chan struct{})
	button := h.mustCatalog().T("grouphand.button")
	go func() {
		defer close(finished)
		stopped := func() bool {
			select {
			case <-done:
				return true
			default:
				return false
			}
		}
		for !st.Opened && !stopped() {
			var table *telegramtest.Message
			h.Srv.WaitFor(200*time.Millisecond, func() bool {
				table = newestWith(group, button)
				return table != nil || stopped()
			})
			if table == nil {
				continue
			}
			if ans, err := u.Press(table, button); err == nil && ans != nil {
				mu.Lock()
				st.Opened = true
				mu.Unlock()
			}
		}
		last := ""
		for !stopped() {
			var msg *telegramtest.Message
			var data string
			h.Srv.WaitFor(200*time.Millisecond, func() bool {
				if stopped() {
					return true
				}
				m := u.LastEphemeral(group)
				if m == nil || signatureOf(m) == last {
					return false
				}
				if b, ok := playable(m); ok {
					msg, data = m, b
					return true
				}
				return false
			})
			if msg == nil {
				continue
			}
			if !thinkFirst(done, think) {
				return
			}
			last = signatureOf(msg)
			ans, err := u.PressData(msg, data)
			mu.Lock()
			switch {
			case err != nil:
				st.Unanswered++
			case h.mustCatalog().Accepted(ans.Text):
				st.Moves++
				if st.FirstMove.IsZero() {
					st.FirstMove = time.Now()
				}
			default:
				st.Refused[ans.Text]++
			}
			mu.Unlock()
		}
	}()
	return func() GroupStats {
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return st
	}
}

// newestWith is the newest message of the group's history with a button
// of this text, or nil.
func newestWith(group *telegramtest.Chat, button string) *telegramtest.Message {
	msgs := group.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := msgs[i].Button(button); ok {
			return msgs[i]
		}
	}
	return nil
}

// playable is the first action button of a hand that is not marked
// unplayable (a card shown in parentheses).
func playable(m *telegramtest.Message) (string, bool) {
	for _, row := range m.Keyboard {
		for _, b := range row {
			if strings.HasPrefix(b.CallbackData, "a:") && !strings.HasPrefix(b.Text, "(") {
				return b.CallbackData, true
			}
		}
	}
	return "", false
}

// signatureOf tells one drawing of a message from another.
func signatureOf(m *telegramtest.Message) string {
	var b strings.Builder
	b.WriteString(m.Text)
	for _, row := range m.Keyboard {
		for _, bt := range row {
			b.WriteString("|" + bt.CallbackData)
		}
	}
	return b.String()
}

// thinkFirst waits think() (nil: not at all) unless done closes first; it
// reports whether to go on.
func thinkFirst(done <-chan struct{}, think func() time.Duration) bool {
	if think == nil {
		return true
	}
	select {
	case <-done:
		return false
	case <-time.After(think()):
		return true
	}
}

// Logs is a log sink safe for the bot's goroutines, to read what it logged.
type Logs struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything logged so far.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
