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
	os.Exit(Main(ctx, os.Args[1:], os.Getenv, os.Stderr))
}
