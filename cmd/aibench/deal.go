package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/locales"
)

// deal prints the deals a reveal gives (package bot/deal): its
// commitment, then the first deal, and with -log (the game's moves as the
// table record keeps them, "0:13 2:12!") every later shuffle as it came.
func runDeal(o *options, stdout, _ io.Writer) error {
	if o.reveal == "" {
		return errors.New("deal: -reveal is required (the word after 🔓)")
	}
	d, err := deal.Parse(o.reveal)
	if err != nil {
		return err
	}
	g, err := gameByID(d.Game)
	if err != nil {
		return err
	}
	var log record.MoveLog
	if o.log != "" {
		quoted, err := json.Marshal(o.log)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(quoted, &log); err != nil {
			return fmt.Errorf("deal: -log: %w", err)
		}
	}
	cat, err := locales.New()
	if err != nil {
		return err
	}
	if o.lang != "ru" && o.lang != "en" {
		return fmt.Errorf("deal: -lang %q (ru or en)", o.lang)
	}
	deals, err := deal.Tell(g, d, log, adapter.NewLoc(cat, o.lang))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "🔒 %s\n🔓 %s\n", deal.Commitment(o.reveal), o.reveal)
	for _, text := range deals {
		fmt.Fprintf(stdout, "\n%s\n", text)
	}
	if log == nil {
		fmt.Fprintf(stdout, "\n(%s)\n", adapter.NewLoc(cat, o.lang).T("review.deal_later"))
	}
	return nil
}
