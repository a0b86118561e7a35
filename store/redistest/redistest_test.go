package redistest_test

import (
	"net"
	"testing"

	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func TestPrefixKeysRemoved(t *testing.T) {
	var prefix string
	t.Run("user", func(t *testing.T) {
		prefix = redistest.Prefix(t)
		c := redistest.Client(t)
		for _, k := range []string{"a", "t:{x}:rec", "b*"} {
			if err := c.Set(t.Context(), prefix+k, "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})
	c := redistest.Client(t)
	keys, err := c.Keys(t.Context(), prefix+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 0 {
		t.Fatalf("keys left under %s: %v", prefix, keys)
	}
	if other := redistest.Prefix(t); other == prefix {
		t.Fatalf("two tests got the same prefix %q", prefix)
	}
}

// TestRestartKeepsAOF is the shape of a "Redis restarted mid-game" test:
// with appendonly on, data survives a crash and a restart on the same port.
func TestRestartKeepsAOF(t *testing.T) {
	s := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := t.Context()
	c := s.Client(t)
	if err := c.Set(ctx, "k", "before crash", 0).Err(); err != nil {
		t.Fatal(err)
	}
	addr := s.Addr
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Fatal("server accepts connections after Kill")
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if s.Addr != addr {
		t.Fatalf("restarted on %s, want %s", s.Addr, addr)
	}
	// The same client reconnects on its own.
	if v, err := c.Get(ctx, "k").Result(); err != nil || v != "before crash" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Get(ctx, "k").Result(); err != nil || v != "before crash" {
		t.Fatalf("after graceful restart: %q, %v", v, err)
	}
}

// TestStartWithoutPersistence checks the default: nothing survives a restart.
func TestStartWithoutPersistence(t *testing.T) {
	s := redistest.Start(t)
	ctx := t.Context()
	c := s.Client(t)
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Exists(ctx, "k").Result(); err != nil || n != 0 {
		t.Fatalf("key survived a restart without persistence: %d, %v", n, err)
	}
}
