package webapp_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/locales"
)

// replay asks u's page for step (the query's raw value) of the table's
// replay: the status, and the answer when it is 200.
func (x *table) replay(t *testing.T, u *telegramtest.User, step string) (int, web.Replay, string) {
	t.Helper()
	code, body := x.request(t, "GET", "/api/replay?table="+url.QueryEscape(x.id)+"&step="+url.QueryEscape(step), initData(u), nil)
	var r web.Replay
	if code == http.StatusOK {
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatal(err)
		}
	}
	return code, r, string(body)
}

// finish makes random moves through the pages, each of a random player
// who has one, until the table's game is over (robots and the dealer move
// by themselves meanwhile).
func (x *table) finish(t *testing.T, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	deadline := time.Now().Add(4 * time.Minute)
	made := make([]int, len(x.people))
	for !x.over(t) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the game did not end", x.game.ID())
		}
		moved := false
		// The person who has moved least goes first (ties in a seeded
		// order): every seat gets moves of its own to review, even in a
		// short real-time game.
		order := rng.Perm(len(x.people))
		slices.SortStableFunc(order, func(a, b int) int { return made[a] - made[b] })
		for _, i := range order {
			u := x.people[i]
			var mine []string
			for _, a := range acts(x.state(t, u)) {
				if p, err := adapter.ParseButton(a); err == nil && p.Op == callback.Action {
					mine = append(mine, a)
				}
			}
			if len(mine) == 0 {
				continue
			}
			a := mine[rng.IntN(len(mine))]
			if code, r := x.act(t, u, a, fmt.Sprintf("finish-%d-%d", x.version(t), u.ID())); code == http.StatusOK && r.OK {
				made[i]++
				moved = true
				break
			}
		}
		if !moved {
			time.Sleep(50 * time.Millisecond)
		}
	}
	// The finished game's job (recorded, kept for its reviews) commits
	// once more: wait for it, so a later version is the test's own doing.
	if err := x.h.Srv.WaitFor(time.Minute, func() bool {
		tab, _ := x.h.Table(x.group)
		return len(tab.Jobs) == 0
	}); err != nil {
		t.Fatalf("%s: the finished game's job was never done: %v", x.game.ID(), err)
	}
}

// reviewPlayouts is the judging budget of the tests' reviews: the
// smallest that still searches, so a real review of a whole game takes
// well under a second even under -race (the runtime's budget, the top
// level's own, takes up to a few seconds here: the screenshots, made
// with -screenshots, are of a review at that budget). The costs are the
// review code's own either way, never made up.
const reviewPlayouts = 8

// reviewBudget is the budget of this run's reviews (review.Options).
func reviewBudget() int {
	if *screenshots != "" {
		return 0 // the runtime's own
	}
	return reviewPlayouts
}

// storeReview keeps a review of the table's finished game for u, who
// played seat, as «🔍 Разбор» does: the review code (review.Review, the
// game's top level judging every move of the seat, at reviewPlayouts)
// makes it from the finished game, and it is kept with the game. It
// returns the report (its Costs are what the replay marks).
func (x *table) storeReview(t *testing.T, u *telegramtest.User, seat int) review.Report {
	t.Helper()
	tab, _ := x.h.Table(x.group)
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	f := tab.Finished()
	start := time.Now()
	rep, err := review.Review(x.game, f, seat, adapter.NewLoc(cat, f.Lang), review.Options{Playouts: reviewBudget()})
	if err != nil {
		t.Fatalf("%s: the review: %v", x.game.ID(), err)
	}
	t.Logf("%s: a real review of seat %d (%d moves, %d playouts) took %v: %s", x.game.ID(), seat, len(f.Log), reviewBudget(), time.Since(start), rep)
	if len(rep.Costs) == 0 || len(rep.Moments) == 0 {
		t.Fatalf("%s: the review found no costly move of seat %d: %s", x.game.ID(), seat, rep)
	}
	data, err := rep.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	game, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	// The game is kept by the job that records it; keeping it here too
	// changes nothing (the first write wins) and does not wait for it.
	ctx := context.Background()
	ref := record.GameRef(f)
	if err := x.h.Redis.KeepGame(ctx, ref, f.People(), game); err != nil {
		t.Fatal(err)
	}
	if err := x.h.Redis.SetReview(ctx, ref, u.ID(), data); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestReplayAPI: a running game has no replay (409, its hidden cards stay
// hidden); once over, every step from the deal to the last move is the
// open scene (every seat's cards face up, nothing to press) with the move
// that led there and the steps where rounds begin; a stranger gets the
// same 404 as for the state, a step that is no step of the game 400; no
// answer carries the deal's seed or salt; and no request changes the table.
func TestReplayAPI(t *testing.T) {
	t.Parallel()
	x := newGame(t, trickchef.Game(), []string{"Аня", "Борис", "Вера"}, webapp.Config{ActionsPerSecond: 1000, ActionBurst: 1000})
	a := x.people[0]
	if ws := x.state(t, a); ws.Replay != "" {
		t.Fatalf("a running game offers its replay: %q", ws.Replay)
	}
	if code, _, body := x.replay(t, a, "0"); code != http.StatusConflict {
		t.Fatalf("the replay of a running game: %d %s, want 409", code, body)
	}
	x.finish(t, 1)
	tab, _ := x.h.Table(x.group)
	moves := len(tab.Log)
	member := x.h.Srv.NewUser("Сосед")
	x.group.AddMember(member)
	for _, u := range []*telegramtest.User{a, member} {
		if ws := x.state(t, u); ws.Replay == "" {
			t.Fatalf("%s's finished game offers no replay", u.User().FirstName)
		}
	}
	before := x.version(t)

	code, first, body := x.replay(t, a, "0")
	if code != http.StatusOK {
		t.Fatalf("step 0: %d %s", code, body)
	}
	if first.Step != 0 || first.Moves != moves || first.Move != nil || first.Label == "" || first.Seat != 0 {
		t.Fatalf("step 0: %+v", first)
	}
	if len(first.Rounds) != 3 || first.Rounds[0].Step != 0 || first.Rounds[0].Label == "" {
		t.Fatalf("Трик-н-Шеф's three rounds: %+v", first.Rounds)
	}
	for i := 1; i < len(first.Rounds); i++ {
		if first.Rounds[i].Step <= first.Rounds[i-1].Step || first.Rounds[i].Step >= moves {
			t.Fatalf("rounds out of order: %+v", first.Rounds)
		}
	}
	openScene := func(r web.Replay) {
		t.Helper()
		sc := r.Scene
		if len(sc.Hand) > 0 || len(sc.Choices) > 0 || sc.Prompt != "" || len(sc.Seats) != len(x.people) {
			t.Fatalf("step %d offers something to press: %+v", r.Step, sc)
		}
		for i, s := range sc.Seats {
			for _, c := range s.Cards {
				if c.Back || c.Act != "" {
					t.Fatalf("step %d: seat %d shows a card face down or to press: %+v", r.Step, i, c)
				}
			}
		}
	}
	openScene(first)
	// The game's file to download, as the players got it but for the
	// reveal: it remakes the deal with the reveal the chat shows.
	if first.File == nil || first.File.Name != "trickchef-"+strconv.Itoa(tab.GameNo)+".json" {
		t.Fatalf("no file of the game: %+v", first.File)
	}
	file, err := deal.ReadFile([]byte(first.File.Data))
	if err != nil || file.Reveal != "" || file.Commitment != deal.Commitment(deal.TableReveal(tab)) || len(file.Moves) != moves {
		t.Fatalf("the replay's file %+v, %v", file, err)
	}
	if remade, err := file.Table(deal.TableReveal(tab)); err != nil || remade.Seed != tab.Seed {
		t.Fatalf("the replay's file and the reveal remake %+v, %v", remade, err)
	}
	for i, s := range first.Scene.Seats {
		if len(s.Cards) == 0 {
			t.Fatalf("the deal shows no cards of seat %d: %+v", i, s)
		}
	}
	// Every card is face up, but the deal's secret is not in it: the
	// reveal is the chat's.
	forms := append(secretForms(tab.Seed, tab.RobotSeed, deal.TableReveal(tab)), tab.Secret)
	shown := map[string]int{}
	for _, step := range []int{0, 1, 2, first.Rounds[1].Step, first.Rounds[2].Step, moves - 1, moves} {
		code, r, body := x.replay(t, a, strconv.Itoa(step))
		if code != http.StatusOK {
			t.Fatalf("step %d: %d %s", step, code, body)
		}
		for _, f := range forms {
			if strings.Contains(body, f) {
				t.Fatalf("step %d carries %q:\n%s", step, f, body)
			}
		}
		if step == 0 {
			continue
		}
		openScene(r)
		if r.Step != step || r.Move == nil || r.Move.Seat < 0 || r.Move.Who == "" || r.Move.Name == "" || r.Label == "" {
			t.Fatalf("step %d: %+v", step, r)
		}
		if m := tab.Log[step-1]; r.Move.Seat != int(m.Seat) {
			t.Fatalf("step %d names seat %d's move, the log seat %d's", step, r.Move.Seat, m.Seat)
		}
		if len(r.Rounds) != len(first.Rounds) {
			t.Fatalf("step %d: rounds %+v, step 0 %+v", step, r.Rounds, first.Rounds)
		}
		scene, _ := json.Marshal(r.Scene)
		if prev, ok := shown[string(scene)]; ok && prev != step {
			t.Fatalf("steps %d and %d show the same table", prev, step)
		}
		shown[string(scene)] = step
	}
	if code, r, body := x.replay(t, member, strconv.Itoa(moves)); code != http.StatusOK || r.Seat != -1 || len(r.Marks) > 0 {
		t.Fatalf("a member of the group: %d %s", code, body)
	}
	if len(first.Marks) > 0 {
		t.Fatalf("marks before a review: %+v", first.Marks)
	}
	// Once Аня's review is kept (a real one: the review code's), her
	// costly moves are marked, each with its grade and, on its step,
	// the top robot's move; the review's three costliest are ranked as
	// the review numbers them; Борис sees none.
	rep := x.storeReview(t, a, 0)
	costs := rep.Costs
	_, r0, _ := x.replay(t, a, "0")
	if len(r0.Marks) != len(costs) || r0.Yours != "" {
		t.Fatalf("marks %+v for the costs %+v", r0.Marks, costs)
	}
	ranked := 0
	for i, c := range costs {
		mk := r0.Marks[i]
		if mk.Step != c.Move+1 || mk.Grade != x.h.T("review.replay_grade_"+strconv.Itoa(review.Grade(c.Loss))) {
			t.Fatalf("mark %+v for the cost %+v", mk, c)
		}
		if mk.Rank != 0 {
			ranked++
			if m := rep.Moments[mk.Rank-1]; m.Move != c.Move {
				t.Fatalf("mark %+v ranked %d, the review's moment %d is move %d", mk, mk.Rank, mk.Rank, m.Move)
			}
		}
		_, r, _ := x.replay(t, a, strconv.Itoa(mk.Step))
		if r.Yours == "" || r.Move == nil || r.Move.Seat != 0 {
			t.Fatalf("step %d, Аня's reviewed move: %+v", mk.Step, r)
		}
	}
	if ranked != len(rep.Moments) {
		t.Fatalf("%d marks ranked, the review tells %d moments", ranked, len(rep.Moments))
	}
	checkNumbering(t, x, a, rep)
	if _, r, _ := x.replay(t, x.people[1], "0"); len(r.Marks) > 0 {
		t.Fatalf("Борис sees Аня's marks: %+v", r.Marks)
	}
	for _, bad := range []string{"-1", strconv.Itoa(moves + 1), "", "x", "1.5", " 1", "+1", "0x1", "99999999999", "1e2"} {
		if code, _, body := x.replay(t, a, bad); code != http.StatusBadRequest {
			t.Errorf("step %q: %d %s, want 400", bad, code, body)
		}
	}
	if code, body := x.request(t, "GET", "/api/replay?table="+url.QueryEscape(x.id)+"&step=1&step=2", initData(a), nil); code != http.StatusBadRequest {
		t.Errorf("two steps: %d %s, want 400", code, body)
	}
	// A link to a step of one game (game=<review.GameKey>): that game's step,
	// a key that is no key 400, another game's 409 replay_gone.
	if first.Game != review.GameKey(tab) || first.Game == "" {
		t.Fatalf("the replay names its game %q, want %q", first.Game, review.GameKey(tab))
	}
	pinned := func(game string) (int, string) {
		code, body := x.request(t, "GET", "/api/replay?table="+url.QueryEscape(x.id)+"&step=1&game="+url.QueryEscape(game), initData(a), nil)
		return code, string(body)
	}
	if code, body := pinned(first.Game); code != http.StatusOK {
		t.Errorf("the step of its own game: %d %s", code, body)
	}
	other := strconv.Itoa(tab.GameNo+1) + "." + strconv.FormatInt(tab.Started.Unix(), 10)
	if code, body := pinned(other); code != http.StatusConflict || !strings.Contains(body, `"replay_gone"`) {
		t.Errorf("the step of another game: %d %s, want 409 replay_gone", code, body)
	}
	for _, bad := range []string{"", "x", "1", "1.", ".1", "-1.5", "1.2.3", "1234567890.1", "1.1234567890123", "1 .2"} {
		if code, body := pinned(bad); code != http.StatusBadRequest {
			t.Errorf("game %q: %d %s, want 400", bad, code, body)
		}
	}
	stranger := x.h.Srv.NewUser("Чужой")
	if code, _, body := x.replay(t, stranger, "0"); code != http.StatusNotFound {
		t.Errorf("a stranger: %d %s, want 404", code, body)
	}
	if v := x.version(t); v != before {
		t.Fatalf("the replay changed the table: version %d → %d", before, v)
	}
	// The next game replaces the finished one: no replay while it runs.
	x.again(t)
	if code, _, body := x.replay(t, a, "0"); code != http.StatusConflict {
		t.Fatalf("the replay once the next game runs: %d %s, want 409", code, body)
	}
	// A stopped game is not over: its hands stay hidden.
	x.move(t)
	sent := a.Send(x.group, "/stop")
	q, err := x.group.WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		_, ok := m.Button(x.h.T("stop.yes"))
		return m.ID > sent.ID && ok
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Press(q, x.h.T("stop.yes")); err != nil {
		t.Fatal(err)
	}
	if tab, _ := x.h.Table(x.group); tab.Phase != record.PhaseIdle {
		t.Fatalf("/stop: phase %v", tab.Phase)
	}
	if ws := x.state(t, a); ws.Replay != "" {
		t.Fatalf("a stopped game offers its replay: %q", ws.Replay)
	}
	if code, _, body := x.replay(t, a, "1"); code != http.StatusConflict {
		t.Fatalf("the replay of a stopped game: %d %s, want 409", code, body)
	}
}

// momentRE finds a moment's number and move in a review's message:
// «<b>1. Ход 62</b>».
var momentRE = regexp.MustCompile(`<b>(\d+)\. Ход (\d+)</b>`)

// checkNumbering: the review (its chat message, as the person reads it)
// and the replay number a move alike: each moment's «Ход N» is the step
// whose replay is labelled «Ход N из M», shows that very move of the
// person's, and carries the moment's mark ranked as the review ranks it.
func checkNumbering(t *testing.T, x *table, u *telegramtest.User, rep review.Report) {
	t.Helper()
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	msg := rep.Message(adapter.NewLoc(cat, "ru")).Text
	found := momentRE.FindAllStringSubmatch(msg, -1)
	if len(found) != len(rep.Moments) || len(found) == 0 {
		t.Fatalf("%d numbered moments in the review, it has %d:\n%s", len(found), len(rep.Moments), msg)
	}
	for k, f := range found {
		n, _ := strconv.Atoi(f[2])
		if f[1] != strconv.Itoa(k+1) || n != review.Step(rep.Moments[k].Move) {
			t.Fatalf("moment %d reads %q, its move is %d", k+1, f[0], rep.Moments[k].Move)
		}
		code, r, body := x.replay(t, u, strconv.Itoa(n))
		if code != http.StatusOK {
			t.Fatalf("the replay at the review's «Ход %d»: %d %s", n, code, body)
		}
		if want := x.h.T("review.replay_move", "N", n, "Total", r.Moves); r.Label != want {
			t.Fatalf("the review's «Ход %d» shows in the replay as %q, want %q", n, r.Label, want)
		}
		seat := viewerSeatOf(t, x, u)
		if r.Move == nil || r.Move.Seat != seat || r.Yours == "" {
			t.Fatalf("the review's «Ход %d» is not the person's reviewed move in the replay: %+v", n, r)
		}
		here := false
		for _, mk := range r.Marks {
			here = here || mk.Step == n && mk.Rank == k+1
		}
		if !here {
			t.Fatalf("the review's moment %d («Ход %d») has no mark ranked %d: %+v", k+1, n, k+1, r.Marks)
		}
	}
}

// viewerSeatOf is u's seat at the table's finished game.
func viewerSeatOf(t *testing.T, x *table, u *telegramtest.User) int {
	t.Helper()
	tab, _ := x.h.Table(x.group)
	return tab.PlayedBy(u.ID())
}

var replayMeasure = flag.Int("replay.measure", 0, "time this many replay steps of a finished Меню шефа game (0: only when asked)")

// TestReplayCost times the replay's steps of a long finished game (Меню
// шефа: hundreds of moves, all replayed again per request) in the web
// role, without HTTP: go test ./bot/web/webapp -run TestReplayCost
// -replay.measure=500 -v. The numbers are logged, never asserted.
func TestReplayCost(t *testing.T) {
	if *replayMeasure == 0 {
		t.Skip("measured with -replay.measure=N")
	}
	x := newGameWith(t, chef.Game(), []string{"Аня"}, webapp.Config{ActionsPerSecond: 1000, ActionBurst: 1000}, withRobots(2))
	x.finish(t, 4)
	ctx := context.Background()
	first, err := x.h.Bot.Web.Replay(ctx, x.id, x.people[0].ID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var took []time.Duration
	for i := range *replayMeasure {
		start := time.Now()
		if _, err := x.h.Bot.Web.Replay(ctx, x.id, x.people[0].ID(), i%(first.Moves+1)); err != nil {
			t.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	q := func(p float64) time.Duration { return took[min(len(took)-1, int(p*float64(len(took))))] }
	t.Logf("a replay step of a game of %d moves, %d steps: p50 %v, p99 %v, max %v", first.Moves, len(took), q(0.5), q(0.99), took[len(took)-1])
}
