package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/telegramtest"
)

// «🔍 Разбор» end to end: the button under each person's private result
// (and under a practice table's last message) queues the review and is
// answered at once; the review arrives in the private chat; a second
// press is answered from the kept review; /history in private offers the
// person's kept games; a stranger's press, and one for a game no longer
// kept, are refused and change nothing.

// isReview matches a review of game gameID in a private chat.
func (h *harness) isReview(gameID string) func(*telegramtest.Message) bool {
	header := h.Shown("review.header", "Title", h.T(gameID+".title"))
	return func(m *telegramtest.Message) bool { return m.FromBot && strings.HasPrefix(m.Text, header) }
}

// reviews counts the reviews of gameID in chat.
func (h *harness) reviews(chat *telegramtest.Chat, gameID string) int {
	n := 0
	for _, m := range chat.Messages() {
		if h.isReview(gameID)(m) {
			n++
		}
	}
	return n
}

func TestReviewAfterAGroupGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера")) // never plays
	group := h.Srv.NewGroup("Разбор", a, b, c)
	lobby, err := h.LobbyFor("sausages", group, a, []*telegramtest.User{b}, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby)
	h.MustPlayToEnd(group, []*telegramtest.User{a, b}, 3*time.Minute)
	played, _ := h.Table(group)

	button := h.T("review.button")
	queued := h.T("review.queued", "Pro", h.T("sausages.level.sharp"))
	chat := a.PrivateChat()
	mine, err := chat.WaitMessage(20*time.Second, hasButton(button))
	if err != nil {
		t.Fatalf("Аня's private result has no %q: %v", button, err)
	}
	if _, ok := mine.Button(h.T("again.button")); !ok {
		t.Errorf("the review button took the place of «play again»: %+v", mine.Keyboard)
	}
	bt, _ := mine.Button(button)
	p, err := callback.Parse(bt.CallbackData)
	if err != nil || p.Op != callback.Review || p.Table != played.ID || p.GameNo != played.GameNo {
		t.Fatalf("review button data %q (%v): want the game %s/%d", bt.CallbackData, err, played.ID, played.GameNo)
	}
	ref := record.GameRef(played)
	if kept, err := h.Redis.KeptGame(ctx, ref); err != nil || len(kept) == 0 {
		t.Fatalf("the finished game is not kept under %s: %v", ref, err)
	}

	// Pressed five times at once: answered at once each, one review made.
	var qs []*telegramtest.Query
	for range 5 {
		q, err := a.PressAsync(mine, button)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	for _, q := range qs {
		ans, err := q.Wait(10 * time.Second)
		if err != nil {
			t.Fatalf("a press of %q unanswered: %v", button, err)
		}
		if ans.Text != queued && ans.Text != "" && ans.Text != h.T("error.too_fast") {
			t.Errorf("press answered %q, want %q (or the kept review sent)", ans.Text, queued)
		}
	}
	if _, err := chat.WaitMessage(3*time.Minute, h.isReview("sausages")); err != nil {
		h.DumpGroup(chat)
		t.Fatalf("no review arrived: %v", err)
	}
	data, err := h.Redis.Review(ctx, ref, a.ID())
	if err != nil {
		t.Fatalf("the review is not kept with the game: %v", err)
	}
	var rep review.Report
	if err := rep.UnmarshalBinary(data); err != nil || rep.Game != "sausages" || rep.Accuracy < 0 || rep.Accuracy > 100 {
		t.Fatalf("kept review %+v, %v", rep, err)
	}
	// A second press: the kept review, at once, with no toast.
	before := h.reviews(chat, "sausages")
	if ans, err := a.Press(mine, button); err != nil || ans.Text != "" {
		t.Fatalf("second press: %+v, %v", ans, err)
	}
	if err := h.Srv.WaitFor(20*time.Second, func() bool { return h.reviews(chat, "sausages") == before+1 }); err != nil {
		t.Fatalf("the kept review was not sent again: %d reviews, had %d", h.reviews(chat, "sausages"), before)
	}
	if before != 1 {
		t.Errorf("%d reviews arrived for five presses at once, want 1", before)
	}

	// A stranger's press of Аня's button data: refused, nothing queued.
	own := c.PrivateChat().Last()
	if ans, err := c.PressData(own, bt.CallbackData); err != nil || ans.Text != h.T("error.not_yours") {
		t.Errorf("a stranger's press: %+v, %v", ans, err)
	}
	if _, err := h.Redis.Review(ctx, ref, c.ID()); err == nil {
		t.Errorf("a stranger got a review kept")
	}
	// A game never kept (or long gone): the alert says so.
	gone := callback.Data{Op: callback.Review, Table: played.ID, GameNo: played.GameNo, Args: []int{int(played.Started.Unix()) - 3600}}.String()
	if ans, err := a.PressData(mine, gone); err != nil || ans.Text != h.T("review.gone") || !ans.ShowAlert {
		t.Errorf("a press for a game not kept: %+v, %v", ans, err)
	}
	// Garbage: a review button with no time.
	if ans, err := a.PressData(mine, "v:"+played.ID+":1"); err != nil || ans.Text != h.T("error.bad_button") {
		t.Errorf("a malformed review press: %+v, %v", ans, err)
	}

	// /history in private: Борис's game, with its button; his review
	// arrives when pressed.
	bchat := b.PrivateChat()
	sent := b.Send(bchat, "/history")
	hist, err := bchat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && strings.HasPrefix(m.Text, h.Shown("review.history_title"))
	})
	if err != nil {
		t.Fatalf("no private /history: %v", err)
	}
	first := h.T("review.history_button", "N", 1, "Game", h.T("sausages.title"))
	if ans, err := b.Press(hist, first); err != nil || ans.Text != queued {
		t.Fatalf("/history's review button: %+v, %v", ans, err)
	}
	if _, err := bchat.WaitMessage(3*time.Minute, h.isReview("sausages")); err != nil {
		t.Fatalf("Борис's review never came: %v", err)
	}
	// Вера played nothing: her /history says so.
	vchat := c.PrivateChat()
	sent = c.Send(vchat, "/history")
	if _, err := vchat.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID > sent.ID && m.Text == h.Shown("review.history_empty")
	}); err != nil {
		t.Errorf("Вера's empty /history: %v", err)
	}
}

// TestReviewOfAPracticeGame: a practice table's last message offers the
// review (its person has no private result), for every game that has one.
func TestReviewOfAPracticeGame(t *testing.T) {
	for _, g := range allGames() {
		if !adapter.Reviewable(g) {
			continue
		}
		id := g.ID()
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, time.Minute)
			a := h.MustBegin(h.Srv.NewUser("Аня"))
			chat := a.PrivateChat()
			a.Send(chat, "/newgame "+id)
			practice, err := chat.WaitMessage(10*time.Second, hasButton(h.T("lobby.start_button")))
			if err != nil {
				t.Fatalf("no practice lobby: %v", err)
			}
			h.MustStartGame(a, practice)
			done := make(chan struct{})
			wait := h.Player(a, done, nil)
			button := h.T("review.button")
			last, err := chat.WaitMessage(4*time.Minute, hasButton(button))
			close(done)
			wait()
			if err != nil {
				t.Fatalf("the practice game's end offers no review: %v", err)
			}
			if ans, err := a.Press(last, button); err != nil || ans.Text != h.T("review.queued", "Pro", h.T(id+".level."+topOf(g))) {
				t.Fatalf("review press: %+v, %v", ans, err)
			}
			// The judge plays out every legal move of every decision, under
			// -race on a busy machine: a wait for the review, not a bound
			// on its speed (cmd/aibench review measures that).
			if _, err := chat.WaitMessage(4*time.Minute, h.isReview(id)); err != nil {
				t.Fatalf("no review of the practice game: %v", err)
			}
		})
	}
}

// topOf is the top level of a game's robots: the one that reviews.
func topOf(g adapter.Game) string {
	levels := adapter.Levels(g)
	return levels[len(levels)-1]
}
