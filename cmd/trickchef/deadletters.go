package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/ingest"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/store"
)

// The dead letters are the updates the bot gave up on (their handler
// failed every attempt: docs/faults.md). `trickchef deadletters` lets a
// person look at them and decide, with the bot's own configuration (the
// same environment, flags after the command):
//
//	trickchef deadletters list             id, chat, kind, age and reason of each, newest first
//	trickchef deadletters show <id>        one, its update as pretty JSON
//	trickchef deadletters requeue <id>     back into its chat's inbox: the running bot applies it
//	trickchef deadletters drop <id>        deleted
//
// An id is the update's id (Telegram's update_id, unique per bot). With
// Redis the command works beside running bots. The embedded store is one
// process's file: while the bot runs, the command waits five seconds for
// it and then says so; stop the bot first.

// deadLettersCommand is the command's name on the command line.
const deadLettersCommand = "deadletters"

// deadLetterStore is what the command uses of the store.
type deadLetterStore interface {
	DeadLetters(ctx context.Context, n int) ([]store.DeadLetter, error)
	DeadLetterCount(ctx context.Context) (int64, error)
	Requeue(ctx context.Context, chat string, id int64, now time.Time) error
	DropDeadLetter(ctx context.Context, chat string, id int64) error
	ForgetAttempts(ctx context.Context, key string) error
	Close() error
}

const deadLettersUsage = `usage: trickchef deadletters list|show <id>|requeue <id>|drop <id> [flags]

  list          the dead letters, newest first: update id, chat, kind, age, reason
  show <id>     one of them: its chat, reason, when, and the update as JSON
  requeue <id>  put it back in its chat's inbox: the running bot applies it
                (its attempts start over)
  drop <id>     delete it

The store is the bot's, configured as the bot is (REDIS_URL or DATA_DIR;
TELEGRAM_TOKEN, whose getMe names the bot's keys); flags after the command
as the bot's.
With the embedded store, stop the bot first: its file is one process's.
`

// deadLetters runs `trickchef deadletters …` and returns the exit code.
func deadLetters(ctx context.Context, args []string, getenv func(string) string, out io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(out, deadLettersUsage)
		return 2
	}
	verb, args := args[0], args[1:]
	var id int64
	switch verb {
	case "list":
	case "show", "requeue", "drop":
		var err error
		if len(args) == 0 {
			fmt.Fprintf(out, "trickchef deadletters %s: which update? Give its id (from `trickchef deadletters list`)\n", verb)
			return 2
		}
		if id, err = strconv.ParseInt(args[0], 10, 64); err != nil {
			fmt.Fprintf(out, "trickchef deadletters %s: %q is not an update id (a number, from `trickchef deadletters list`)\n", verb, args[0])
			return 2
		}
		args = args[1:]
	case "-h", "-help", "--help", "help":
		fmt.Fprint(out, deadLettersUsage)
		return 0
	default:
		fmt.Fprintf(out, "trickchef deadletters: unknown command %q\n\n%s", verb, deadLettersUsage)
		return 2
	}
	cfg, err := parseConfig(args, getenv, out)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(out, "trickchef: configuration problem:\n%s\n", err)
		return 2
	}
	st, err := openDeadLetters(ctx, cfg, out)
	if err != nil {
		fmt.Fprintf(out, "trickchef deadletters: %s\n", strings.ReplaceAll(err.Error(), cfg.Token, "***"))
		return 1
	}
	defer st.Close()
	switch verb {
	case "list":
		err = listDeadLetters(ctx, st, out)
	case "show":
		err = showDeadLetter(ctx, st, id, out)
	case "requeue":
		err = requeueDeadLetter(ctx, st, id, out)
	case "drop":
		err = dropDeadLetter(ctx, st, id, out)
	}
	if err != nil {
		fmt.Fprintf(out, "trickchef deadletters %s: %v\n", verb, err)
		return 1
	}
	return 0
}

// openDeadLetters opens the bot's store as the bot does, without its
// start's checks and migration: its keys are named by the bot's id, which
// getMe says (as at the bot's start), or, when Telegram cannot be asked,
// the token's number, the same one.
func openDeadLetters(ctx context.Context, cfg config, out io.Writer) (deadLetterStore, error) {
	botID, err := botIDOf(ctx, cfg)
	if err != nil {
		digits, _, _ := strings.Cut(cfg.Token, ":")
		if botID, err = strconv.ParseInt(digits, 10, 64); err != nil {
			return nil, errors.New("TELEGRAM_TOKEN does not start with the bot's id")
		}
		fmt.Fprintf(out, "(getMe failed, so the bot's id is the token's: %d)\n", botID)
	}
	if cfg.RedisURL != "" {
		return store.DialRedis(ctx, cfg.RedisURL, store.BotPrefix(keyBase, botID), store.Config{})
	}
	path := filepath.Join(cfg.DataDir, "trickchef.db")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no embedded store at %s (DATA_DIR): %w", path, err)
	}
	b, err := store.OpenBolt(path, store.Config{})
	if errors.Is(err, store.ErrFileInUse) {
		return nil, fmt.Errorf("%s is held by a running bot (the embedded store is one process's file): stop the bot, then run this again", path)
	}
	if err != nil {
		return nil, err
	}
	if err := b.Own(strconv.FormatInt(botID, 10)); err != nil {
		b.Close()
		return nil, fmt.Errorf("DATA_DIR %s: %w", cfg.DataDir, err)
	}
	return b, nil
}

// botIDOf asks Telegram for the bot's id.
func botIDOf(ctx context.Context, cfg config) (int64, error) {
	tg, err := tgbot.New(cfg.Token, tgbot.WithServerURL(cfg.APIURL), tgbot.WithSkipGetMe())
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	me, err := tg.GetMe(ctx)
	if err != nil {
		return 0, err
	}
	return me.ID, nil
}

// allDeadLetters is every dead letter the store keeps (it keeps no more).
func allDeadLetters(ctx context.Context, st deadLetterStore) ([]store.DeadLetter, error) {
	return st.DeadLetters(ctx, store.DeadLettersPerChat*store.DeadLetterChats)
}

// findDeadLetter is the dead letter of update id.
func findDeadLetter(ctx context.Context, st deadLetterStore, id int64) (store.DeadLetter, error) {
	all, err := allDeadLetters(ctx, st)
	if err != nil {
		return store.DeadLetter{}, err
	}
	for _, d := range all {
		if d.Entry.ID == id {
			return d, nil
		}
	}
	return store.DeadLetter{}, fmt.Errorf("no dead letter of update %d (see `trickchef deadletters list`)", id)
}

// kindOf is a dead letter's kind of update: press, command or other.
func kindOf(d store.DeadLetter) string {
	var u models.Update
	if json.Unmarshal(d.Entry.Data, &u) != nil {
		return "unreadable"
	}
	return metrics.UpdateKind(&u)
}

func listDeadLetters(ctx context.Context, st deadLetterStore, out io.Writer) error {
	all, err := allDeadLetters(ctx, st)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		fmt.Fprintln(out, "no dead letters")
		return nil
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tCHAT\tKIND\tAGE\tREASON")
	for _, d := range all {
		reason, _, _ := strings.Cut(d.Reason, "\n")
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", d.Entry.ID, d.Chat, kindOf(d), age(d.At), reason)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d dead letters (kept %d days each, at most %d a chat, %d chats)\n",
		len(all), int(store.DeadLetterRetention.Hours()/24), store.DeadLettersPerChat, store.DeadLetterChats)
	return nil
}

// age is how long ago at was, to the second.
func age(at time.Time) string { return time.Since(at).Round(time.Second).String() }

func showDeadLetter(ctx context.Context, st deadLetterStore, id int64, out io.Writer) error {
	d, err := findDeadLetter(ctx, st, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "update:   %d\nchat:     %s\nkind:     %s\ngiven up: %s (%s ago)\nreason:   %s\n\n",
		d.Entry.ID, d.Chat, kindOf(d), d.At.UTC().Format(time.RFC3339), age(d.At), d.Reason)
	var pretty bytes.Buffer
	if json.Indent(&pretty, d.Entry.Data, "", "  ") != nil {
		fmt.Fprintf(out, "%q\n", d.Entry.Data) // not JSON: as it is
		return nil
	}
	fmt.Fprintln(out, pretty.String())
	return nil
}

func requeueDeadLetter(ctx context.Context, st deadLetterStore, id int64, out io.Writer) error {
	d, err := findDeadLetter(ctx, st, id)
	if err != nil {
		return err
	}
	// Its attempts start over (the bot forgot them when it gave up; a
	// count left behind would give it up again at once).
	if err := st.ForgetAttempts(ctx, ingest.AttemptKey(d.Chat)); err != nil {
		return err
	}
	if err := st.Requeue(ctx, d.Chat, id, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(out, "update %d is back in chat %s's inbox: a running bot applies it\n", id, d.Chat)
	return nil
}

func dropDeadLetter(ctx context.Context, st deadLetterStore, id int64, out io.Writer) error {
	d, err := findDeadLetter(ctx, st, id)
	if err != nil {
		return err
	}
	if err := st.DropDeadLetter(ctx, d.Chat, id); err != nil {
		return err
	}
	fmt.Fprintf(out, "update %d of chat %s dropped\n", id, d.Chat)
	return nil
}
