package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/locales"
)

// deal prints the deals a reveal gives (package bot/deal): its
// commitment, then every deal of the game. -log is the game's file
// (<game>-<n>.json, sent to the players after the game): with it every
// round of the game is remade, the seats named by the players' names, and
// a v2 reveal (the server's secret alone) needs it. For a v1 reveal -log
// may also be the moves as the table record keeps them ("0:13 2:12!"), and
// without it only the first deal is told.
func runDeal(o *options, stdout, _ io.Writer) error {
	if o.reveal == "" {
		return errors.New("deal: -reveal is required (the word after 🔓)")
	}
	if o.lang != "ru" && o.lang != "en" {
		return fmt.Errorf("deal: -lang %q (ru or en)", o.lang)
	}
	cat, err := locales.New()
	if err != nil {
		return err
	}
	l := adapter.NewLoc(cat, o.lang)
	var (
		t   *record.Table
		log record.MoveLog
	)
	file, isFile, err := readGameFile(o.log)
	switch {
	case err != nil:
		return err
	case isFile:
		if t, err = file.Table(o.reveal); err != nil {
			return err
		}
		log = file.Moves
	default:
		if _, v2 := deal.SecretOf(o.reveal); v2 {
			return errors.New("deal: this reveal is the server's secret alone: give the game's file too (-log <game>-<n>.json)")
		}
		d, err := deal.Parse(o.reveal)
		if err != nil {
			return err
		}
		if o.log != "" {
			quoted, _ := json.Marshal(o.log)
			if err := json.Unmarshal(quoted, &log); err != nil {
				return fmt.Errorf("deal: -log: %w", err)
			}
		}
		t = d.Table()
		for i := range t.Seats {
			t.Seats[i].Name = l.T("review.deal_seat", "N", i+1) // a v1 reveal names no one
		}
	}
	g, err := gameByID(t.GameID)
	if err != nil {
		return err
	}
	deals, err := deal.TellTable(g, t, log, l)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "🔒 %s\n🔓 %s\n", deal.Commitment(o.reveal), o.reveal)
	if isFile {
		fmt.Fprintf(stdout, "✓ the SHA-256 of 🔓 starts with 🔒 (%s: %d moves)\n", file.Name(), len(file.Moves))
	}
	for _, text := range deals {
		fmt.Fprintf(stdout, "\n%s\n", text)
	}
	if !isFile && log == nil {
		fmt.Fprintf(stdout, "\n(%s)\n", l.T("review.deal_later"))
	}
	return nil
}

// readGameFile reads -log as a game's file when it names one (a path
// ending in .json, or an existing file); isFile is false for moves.
func readGameFile(arg string) (f deal.File, isFile bool, err error) {
	if arg == "" {
		return deal.File{}, false, nil
	}
	if _, statErr := os.Stat(arg); statErr != nil && !strings.HasSuffix(arg, ".json") {
		return deal.File{}, false, nil
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return deal.File{}, false, fmt.Errorf("deal: -log: %w", err)
	}
	f, err = deal.ReadFile(data)
	return f, err == nil, err
}
