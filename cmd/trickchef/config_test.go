package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

const (
	testToken  = "123456:SECRET-abcdefghijklmnopqrstuvwxyz"
	testSecret = "SECRET-abcdefghijklmnopqrstuvwxyz" // the part after the colon
	// hookSecret is a webhook secret of the shortest length accepted.
	hookSecret = "hook_secret-0123456789abcdefghij"
)

// envOf turns a map into a getenv function; unset keys read as "".
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// withToken returns m plus a valid TELEGRAM_TOKEN.
func withToken(m map[string]string) map[string]string {
	out := map[string]string{"TELEGRAM_TOKEN": testToken}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func defaultConfig() config {
	return config{
		Token:         testToken,
		APIURL:        "https://api.telegram.org",
		DataDir:       "data",
		TurnTimeout:   60 * time.Second,
		AIDelay:       1500 * time.Millisecond,
		AIBudget:      200 * time.Millisecond,
		ReviewWorkers: 1,
		MaxTables:     4,
		DefaultLang:   "ru",
		LogLevel:      zerolog.InfoLevel,
		ListenAddr:    ":8080",
		// OpsAddr: loopback, apart from the public listener.
		OpsAddr: "127.0.0.1:9090",
		// InitDataMaxAge: a day, as Telegram suggests.
		InitDataMaxAge: 24 * time.Hour,
		// TelegramRate: a margin under Telegram's 30 a second.
		TelegramRate: 25,
	}
}

func TestParseConfig(t *testing.T) {
	allEnv := map[string]string{
		"TELEGRAM_TOKEN":    "42:abcdefghijklmnopqrstuvwxyz_-ABC",
		"TELEGRAM_API_URL":  "http://127.0.0.1:8081",
		"REDIS_URL":         "redis://redis:6379/2",
		"DATA_DIR":          "/var/lib/trickchef",
		"TURN_TIMEOUT":      "2m",
		"AI_DELAY":          "0s",
		"AI_BUDGET":         "1s",
		"REVIEW_WORKERS":    "3",
		"MAX_TABLES":        "25",
		"DEFAULT_LANG":      "en",
		"LOG_LEVEL":         "debug",
		"WEBHOOK_URL":       "https://bot.example.org/tg/hook",
		"WEBHOOK_SECRET":    "s3cr3t_-X_from_the_environment_0123",
		"LISTEN_ADDR":       "127.0.0.1:9000",
		"OPS_ADDR":          "10.0.0.7:9100",
		"TELEGRAM_RATE":     "12",
		"WEBAPP_URL":        "https://bot.example.org/table/",
		"WEBAPP_SHORT_NAME": "table",
		"INITDATA_MAX_AGE":  "1h",
	}
	allFromEnv := config{
		Token:           "42:abcdefghijklmnopqrstuvwxyz_-ABC",
		APIURL:          "http://127.0.0.1:8081",
		RedisURL:        "redis://redis:6379/2",
		DataDir:         "/var/lib/trickchef",
		TurnTimeout:     2 * time.Minute,
		AIDelay:         0,
		AIBudget:        time.Second,
		ReviewWorkers:   3,
		MaxTables:       25,
		DefaultLang:     "en",
		LogLevel:        zerolog.DebugLevel,
		WebhookURL:      "https://bot.example.org/tg/hook",
		WebhookSecret:   "s3cr3t_-X_from_the_environment_0123",
		ListenAddr:      "127.0.0.1:9000",
		OpsAddr:         "10.0.0.7:9100",
		TelegramRate:    12,
		WebAppURL:       "https://bot.example.org/table/",
		WebAppShortName: "table",
		InitDataMaxAge:  time.Hour,
	}
	allFlags := []string{
		"-token", "7:zyxwvutsrqponmlkjihgfedcba",
		"-api-url", "https://tg.example.org/",
		"-redis-url", "rediss://cache:6380/0",
		"-data-dir", "flagdata",
		"-turn-timeout", "15s",
		"-ai-delay", "250ms",
		"-ai-budget", "50ms",
		"-review-workers", "2",
		"-max-tables", "1",
		"-lang", "ru",
		"-log-level", "warn",
		"-webhook-url", "https://other.example.org/hook",
		"-webhook-secret", "flag_secret_of_thirty_two_chars_",
		"-listen", ":9999",
		"-ops-addr", ":9998",
		"-telegram-rate", "20",
		"-webapp-url", "https://cards.example.org/",
		"-webapp-short-name", "cards_2",
		"-initdata-max-age", "30m",
	}
	allFromFlags := config{
		Token:           "7:zyxwvutsrqponmlkjihgfedcba",
		APIURL:          "https://tg.example.org/",
		RedisURL:        "rediss://cache:6380/0",
		DataDir:         "flagdata",
		TurnTimeout:     15 * time.Second,
		AIDelay:         250 * time.Millisecond,
		AIBudget:        50 * time.Millisecond,
		ReviewWorkers:   2,
		MaxTables:       1,
		DefaultLang:     "ru",
		LogLevel:        zerolog.WarnLevel,
		WebhookURL:      "https://other.example.org/hook",
		WebhookSecret:   "flag_secret_of_thirty_two_chars_",
		ListenAddr:      ":9999",
		OpsAddr:         ":9998",
		TelegramRate:    20,
		WebAppURL:       "https://cards.example.org/",
		WebAppShortName: "cards_2",
		InitDataMaxAge:  30 * time.Minute,
	}
	edit := func(f func(*config)) config {
		c := defaultConfig()
		f(&c)
		return c
	}

	tests := []struct {
		name string
		args []string
		env  map[string]string
		want config
	}{
		{name: "defaults", env: withToken(nil), want: defaultConfig()},
		{name: "every variable from env", env: allEnv, want: allFromEnv},
		{name: "flags override env", args: allFlags, env: allEnv, want: allFromFlags},
		{name: "flags without env", args: allFlags, want: allFromFlags},
		{name: "flag = form", args: []string{"-turn-timeout=3s", "--lang=en"}, env: withToken(nil),
			want: edit(func(c *config) { c.TurnTimeout = 3 * time.Second; c.DefaultLang = "en" })},
		{name: "empty flag overrides env", args: []string{"-redis-url="}, env: withToken(map[string]string{"REDIS_URL": "redis://x:6379"}),
			want: defaultConfig()},
		{name: "empty env means default", env: withToken(map[string]string{"DATA_DIR": "", "TURN_TIMEOUT": "", "DEFAULT_LANG": ""}),
			want: defaultConfig()},
		{name: "TELEGRAM_API_URL", env: withToken(map[string]string{"TELEGRAM_API_URL": "http://localhost:8081"}),
			want: edit(func(c *config) { c.APIURL = "http://localhost:8081" })},
		{name: "REDIS_URL", env: withToken(map[string]string{"REDIS_URL": "redis://:pw@10.0.0.1:6379/1"}),
			want: edit(func(c *config) { c.RedisURL = "redis://:pw@10.0.0.1:6379/1" })},
		{name: "REDIS_URL tls", env: withToken(map[string]string{"REDIS_URL": "rediss://cache:6380"}),
			want: edit(func(c *config) { c.RedisURL = "rediss://cache:6380" })},
		{name: "DATA_DIR", env: withToken(map[string]string{"DATA_DIR": "/tmp/tc"}),
			want: edit(func(c *config) { c.DataDir = "/tmp/tc" })},
		{name: "TURN_TIMEOUT minimum", env: withToken(map[string]string{"TURN_TIMEOUT": "1s"}),
			want: edit(func(c *config) { c.TurnTimeout = time.Second })},
		{name: "AI_DELAY zero", env: withToken(map[string]string{"AI_DELAY": "0"}),
			want: edit(func(c *config) { c.AIDelay = 0 })},
		{name: "DEFAULT_LANG en", env: withToken(map[string]string{"DEFAULT_LANG": "en"}),
			want: edit(func(c *config) { c.DefaultLang = "en" })},
		{name: "LOG_LEVEL any case", env: withToken(map[string]string{"LOG_LEVEL": "ERROR"}),
			want: edit(func(c *config) { c.LogLevel = zerolog.ErrorLevel })},
		{name: "LISTEN_ADDR", env: withToken(map[string]string{"LISTEN_ADDR": ":443"}),
			want: edit(func(c *config) { c.ListenAddr = ":443" })},
		{name: "WEBHOOK_URL with secret", env: withToken(map[string]string{"WEBHOOK_URL": "https://h.example/x", "WEBHOOK_SECRET": hookSecret}),
			want: edit(func(c *config) { c.WebhookURL = "https://h.example/x"; c.WebhookSecret = hookSecret })},
		{name: "WEBHOOK_URL plain http on loopback", env: withToken(map[string]string{"WEBHOOK_URL": "http://127.0.0.1:8443/hook", "WEBHOOK_SECRET": hookSecret}),
			want: edit(func(c *config) { c.WebhookURL = "http://127.0.0.1:8443/hook"; c.WebhookSecret = hookSecret })},
		{name: "WEBHOOK_SECRET longest", env: withToken(map[string]string{"WEBHOOK_URL": "https://h.example/", "WEBHOOK_SECRET": strings.Repeat("a", 256)}),
			want: edit(func(c *config) { c.WebhookURL = "https://h.example/"; c.WebhookSecret = strings.Repeat("a", 256) })},
		{name: "WEBHOOK_SECRET alone is kept", env: withToken(map[string]string{"WEBHOOK_SECRET": "abc"}),
			want: edit(func(c *config) { c.WebhookSecret = "abc" })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			got, err := parseConfig(tc.args, envOf(tc.env), &out)
			if err != nil {
				t.Fatalf("parseConfig: %v", err)
			}
			if got != tc.want {
				t.Errorf("config\n got %+v\nwant %+v", got, tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %q, want nothing", out.String())
			}
		})
	}
}

// TestParseConfigRedis covers the store's settings: REDIS_URL from a file,
// every URL form, and running on an evicting Redis.
func TestParseConfigRedis(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "redis_url")
	if err := os.WriteFile(file, []byte("redis-sentinel://:p%40ss@s1:26379,s2:26379/main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		env   map[string]string
		url   string
		allow bool
	}{
		{name: "file", env: map[string]string{"REDIS_URL_FILE": file}, url: "redis-sentinel://:p%40ss@s1:26379,s2:26379/main"},
		{name: "flag wins over file", args: []string{"-redis-url", "redis://h:1"}, env: map[string]string{"REDIS_URL_FILE": file}, url: "redis://h:1"},
		{name: "cluster with password and TLS", env: map[string]string{"REDIS_URL": "rediss-cluster://:pw@h1:7000,h2:7001?skip_verify=true"},
			url: "rediss-cluster://:pw@h1:7000,h2:7001?skip_verify=true"},
		{name: "allow eviction", env: map[string]string{"REDIS_URL": "redis://h:1", "REDIS_ALLOW_EVICTION": "1"}, url: "redis://h:1", allow: true},
		{name: "allow eviction by flag", args: []string{"-redis-allow-eviction"}, env: map[string]string{"REDIS_URL": "redis://h:1"}, url: "redis://h:1", allow: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseConfig(tc.args, envOf(withToken(tc.env)), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if got.RedisURL != tc.url || got.AllowEviction != tc.allow {
				t.Errorf("RedisURL %q AllowEviction %v, want %q %v", got.RedisURL, got.AllowEviction, tc.url, tc.allow)
			}
		})
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
	}{
		{"both", map[string]string{"REDIS_URL": "redis://h:1", "REDIS_URL_FILE": file}},
		{"no file", map[string]string{"REDIS_URL_FILE": filepath.Join(dir, "missing")}},
		{"sentinel without master", map[string]string{"REDIS_URL": "redis-sentinel://:hunter2@s1:26379"}},
		{"cluster with a database", map[string]string{"REDIS_URL": "redis-cluster://:hunter2@h1:7000/3"}},
		{"unknown option", map[string]string{"REDIS_URL": "redis://:hunter2@h:1?nope=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig(nil, envOf(withToken(tc.env)), io.Discard)
			if err == nil || !strings.Contains(err.Error(), "REDIS_URL") || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error %v: want one naming REDIS_URL without the password", err)
			}
		})
	}
}

func TestParseConfigInvalid(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		// want are the variables the error must name.
		want []string
		bug  string
	}{
		{name: "token missing", env: nil, want: []string{"TELEGRAM_TOKEN", "@BotFather"}},
		{name: "token without colon", env: map[string]string{"TELEGRAM_TOKEN": "123456SECRETabcdefghijklmnopqrstuvwxyz"}, want: []string{"TELEGRAM_TOKEN"}},
		{name: "token id not digits", env: map[string]string{"TELEGRAM_TOKEN": "12a456:SECRET-abcdefghijklmnopqrstuvwxyz"}, want: []string{"TELEGRAM_TOKEN"}},
		{name: "token empty id", env: map[string]string{"TELEGRAM_TOKEN": ":SECRET-abcdefghijklmnopqrstuvwxyz"}, want: []string{"TELEGRAM_TOKEN"}},
		{name: "token short secret", env: map[string]string{"TELEGRAM_TOKEN": "123456:short"}, want: []string{"TELEGRAM_TOKEN"}},
		{name: "token with slash", env: map[string]string{"TELEGRAM_TOKEN": "123456:SECRET/abcdefghijklmnopqrstuvwxyz"}, want: []string{"TELEGRAM_TOKEN"}},
		{name: "token with space", env: map[string]string{"TELEGRAM_TOKEN": "123456:SECRET abcdefghijklmnopqrstuvwxyz"}, want: []string{"TELEGRAM_TOKEN"}},
		{name: "token by flag", args: []string{"-token", "nope"}, env: withToken(nil), want: []string{"TELEGRAM_TOKEN"}},
		{name: "api url no scheme", env: withToken(map[string]string{"TELEGRAM_API_URL": "api.telegram.org"}), want: []string{"TELEGRAM_API_URL"}},
		{name: "api url ftp", env: withToken(map[string]string{"TELEGRAM_API_URL": "ftp://api.telegram.org"}), want: []string{"TELEGRAM_API_URL"}},
		{name: "api url no host", env: withToken(map[string]string{"TELEGRAM_API_URL": "https://"}), want: []string{"TELEGRAM_API_URL"}},
		{name: "api url unparsable", env: withToken(map[string]string{"TELEGRAM_API_URL": "http://[::1"}), want: []string{"TELEGRAM_API_URL"}},
		{name: "redis url scheme", env: withToken(map[string]string{"REDIS_URL": "http://redis:6379"}), want: []string{"REDIS_URL"}},
		{name: "redis url host only", env: withToken(map[string]string{"REDIS_URL": "localhost:6379"}), want: []string{"REDIS_URL"}},
		{name: "turn timeout garbage", env: withToken(map[string]string{"TURN_TIMEOUT": "soon"}), want: []string{"TURN_TIMEOUT"}},
		{name: "turn timeout no unit", env: withToken(map[string]string{"TURN_TIMEOUT": "60"}), want: []string{"TURN_TIMEOUT"}},
		{name: "turn timeout too short", env: withToken(map[string]string{"TURN_TIMEOUT": "999ms"}), want: []string{"TURN_TIMEOUT"}},
		{name: "turn timeout negative", env: withToken(map[string]string{"TURN_TIMEOUT": "-60s"}), want: []string{"TURN_TIMEOUT"}},
		{name: "turn timeout by flag", args: []string{"-turn-timeout", "0s"}, env: withToken(nil), want: []string{"TURN_TIMEOUT"}},
		{name: "ai delay garbage", env: withToken(map[string]string{"AI_DELAY": "fast"}), want: []string{"AI_DELAY"}},
		{name: "ai delay negative", env: withToken(map[string]string{"AI_DELAY": "-1ms"}), want: []string{"AI_DELAY"}},
		{name: "ai budget garbage", env: withToken(map[string]string{"AI_BUDGET": "long"}), want: []string{"AI_BUDGET"}},
		{name: "ai budget too long", env: withToken(map[string]string{"AI_BUDGET": "1m"}), want: []string{"AI_BUDGET"}},
		{name: "review workers garbage", env: withToken(map[string]string{"REVIEW_WORKERS": "many"}), want: []string{"REVIEW_WORKERS"}},
		{name: "review workers zero", env: withToken(map[string]string{"REVIEW_WORKERS": "0"}), want: []string{"REVIEW_WORKERS"}},
		{name: "max tables zero", env: withToken(map[string]string{"MAX_TABLES": "0"}), want: []string{"MAX_TABLES"}},
		{name: "max tables past the letters", env: withToken(map[string]string{"MAX_TABLES": "27"}), want: []string{"MAX_TABLES"}},
		{name: "max tables taking the cups' host", env: withToken(map[string]string{"MAX_TABLES": "26"}), want: []string{"MAX_TABLES"}},
		{name: "max tables garbage", args: []string{"-max-tables", "many"}, env: withToken(nil), want: []string{"MAX_TABLES"}},
		{name: "lang", env: withToken(map[string]string{"DEFAULT_LANG": "de"}), want: []string{"DEFAULT_LANG"}},
		{name: "telegram rate garbage", env: withToken(map[string]string{"TELEGRAM_RATE": "fast"}), want: []string{"TELEGRAM_RATE"}},
		{name: "telegram rate above Telegram's", env: withToken(map[string]string{"TELEGRAM_RATE": "31"}), want: []string{"TELEGRAM_RATE"}},
		{name: "telegram rate zero", env: withToken(map[string]string{"TELEGRAM_RATE": "0"}), want: []string{"TELEGRAM_RATE"}},
		{name: "lang upper case", env: withToken(map[string]string{"DEFAULT_LANG": "RU"}), want: []string{"DEFAULT_LANG"}},
		{name: "log level", env: withToken(map[string]string{"LOG_LEVEL": "verbose"}), want: []string{"LOG_LEVEL"}},
		{name: "log level empty by flag", args: []string{"-log-level="}, env: withToken(nil), want: []string{"LOG_LEVEL"}},
		{name: "log level number", env: withToken(map[string]string{"LOG_LEVEL": "5"}), want: []string{"LOG_LEVEL"},
			bug: "run.go parseConfig: zerolog.ParseLevel accepts integers -128..127 (and trace/fatal/panic/disabled), though the message promises debug, info, warn or error"},
		{name: "webhook http", env: withToken(map[string]string{"WEBHOOK_URL": "http://bot.example.org/hook", "WEBHOOK_SECRET": hookSecret}), want: []string{"WEBHOOK_URL"}},
		{name: "webhook no scheme", env: withToken(map[string]string{"WEBHOOK_URL": "bot.example.org/hook", "WEBHOOK_SECRET": hookSecret}), want: []string{"WEBHOOK_URL"}},
		{name: "webhook no host", env: withToken(map[string]string{"WEBHOOK_URL": "https:///hook", "WEBHOOK_SECRET": hookSecret}), want: []string{"WEBHOOK_URL"}},
		{name: "webhook http on a host that starts like loopback", env: withToken(map[string]string{"WEBHOOK_URL": "http://127.0.0.1.evil.example/hook", "WEBHOOK_SECRET": hookSecret}),
			want: []string{"WEBHOOK_URL"},
			bug:  "run.go parseConfig: strings.HasPrefix(u.Host, \"127.0.0.1\") lets plain http through for any host beginning with 127.0.0.1"},
		{name: "webapp http", env: withToken(map[string]string{"WEBAPP_URL": "http://cards.example.org/"}), want: []string{"WEBAPP_URL"}},
		{name: "webapp short name without url", env: withToken(map[string]string{"WEBAPP_SHORT_NAME": "table"}), want: []string{"WEBAPP_SHORT_NAME"}},
		{name: "webapp short name bad chars", env: withToken(map[string]string{"WEBAPP_URL": "https://cards.example.org/", "WEBAPP_SHORT_NAME": "my-table"}), want: []string{"WEBAPP_SHORT_NAME"}},
		{name: "initdata max age garbage", env: withToken(map[string]string{"INITDATA_MAX_AGE": "a day"}), want: []string{"INITDATA_MAX_AGE"}},
		{name: "initdata max age too short", env: withToken(map[string]string{"INITDATA_MAX_AGE": "10s"}), want: []string{"INITDATA_MAX_AGE"}},
		{name: "webhook without secret", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook"}), want: []string{"WEBHOOK_SECRET"}},
		{name: "webhook secret bad chars", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook", "WEBHOOK_SECRET": "a b"}), want: []string{"WEBHOOK_SECRET"}},
		{name: "webhook secret too long", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook", "WEBHOOK_SECRET": strings.Repeat("a", 257)}), want: []string{"WEBHOOK_SECRET"}},
		{name: "webhook secret of one character", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook", "WEBHOOK_SECRET": "a"}),
			want: []string{"WEBHOOK_SECRET", "32-256"}},
		{name: "webhook secret one short", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook", "WEBHOOK_SECRET": hookSecret[1:]}),
			want: []string{"WEBHOOK_SECRET", "32-256", "openssl rand"}},
		{name: "webhook secret short by flag", args: []string{"-webhook-secret", "short"}, env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook"}),
			want: []string{"WEBHOOK_SECRET", "32-256"}},
		{name: "webhook and page on one path", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/table/", "WEBHOOK_SECRET": hookSecret,
			"WEBAPP_URL": "https://bot.example.org/table"}), want: []string{"WEBHOOK_URL and WEBAPP_URL"}},
		{name: "ops addr without port", env: withToken(map[string]string{"OPS_ADDR": "localhost"}), want: []string{"OPS_ADDR"}},
		{name: "ops addr on the public port", env: withToken(map[string]string{"OPS_ADDR": "127.0.0.1:8080"}), want: []string{"OPS_ADDR", "LISTEN_ADDR"}},
		{name: "listen addr garbage", env: withToken(map[string]string{"LISTEN_ADDR": "8080"}), want: []string{"LISTEN_ADDR"}},
		{name: "allow eviction garbage", env: withToken(map[string]string{"REDIS_ALLOW_EVICTION": "yes"}), want: []string{"REDIS_ALLOW_EVICTION"}},
		{name: "webhook secret cyrillic", env: withToken(map[string]string{"WEBHOOK_URL": "https://bot.example.org/hook", "WEBHOOK_SECRET": "секрет"}), want: []string{"WEBHOOK_SECRET"}},
		{
			name: "all problems at once",
			env: map[string]string{
				"TELEGRAM_API_URL": "nope",
				"REDIS_URL":        "memcached://x",
				"TURN_TIMEOUT":     "1",
				"AI_DELAY":         "-1s",
				"DEFAULT_LANG":     "fr",
				"LOG_LEVEL":        "loud",
				"WEBHOOK_URL":      "ftp://x",
				"TELEGRAM_RATE":    "100",
			},
			want: []string{"TELEGRAM_TOKEN", "TELEGRAM_API_URL", "REDIS_URL", "TURN_TIMEOUT", "AI_DELAY", "DEFAULT_LANG", "LOG_LEVEL", "WEBHOOK_URL", "WEBHOOK_SECRET", "TELEGRAM_RATE"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig(tc.args, envOf(tc.env), io.Discard)
			if err == nil {
				t.Fatal("parseConfig succeeded, want an error")
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not name %s:\n%s", w, msg)
				}
			}
			if lines := strings.Count(msg, "\n") + 1; lines != len(tc.want) && tc.name == "all problems at once" {
				t.Errorf("got %d problems, want %d:\n%s", lines, len(tc.want), msg)
			}
			for _, secret := range []string{testSecret, "SECRET abcdefghijklmnopqrstuvwxyz", "SECRET/abcdefghijklmnopqrstuvwxyz"} {
				if strings.Contains(msg, secret) {
					t.Errorf("error reveals the token: %s", msg)
				}
			}
		})
	}
}

// TestParseConfigOneProblemPerVariable checks each problem is reported
// once, on its own line, and only for the variable at fault.
func TestParseConfigOneProblemPerVariable(t *testing.T) {
	for _, v := range []string{"TELEGRAM_API_URL", "REDIS_URL", "TURN_TIMEOUT", "AI_DELAY", "DEFAULT_LANG", "LOG_LEVEL"} {
		t.Run(v, func(t *testing.T) {
			_, err := parseConfig(nil, envOf(withToken(map[string]string{v: "ftp:bad"})), io.Discard)
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, v) {
				t.Errorf("want one line starting with %s, got:\n%s", v, msg)
			}
		})
	}
}

func TestParseConfigFlagErrors(t *testing.T) {
	t.Run("help", func(t *testing.T) {
		var out strings.Builder
		_, err := parseConfig([]string{"-h"}, envOf(nil), &out)
		if !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("err = %v, want flag.ErrHelp", err)
		}
		for _, v := range []string{"TELEGRAM_TOKEN", "TELEGRAM_API_URL", "REDIS_URL", "DATA_DIR", "TURN_TIMEOUT",
			"AI_DELAY", "DEFAULT_LANG", "LOG_LEVEL", "WEBHOOK_URL", "WEBHOOK_SECRET", "LISTEN_ADDR"} {
			if !strings.Contains(out.String(), v) {
				t.Errorf("usage does not mention %s", v)
			}
		}
	})
	t.Run("unknown flag", func(t *testing.T) {
		var out strings.Builder
		_, err := parseConfig([]string{"-nope"}, envOf(withToken(nil)), &out)
		if err == nil || errors.Is(err, flag.ErrHelp) {
			t.Fatalf("err = %v, want a flag error", err)
		}
		if !strings.Contains(out.String(), "-nope") {
			t.Errorf("output does not name the flag: %q", out.String())
		}
	})
	t.Run("usage hides secrets", func(t *testing.T) {
		var out strings.Builder
		env := withToken(map[string]string{"WEBHOOK_SECRET": "hook_secret_value", "REDIS_URL": "redis://:redis_pw_value@h:6379/0"})
		_, _ = parseConfig([]string{"-h"}, envOf(env), &out)
		for _, s := range []string{testSecret, "hook_secret_value", "redis_pw_value"} {
			if strings.Contains(out.String(), s) {
				t.Errorf("usage reveals %q:\n%s", s, out.String())
			}
		}
	})
}
