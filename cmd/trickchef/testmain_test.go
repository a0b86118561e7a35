package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/trickchef/trickchef/store/redistest"
)

// childEnv set to 1 makes the test binary run as the bot itself, exactly as
// main does, so fault tests can start real bot processes (os.Args[0]) and
// SIGKILL them. The child gets its whole configuration from the
// environment; its own command line is empty.
const childEnv = "TRICKCHEF_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Main(ctx, nil, os.Getenv, os.Stderr)
		stop()
		os.Exit(code)
	}
	redistest.Main(m)
}
