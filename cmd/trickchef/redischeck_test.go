package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store/redistest"
)

// TestMainChecksRedis starts the process on real redis-servers: it refuses
// one that may evict keys unless REDIS_ALLOW_EVICTION=1, and warns when
// Redis persists nothing or refuses CONFIG.
func TestMainChecksRedis(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, url string, extra map[string]string) (int, string) {
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, method string) {
			w.Header().Set("Content-Type", "application/json")
			switch method {
			case "getMe":
				fmt.Fprint(w, `{"ok":true,"result":{"id":123456,"is_bot":true,"first_name":"Chef","username":"chef_bot"}}`)
			case "getUpdates":
				fmt.Fprint(w, `{"ok":true,"result":[]}`)
			default:
				fmt.Fprint(w, `{"ok":true,"result":true}`)
			}
		})
		env := map[string]string{"TELEGRAM_TOKEN": testToken, "TELEGRAM_API_URL": api.URL, "REDIS_URL": url,
			"LISTEN_ADDR": "127.0.0.1:0", "OPS_ADDR": "127.0.0.1:0", "LOG_LEVEL": "warn"}
		for k, v := range extra {
			env[k] = v
		}
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		var stderr syncBuffer
		return Main(ctx, nil, envOf(env), &stderr), stderr.String()
	}
	t.Run("evicting", func(t *testing.T) {
		t.Parallel()
		srv := redistest.Start(t, "--maxmemory-policy", "allkeys-lru", "--appendonly", "yes")
		code, out := run(t, srv.URL(), nil)
		if code != 1 || !strings.Contains(out, "allkeys-lru") || !strings.Contains(out, "REDIS_ALLOW_EVICTION") {
			t.Fatalf("exit code %d, want 1 naming the policy and REDIS_ALLOW_EVICTION:\n%s", code, out)
		}
		code, out = run(t, srv.URL(), map[string]string{"REDIS_ALLOW_EVICTION": "1"})
		if code != 0 || !strings.Contains(out, "evict") || strings.Contains(out, "persists nothing") {
			t.Fatalf("allowed: exit code %d, want 0 and a warning:\n%s", code, out)
		}
	})
	t.Run("persists nothing", func(t *testing.T) {
		t.Parallel()
		srv := redistest.Start(t)
		if code, out := run(t, srv.URL(), nil); code != 0 || !strings.Contains(out, "persists nothing") {
			t.Fatalf("exit code %d, want 0 and a warning:\n%s", code, out)
		}
	})
	t.Run("hosted", func(t *testing.T) {
		t.Parallel()
		srv := redistest.Start(t, "--rename-command", "CONFIG", "", "--requirepass", "pw")
		code, out := run(t, "redis://:pw@"+srv.Addr, nil)
		if code != 0 || !strings.Contains(out, "refuses CONFIG") {
			t.Fatalf("exit code %d, want 0 and a warning:\n%s", code, out)
		}
		if strings.Contains(out, `"pw"`) || strings.Contains(out, ":pw@") {
			t.Fatalf("the log shows the password:\n%s", out)
		}
	})
	t.Run("persists", func(t *testing.T) {
		t.Parallel()
		srv := redistest.Start(t, "--appendonly", "yes")
		if code, out := run(t, srv.URL(), nil); code != 0 || strings.Contains(out, "Redis") {
			t.Fatalf("exit code %d, want 0 and no warning about Redis:\n%s", code, out)
		}
	})
}
