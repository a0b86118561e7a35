// Command trickchef runs the Telegram bot: long polling by default, or a
// webhook server when WEBHOOK_URL is set. Configuration comes from the
// environment; flags of the same meaning override it.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := os.Stderr // the bot's log
	if len(os.Args) > 1 && os.Args[1] == deadLettersCommand {
		out = os.Stdout // what the command shows
	}
	code := Main(ctx, os.Args[1:], os.Getenv, out)
	stop()
	os.Exit(code)
}
