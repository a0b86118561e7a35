package main

import (
	"context"
	"net/http"
	"strings"
)

// tokenRefused is why the process stops when the Bot API answers 401: the
// token was revoked (@BotFather /revoke) or is wrong, and no retry can
// work until an operator puts the current one in.
type tokenRefused struct{ method string }

func (e *tokenRefused) Error() string {
	return "Telegram refuses the bot token (401 Unauthorized on " + e.method + "): it was revoked or is wrong; " +
		"put the bot's current token from @BotFather in TELEGRAM_TOKEN (or the file TELEGRAM_TOKEN_FILE names) and start again"
}

// tokenGuard is the transport of every Bot API call (the Telegram client's
// and the poller's): the first 401 stops the process through stop, with
// a tokenRefused as the cause, instead of each caller retrying for ever.
type tokenGuard struct {
	next http.RoundTripper
	stop context.CancelCauseFunc
}

func (g *tokenGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := g.next.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		// The method is the path's last part; the token, before it, is never shown.
		g.stop(&tokenRefused{method: r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]})
	}
	return resp, err
}
