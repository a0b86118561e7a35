// Package redistest gives tests a real Redis, never a fake and never a skip.
//
// Design: a test binary that uses Redis calls Main from its TestMain. If
// TEST_REDIS_URL is set, Main changes nothing and every test uses that
// server. Otherwise Main starts one redis-server from PATH on a free
// 127.0.0.1 port in a temporary directory (no persistence), exports its URL
// as TEST_REDIS_URL for the tests of this binary, and stops it when the tests
// end (on Linux the server is also killed if the test binary dies). If no
// server can be started, Main fails the whole binary with a clear message.
//
// Tests share that server through per-test key prefixes (Prefix), whose keys
// are deleted when the test ends; nothing ever runs FLUSHALL. Tests that need
// a server of their own — to kill or restart it — use Start.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// EnvURL names the environment variable holding the Redis URL for tests.
// Set TEST_REDIS_CLUSTER=1 as well to treat it as a cluster URL (see
// redis.ParseClusterURL).
const EnvURL = "TEST_REDIS_URL"

// Main runs the tests of m against a Redis and exits: the one named by
// TEST_REDIS_URL, or a redis-server it starts for this binary. Call it from
// TestMain.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv(EnvURL) != "" {
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "redistest: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	s := &Server{dir: dir}
	if err := s.start(); err != nil {
		fmt.Fprintf(os.Stderr, "redistest: %s is not set and no redis-server could be started: %v\n"+
			"Install redis-server (≥ 7.0) on PATH or set %s=redis://host:port.\n", EnvURL, err, EnvURL)
		return 1
	}
	defer s.Kill()
	os.Setenv(EnvURL, s.URL())
	return m.Run()
}

// URL returns the Redis URL tests should use. It fails the test when there is
// none, which means TestMain does not call Main and TEST_REDIS_URL is unset.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		t.Fatalf("redistest: %s is not set; call redistest.Main(m) from TestMain or set %s", EnvURL, EnvURL)
	}
	return u
}

// Client returns a client for URL(t), closed when the test ends. It checks
// the server answers, so a dead Redis fails here with a clear message.
func Client(t testing.TB) redis.UniversalClient {
	t.Helper()
	u := URL(t)
	var c redis.UniversalClient
	if os.Getenv("TEST_REDIS_CLUSTER") == "1" {
		opt, err := redis.ParseClusterURL(u)
		if err != nil {
			t.Fatalf("redistest: %s: %v", EnvURL, err)
		}
		c = redis.NewClusterClient(opt)
	} else {
		opt, err := redis.ParseURL(u)
		if err != nil {
			t.Fatalf("redistest: %s: %v", EnvURL, err)
		}
		c = redis.NewClient(opt)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("redistest: redis at %s does not answer: %v", u, err)
	}
	return c
}

// Prefix returns a key prefix unique to this test run, such as
// "test:TestCommit-create:1f2e3d4c:". Every key under it is deleted when the
// test ends, so tests can share one server without FLUSHALL. The prefix
// holds no glob characters and no braces.
func Prefix(t testing.TB) string {
	t.Helper()
	c := Client(t)
	var rnd [4]byte
	rand.Read(rnd[:])
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '-'
	}, t.Name())
	if len(name) > 60 {
		name = name[len(name)-60:]
	}
	p := "test:" + name + ":" + hex.EncodeToString(rnd[:]) + ":"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := deletePrefix(ctx, c, p); err != nil {
			t.Errorf("redistest: cleaning keys %s*: %v", p, err)
		}
	})
	return p
}

// deletePrefix deletes every key starting with p, on every master of a
// cluster.
func deletePrefix(ctx context.Context, c redis.UniversalClient, p string) error {
	del := func(ctx context.Context, c redis.UniversalClient) error {
		iter := c.Scan(ctx, 0, p+"*", 500).Iterator()
		for iter.Next(ctx) {
			// One key at a time: in a cluster keys of one batch may span slots.
			if err := c.Unlink(ctx, iter.Val()).Err(); err != nil {
				return err
			}
		}
		return iter.Err()
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return del(ctx, n) })
	}
	return del(ctx, c)
}

// Server is a redis-server owned by one test, for fault tests that stop,
// kill or restart it. It keeps its port and directory across restarts, so
// with "--appendonly yes" a restarted server reloads its data.
type Server struct {
	// Addr is host:port of the server.
	Addr string

	// Password is the server's requirepass ("" for none); Client uses it.
	Password string

	dir  string
	conf string // a config file given first (sentinels keep their state in it)
	args []string
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// Start starts a redis-server for this test in t.TempDir() with the given
// extra arguments (e.g. "--appendonly", "yes"), which override the defaults
// (no RDB snapshots, no AOF); with "--requirepass", Password is set. It is
// killed when the test ends.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	s := &Server{dir: t.TempDir(), args: args}
	for i, a := range args {
		if a == "--requirepass" && i+1 < len(args) {
			s.Password = args[i+1]
		}
	}
	if err := s.start(); err != nil {
		t.Fatalf("redistest: %v", err)
	}
	t.Cleanup(func() { s.Kill() })
	return s
}

// StartCluster starts a one-node Redis Cluster that owns all 16384 slots.
// It enforces the cluster's rules — a multi-key command or script whose keys
// span slots fails with CROSSSLOT — so code can be checked for Cluster
// without running six nodes.
func StartCluster(t testing.TB, args ...string) *Server {
	t.Helper()
	s := Start(t, append([]string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"}, args...)...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Password: s.Password})
	defer c.Close()
	if err := c.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", 0, 16383).Err(); err != nil {
		t.Fatalf("redistest: assigning cluster slots: %v", err)
	}
	for {
		info, err := c.ClusterInfo(ctx).Result()
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			return s
		}
		if ctx.Err() != nil {
			t.Fatalf("redistest: cluster on %s not ready: %v %s", s.Addr, err, info)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ClusterClient returns a cluster client for a server from StartCluster,
// closed when the test ends.
func (s *Server) ClusterClient(t testing.TB) *redis.ClusterClient {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{s.Addr}, Password: s.Password})
	t.Cleanup(func() { c.Close() })
	return c
}

// URL returns the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr }

// Dir returns the server's working directory (AOF and RDB files).
func (s *Server) Dir() string { return s.dir }

// Client returns a client for this server, closed when the test ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Password: s.Password})
	t.Cleanup(func() { c.Close() })
	return c
}

// Stop shuts the server down gracefully (SIGTERM: it flushes the AOF and
// writes a snapshot if configured) and waits for it to exit.
func (s *Server) Stop() error { return s.signal(syscall.SIGTERM) }

// Kill kills the server at once (SIGKILL), like a crash, and waits for it.
func (s *Server) Kill() error { return s.signal(os.Kill) }

// Restart starts the server again on the same port and in the same
// directory, after Stop or Kill (or kills it first if still running).
func (s *Server) Restart() error {
	if err := s.Kill(); err != nil {
		return err
	}
	return s.start()
}

func (s *Server) signal(sig os.Signal) error {
	if s.cmd == nil {
		return nil
	}
	select {
	case <-s.done:
		return nil
	default:
	}
	if err := s.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-s.done:
		return nil
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("redis-server %s did not stop in 10s; killed", s.Addr)
	}
}

// start launches redis-server and waits until it answers PING. A fresh
// server picks a free port; a restart reuses its old one.
func (s *Server) start() error {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return err
	}
	fixedPort := s.Addr != ""
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		if !fixedPort {
			port, err := freePort()
			if err != nil {
				return err
			}
			s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		}
		if lastErr = s.launch(bin); lastErr == nil {
			return nil
		}
		if fixedPort && attempt >= 2 {
			break
		}
	}
	return lastErr
}

func (s *Server) launch(bin string) error {
	_, port, _ := net.SplitHostPort(s.Addr)
	var args []string
	if s.conf != "" {
		args = []string{s.conf, "--sentinel"}
	}
	args = append(args, []string{
		"--port", port,
		"--bind", "127.0.0.1",
		"--dir", s.dir,
		"--save", "",
		"--appendonly", "no",
		"--daemonize", "no",
		"--logfile", "redis.log",
	}...)
	args = append(args, s.args...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.dir
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done

	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-done:
			return fmt.Errorf("redis-server on %s exited at start:\n%s", s.Addr, s.logTail())
		default:
		}
		// Dial first: go-redis logs every refused dial, which would be noise.
		err := dialable(s.Addr)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			err = c.Ping(ctx).Err()
			cancel()
			if err == nil || redis.HasErrorPrefix(err, "NOAUTH") { // up, with a password
				return nil
			}
		}
		// While loading a large AOF, PING answers LOADING; keep waiting.
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			return fmt.Errorf("redis-server on %s did not answer within 10s (%v):\n%s", s.Addr, err, s.logTail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// logTail returns the end of the server log, to explain a failed start.
func (s *Server) logTail() string {
	b, err := os.ReadFile(filepath.Join(s.dir, "redis.log"))
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n")
}

func dialable(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	return conn.Close()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
