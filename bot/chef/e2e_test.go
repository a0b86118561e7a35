package chef_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// chefLobby opens a Меню шефа lobby with the people and robots of the
// given levels (chef level ids), in that order.
func (h *harness) chefLobby(group *telegramtest.Chat, people []*telegramtest.User, robots ...string) *telegramtest.Message {
	h.TB.Helper()
	lobby, err := h.LobbyFor("chef", group, people[0], people[1:], 0)
	if err != nil {
		h.TB.Fatal(err)
	}
	levels := chef.Game().(interface{ Levels() []string }).Levels()
	current := 0 // the lobby starts at the easiest level
	label := func() string { return h.T("lobby.level_button", "Level", h.T("chef.level."+levels[current])) }
	for _, want := range robots {
		for levels[current] != want {
			if _, err := people[0].Press(lobby, label()); err != nil {
				h.TB.Fatal(err)
			}
			current = (current + 1) % len(levels)
			if _, err := group.WaitMessage(10*time.Second, bottest.HasButton(label())); err != nil {
				h.TB.Fatalf("level %s not shown: %v", levels[current], err)
			}
		}
		if _, err := people[0].Press(lobby, h.T("lobby.ai_button")); err != nil {
			h.TB.Fatal(err)
		}
	}
	return lobby
}

// chefState decodes the group's game.
func (h *harness) chefState(group *telegramtest.Chat) (*record.Table, game.State) {
	h.TB.Helper()
	tab, _ := h.Table(group)
	st, err := bot.State(tab, allGames()...)
	if err != nil {
		h.TB.Fatal(err)
	}
	return tab, st
}

// playChefRandomly runs a RandomPlayer for each person until the group
// shows the final results, and checks what a finished game must show;
// with drafts, also that a step of a multi-press choice was pressed (a
// long game of many people meets one; a short two-player deal may not:
// seen in CI, 26 moves and 14 presses with none on offer).
func (h *harness) playChefRandomly(group *telegramtest.Chat, people []*telegramtest.User, seed uint64, drafts bool, timeout time.Duration) {
	h.TB.Helper()
	done := make(chan struct{})
	rng := rand.New(rand.NewPCG(seed, 1))
	var waits []func() bottest.RandomStats
	for _, u := range people {
		waits = append(waits, h.RandomPlayer(u, done, rng, nil))
	}
	final, err := group.WaitMessage(timeout, h.Won())
	close(done)
	var total bottest.RandomStats
	for _, w := range waits {
		s := w()
		total.Presses += s.Presses
		total.Drafts += s.Drafts
		total.Answers = append(total.Answers, s.Answers...)
		total.Errors = append(total.Errors, s.Errors...)
	}
	if err != nil {
		h.DumpGroup(group)
		h.TB.Fatalf("no final result: %v", err)
	}
	for _, err := range total.Errors {
		h.TB.Error(err) // a press the bot did not answer
	}
	// Buttons offer only legal moves, so nothing is refused by the rules or
	// as a senseless choice. A player who saw no change for long presses an
	// old message again, which is stale; one who pressed as the final move
	// landed pressed a button of a game that has just ended.
	for _, a := range total.Answers {
		if a != h.T("error.stale") && a != h.T("error.stale_game") {
			h.TB.Errorf("a press was refused: %q", a)
		}
	}
	if drafts && total.Drafts == 0 {
		h.TB.Error("the players never pressed a step of a multi-press choice")
	}
	tab, st := h.chefState(group)
	if !st.Over() {
		h.TB.Fatal("the final result was posted, but the game is not over")
	}
	r := st.Result()
	var names []string
	for _, w := range r.Winners {
		names = append(names, tab.Seats[w].Name)
	}
	want := h.Shown("result.winners", "Names", strings.Join(names, ", "))
	if len(names) == 1 {
		want = h.Shown("result.winner", "Name", names[0])
	}
	if !strings.Contains(final.Text, want) {
		h.TB.Errorf("the final message does not name the winner %q:\n%s", want, final.Text)
	}
	h.CheckLimits(group)
	h.TB.Logf("%d moves, %d presses (%d draft steps); group calls %d, peak %d in a scaled minute",
		len(tab.Log), total.Presses, total.Drafts, h.Srv.CallsPerChat()[group.ID()], h.Srv.PeakCalls(group.ID(), time.Minute/bottest.Speedup))
}

// TestChefEightSeats: six people pressing random buttons, draft steps
// included, and two robots play to the end within Telegram's limits.
func TestChefEightSeats(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера", "Глеб", "Даша", "Егор"} {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	group := h.Srv.NewGroup("Кухня", people...)
	lobby := h.chefLobby(group, people, "cook", "shef")
	h.MustStartGame(people[0], lobby)
	tab, _ := h.chefState(group)
	if len(tab.Seats) != 8 || tab.Seats[6].AI != "cook" || tab.Seats[7].AI != "shef" {
		t.Fatalf("seats: %+v", tab.Seats)
	}
	h.playChefRandomly(group, people, 8, true, 6*time.Minute)
}

// TestChefTwoPlayers plays a two-player game to the end: a person pressing
// random buttons against a robot (their penalties take dishes out of the
// game, and a skip gives the turn straight back).
func TestChefTwoPlayers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	people := []*telegramtest.User{h.MustBegin(h.Srv.NewUser("Аня"))}
	group := h.Srv.NewGroup("Вдвоём", people...)
	lobby := h.chefLobby(group, people, "cook")
	h.MustStartGame(people[0], lobby)
	h.playChefRandomly(group, people, 2, false, 6*time.Minute)
}

// chefButton is a game button's callback data, parsed.
type chefButton struct {
	op          byte
	seat, nonce int
	value       int
}

func parseChefButton(data string) (chefButton, bool) {
	f := strings.Split(data, ":")
	if len(f) != 6 {
		return chefButton{}, false
	}
	seat, e1 := strconv.Atoi(f[3])
	nonce, e2 := strconv.Atoi(f[4])
	value, e3 := strconv.Atoi(f[5])
	return chefButton{op: f[0][0], seat: seat, nonce: nonce, value: value}, e1 == nil && e2 == nil && e3 == nil
}

// penaltyFlow reports whether a draft button's value opens Похмелье's or
// Диета's choice of dishes (the adapter's flows are 100 + the card).
func penaltyFlow(value int) bool {
	c := ce.Card(value - 100)
	return c == ce.Hangover || c == ce.Diet
}

// TestChefStaleAndForeignPresses: a player's buttons pressed by someone
// else, and a player's own buttons pressed after they moved (a draft step
// and a move), are answered with the reason and change nothing.
func TestChefStaleAndForeignPresses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Чужие кнопки", a, b)
	lobby := h.chefLobby(group, []*telegramtest.User{a, b})
	h.MustStartGame(a, lobby)
	users := map[int64]*telegramtest.User{a.ID(): a, b.ID(): b}
	rng := rand.New(rand.NewPCG(3, 4))
	for turn := 0; ; turn++ {
		if turn > 2000 {
			t.Fatal("no multi-press choice came up")
		}
		tab, st := h.chefState(group)
		if st.Over() {
			t.Fatal("the game ended before a multi-press choice came up")
		}
		seat := int(st.ToAct()[0])
		u := users[tab.Seats[seat].UserID]
		other := a
		if u == a {
			other = b
		}
		nonce := tab.Seats[seat].Nonce
		var msg *telegramtest.Message
		var btns []telegramtest.Button
		if err := h.Srv.WaitFor(10*time.Second, func() bool {
			msg, btns = bottest.GameButtons(u)
			if msg == nil {
				return false
			}
			p, ok := parseChefButton(btns[0].CallbackData)
			return ok && p.seat == seat && p.nonce == nonce
		}); err != nil {
			t.Fatalf("no buttons for seat %d at nonce %d: %v", seat, nonce, err)
		}
		var draft, move telegramtest.Button
		for _, bt := range btns {
			// Not a penalty: with two players it skips the other's turn,
			// and whether the old buttons then read «made, new buttons
			// coming» or «replaced» depends on how fast the next hand is
			// sent.
			p, _ := parseChefButton(bt.CallbackData)
			if strings.HasPrefix(bt.CallbackData, "m:") && draft.CallbackData == "" && !penaltyFlow(p.value) {
				draft = bt
			}
			if strings.HasPrefix(bt.CallbackData, "a:") && move.CallbackData == "" {
				move = bt
			}
		}
		if draft.CallbackData == "" {
			if _, err := u.PressData(msg, btns[rng.IntN(len(btns))].CallbackData); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// Someone else presses this player's buttons (from their own chat).
		v := h.Version(group)
		otherMsg := other.PrivateChat().Last()
		h.ExpectAnswer(other, otherMsg, draft.CallbackData, h.T("error.not_yours"))
		if move.CallbackData != "" {
			h.ExpectAnswer(other, otherMsg, move.CallbackData, h.T("error.not_yours"))
		}
		if got := h.Version(group); got != v {
			t.Fatalf("foreign presses changed the table: version %d → %d", v, got)
		}
		// The player opens the choice and completes it.
		if ans, err := u.PressData(msg, draft.CallbackData); err != nil || ans.Text != "" {
			t.Fatalf("draft press: %+v, %v", ans, err)
		}
		// Walk the choice's steps (Похмелье asks for two dishes) to its
		// final button, a move.
		var final telegramtest.Button
		seen := signatureOf(msg)
		for step := 0; final.CallbackData == ""; step++ {
			if step > 3 {
				t.Fatal("the choice never reached a move")
			}
			var cur *telegramtest.Message
			if err := h.Srv.WaitFor(10*time.Second, func() bool {
				cur = u.PrivateChat().Message(msg.ID)
				return cur != nil && signatureOf(cur) != seen
			}); err != nil {
				t.Fatalf("the choice did not show: %v", err)
			}
			seen = signatureOf(cur)
			var dish telegramtest.Button
			for _, bt := range cur.Buttons() {
				p, ok := parseChefButton(bt.CallbackData)
				switch {
				case ok && p.op == 'a' && final.CallbackData == "":
					final = bt
				case ok && p.op == 'm' && p.value > 0 && p.value <= 6 && dish.CallbackData == "":
					dish = bt
				}
			}
			if final.CallbackData == "" && dish.CallbackData != "" {
				if ans, err := u.PressData(cur, dish.CallbackData); err != nil || ans.Text != "" {
					t.Fatalf("dish step %q: %+v, %v", dish.Text, ans, err)
				}
			}
		}
		if ans, err := u.PressData(msg, final.CallbackData); err != nil || !h.Accepted(ans.Text) {
			t.Fatalf("final press %q: %+v, %v", final.Text, ans, err)
		}
		if _, after := h.chefState(group); slices.Contains(after.ToAct(), game.Seat(seat)) {
			// The move gave the turn back (with two players, an action
			// card can): whether the old buttons then read «made, new
			// buttons coming» or «replaced» depends on how fast the next
			// hand is sent. Another choice, where the other player acts
			// next, makes the answers certain.
			continue
		}
		// The same buttons again, after the move: stale, harmless; the
		// message is still the latest (a waiting hand is not redrawn), so
		// the toast says the move was made.
		v = h.Version(group)
		h.ExpectAnswer(u, msg, draft.CallbackData, h.T("error.stale_done_wait"))
		h.ExpectAnswer(u, msg, final.CallbackData, h.T("error.stale_done_wait"))
		if move.CallbackData != "" {
			h.ExpectAnswer(u, msg, move.CallbackData, h.T("error.stale_done_wait"))
		}
		if got := h.Version(group); got != v {
			t.Fatalf("stale presses changed the table: version %d → %d", v, got)
		}
		tab2, _ := h.chefState(group)
		if tab2.Seats[seat].Nonce != nonce+1 || len(tab2.Seats[seat].Draft) != 0 {
			t.Fatalf("after the move: nonce %d (was %d), draft %v", tab2.Seats[seat].Nonce, nonce, tab2.Seats[seat].Draft)
		}
		return
	}
}

// signatureOf is what a message shows: its text and buttons.
func signatureOf(m *telegramtest.Message) string {
	s := m.Text
	for _, b := range m.Buttons() {
		s += "\x00" + b.CallbackData
	}
	return s
}
