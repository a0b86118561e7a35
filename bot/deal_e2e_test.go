package bot_test

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
)

// TestDealSecretUntilTheEnd plays whole games — each game that takes
// turns with people and robots, a game stopped with /stop, and a practice
// game with robots in a private chat — and
// reads everything the bot produced meanwhile: every request to Telegram
// (texts, keyboards, callback answers) and every state the «Стол» page
// was given. Neither the secret nor the seeds show in any form, nor the
// reveal, except in the reveal on the table once the game is over. The
// lobby showed the commitment (32 hex digits) before anyone pressed, the
// deal mixed in what Telegram drew for the presses that seated people and
// started the game, the table showed that one commitment all game, and
// the reveal it shows at the end verifies against it; each person who
// played got the game's file in private after it, and the reveal and the
// file remake the deal the players got, the seats named by the players.
// (A practice table is its private chat's one message: the table and the
// hand together.)
func TestDealSecretUntilTheEnd(t *testing.T) {
	t.Parallel()
	// Every game the bot offers that takes turns is played to its end in
	// a group, the creator leaving at once in every other one (the
	// menu's first, third…); the menu's first is stopped too, its second
	// is practised. (A game played at once, its buttons live, would wait
	// here for minutes on the people who never press: its deal is the
	// same machinery.)
	var gs []adapter.Game
	for _, g := range allGames() {
		if !adapter.LiveButtons(g) {
			gs = append(gs, g)
		}
	}
	var cases []dealCase
	for i, g := range gs {
		cases = append(cases, dealCase{name: g.ID(), game: g.ID(), people: []string{"Аня", "Борис"}, robots: 1, leave: i%2 == 0})
	}
	cases = append(cases,
		dealCase{name: "stopped", game: gs[0].ID(), people: []string{"Дина", "Егор"}, robots: 1, stop: true},
		dealCase{name: "practice", game: gs[1].ID(), people: []string{"Жанна"}, practice: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			playDealCase(t, c)
		})
	}
}

type dealCase struct {
	name, game string
	people     []string
	robots     int
	stop       bool // the creator stops the game after a few moves
	// leave: the creator leaves the game at once (a robot takes their
	// seat); a game that deals from a seat (Меню шефа) deals from the
	// creator's, which the reveal still names.
	leave bool
	// practice: the one person plays with robots in their private chat,
	// where the table and the hand are one message.
	practice bool
}

func playDealCase(t *testing.T, c dealCase) {
	h := newHarness(t, time.Minute)
	h.Srv.KeepParams() // before anyone speaks: the bot's start told nothing of a game
	var people []*telegramtest.User
	for _, name := range c.people {
		people = append(people, h.MustBegin(h.Srv.NewUser(name)))
	}
	var group *telegramtest.Chat // where the table is: a group, or the private chat
	var lobby *telegramtest.Message
	var err error
	if c.practice {
		group = people[0].PrivateChat()
		people[0].Send(group, "/newgame "+c.game)
		lobby, err = group.WaitMessage(10*time.Second, hasButton(h.T("lobby.start_button")))
	} else {
		group = h.Srv.NewGroup("Честная игра "+c.name, people...)
		lobby, err = h.LobbyFor(c.game, group, people[0], people[1:], c.robots)
	}
	if err != nil {
		t.Fatal(err)
	}
	opened, _ := h.Table(group)
	reveal := deal.TableReveal(opened)
	if opened.Secret == "" || len(deal.Commitment(reveal)) != 32 {
		t.Fatalf("a lobby with no v2 secret: %q", reveal)
	}
	if !strings.Contains(lobby.Text, deal.Commitment(reveal)) {
		t.Fatalf("the lobby does not show the commitment:\n%s", lobby.Text)
	}
	h.MustStartGame(people[0], lobby)
	tab, _ := h.Table(group)
	if tab.Seed == 0 || tab.RobotSeed == 0 || tab.Seed == tab.RobotSeed || tab.Secret != opened.Secret || deal.TableReveal(tab) != reveal {
		t.Fatalf("the game's seeds %x, %x, secret %q; the lobby's secret %q", tab.Seed, tab.RobotSeed, tab.Secret, opened.Secret)
	}
	// What Telegram drew goes in: the start press, and the join press of
	// each person seated by a button.
	if len(tab.Drawn) != len(tab.Seats)+1 || tab.Drawn[len(tab.Seats)] == "" {
		t.Fatalf("drawn %q for %d seats", tab.Drawn, len(tab.Seats))
	}
	if !c.practice {
		for _, u := range people[1:] {
			if tab.Drawn[tab.SeatOf(u.ID())] == "" {
				t.Errorf("%s joined by a button, and the deal has no press of theirs: %q", u.User().FirstName, tab.Drawn)
			}
		}
	}
	seeds, err := deal.Derive(reveal, deal.InputsOf(tab))
	if err != nil || seeds.Deal != tab.Seed || seeds.Robots != tab.RobotSeed {
		t.Fatalf("the seeds do not derive from the secret and the presses: %+v, %v", seeds, err)
	}
	forms := dealSecrets(tab.Seed, tab.RobotSeed, reveal)
	forms = append(forms, tab.Secret)
	pages := watchPages(t, h, group, people, forms)

	if c.stop {
		done := make(chan struct{})
		var waits []func() []string
		for _, u := range people {
			waits = append(waits, h.Player(u, done, nil))
		}
		err := h.Srv.WaitFor(time.Minute, func() bool { tab, _ := h.Table(group); return len(tab.Log) >= 6 })
		close(done)
		for _, w := range waits {
			w()
		}
		if err != nil {
			t.Fatalf("no moves: %v", err)
		}
		// While the game runs nothing shows the reveal, not even as a whole.
		for _, p := range botPayloads(h.Srv.Calls()) {
			if strings.Contains(p, reveal) {
				t.Fatalf("the reveal showed while the game ran:\n%s", p)
			}
		}
		sent := people[0].Send(group, "/stop")
		q, err := group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool { return m.ID > sent.ID && hasButton(h.T("stop.yes"))(m) })
		if err != nil {
			t.Fatalf("no /stop question: %v", err)
		}
		h.ExpectAnswer(people[0], q, buttonData(t, q, h.T("stop.yes")), h.T("stop.done"))
	} else {
		players := people
		if c.leave {
			leaveGame(t, h, people[0])
			players = people[1:]
		}
		h.MustPlayToEnd(group, players, 3*time.Minute)
	}

	// The table shows the reveal, as the record holds it, once the game is
	// over: the finished table, or the one that says it was stopped.
	end, _ := h.Table(group)
	if end.Phase != record.PhaseIdle || end.Seed != tab.Seed || end.Secret != tab.Secret || end.GameNo != tab.GameNo {
		t.Fatalf("the game's end: phase %s, seed %d secret %q game %d; dealt %d, %q, %d", end.Phase, end.Seed, end.Secret, end.GameNo, tab.Seed, tab.Secret, tab.GameNo)
	}
	revealLine := h.Shown("review.deal_reveal", "Reveal", reveal)
	final, err := group.WaitMessage(10*time.Second, contains(revealLine))
	if err != nil {
		h.DumpGroup(group)
		t.Fatalf("the table shows no reveal at the end: %v", err)
	}
	if c.stop && !strings.Contains(final.Text, h.Shown("event.stopped", "Name", c.people[0])) {
		t.Errorf("the reveal is not on the message that says the game stopped:\n%s", final.Text)
	}
	reads, leaks := pages()

	// Nothing the bot said or the page was given carries the secret, but
	// the reveal on the table once the game is over.
	explain := h.T("review.deal_explain")
	payloads := botPayloads(h.Srv.Calls())
	for _, p := range payloads {
		if strings.HasPrefix(p, "sendDocument\n") {
			continue // the game's file, sent once it was over (its bytes are not a parameter)
		}
		if strings.Contains(p, reveal) && !strings.Contains(p, explain) {
			t.Errorf("the reveal shows outside the finished table:\n%s", p)
		}
		checkNoSecret(t, "a request to Telegram", strings.ReplaceAll(p, reveal, ""), forms)
	}
	for _, p := range leaks {
		t.Errorf("a «Стол» state carries the deal's secret:\n%s", p)
	}
	if reads == 0 {
		t.Error("the «Стол» page was never read")
	}

	// The group's table showed one commitment while the game ran; the
	// reveal shown at the end verifies against it.
	var commitments []string
	cBefore, cAfter, _ := strings.Cut(h.T("review.deal_commit", "Commitment", "\x00"), "\x00")
	commitRE := regexp.MustCompile(regexp.QuoteMeta(cBefore) + "([0-9a-f]{16,})" + regexp.QuoteMeta(cAfter))
	for _, call := range h.Srv.Calls() {
		if call.ChatID != group.ID() {
			continue
		}
		for _, m := range commitRE.FindAllStringSubmatch(call.Params["text"], -1) {
			if !slices.Contains(commitments, m[1]) {
				commitments = append(commitments, m[1])
			}
		}
	}
	if len(commitments) != 1 {
		t.Fatalf("the group's table showed %d commitments: %q", len(commitments), commitments)
	}
	shown := ""
	before, after := h.Around("review.deal_reveal", "Reveal")
	for _, line := range strings.Split(final.Text, "\n") {
		if r, ok := between(line, before, after); ok {
			shown = r
		}
	}
	if !deal.Check(shown, commitments[0]) {
		t.Fatalf("the reveal shown %q does not verify against the commitment shown %q", shown, commitments[0])
	}
	// Each person who played got the game's file in private, once it was
	// over; with the reveal shown it remakes the game's seeds.
	var file deal.File
	for _, u := range people {
		if c.leave && u == people[0] {
			continue // left the game: no result, no file
		}
		m, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool { return m.Document != nil })
		if err != nil {
			t.Fatalf("%s got no file of the game: %v", u.User().FirstName, err)
		}
		if want := c.game + "-" + strconv.Itoa(end.GameNo) + ".json"; m.Document.FileName != want || m.Caption == "" {
			t.Errorf("the file %q (%q), want %q", m.Document.FileName, m.Caption, want)
		}
		if file, err = deal.ReadFile(m.Document.Data); err != nil {
			t.Fatal(err)
		}
	}
	if file.Reveal != shown || file.Commitment != commitments[0] || len(file.Moves) != len(end.Log) {
		t.Fatalf("the file: reveal %q commitment %q, %d moves; shown %q %q, %d moves", file.Reveal, file.Commitment, len(file.Moves), shown, commitments[0], len(end.Log))
	}
	remade, err := file.Table(shown)
	if err != nil {
		t.Fatal(err)
	}
	if remade.GameID != c.game || remade.Seed != tab.Seed || remade.RobotSeed != tab.RobotSeed || len(remade.Seats) != len(tab.Seats) {
		t.Fatalf("the reveal and the file remake %s, seeds %x %x, %d seats; the table: %s, %x %x, %d", remade.GameID, remade.Seed, remade.RobotSeed, len(remade.Seats), tab.GameID, tab.Seed, tab.RobotSeed, len(tab.Seats))
	}
	checkRemade(t, h, remade, file.Moves, end, people)
}

// checkRemade remakes the deal from the reveal and the file as cmd/aibench
// deal does (deal.TellTable) and compares it with what the players got:
// the file's moves replayed on the remade deal end in the state the record
// holds, and in Трик-н-Шеф each person's first hand, as the bot showed it,
// is the first deal of the seat named by them.
func checkRemade(t *testing.T, h *harness, remade *record.Table, log record.MoveLog, end *record.Table, people []*telegramtest.User) {
	t.Helper()
	var g adapter.Game
	for _, x := range allGames() {
		if x.ID() == remade.GameID {
			g = x
		}
	}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	deals, err := deal.TellTable(g, remade, log, l)
	if err != nil || len(deals) == 0 {
		t.Fatalf("the reveal tells no deal: %v", err)
	}
	st, err := g.Start(adapter.View(remade))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range log {
		if err := st.Apply(m.Seat, m.Action); err != nil {
			t.Fatalf("move %d of the game does not apply to the remade deal: %v", i, err)
		}
	}
	if got, _ := st.MarshalBinary(); !bytes.Equal(got, end.State) {
		t.Fatalf("the game's %d moves on the remade deal end elsewhere than the game did", len(end.Log))
	}
	if remade.GameID != "trickchef" {
		return
	}
	handBefore, handAfter := h.Around("trickchef.hand_cards", "Cards")
	for _, u := range people {
		seat := end.SeatOf(u.ID())
		dealBefore, _ := h.Around("trickchef.deal.hand", "Cards", "Name", u.User().FirstName)
		want := ""
		for _, line := range strings.Split(deals[0], "\n") {
			if rest, ok := strings.CutPrefix(line, dealBefore); ok {
				want = rest
			}
		}
		got := ""
		for _, call := range h.Srv.Calls() {
			if call.ChatID != u.ID() || !call.OK || got != "" {
				continue
			}
			for _, line := range strings.Split(bottest.Plain(call.Params["text"]), "\n") {
				if cards, ok := between(line, handBefore, handAfter); ok {
					got = cards
					break
				}
			}
		}
		if want == "" || got == "" || sortedFields(got) != sortedFields(want) {
			t.Errorf("%s's first hand was %q; the remade deal gives seat %d %q", u.User().FirstName, got, seat+1, want)
		}
	}
}

func sortedFields(s string) string {
	f := strings.Fields(s)
	slices.Sort(f)
	return strings.Join(f, " ")
}

// dealSecrets are the forms the deal's secret could take in a payload:
// the deal's and the robots' seeds as 16 hex digits, their hex without
// leading zeros, and their decimal forms, unsigned and signed; and the
// reveal itself.
func dealSecrets(seed, robots uint64, reveal string) []string {
	var out []string
	for _, x := range []uint64{seed, robots} {
		h := strconv.FormatUint(x, 16)
		out = append(out, strings.Repeat("0", 16-len(h))+h, h, strconv.FormatUint(x, 10), strconv.FormatInt(int64(x), 10))
	}
	return append(out, reveal)
}

func checkNoSecret(t *testing.T, what, payload string, forms []string) {
	t.Helper()
	for _, f := range forms {
		if strings.Contains(payload, f) {
			t.Errorf("%s carries the deal's secret %q:\n%s", what, f, payload)
		}
	}
}

// botPayloads are the bot's requests to Telegram, each as one text: its
// parameters, key=value a line.
func botPayloads(calls []telegramtest.Call) []string {
	var out []string
	for _, c := range calls {
		var sb strings.Builder
		sb.WriteString(c.Method)
		for _, k := range slices.Sorted(maps.Keys(c.Params)) {
			sb.WriteString("\n" + k + "=" + c.Params[k])
		}
		out = append(out, sb.String())
	}
	return out
}

// leaveGame makes u leave the game they play: «leave», then «yes».
func leaveGame(t *testing.T, h *harness, u *telegramtest.User) {
	t.Helper()
	leave, yes := h.T("leave.button"), h.T("leave.yes")
	hand, err := u.PrivateChat().WaitMessage(10*time.Second, hasButton(leave))
	if err != nil {
		t.Fatalf("no leave button on %s's hand: %v", u.User().FirstName, err)
	}
	if _, err := u.Press(hand, leave); err != nil {
		t.Fatal(err)
	}
	confirm, err := u.PrivateChat().WaitMessage(10*time.Second, hasButton(yes))
	if err != nil {
		t.Fatalf("no confirmation: %v", err)
	}
	h.ExpectAnswer(u, confirm, buttonData(t, confirm, yes), h.T("leave.done"))
}

// buttonData is the callback data of msg's button labelled text.
func buttonData(t *testing.T, msg *telegramtest.Message, text string) string {
	t.Helper()
	b, ok := msg.Button(text)
	if !ok {
		t.Fatalf("no button %q on %q", text, msg.Text)
	}
	return b.CallbackData
}

// watchPages serves the «Стол» page in front of the harness's bot and
// reads every person's state of the group's table, again and again, until
// the returned function is called: it gives how many states were read and
// those that carried any of forms.
func watchPages(t *testing.T, h *harness, group *telegramtest.Chat, people []*telegramtest.User, forms []string) func() (reads int, leaks []string) {
	t.Helper()
	srv := webapp.New(webapp.Config{Token: bottest.Token, ReadsPerSecond: 1000, ReadBurst: 1000}, h.Bot.Web, h.Redis, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Run(ctx); err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(web.Close)
	token, err := h.Bot.Web.Token(ctx, strconv.FormatInt(group.ID(), 10))
	if err != nil {
		t.Fatal(err)
	}
	var reads int
	var leaks []string
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			for _, u := range people {
				req, _ := http.NewRequestWithContext(ctx, "GET", web.URL+"/api/state?table="+url.QueryEscape(token), nil)
				req.Header.Set("Authorization", "tma "+initdata.SignUser(bottest.Token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now(), ""))
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					continue
				}
				reads++
				for _, f := range forms {
					if bytes.Contains(body, []byte(f)) {
						leaks = append(leaks, string(body))
						break
					}
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() (int, []string) {
		close(stop)
		<-stopped // reads and leaks are the goroutine's until then
		return reads, leaks
	}
}
