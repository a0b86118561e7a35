package pace

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestSmoke plays a few fast moves at one table through the fake Bot API
// and checks the tool counted them, so it keeps building and measuring.
func TestSmoke(t *testing.T) {
	res, err := run(t.Context(), config{
		Game: "trickchef", Tables: 1, People: 4, Pace: 40 * time.Millisecond, Moves: 5, Seed: 1,
		TurnTimeout: 10 * time.Minute, Timeout: 2 * time.Minute, RedisURL: redistest.URL(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves < 5 || res.Presses < 5 {
		t.Errorf("moves %d, presses %d; want at least 5", res.Moves, res.Presses)
	}
	if res.Calls.Private.Send == 0 || res.Calls.Group.Edit == 0 || res.Calls.Answers < res.Presses {
		t.Errorf("calls not counted: %+v", res.Calls)
	}
	if res.PerMove.Limited <= 0 {
		t.Errorf("calls per move %+v", res.PerMove)
	}
	if res.PromptN == 0 || res.TableN == 0 {
		t.Errorf("latency samples: %d prompts, %d table draws", res.PromptN, res.TableN)
	}
	if res.Refused+res.PressErrors != 0 || res.Unsettled != 0 {
		t.Errorf("refused %d, failed %d, unsettled %d", res.Refused, res.PressErrors, res.Unsettled)
	}
	var out bytes.Buffer
	printHeader(&out)
	printRow(&out, res)
	printGame(&out, res)
	if strings.Count(out.String(), "\n") != 9 {
		t.Errorf("report:\n%s", out.String())
	}
}

func TestLatencies(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	presses := []press{{at: at(1000), answered: at(1010)}, {at: at(3000), answered: at(3005)}}
	// The first prompt (the game's start) has no move before it.
	prompts := []time.Time{at(0), at(1100), at(3400)}
	if got, want := promptLatencies(presses, prompts), []time.Duration{100 * time.Millisecond, 400 * time.Millisecond}; !slices.Equal(got, want) {
		t.Errorf("prompt latencies %v, want %v", got, want)
	}
	// A draw before the answer may show the state before the move.
	draws := []time.Time{at(1005), at(2500), at(6000)}
	if got, want := tableLatencies(presses, draws), []time.Duration{1500 * time.Millisecond, 3000 * time.Millisecond}; !slices.Equal(got, want) {
		t.Errorf("table latencies %v, want %v", got, want)
	}
	if s := spreadOf([]float64{3, 1, 2, 10}); s.SlowestMs != 10 || s.MedianMs != 3 {
		t.Errorf("spread %+v", s)
	}
}

func TestCountCalls(t *testing.T) {
	t0 := time.Unix(1000, 0)
	calls := []telegramtest.Call{
		{Time: t0, Method: "sendMessage", ChatID: 5, OK: true}, // before the window
		{Time: t0.Add(time.Second), Method: "sendMessage", ChatID: 5, OK: true},
		{Time: t0.Add(time.Second), Method: "editMessageText", ChatID: -100, OK: true},
		{Time: t0.Add(time.Second), Method: "editMessageText", ChatID: -100, ErrorCode: 400},
		{Time: t0.Add(time.Second), Method: "deleteMessage", ChatID: 5, OK: true},
		{Time: t0.Add(time.Second), Method: "sendMessage", ChatID: -100, ErrorCode: 429},
		{Time: t0.Add(time.Second), Method: "answerCallbackQuery", OK: true},
		{Time: t0.Add(time.Second), Method: "getUpdates", OK: true},
		{Time: t0.Add(time.Second), Method: "sendMessage", ChatID: -100, OK: true, Ephemeral: true},
		{Time: t0.Add(time.Second), Method: "editEphemeralMessageText", ChatID: -100, OK: true, Ephemeral: true},
		{Time: t0.Add(time.Second), Method: "editEphemeralMessageReplyMarkup", ChatID: -100, OK: true, Ephemeral: true},
		{Time: t0.Add(time.Second), Method: "deleteEphemeralMessage", ChatID: -100, OK: true, Ephemeral: true},
		{Time: t0.Add(time.Second), Method: "editEphemeralMessageText", ChatID: -100, ErrorCode: 429, Ephemeral: true},
	}
	c := countCalls(calls, t0.Add(time.Millisecond), t0.Add(time.Minute))
	want := callCounts{Group: kindCalls{Send: 1, Edit: 4, Delete: 1}, Ephemeral: kindCalls{Send: 1, Edit: 2, Delete: 1},
		Private: kindCalls{Send: 1, Delete: 1}, Answers: 1, TooMany: 2}
	if c != want {
		t.Errorf("counted %+v, want %+v", c, want)
	}
	if p := c.perMove(2); p.Limited != 4 || p.Group.Edit != 2 || p.Ephemeral.Edit != 1 || p.Answers != 0.5 {
		t.Errorf("per move %+v", p)
	}
	if n := telegramtest.Peak(calls, -100, time.Minute); n != 6 {
		t.Errorf("peak %d, want 6 (the 429s are not counted)", n)
	}
}

// TestGroupHands plays a few fast moves at one table with -hands group:
// everyone opened their hand in the group once and moved from it, the
// ephemeral calls were counted (in the group's too), and Telegram's
// limits were kept.
func TestGroupHands(t *testing.T) {
	res, err := run(t.Context(), config{
		Game: "trickchef", Tables: 1, People: 4, Pace: 40 * time.Millisecond, Moves: 6, Seed: 1,
		TurnTimeout: 10 * time.Minute, Timeout: 2 * time.Minute, RedisURL: redistest.URL(t), GroupHands: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hands != "group" || res.Moves < 6 || res.Presses < 6 || res.AutoMoves != 0 {
		t.Errorf("hands %q: moves %d (%d by the bot), presses %d", res.Hands, res.Moves, res.AutoMoves, res.Presses)
	}
	if res.HandOpens < 4 {
		t.Errorf("«Мои карты» answered %d times, want at least once a person", res.HandOpens)
	}
	c := res.Calls
	if c.Ephemeral.Send < 4 || c.Ephemeral.Edit == 0 {
		t.Errorf("ephemeral calls not counted: %+v", c.Ephemeral)
	}
	if c.Group.Send < c.Ephemeral.Send || c.Group.Edit < c.Ephemeral.Edit+1 || c.Group.Delete < c.Ephemeral.Delete {
		t.Errorf("group %+v lacks its ephemeral calls %+v or the table's edits", c.Group, c.Ephemeral)
	}
	if c.TooMany != 0 || res.GroupPeak > 20 {
		t.Errorf("%d answers 429, at most %d group calls a minute", c.TooMany, res.GroupPeak)
	}
	if res.PerMove.Ephemeral.Edit <= 0 || res.PromptN == 0 {
		t.Errorf("per move %+v, %d prompt samples", res.PerMove, res.PromptN)
	}
	if res.Refused+res.PressErrors != 0 || res.Unsettled != 0 {
		t.Errorf("refused %d, failed %d, unsettled %d", res.Refused, res.PressErrors, res.Unsettled)
	}
	var out bytes.Buffer
	printGame(&out, res)
	printRow(&out, res)
	if !strings.Contains(out.String(), "ephemeral") {
		t.Errorf("report does not show the ephemeral calls:\n%s", out.String())
	}
}

// TestPages plays a few moves at one table with every page open, then the
// same in the chat: the moves went through the pages (no button pressed
// in a chat but «start»), and the private chats cost far less per move.
func TestPages(t *testing.T) {
	play := func(pages bool) result {
		t.Helper()
		res, err := run(t.Context(), config{
			Game: "trickchef", Tables: 1, People: 4, Pace: 40 * time.Millisecond, Moves: 8, Seed: 1,
			TurnTimeout: 10 * time.Minute, Timeout: 2 * time.Minute, RedisURL: redistest.URL(t), Pages: pages,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Moves < 8 || res.Presses < 8 || res.Refused+res.PressErrors != 0 {
			t.Fatalf("pages %v: moves %d, presses %d, refused %d, failed %d", pages, res.Moves, res.Presses, res.Refused, res.PressErrors)
		}
		return res
	}
	web, chat := play(true), play(false)
	if !web.Pages || web.Calls.Answers > 1 {
		t.Errorf("with pages: %d callback answers, want only «start»'s", web.Calls.Answers)
	}
	if web.PromptN == 0 || web.AnswerMaxms <= 0 {
		t.Errorf("with pages: %d prompts, act latency %.1f ms", web.PromptN, web.AnswerMaxms)
	}
	private := func(r result) float64 { p := r.PerMove.Private; return p.Send + p.Edit + p.Delete }
	if w, c := private(web), private(chat); w > c/2 {
		t.Errorf("private calls per move: %.2f with pages, %.2f without; want at most half", w, c)
	}
}
