package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store"
)

// End-to-end tests of results through the fake Bot API: a finished game
// counted once in /stats, /top and /history, «play again», the private
// /stats over two groups, and /forgetme. Texts are found through the
// catalog's keys (h.T, h.Shown), never spelled out.

// ask sends a command as u and waits for the bot's answer in the same chat
// that contains every one of want.
func (h *harness) askResults(u *telegramtest.User, chat *telegramtest.Chat, text string, want ...string) *telegramtest.Message {
	h.TB.Helper()
	sent := u.Send(chat, text)
	var last *telegramtest.Message
	m, err := chat.WaitMessage(20*time.Second, func(m *telegramtest.Message) bool {
		if m.ID <= sent.ID || !m.FromBot {
			return false
		}
		last = m
		for _, w := range want {
			if !strings.Contains(m.Text, w) {
				return false
			}
		}
		return true
	})
	if err != nil {
		if last != nil {
			h.TB.Logf("last answer:\n%s", last.Text)
		}
		h.TB.Fatalf("%s: no answer with %q: %v", text, want, err)
	}
	return m
}

func resPlayer(u *telegramtest.User) string { return "u" + strconv.FormatInt(u.ID(), 10) }

// TestResultsAfterAGameAndPlayAgain plays a game, then asks /stats, /top
// and /history: the game counts once. «Play again» opens the next lobby
// with everyone seated, and later presses join that same lobby.
func TestResultsAfterAGameAndPlayAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	group := h.Srv.NewGroup("Итоги", a, b)
	lobby := h.MustLobby(group, a, nil, 2)
	h.MustStartGame(a, lobby)
	final := h.MustPlayToEnd(group, []*telegramtest.User{a}, 3*time.Minute)
	again := h.T("again.button")
	if _, ok := final.Button(again); !ok {
		t.Fatalf("the final result has no %q button: %+v", again, final.Keyboard)
	}
	game := h.T("trickchef.title")
	one := h.T("count.games", "Count", 1)

	h.askResults(a, group, "/stats", h.Shown("stats.title_group", "Name", "Аня"), game, one)
	h.askResults(a, group, "/top", h.Shown("top.title", "Game", game),
		h.Shown("top.unranked", "Name", "Аня", "Games", one, "N", store.RankedGames))
	h.askResults(b, group, "/history", h.Shown("history.title"), game)
	if p, ok, err := h.Redis.Stats(ctx, group.ID(), "trickchef", resPlayer(a)); err != nil || !ok || p.Games != 1 {
		t.Errorf("stored stats %+v, %v, %v: want one game", p, ok, err)
	}
	if hist, err := h.Redis.History(ctx, group.ID(), 10); err != nil || len(hist) != 1 || len(hist[0].Seats) != 2 {
		t.Errorf("history %+v, %v: want the one game, Аня and one robot level", hist, err)
	}

	// «Play again»: the same people and robots in the same order.
	before, _ := h.Table(group)
	ans, err := a.Press(final, again)
	if err != nil || ans.Text != h.T("again.opened") {
		t.Fatalf("play again: %+v, %v", ans, err)
	}
	join := h.T("lobby.join_button")
	if _, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(join)
		return ok && m.ID > final.ID
	}); err != nil {
		t.Fatalf("no new lobby: %v", err)
	}
	next, _ := h.Table(group)
	if next.Phase != record.PhaseLobby || next.GameNo != before.GameNo+1 || next.GameID != before.GameID || len(next.Seats) != len(before.Seats) {
		t.Fatalf("after play again: %+v", next)
	}
	for i, s := range next.Seats {
		if s.UserID != before.Seats[i].UserID || s.AI != before.Seats[i].AI {
			t.Errorf("seat %d: %+v, was %+v", i, s, before.Seats[i])
		}
	}
	// Борис watched; his press seats him in the same lobby. Аня's again
	// says she is seated.
	if ans, err := b.Press(final, again); err != nil || ans.Text != h.T("lobby.joined") {
		t.Fatalf("second press: %+v, %v", ans, err)
	}
	if ans, err := a.Press(final, again); err != nil || ans.Text != h.T("lobby.already_seated") {
		t.Fatalf("press by a seated player: %+v, %v", ans, err)
	}
	joined, _ := h.Table(group)
	if joined.GameNo != next.GameNo || joined.SeatOf(b.ID()) != len(before.Seats) {
		t.Errorf("after the second press: game %d, seats %+v", joined.GameNo, joined.Seats)
	}
	lobbies := 0
	for _, m := range group.Messages() {
		if _, ok := m.Button(join); ok && m.ID > final.ID {
			lobbies++
		}
	}
	if lobbies != 1 {
		t.Errorf("%d lobbies opened after the game, want 1", lobbies)
	}
}

// seedResults records n finished games of Трик-н-Шеф in a group, as the
// bot would.
func seedResults(t *testing.T, st *store.Redis, chat int64, n int, seats ...store.ResultSeat) {
	t.Helper()
	at := time.Now().Add(-time.Hour)
	for i := 0; i < n; i++ {
		r := store.Result{ID: fmt.Sprintf("%d:%d:seed", chat, i+1), Game: "trickchef", Chat: chat,
			Started: at, Ended: at.Add(20 * time.Minute), Seats: seats}
		rate := func(cur []store.PlayerStats) (mu, sigma []float64) {
			for j := range cur {
				mu, sigma = append(mu, 30-float64(seats[j].Place)), append(sigma, 2)
			}
			return mu, sigma
		}
		if ok, err := st.RecordResult(context.Background(), r, rate); err != nil || !ok {
			t.Fatalf("seed %s: %v %v", r.ID, ok, err)
		}
	}
}

// TestPrivateStatsAndForgetMe: /stats in private sums a player's games
// over two groups; /forgetme (confirmed by the player, and only by them,
// and only while the question is fresh) takes them off /top and /stats.
func TestPrivateStatsAndForgetMe(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	g1 := h.Srv.NewGroup("Первая", a, b)
	g2 := h.Srv.NewGroup("Вторая", a, c)
	seedResults(t, h.Redis, g1.ID(), 3,
		store.ResultSeat{Player: resPlayer(a), Name: "Аня", Place: 1, Score: 20},
		store.ResultSeat{Player: resPlayer(b), Name: "Борис", Place: 2, Score: 15},
		store.ResultSeat{Player: "rnovice", Name: "новичок", Place: 3, Score: 5})
	seedResults(t, h.Redis, g2.ID(), 2,
		store.ResultSeat{Player: resPlayer(c), Name: "Вера", Place: 1, Score: 17},
		store.ResultSeat{Player: resPlayer(a), Name: "Аня", Place: 2, Score: 11})
	game := h.T("trickchef.title")

	h.askResults(a, a.PrivateChat(), "/stats",
		h.Shown("stats.title_private", "Name", "Аня", "Groups", h.T("count.groups", "Count", 2)),
		game, h.T("count.games", "Count", 5), h.T("count.wins", "Count", 3))
	h.askResults(b, g1, "/top", h.Shown("top.title", "Game", game), "Аня", "Борис", "🤖")
	h.askResults(a, g1, "/forgetme", h.Shown("forget.private_only"))

	// The question, and refused presses: someone else's, a stale one.
	yes := h.T("forget.yes")
	question := func(u *telegramtest.User) *telegramtest.Message {
		u.Send(u.PrivateChat(), "/forgetme")
		m, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
			_, ok := m.Button(yes)
			return ok
		})
		if err != nil {
			t.Fatalf("no /forgetme question for %s: %v", u.User().FirstName, err)
		}
		return m
	}
	qa, qb := question(a), question(b)
	btn, _ := qa.Button(yes)
	if ans, err := b.PressData(qb, btn.CallbackData); err != nil || ans.Text != h.T("error.not_yours") {
		t.Errorf("Борис pressing Аня's confirmation: %+v, %v", ans, err)
	}
	parts := strings.Split(btn.CallbackData, ":")
	asked, _ := strconv.ParseInt(parts[2], 10, 64)
	parts[2] = strconv.FormatInt(asked-3600, 10)
	if ans, err := a.PressData(qa, strings.Join(parts, ":")); err != nil || ans.Text != h.T("error.stale") {
		t.Errorf("an hour-old confirmation: %+v, %v", ans, err)
	}
	if chats, err := h.Redis.PlayerChats(ctx, resPlayer(a)); err != nil || len(chats) != 2 {
		t.Fatalf("refused presses changed Аня's results: chats %v, %v", chats, err)
	}
	if _, err := a.Press(qa, yes); err != nil {
		t.Fatal(err)
	}
	if _, err := a.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == qa.ID && m.Text == h.Shown("forget.done") && len(m.Keyboard) == 0
	}); err != nil {
		t.Fatalf("the question did not turn into the answer: %v", err)
	}

	if chats, err := h.Redis.PlayerChats(ctx, resPlayer(a)); err != nil || len(chats) != 0 {
		t.Errorf("Аня still has results in %v (%v)", chats, err)
	}
	h.askResults(a, g1, "/stats", h.Shown("stats.none_group", "Name", "Аня"))
	top := h.askResults(b, g1, "/top", h.Shown("top.title", "Game", game), "Борис")
	if strings.Contains(top.Text, "Аня") {
		t.Errorf("Аня is still on the leaderboard:\n%s", top.Text)
	}
	h.askResults(b, g1, "/history", h.Shown("history.forgotten"), "Борис")
	h.askResults(a, a.PrivateChat(), "/stats", h.Shown("stats.none_private", "Name", "Аня"))
	if p, ok, err := h.Redis.Stats(ctx, g1.ID(), "trickchef", resPlayer(b)); err != nil || !ok || p.Games != 3 {
		t.Errorf("Борис's stats after Аня left: %+v %v %v", p, ok, err)
	}
}

// forgetMe sends /forgetme as u in private, confirms it, and waits for the
// question to turn into its answer.
func (h *harness) forgetMe(u *telegramtest.User) {
	t := h.TB
	t.Helper()
	sent := u.Send(u.PrivateChat(), "/forgetme")
	q, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(h.T("forget.yes"))
		return m.ID > sent.ID && ok
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.Press(q, h.T("forget.yes")); err != nil {
		t.Fatal(err)
	}
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return m.ID == q.ID && m.Text == h.Shown("forget.done")
	}); err != nil {
		t.Fatalf("no answer to /forgetme: %v", err)
	}
}

// holdsUser reports whether JSON data holds user's id as a number, or
// their player id, anywhere.
func holdsUser(t *testing.T, data []byte, user int64) bool {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			t.Fatalf("not JSON: %v\n%s", err, data)
		}
		if n, ok := tok.(json.Number); ok && n.String() == strconv.FormatInt(user, 10) || tok == record.PersonPlayer(user) {
			return true
		}
	}
}

// TestForgetMeLeavesNoName: /forgetme takes the person's name off the
// table they sit at too — a lobby's seat is given up (its creator's role
// passing on), a running game's seat is renamed as the history names them,
// with no id of theirs left, and played by me from then on — and their
// pointers and practice table are gone from the store.
func TestForgetMeLeavesNoName(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	c := h.MustBegin(h.Srv.NewUser("Вера"))
	names := func(tab *record.Table) string {
		var out []string
		for _, s := range tab.Seats {
			out = append(out, s.Name)
		}
		return strings.Join(out, ", ")
	}

	// A lobby: the seat is given up, and Борис now runs it.
	a.Send(a.PrivateChat(), "/newgame trickchef") // a practice table of her own
	if _, err := a.PrivateChat().WaitMessage(10*time.Second, hasButton(h.T("lobby.start_button"))); err != nil {
		t.Fatalf("no practice lobby: %v", err)
	}
	g1 := h.Srv.NewGroup("Лобби", a, b)
	lobby := h.send(a, g1, "/newgame trickchef", hasButton(h.T("lobby.join_button")))
	h.press(b, lobby, h.T("lobby.join_button"), h.T("lobby.joined"))
	h.forgetMe(a)
	tab, _ := h.Table(g1)
	if tab.SeatOf(a.ID()) >= 0 || tab.Creator != b.ID() || strings.Contains(names(tab), "Аня") {
		t.Errorf("the lobby after /forgetme: creator %d, seats %s", tab.Creator, names(tab))
	}
	if rec, err := h.Redis.Load(ctx, record.ID(a.ID(), 0)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the practice table is still stored: version %d, %v", rec.Version, err)
	}
	for _, k := range []string{store.UserTableKey(a.ID()), store.StartedKey(a.ID())} {
		if v, err := h.Redis.Pointer(ctx, k); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("pointer %s still there: %q %v", k, v, err)
		}
	}

	// A running game: the seat plays on under the history's name, by me.
	a.Start("")
	g2 := h.Srv.NewGroup("Игра", a, b, c)
	lobby2, err := h.LobbyFor("trickchef", g2, a, []*telegramtest.User{b, c}, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.MustStartGame(a, lobby2)
	h.forgetMe(a)
	tab, _ = h.Table(g2)
	rec, err := h.Redis.Load(ctx, tab.ID)
	if err != nil {
		t.Fatal(err)
	}
	seat := slices.IndexFunc(tab.Seats, func(s record.Seat) bool { return s.Name == h.T("history.forgotten") })
	if seat < 0 || !tab.Seats[seat].Auto() || strings.Contains(names(tab), "Аня") || holdsUser(t, rec.Data, a.ID()) {
		t.Errorf("the game after /forgetme: seats %s, her id kept: %v", names(tab), holdsUser(t, rec.Data, a.ID()))
	}
}

// TestForgetMeLeavesTheOthersTheirGames: one person's /forgetme forgets
// them, not the people they played with: a kept game they shared stays
// for the other player — their seat renamed, no id of theirs in it — with
// the other's review as it was; their own review goes; the dead letters
// holding their updates go; a broken table's record set aside keeps the
// others' names and loses theirs.
func TestForgetMeLeavesTheOthersTheirGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, time.Minute)
	ctx := context.Background()
	a := h.MustBegin(h.Srv.NewUser("Аня"))
	b := h.MustBegin(h.Srv.NewUser("Борис"))
	g := h.Srv.NewGroup("Группа", a, b)
	id := record.ID(g.ID(), 0)

	f := &record.Table{ID: id, ChatID: g.ID(), Lang: "ru", Phase: record.PhaseIdle, GameNo: 1, GameID: "trickchef", Creator: a.ID(), Seed: 5,
		Started: time.Now().Add(-time.Hour).Truncate(time.Second),
		Seats:   []record.Seat{{UserID: a.ID(), Name: "Аня"}, {UserID: b.ID(), Name: "Борис"}, {Name: "Робот 1", AI: "novice"}}}
	game, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	ref := record.GameRef(f)
	rep, err := review.Report{Game: "trickchef", Level: "pro", Accuracy: 87, Judged: 5}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Redis.KeepGame(ctx, ref, f.People(), game); err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{a.ID(), b.ID()} {
		if err := h.Redis.SetReview(ctx, ref, u, rep); err != nil {
			t.Fatal(err)
		}
	}
	press := fmt.Sprintf(`{"update_id":990001,"callback_query":{"id":"1","from":{"id":%d,"is_bot":false,"first_name":"Аня"},"data":"x"}}`, a.ID())
	theirs := fmt.Sprintf(`{"update_id":990002,"callback_query":{"id":"2","from":{"id":%d,"is_bot":false,"first_name":"Борис"},"data":"x"}}`, b.ID())
	for i, u := range []string{press, theirs} {
		if err := h.Redis.DeadLetter(ctx, store.InboxChat(g.ID()), store.InboxEntry{ID: int64(990001 + i), Data: []byte(u)}, "panic"); err != nil {
			t.Fatal(err)
		}
	}
	brokenKey := store.BrokenKey(id, 1)
	if err := h.Redis.SetPointer(ctx, brokenKey, string(game)); err != nil {
		t.Fatal(err)
	}

	h.forgetMe(a)

	kept, err := h.Redis.KeptGame(ctx, ref)
	if err != nil {
		t.Fatalf("the game Аня and Борис played is gone: %v", err)
	}
	k, err := record.Decode(kept)
	if err != nil || holdsUser(t, kept, a.ID()) || strings.Contains(string(kept), "Аня") || k.PlayedBy(b.ID()) != 1 ||
		k.Seats[0].Name != h.T("history.forgotten") || k.Seed != f.Seed || len(k.Seats) != 3 {
		t.Errorf("the kept game after Аня's /forgetme (%v):\n%s", err, kept)
	}
	if r, err := h.Redis.Review(ctx, ref, b.ID()); err != nil || !bytes.Equal(r, rep) {
		t.Errorf("Борис's review: %v (changed: %v)", err, !bytes.Equal(r, rep))
	}
	if _, err := h.Redis.Review(ctx, ref, a.ID()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Аня's review: %v", err)
	}
	if refs, err := h.Redis.KeptGames(ctx, b.ID(), 10); err != nil || !slices.Equal(refs, []string{ref}) {
		t.Errorf("Борис's /history: %v %v", refs, err)
	}
	dead, err := h.Redis.DeadLetters(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(dead) != 1 || string(dead[0].Entry.Data) != theirs {
		t.Errorf("dead letters after Аня's /forgetme: %+v, want only Борис's", dead)
	}
	rec, err := h.Redis.Pointer(ctx, brokenKey)
	if err != nil || holdsUser(t, []byte(rec), a.ID()) || strings.Contains(rec, "Аня") || !strings.Contains(rec, "Борис") {
		t.Errorf("the broken table's record: %v\n%s", err, rec)
	}
}
