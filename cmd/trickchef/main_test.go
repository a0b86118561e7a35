package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is an io.Writer safe for the goroutines of Main.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeAPI is a Bot API server whose answer to each method the test picks.
// It records the methods called.
type fakeAPI struct {
	*httptest.Server
	mu      sync.Mutex
	methods []string
}

func newFakeAPI(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, method string)) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		method := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		f.mu.Lock()
		f.methods = append(f.methods, method)
		f.mu.Unlock()
		answer(w, r, method)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.methods...)
}

// garbage500 answers like a broken proxy: HTTP 500, not JSON, and it echoes
// the request path (which holds the token) to tempt a careless logger.
func garbage500(w http.ResponseWriter, r *http.Request, _ string) {
	w.WriteHeader(http.StatusInternalServerError)
	fmt.Fprintf(w, "<html><body>500 Internal Server Error at %s</body></html>", r.URL.Path)
}

func TestMainMissingToken(t *testing.T) {
	var stderr syncBuffer
	code := Main(t.Context(), nil, envOf(map[string]string{"DATA_DIR": t.TempDir()}), &stderr)
	if code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	out := stderr.String()
	for _, want := range []string{"configuration problem", "TELEGRAM_TOKEN", "@BotFather"} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
}

func TestMainConfigProblemsAllReported(t *testing.T) {
	var stderr syncBuffer
	env := map[string]string{"TELEGRAM_TOKEN": testToken, "TURN_TIMEOUT": "1", "DEFAULT_LANG": "xx"}
	if code := Main(t.Context(), nil, envOf(env), &stderr); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	out := stderr.String()
	for _, want := range []string{"TURN_TIMEOUT", "DEFAULT_LANG"} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, testSecret) {
		t.Errorf("stderr reveals the token:\n%s", out)
	}
}

func TestMainHelp(t *testing.T) {
	var stderr syncBuffer
	if code := Main(t.Context(), []string{"-h"}, envOf(nil), &stderr); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if !strings.Contains(stderr.String(), "-token") {
		t.Errorf("no usage printed:\n%s", stderr.String())
	}
}

func TestMainBadFlag(t *testing.T) {
	var stderr syncBuffer
	if code := Main(t.Context(), []string{"-no-such-flag"}, envOf(nil), &stderr); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
}

func TestMainBadFlagHidesToken(t *testing.T) {
	var stderr syncBuffer
	Main(t.Context(), []string{"-no-such-flag"}, envOf(withToken(nil)), &stderr)
	if strings.Contains(stderr.String(), testSecret) {
		t.Errorf("stderr reveals the token:\n%s", stderr.String())
	}
}

// TestMainTokenNotLoggedWhenGetMeFails runs the whole program against a
// Bot API that answers garbage, with debug logging on: it must give up by
// itself, with a non-zero code, without ever writing the token's secret.
func TestMainTokenNotLoggedWhenGetMeFails(t *testing.T) {
	api := newFakeAPI(t, garbage500)
	env := map[string]string{
		"TELEGRAM_TOKEN":   testToken,
		"TELEGRAM_API_URL": api.URL,
		"REDIS_URL":        "",
		"DATA_DIR":         t.TempDir(),
		"LOG_LEVEL":        "debug",
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var stderr syncBuffer
	code := Main(ctx, nil, envOf(env), &stderr)
	out := stderr.String()
	if code == 0 {
		t.Errorf("exit code 0, want non-zero")
	}
	if ctx.Err() != nil {
		t.Errorf("Main ran until the test's deadline instead of failing on its own")
	}
	if calls := api.called(); len(calls) == 0 || calls[0] != "getMe" {
		t.Errorf("API calls %v, want getMe first", calls)
	}
	if !strings.Contains(out, "getMe") {
		t.Errorf("stderr does not say what failed:\n%s", out)
	}
	if strings.Contains(out, testSecret) {
		t.Errorf("stderr reveals the token:\n%s", out)
	}
}

// TestMainTokenNotLoggedWhenPollingFails gets past start-up, then every
// getUpdates fails with garbage: the poller keeps retrying and logging
// until the context ends, and none of that output holds the token.
func TestMainTokenNotLoggedWhenPollingFails(t *testing.T) {
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, method string) {
		w.Header().Set("Content-Type", "application/json")
		switch method {
		case "getMe":
			fmt.Fprint(w, `{"ok":true,"result":{"id":123456,"is_bot":true,"first_name":"Chef","username":"trickchef_test_bot"}}`)
		case "getUpdates":
			garbage500(w, r, method)
		default:
			fmt.Fprint(w, `{"ok":true,"result":true}`)
		}
	})
	env := map[string]string{
		"TELEGRAM_TOKEN":   testToken,
		"TELEGRAM_API_URL": api.URL,
		"DATA_DIR":         t.TempDir(),
		"OPS_ADDR":         "127.0.0.1:0",
		"LOG_LEVEL":        "debug",
	}
	ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
	defer cancel()
	var stderr syncBuffer
	code := Main(ctx, nil, envOf(env), &stderr)
	out := stderr.String()
	if code != 0 {
		t.Errorf("exit code %d after a clean stop, want 0:\n%s", code, out)
	}
	polls := 0
	for _, m := range api.called() {
		if m == "getUpdates" {
			polls++
		}
	}
	if polls == 0 {
		t.Fatalf("never polled; API calls %v\n%s", api.called(), out)
	}
	if !strings.Contains(out, "getUpdates failed") {
		t.Errorf("polling failures not logged:\n%s", out)
	}
	if strings.Contains(out, testSecret) {
		t.Errorf("stderr reveals the token:\n%s", out)
	}
}

// TestMainStoppedWhileStarting: a stop asked for (a signal) while the
// process still starts — here while Telegram has not answered getMe — is
// a clean stop: exit code 0 and no error logged.
func TestMainStoppedWhileStarting(t *testing.T) {
	asked := make(chan struct{}, 1)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, method string) {
		select {
		case asked <- struct{}{}:
		default:
		}
		<-r.Context().Done() // Telegram never answers
	})
	env := map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_API_URL": api.URL, "DATA_DIR": t.TempDir(), "LOG_LEVEL": "info"}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-asked
		cancel()
	}()
	var stderr syncBuffer
	if code := Main(ctx, nil, envOf(env), &stderr); code != 0 || strings.Contains(stderr.String(), `"level":"error"`) {
		t.Errorf("exit code %d, want 0 and no error:\n%s", code, stderr.String())
	}
}
