// Package pace is botbench's pace scenario: games played through the real
// bot at a human pace, and what Telegram would see of them (its Doc below
// says what is measured).
package pace

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/cmd/botbench/internal/bench"
)

// Scenario is botbench pace.
func Scenario() bench.Scenario {
	return bench.Scenario{
		Name:    "pace",
		Summary: "games at human pace through the fake Telegram (one, or many at once; -pages: played in «Стол»; -hands group: from the group): calls, limits, latency",
		Doc:     doc,
		Flags:   []string{"game", "tables", "people", "robots", "pace", "moves", "seed", "pages", "hands", "turn-timeout", "for", "redis"},
		Defaults: map[string]string{
			"game": "trickchef", "tables": "", "moves": "60", "turn-timeout": "10m", "for": "1h",
		},
		Run: runScenario,
	}
}

const doc = `
Games played through the real bot, against the fake Bot API server with
Telegram's rate limits on, with simulated people thinking at a human pace,
over a real Redis. It reports what Telegram would see: the calls per move by
method and chat kind, 429 answers, and how long a move takes to reach the
next player and the group.

One game, played to its end (without -tables; -moves stops it earlier):

	go run ./cmd/botbench pace -people 4 -pace 2s

Capacity: N tables of four people at once through one bot process, each
stopped after -moves applied moves, one row per N:

	go run ./cmd/botbench pace -tables 1,10,20,40,60 -moves 60

With -pages every person keeps the table's «Стол» page open and visible
(saying so every 25 s, as the page does) and plays through it (POST
/api/act of an act their page's state offers) instead of the chat's
buttons; the page server runs in this process:

	go run ./cmd/botbench pace -pages -tables 40,80,120 -moves 60

With -hands group (the default is -hands private) the bot offers the hand
in the group, and every person presses «Мои карты» under the group's
table once (again only if no hand came within 20 s), then plays only from
the hand the bot shows them there as an ephemeral message (seen by them
alone), never looking at their private chat (which the bot keeps quiet
once they played from the group):

	go run ./cmd/botbench pace -hands group -people 4 -pace 2s

What is measured, so runs compare:
  - calls: every Bot API call from the first Start press until every
    table's last change was delivered, by method and by chat kind (group,
    private); answerCallbackQuery apart (it is not rate-limited); calls
    refused with 429 are counted only as 429s. Per move = divided by the
    actions applied, from the tables' logs. The ephemeral calls (a
    sendMessage with ephemeral_message_parameters,
    editEphemeralMessageText and …ReplyMarkup, deleteEphemeralMessage)
    are the group's: they count against its 20 calls a minute, so they
    are in its figures, and also shown apart.
  - prompt latency: from a move's press to the moment the next player's
    private chat shows their new playable buttons (the fresh "your turn"
    message; an edit when the same player moves again). With -hands
    group: to the moment the next player's hand in the group (sent or
    edited) shows playable buttons, or their private chat if it shows
    the same prompt first (the bot tells a turn there when the hand in
    the group waits for the group's calls). With -pages: to the moment their
    page receives a state with something to press; a press's handling time is then the act request's latency.
  - table latency: from a move's press to the first edit of the group's
    message that reached Telegram after the bot answered the press (the
    answer follows the commit, and the table is drawn from the latest
    state).
  - per table: each table's p99; the slowest table's against the median
    table's shows how fairly the bot shares Telegram's global budget.
`

// runScenario runs botbench pace: one game to its end without -tables,
// else a row for each table count.
func runScenario(ctx context.Context, o bench.Options, out io.Writer) (any, error) {
	g, err := o.OneGame()
	if err != nil {
		return nil, err
	}
	var groupHands bool
	switch o.Hands {
	case "private":
	case "group":
		groupHands = true
		if o.Pages {
			return nil, bench.Usagef("-hands group and -pages: people play either from the group or through their pages, not both")
		}
	default:
		return nil, bench.Usagef(`-hands must be "private" or "group", not %q`, o.Hands)
	}
	cfg := config{
		Game: g.ID(), People: o.People, Robots: o.Robots, Pace: o.Pace, Seed: o.Seed,
		TurnTimeout: o.TurnTimeout, Timeout: o.For, RedisURL: o.Redis, Log: os.Stderr,
		Pages: o.Pages, GroupHands: groupHands,
	}
	if len(o.Tables) == 0 {
		cfg.Tables = 1
		if o.Given("moves") {
			cfg.Moves = o.Moves
		}
		res, err := run(ctx, cfg)
		if err != nil {
			return nil, err
		}
		printGame(out, res)
		return res, nil
	}
	cfg.Moves = o.Moves
	fmt.Fprintf(out, "%s, %d people + %d robots a table, %v a move (%v–%v), %s%s\n", cfg.Game, cfg.People, cfg.Robots,
		cfg.Pace, cfg.Pace/2, cfg.Pace*3/2, movesText(cfg.Moves), pagesText(cfg.Pages)+handsText(cfg.GroupHands))
	printHeader(out)
	var rows []result
	for _, n := range o.Tables {
		cfg.Tables = n
		res, err := run(ctx, cfg)
		if err != nil {
			// What was measured stays usable.
			return map[string]any{"rows": rows}, fmt.Errorf("%d tables: %w", n, err)
		}
		printRow(out, res)
		rows = append(rows, res)
	}
	return map[string]any{"rows": rows}, nil
}

func movesText(n int) string {
	if n == 0 {
		return "games played to the end"
	}
	return "tables stopped after " + strconv.Itoa(n) + " moves"
}

func pagesText(on bool) string {
	if on {
		return ", everyone playing through their open page"
	}
	return ""
}

func handsText(group bool) string {
	if group {
		return ", everyone playing from their hand in the group"
	}
	return ""
}

// printGame reports one game played to its end.
func printGame(w io.Writer, r result) {
	fmt.Fprintf(w, "%s, %d people + %d robots at %.1f s a move%s: %.0f s, %d moves (%d by the bot)\n",
		r.Game, r.People, r.Robots, r.PaceSeconds, handsText(r.Hands == "group"), r.Seconds, r.Moves, r.AutoMoves)
	fmt.Fprintf(w, "group chat: %d calls (%d of them ephemeral), at most %d in any 60 s (limit 20); private chats: %d calls; 429 answers: %d\n",
		r.Calls.Group.total(), r.Calls.Ephemeral.total(), r.GroupPeak, r.Calls.Private.total(), r.Calls.TooMany)
	printPerMove(w, r)
	fmt.Fprintf(w, "button presses: %d applied, %d refused; handled in p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		r.Presses, r.Refused, r.AnswerP50ms, r.AnswerP99ms, r.AnswerMaxms)
	fmt.Fprintf(w, "move → next player's prompt: p50 %.0f ms, p99 %.0f ms\n", r.PromptP50ms, r.PromptP99ms)
	if r.Hands == "group" {
		fmt.Fprintf(w, "prompts that reached the private chat first: %d of %d\n", r.ToldInPrivate, r.PromptN)
	}
	fmt.Fprintf(w, "move → group table showing it: p50 %.0f ms, p99 %.0f ms\n", r.TableP50ms, r.TableP99ms)
}

func printPerMove(w io.Writer, r result) {
	p := r.PerMove
	fmt.Fprintf(w, "calls per move: group send %.2f, edit %.2f, delete %.2f (of them ephemeral: send %.2f, edit %.2f, delete %.2f); "+
		"private send %.2f, edit %.2f, delete %.2f; rate-limited %.2f; answerCallbackQuery %.2f\n",
		p.Group.Send, p.Group.Edit, p.Group.Delete, p.Ephemeral.Send, p.Ephemeral.Edit, p.Ephemeral.Delete,
		p.Private.Send, p.Private.Edit, p.Private.Delete, p.Limited, p.Answers)
}

func printHeader(w io.Writer) {
	fmt.Fprintln(w, "                       calls per move                                      prompt (s)   table (s)    prompt p99 (s)          token")
	fmt.Fprintln(w, "tables  moves  group s/e/d     private s/e/d   limited  answers   429  p50   p99   p50   p99   slowest/median table  moves/s  peak calls/s")
}

func printRow(w io.Writer, r result) {
	p := r.PerMove
	sec := func(ms float64) float64 { return ms / 1000 }
	fmt.Fprintf(w, "%6d %6d  %.2f/%.2f/%.2f  %.2f/%.2f/%.2f  %7.2f  %7.2f %5d  %4.1f  %4.1f  %4.1f  %4.1f   %5.1f / %-4.1f        %6.1f  %5d",
		r.Tables, r.Moves, p.Group.Send, p.Group.Edit, p.Group.Delete, p.Private.Send, p.Private.Edit, p.Private.Delete,
		p.Limited, p.Answers, r.Calls.TooMany,
		sec(r.PromptP50ms), sec(r.PromptP99ms), sec(r.TableP50ms), sec(r.TableP99ms),
		sec(r.PromptTables.SlowestMs), sec(r.PromptTables.MedianMs), float64(r.Moves)/max(r.Seconds, 1e-9), r.TokenPeak)
	var notes []string
	if e := r.PerMove.Ephemeral; r.Calls.Ephemeral.total() > 0 {
		notes = append(notes, fmt.Sprintf("of the group's, ephemeral %.2f/%.2f/%.2f", e.Send, e.Edit, e.Delete))
	}
	if r.AutoMoves > 0 {
		notes = append(notes, fmt.Sprintf("%d moves by the bot", r.AutoMoves))
	}
	if r.Refused+r.PressErrors > 0 {
		notes = append(notes, fmt.Sprintf("%d presses refused, %d failed", r.Refused, r.PressErrors))
	}
	if r.Unsettled > 0 {
		notes = append(notes, fmt.Sprintf("%d tables still delivering", r.Unsettled))
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "  (%s)", strings.Join(notes, "; "))
	}
	fmt.Fprintln(w)
}
