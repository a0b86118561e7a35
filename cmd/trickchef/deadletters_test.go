package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestDeadLettersCommand runs the bot (Main, Redis, the fake Bot API) and,
// beside it, `trickchef deadletters` (Main too, the same environment). The
// group's table record is broken by hand (a key of the wrong type), so
// every update at that table fails: a press there is tried its five
// attempts, then it is a dead letter and the press is answered «не вышло».
// `list` shows it (id, chat, kind, reason), `show` its update; with the
// record mended, `requeue` puts it back and the running bot applies it
// (the person is seated); a command given up the same way is removed by
// `drop`. With the embedded store, the command says the running bot holds
// the file.
func TestDeadLettersCommand(t *testing.T) {
	t.Run("Redis", func(t *testing.T) {
		t.Parallel()
		rs := redistest.Start(t)
		p := startMain(t, map[string]string{"REDIS_URL": rs.URL()})
		srv, x := p.srv, texts(t)
		env := map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_API_URL": srv.URL, "REDIS_URL": rs.URL()}
		cli := func(args ...string) (int, string) {
			var out syncBuffer
			code := Main(t.Context(), append([]string{"deadletters"}, args...), func(k string) string { return env[k] }, &out)
			return code, out.String()
		}
		ann, bob := srv.NewUser("Аня"), srv.NewUser("Борис")
		for _, u := range []*telegramtest.User{ann, bob} {
			u.Start("")
		}
		group := srv.NewGroup("Кухня", ann, bob)
		ann.Send(group, "/newgame@"+srv.Bot().Username+" trickchef")
		lobby, err := group.WaitMessage(30*time.Second, bottest.HasButton(x.T("lobby.join_button")))
		if err != nil {
			t.Fatalf("no lobby: %v\n%s", err, p.stderr.String())
		}

		// The record, broken by hand: a string where the bot keeps a hash.
		c := rs.Client(t)
		ctx := t.Context()
		rec := "tc:" + strconv.FormatInt(srv.Bot().ID, 10) + ":t:{" + strconv.FormatInt(group.ID(), 10) + "}:rec"
		saved, err := c.HGetAll(ctx, rec).Result()
		if err != nil || len(saved) == 0 {
			t.Fatalf("the table record %s: %v %v", rec, saved, err)
		}
		breakIt := func() {
			t.Helper()
			if err := c.Del(ctx, rec).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.Set(ctx, rec, "broken by hand", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		mend := func() {
			t.Helper()
			if err := c.Del(ctx, rec).Err(); err != nil {
				t.Fatal(err)
			}
			if err := c.HSet(ctx, rec, saved).Err(); err != nil {
				t.Fatal(err)
			}
		}
		breakIt()
		pressed := time.Now()
		q, err := bob.PressAsync(lobby, x.T("lobby.join_button"))
		if err != nil {
			t.Fatal(err)
		}
		answer, err := q.Wait(20 * time.Second)
		if err != nil || answer.Text != x.T("error.given_up") {
			t.Fatalf("the press given up was answered %+v (%v), want %q\n%s", answer, err, x.T("error.given_up"), p.stderr.String())
		}
		t.Logf("the press was given up and answered %v after it was made", time.Since(pressed).Round(time.Millisecond))

		code, out := cli("list")
		t.Logf("trickchef deadletters list:\n%s", out)
		chat := strconv.FormatInt(group.ID(), 10)
		var id string
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 3 && f[1] == chat && f[2] == "press" && strings.Contains(line, "attempt 5 of 5") {
				id = f[0]
			}
		}
		if code != 0 || id == "" {
			t.Fatalf("list (exit %d) does not show the press given up:\n%s", code, out)
		}
		if code, out := cli("show", id); code != 0 || !strings.Contains(out, `"callback_query"`) || !strings.Contains(out, `"update_id": `+id) {
			t.Errorf("show %s (exit %d):\n%s", id, code, out)
		}
		if code, out := cli("show", "1"); code != 1 || !strings.Contains(out, "no dead letter of update 1") {
			t.Errorf("show of no dead letter (exit %d):\n%s", code, out)
		}

		// Mended, put back: the running bot applies it.
		mend()
		if code, out := cli("requeue", id); code != 0 {
			t.Fatalf("requeue %s (exit %d):\n%s", id, code, out)
		}
		if _, err := group.WaitMessage(30*time.Second, func(m *telegramtest.Message) bool {
			return m.ID == lobby.ID && strings.Contains(m.Text, "Борис")
		}); err != nil {
			t.Fatalf("the press put back was not applied (Борис not seated): %v\n%s", err, p.stderr.String())
		}
		if code, out := cli("list"); code != 0 || !strings.Contains(out, "no dead letters") {
			t.Errorf("list after the requeue (exit %d):\n%s", code, out)
		}

		// A command given up, dropped.
		breakIt()
		ann.Send(group, "/table@"+srv.Bot().Username)
		var cmd string
		if err := srv.WaitFor(30*time.Second, func() bool {
			_, out := cli("list")
			for _, line := range strings.Split(out, "\n") {
				if f := strings.Fields(line); len(f) > 3 && f[2] == "command" {
					cmd = f[0]
				}
			}
			return cmd != ""
		}); err != nil {
			t.Fatalf("the command was not given up: %v", err)
		}
		mend()
		if code, out := cli("drop", cmd); code != 0 || !strings.Contains(out, "dropped") {
			t.Fatalf("drop %s (exit %d):\n%s", cmd, code, out)
		}
		if code, out := cli("list"); code != 0 || !strings.Contains(out, "no dead letters") {
			t.Errorf("list after the drop (exit %d):\n%s", code, out)
		}
		if code, out := cli("drop", cmd); code != 1 {
			t.Errorf("a second drop (exit %d):\n%s", code, out)
		}
		p.stop(t)
	})

	t.Run("the bot holds the embedded store", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		p := startMain(t, map[string]string{"DATA_DIR": dir})
		u := p.srv.NewUser("Аня")
		u.Start("")
		if _, err := u.PrivateChat().WaitMessage(10*time.Second, bottest.Contains(texts(t).Shown("start.greeting"))); err != nil {
			t.Fatalf("the bot does not run: %v", err)
		}
		env := map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_API_URL": p.srv.URL, "DATA_DIR": dir}
		var out syncBuffer
		code := Main(t.Context(), []string{"deadletters", "list"}, func(k string) string { return env[k] }, &out)
		if code != 1 || !strings.Contains(out.String(), "held by a running bot") {
			t.Errorf("deadletters list beside a running bot on the embedded store: exit %d\n%s", code, out.String())
		}
		p.stop(t)
		var after syncBuffer
		if code := Main(t.Context(), []string{"deadletters", "list"}, func(k string) string { return env[k] }, &after); code != 0 ||
			!strings.Contains(after.String(), "no dead letters") {
			t.Errorf("deadletters list once the bot stopped: exit %d\n%s", code, after.String())
		}
	})
}
