//go:build linux

package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store/redistest"
)

// secondToken is the token of the second bot; its id (the part before the
// colon) differs from bottest.Token's.
const secondToken = "654321:TEST-second-token-for-the-fake-bot-api"

// twoWorlds are the same people and group as two bots see them: one fake
// Bot API per token. Telegram gives each bot its own update_id sequence,
// and both fakes count from the same start, so the two bots' update ids
// overlap on purpose; users and the group get the same ids in both,
// because each fake hands out ids in creation order.
type twoWorlds struct {
	srv    [2]*telegramtest.Server
	people [2][]*telegramtest.User
	group  [2]*telegramtest.Chat
}

func newTwoWorlds(t *testing.T) *twoWorlds {
	t.Helper()
	w := &twoWorlds{}
	bots := []struct {
		token string
		id    int64
		name  string
	}{
		{bottest.Token, 123456, "trickchef_one_bot"},
		{secondToken, 654321, "trickchef_two_bot"},
	}
	for i, b := range bots {
		w.srv[i] = telegramtest.NewServer(telegramtest.WithToken(b.token), telegramtest.WithBot(b.id, b.name),
			telegramtest.WithQueryTimeout(slow), telegramtest.WithPressTimeout(slow), telegramtest.WithTB(t))
		t.Cleanup(w.srv[i].Close)
		for _, name := range []string{"Аня", "Борис"} {
			w.people[i] = append(w.people[i], w.srv[i].NewUser(name))
		}
		w.group[i] = w.srv[i].NewGroup("Кухня", w.people[i]...)
	}
	if w.group[0].ID() != w.group[1].ID() || w.people[0][0].ID() != w.people[1][0].ID() || w.people[0][1].ID() != w.people[1][1].ID() {
		t.Fatal("the two fakes gave the shared group and people different ids")
	}
	return w
}

// TestTwoBotsOneRedis runs two bot processes with different tokens on one
// Redis, both serving the same group with the same two people, who play a
// Трик-н-Шеф game with each bot at the same time (with two robots, every
// move left to the turn timeout). Both games must end, replay from their
// seeds and be delivered once; and the two bots must share nothing: each
// table, applied update ids (which overlap), user pointers, budget keys
// (the token's and the group's spacing) and results live under the bot's
// own prefix, and no key is outside the two.
func TestTwoBotsOneRedis(t *testing.T) {
	t.Parallel()
	x := texts(t)
	rs := redistest.Start(t)
	rc := rs.Client(t)
	w := newTwoWorlds(t)
	var procs [2]*botProc
	for i, token := range []string{bottest.Token, secondToken} {
		env := botEnv(w.srv[i].URL, rs.URL())
		env["TELEGRAM_TOKEN"] = token
		procs[i] = startBot(t, env)
	}
	err := runConcurrently(2, func(i int) error {
		for _, u := range w.people[i] {
			if err := greet(u); err != nil {
				return err
			}
		}
		return openTable(x, w.srv[i], w.group[i], w.people[i][0], w.people[i][1:], 2)
	})
	if err != nil {
		t.Fatalf("%v\n--- bot one:\n%s\n--- bot two:\n%s", err, procs[0].out.String(), procs[1].out.String())
	}
	// While the games run, look for each bot's own budget keys: the
	// token's and the group's spacing (both bots write to the one group id).
	// They expire a window after the last call, so they are sampled.
	group := strconv.FormatInt(w.group[0].ID(), 10)
	var budgets []string
	for i := range 2 {
		budgets = append(budgets, botKeys(w.srv[i])+"rate:{global}", botKeys(w.srv[i])+"rate:{chat:"+group+"}")
	}
	seen := make([]bool, len(budgets))
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			for j, k := range budgets {
				if !seen[j] && rc.Exists(context.Background(), k).Val() == 1 {
					seen[j] = true
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	for i := range 2 {
		if _, err := w.group[i].WaitMessage(3*slow, x.Won()); err != nil {
			t.Fatalf("bot %d: the game did not end: %v\n%s", i+1, err, procs[i].out.String())
		}
	}
	close(stop)
	<-sampled
	for j, k := range budgets {
		if !seen[j] {
			t.Errorf("budget key %s never seen while the games ran", k)
		}
	}
	var applied [2][]string
	for i := range 2 {
		keys := botKeys(w.srv[i])
		tab := checkReplay(t, rc, keys, w.group[i])
		if tab != nil && len(tab.Seats) != 4 {
			t.Errorf("bot %d: %d seats, want two people and two robots", i+1, len(tab.Seats))
		}
		checkDelivered(t, x, w.srv[i], rc, w.group[i])
		applied[i] = rc.ZRange(t.Context(), keys+"t:{"+group+"}:upd", 0, -1).Val()
		if n := rc.LLen(t.Context(), keys+"res:{"+group+"}:hist").Val(); n != 1 {
			t.Errorf("bot %d: %d results in the group's history, want its one game", i+1, n)
		}
		for _, u := range w.people[i] {
			if ptr := rc.Get(t.Context(), keys+"ptr:{user:"+strconv.FormatInt(u.ID(), 10)+"}").Val(); ptr != group {
				t.Errorf("bot %d: %s's table pointer %q, want %s", i+1, u.User().FirstName, ptr, group)
			}
		}
		explain429(t, w.srv[i])
	}
	shared := 0
	for _, id := range applied[0] {
		if slices.Contains(applied[1], id) {
			shared++
		}
	}
	if shared == 0 {
		t.Errorf("the bots' applied update ids %v and %v do not overlap: the test lost its point", applied[0], applied[1])
	}
	prefixes := []string{botKeys(w.srv[0]), botKeys(w.srv[1])}
	perBot := map[string]int{}
	for _, k := range allKeys(t, rc) {
		owner := ""
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				owner = p
			}
		}
		switch {
		case owner != "":
			perBot[owner]++
		case k != keyBase+"legacy":
			t.Errorf("key %s belongs to neither bot", k)
		}
	}
	if perBot[prefixes[0]] == 0 || perBot[prefixes[1]] == 0 {
		t.Errorf("keys per bot: %v", perBot)
	}
	for i, p := range procs {
		if p.exited() {
			t.Errorf("bot %d exited on its own:\n%s", i+1, p.out.String())
		}
		if l := p.out.String(); strings.Contains(l, "panic") || strings.Contains(l, "DATA RACE") {
			t.Errorf("bot %d reported a problem:\n%s", i+1, l)
		}
	}
	t.Logf("keys per bot %v; %d of the %d and %d applied update ids are the same numbers", perBot, shared, len(applied[0]), len(applied[1]))
}

// allKeys lists every key of a server the test owns.
func allKeys(t *testing.T, rc *redis.Client) []string {
	t.Helper()
	var keys []string
	iter := rc.Scan(context.Background(), 0, "*", 1000).Iterator()
	for iter.Next(context.Background()) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

// TestOldLayoutCarriedOver starts a bot on a Redis that holds the old
// layout, every key directly under "tc:", as versions before per-bot keys
// wrote it: a finished game's result and a game in progress. The data is
// made by a bot process that plays one game to the end and is SIGKILLed in
// the middle of the next; then its keys are renamed from tc:<bot id>: to
// tc: — the old version used the very same key names under the bare
// prefix — and the migration marker is removed. A new bot process must
// carry the keys over, finish the interrupted game (its log replayed from
// the seed gives the stored state), and list both games in /history.
func TestOldLayoutCarriedOver(t *testing.T) {
	t.Parallel()
	x := texts(t)
	ctx := t.Context()
	rs := redistest.Start(t)
	rc := rs.Client(t)
	srv := newFake(t)
	env := botEnv(srv.URL, rs.URL())
	env["LOG_LEVEL"] = "info" // the migration's report
	p := startBot(t, env)
	anna := srv.NewUser("Аня")
	if err := greet(anna); err != nil {
		t.Fatal(err)
	}
	group := srv.NewGroup("Старая кухня", anna)
	id := strconv.FormatInt(group.ID(), 10)
	keys := botKeys(srv)
	countWon := func() int {
		n := 0
		for _, m := range group.Messages() {
			if x.Won()(m) {
				n++
			}
		}
		return n
	}
	if err := openTable(x, srv, group, anna, nil, 3); err != nil {
		t.Fatalf("%v\n%s", err, p.out.String())
	}
	if err := srv.WaitFor(3*slow, func() bool { return countWon() == 1 }); err != nil {
		t.Fatalf("the first game did not end: %v\n%s", err, p.out.String())
	}
	if err := openTable(x, srv, group, anna, nil, 3); err != nil {
		t.Fatalf("%v\n%s", err, p.out.String())
	}
	err := srv.WaitFor(slow, func() bool {
		tab, err := loadTable(ctx, rc, keys, id)
		return err == nil && len(tab.Log) >= 10
	})
	if err != nil || countWon() != 1 {
		t.Fatalf("the second game did not get going (%v, %d finals)\n%s", err, countWon(), p.out.String())
	}
	p.kill()
	before, err := loadTable(ctx, rc, keys, id)
	if err != nil {
		t.Fatal(err)
	}

	// Back to the old layout. A queue's keys carry the prefix in their
	// hash tag too (tc:<id>:wake:held{tc:<id>:wake}).
	renamed := 0
	for _, k := range allKeys(t, rc) {
		if rest, ok := strings.CutPrefix(k, keys); ok {
			if err := rc.Rename(ctx, k, keyBase+strings.ReplaceAll(rest, "{"+keys, "{"+keyBase)).Err(); err != nil {
				t.Fatal(err)
			}
			renamed++
		}
	}
	if err := rc.Del(ctx, keyBase+"legacy").Err(); err != nil {
		t.Fatal(err)
	}
	if n := rc.LLen(ctx, keyBase+"res:{"+id+"}:hist").Val(); n != 1 || renamed < 10 {
		t.Fatalf("old layout: %d keys, %d results in the history", renamed, n)
	}

	p = startBot(t, env)
	if err := srv.WaitFor(3*slow, func() bool { return countWon() == 2 }); err != nil {
		t.Fatalf("the interrupted game did not end: %v\n%s", err, p.out.String())
	}
	tab := checkReplay(t, rc, keys, group)
	if tab != nil && (tab.Seed != before.Seed || len(tab.Log) <= len(before.Log)) {
		t.Errorf("a different game ended: seed %d with %d moves, the interrupted one was seed %d with %d",
			tab.Seed, len(tab.Log), before.Seed, len(before.Log))
	}
	anna.Send(group, "/history@"+srv.Bot().Username)
	hist, err := group.WaitMessage(slow, bottest.Contains(x.Shown("history.title")))
	if err != nil {
		t.Fatalf("no /history: %v\n%s", err, p.out.String())
	}
	// One line per game names it (a legend of marks may follow the list).
	if n := strings.Count(hist.Text, " · "+x.Shown("trickchef.title")+" — "); n != 2 {
		t.Errorf("/history lists %d games, want the old one and the continued one:\n%s", n, hist.Text)
	}
	for _, k := range allKeys(t, rc) {
		if !strings.HasPrefix(k, keys) && k != keyBase+"legacy" {
			t.Errorf("key %s was not carried over", k)
		}
	}
	if !strings.Contains(p.out.String(), "keys of the old layout carried over") {
		t.Errorf("the migration was not logged:\n%s", p.out.String())
	}
	if l := p.out.String(); strings.Contains(l, "panic") || strings.Contains(l, "DATA RACE") {
		t.Errorf("the bot reported a problem:\n%s", l)
	}
}

// TestMainRefusesAnotherBotsDataDir runs the process with the embedded
// store twice over one DATA_DIR: as one bot, which stops cleanly, then
// with another token, whose getMe names another bot: it must refuse the
// directory rather than serve the first bot's tables.
func TestMainRefusesAnotherBotsDataDir(t *testing.T) {
	dir := t.TempDir()
	// runAs runs a bot until it polls for updates (it has started and
	// claimed DATA_DIR), or until d; a wait for a state, not a time, so a
	// loaded machine cannot cut the first bot short before it starts.
	runAs := func(id int64, token string, d time.Duration) (int, string) {
		ctx, cancel := context.WithTimeout(t.Context(), d)
		defer cancel()
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, method string) {
			w.Header().Set("Content-Type", "application/json")
			switch method {
			case "getMe":
				fmt.Fprintf(w, `{"ok":true,"result":{"id":%d,"is_bot":true,"first_name":"Chef","username":"chef_%d_bot"}}`, id, id)
			case "getUpdates":
				cancel()
				fmt.Fprint(w, `{"ok":true,"result":[]}`)
			default:
				fmt.Fprint(w, `{"ok":true,"result":true}`)
			}
		})
		env := map[string]string{"TELEGRAM_TOKEN": token, "TELEGRAM_API_URL": api.URL, "DATA_DIR": dir,
			"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0", "LOG_LEVEL": "warn"}
		var stderr syncBuffer
		return Main(ctx, nil, envOf(env), &stderr), stderr.String()
	}
	if code, out := runAs(123456, bottest.Token, time.Minute); code != 0 {
		t.Fatalf("first bot: exit code %d\n%s", code, out)
	}
	code, out := runAs(654321, secondToken, 20*time.Second)
	if code != 1 || !strings.Contains(out, "another bot") || !strings.Contains(out, "123456") {
		t.Errorf("second bot over the first one's DATA_DIR: exit code %d\n%s", code, out)
	}
	if code, out := runAs(123456, bottest.Token, time.Minute); code != 0 {
		t.Errorf("first bot again: exit code %d\n%s", code, out)
	}
}
