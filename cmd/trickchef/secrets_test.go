package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/telegramtest"
)

// TestMainHelpShowsNoValue sets every variable the usage names (and every
// *_FILE) to a value of its own, then asks for -h: the usage names each
// variable and shows none of their values, so no token, webhook secret or
// Redis password reaches a terminal or a CI log.
func TestMainHelpShowsNoValue(t *testing.T) {
	var first syncBuffer
	Main(t.Context(), []string{"-h"}, envOf(nil), &first)
	vars := map[string]bool{}
	for _, v := range regexp.MustCompile(`\b[A-Z][A-Z_]{2,}\b`).FindAllString(first.String(), -1) {
		vars[strings.TrimSuffix(v, "_FILE")] = true
	}
	for _, want := range []string{"TELEGRAM_TOKEN", "TELEGRAM_API_URL", "REDIS_URL", "REDIS_ALLOW_EVICTION", "DATA_DIR", "TURN_TIMEOUT",
		"AI_DELAY", "AI_BUDGET", "REVIEW_WORKERS", "REDIS_PASSWORD", "DEFAULT_LANG", "TELEGRAM_RATE", "LOG_LEVEL", "WEBHOOK_URL", "WEBHOOK_SECRET", "LISTEN_ADDR",
		"OPS_ADDR", "WEBAPP_URL", "WEBAPP_SHORT_NAME", "INITDATA_MAX_AGE"} {
		if !vars[want] {
			t.Errorf("the usage does not name %s:\n%s", want, first.String())
		}
	}
	for _, v := range secretVars() {
		if !strings.Contains(first.String(), v+"_FILE") {
			t.Errorf("the usage does not offer %s_FILE", v)
		}
	}
	env := map[string]string{}
	for v := range vars {
		env[v] = "value-of-" + v
		env[v+"_FILE"] = "/run/secrets/value-of-" + v
	}
	env["TELEGRAM_TOKEN"] = testToken
	env["WEBHOOK_SECRET"] = hookSecret
	env["REDIS_URL"] = "redis://:redis_pw_value@h:6379/0"
	env["REDIS_PASSWORD"] = "redis_pw_value"
	var out syncBuffer
	if code := Main(t.Context(), []string{"-h"}, envOf(env), &out); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
	for _, leak := range []string{"value-of-", testSecret, hookSecret, "redis_pw_value"} {
		if strings.Contains(out.String(), leak) {
			t.Errorf("the usage shows %q from the environment:\n%s", leak, out.String())
		}
	}
}

// TestParseConfigSecretsFromFiles reads the token, the webhook secret and
// the Redis URL from the files *_FILE names (a trailing newline dropped);
// a file and a value at once, or a missing file, is a problem that never
// repeats the secret.
func TestParseConfigSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	token := write("token", testToken+"\n")
	secret := write("secret", hookSecret+"\r\n")
	redis := write("redis", "redis://:pw@h:6379/1")
	c, err := parseConfig(nil, envOf(map[string]string{
		"TELEGRAM_TOKEN_FILE": token, "WEBHOOK_SECRET_FILE": secret, "REDIS_URL_FILE": redis,
		"WEBHOOK_URL": "https://bot.example.org/hook",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != testToken || c.WebhookSecret != hookSecret || c.RedisURL != "redis://:pw@h:6379/1" {
		t.Errorf("read %q %q %q", c.Token, c.WebhookSecret, c.RedisURL)
	}
	c, err = parseConfig([]string{"-token", "7:zyxwvutsrqponmlkjihgfedcba"}, envOf(map[string]string{"TELEGRAM_TOKEN_FILE": token}), io.Discard)
	if err != nil || c.Token != "7:zyxwvutsrqponmlkjihgfedcba" {
		t.Errorf("the flag does not win over the file: %q %v", c.Token, err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"token both", map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_TOKEN_FILE": token}, "TELEGRAM_TOKEN_FILE"},
		{"token file missing", map[string]string{"TELEGRAM_TOKEN_FILE": filepath.Join(dir, "nope")}, "TELEGRAM_TOKEN_FILE"},
		{"secret both", map[string]string{"TELEGRAM_TOKEN": testToken, "WEBHOOK_URL": "https://bot.example.org/hook",
			"WEBHOOK_SECRET": hookSecret, "WEBHOOK_SECRET_FILE": secret}, "WEBHOOK_SECRET_FILE"},
		{"secret file missing", map[string]string{"TELEGRAM_TOKEN": testToken, "WEBHOOK_URL": "https://bot.example.org/hook",
			"WEBHOOK_SECRET_FILE": filepath.Join(dir, "nope")}, "WEBHOOK_SECRET_FILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig(nil, envOf(tc.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
			if strings.Contains(err.Error(), testSecret) || strings.Contains(err.Error(), hookSecret) {
				t.Errorf("the error repeats a secret: %v", err)
			}
		})
	}
}

// TestParseConfigRedisPassword: REDIS_PASSWORD (or the file
// REDIS_PASSWORD_FILE names, as a Docker secret) goes into REDIS_URL,
// percent-encoded, whatever its form — one server, a user of its own, a
// Cluster's or Sentinel's host list, options — so the secret holds the
// password alone. A URL with a password of its own, no URL at all, or the
// password and its file at once, is a problem that never repeats it.
func TestParseConfigRedisPassword(t *testing.T) {
	const pw = "s3cr/t@:x%"
	file := filepath.Join(t.TempDir(), "redis_password")
	if err := os.WriteFile(file, []byte(pw+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := map[string]string{"TELEGRAM_TOKEN": testToken, "REDIS_PASSWORD_FILE": file}
	with := func(kv ...string) map[string]string {
		env := maps.Clone(base)
		for i := 0; i+1 < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	const enc = "s3cr%2Ft%40%3Ax%25"
	for url, want := range map[string]string{
		"redis://redis:6379/0":                          "redis://:" + enc + "@redis:6379/0",
		"redis://bot@redis:6379":                        "redis://bot:" + enc + "@redis:6379",
		"rediss://redis:6380/2?dial_timeout=3s":         "rediss://:" + enc + "@redis:6380/2?dial_timeout=3s",
		"redis-cluster://h1:7000,h2:7001?pool_size=3":   "redis-cluster://:" + enc + "@h1:7000,h2:7001?pool_size=3",
		"redis-sentinel://s1:26379,s2:26379/mymaster/0": "redis-sentinel://:" + enc + "@s1:26379,s2:26379/mymaster/0",
	} {
		c, err := parseConfig(nil, envOf(with("REDIS_URL", url)), io.Discard)
		if err != nil || c.RedisURL != want {
			t.Errorf("REDIS_URL %s with the password: %q %v, want %q", url, c.RedisURL, err, want)
		}
	}
	c, err := parseConfig(nil, envOf(map[string]string{"TELEGRAM_TOKEN": testToken, "REDIS_URL": "redis://h:6379", "REDIS_PASSWORD": "plain"}), io.Discard)
	if err != nil || c.RedisURL != "redis://:plain@h:6379" {
		t.Errorf("REDIS_PASSWORD itself: %q %v", c.RedisURL, err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"a password twice", with("REDIS_URL", "redis://:other@h:6379"), "REDIS_PASSWORD"},
		{"no URL", with(), "REDIS_URL"},
		{"the password and its file", with("REDIS_URL", "redis://h:6379", "REDIS_PASSWORD", pw), "REDIS_PASSWORD_FILE"},
		{"the file missing", with("REDIS_URL", "redis://h:6379", "REDIS_PASSWORD_FILE", file+".gone"), "REDIS_PASSWORD_FILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig(nil, envOf(tc.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cr") || strings.Contains(err.Error(), "other") {
				t.Errorf("the error repeats a password: %v", err)
			}
		})
	}
}

// runToEnd runs Main with env until it returns by itself (or the deadline,
// a failure) and gives its exit code and output.
func runToEnd(t *testing.T, env map[string]string, within time.Duration) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	var stderr syncBuffer
	code := Main(ctx, nil, envOf(env), &stderr)
	if ctx.Err() != nil {
		t.Fatalf("Main ran until the test's deadline instead of stopping by itself:\n%s", stderr.String())
	}
	return code, stderr.String()
}

// TestMainStopsOnRevokedToken: a 401 from the Bot API — a token revoked
// with @BotFather or mistyped — stops the process with exit code 1 and a
// message saying what to do, whichever call saw it first, instead of
// retrying for ever; the token itself is never written.
func TestMainStopsOnRevokedToken(t *testing.T) {
	t.Parallel()
	refusedBy := func(t *testing.T, out, method string) {
		t.Helper()
		for _, want := range []string{"401", method, "revoked", "@BotFather", "TELEGRAM_TOKEN"} {
			if !strings.Contains(out, want) {
				t.Errorf("the output lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, testSecret) {
			t.Errorf("the output reveals the token:\n%s", out)
		}
	}
	env := func(apiURL string) map[string]string {
		return map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_API_URL": apiURL, "DATA_DIR": t.TempDir(),
			"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0", "LOG_LEVEL": "debug"}
	}
	t.Run("at start", func(t *testing.T) {
		t.Parallel()
		// The fake Bot API knows another token: every call is 401.
		srv := telegramtest.NewServer(telegramtest.WithTB(t), telegramtest.WithToken("999:another-token-abcdefghijklmnop"))
		t.Cleanup(srv.Close)
		code, out := runToEnd(t, env(srv.URL), 20*time.Second)
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		refusedBy(t, out, "getMe")
	})
	t.Run("while polling", func(t *testing.T) {
		t.Parallel()
		var polls atomic.Int32
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, method string) {
			w.Header().Set("Content-Type", "application/json")
			switch method {
			case "getMe":
				fmt.Fprint(w, `{"ok":true,"result":{"id":123456,"is_bot":true,"first_name":"Chef","username":"chef_bot"}}`)
			case "getUpdates":
				if polls.Add(1) == 1 {
					fmt.Fprint(w, `{"ok":true,"result":[]}`)
					return
				}
				// Revoked between two polls.
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
			default:
				fmt.Fprint(w, `{"ok":true,"result":true}`)
			}
		})
		code, out := runToEnd(t, env(api.URL), 20*time.Second)
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		refusedBy(t, out, "getUpdates")
		if n := polls.Load(); n != 2 {
			t.Errorf("getUpdates called %d times, want 2: the 401 is not retried", n)
		}
	})
	t.Run("setting the webhook", func(t *testing.T) {
		t.Parallel()
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, method string) {
			w.Header().Set("Content-Type", "application/json")
			switch method {
			case "getMe":
				fmt.Fprint(w, `{"ok":true,"result":{"id":123456,"is_bot":true,"first_name":"Chef","username":"chef_bot"}}`)
			case "setWebhook":
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
			default:
				fmt.Fprint(w, `{"ok":true,"result":true}`)
			}
		})
		e := env(api.URL)
		e["WEBHOOK_URL"] = "https://bot.example.org/hook"
		e["WEBHOOK_SECRET"] = hookSecret
		code, out := runToEnd(t, e, 20*time.Second)
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		refusedBy(t, out, "setWebhook")
		if n := slices.Index(api.called(), "setWebhook"); n < 0 || slices.Contains(api.called()[n+1:], "setWebhook") {
			t.Errorf("setWebhook not called once: %v", api.called())
		}
	})
}

// TestMainBusyPort: an address already taken stops the process at start
// with exit code 1, naming the variable to change.
func TestMainBusyPort(t *testing.T) {
	t.Parallel()
	busy := httptestListener(t)
	for _, v := range []string{"OPS_ADDR", "LISTEN_ADDR"} {
		t.Run(v, func(t *testing.T) {
			env := map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_API_URL": "http://127.0.0.1:1", "DATA_DIR": t.TempDir(),
				"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0", "WEBAPP_URL": "https://cards.example.org/table/"}
			env[v] = busy
			code, out := runToEnd(t, env, 20*time.Second)
			if code != 1 || !strings.Contains(out, v+" "+busy) {
				t.Errorf("exit code %d, want 1 naming %s %s:\n%s", code, v, busy, out)
			}
		})
	}
}
