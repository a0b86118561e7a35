package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Sentinel is a real Redis Sentinel setup owned by one test: a master, its
// replicas and three sentinels (redis-server --sentinel), all on free ports,
// with a password on the master and replicas. The sentinels agree on a
// failure with a quorum of two and declare the master down after a second
// without an answer, so a killed master is replaced within seconds. Every
// process is killed when the test ends.
type Sentinel struct {
	// MasterName is the name the sentinels monitor the master under.
	MasterName string
	// Password is the master's and the replicas' (requirepass and
	// masterauth); the sentinels have none.
	Password string
	// Servers are the master at start (first) and its replicas.
	Servers []*Server
	// Sentinels are the three sentinels.
	Sentinels []*Server
}

// SentinelDownAfter is how long the sentinels wait for an answer before
// they call the master down (down-after-milliseconds).
const SentinelDownAfter = time.Second

// StartSentinel starts a master, replicas replicas of it (at least one)
// and three sentinels monitoring it, and waits until the replicas are in
// sync and every sentinel knows them and the other sentinels, so a failover
// can happen at once. args go to the master and the replicas.
func StartSentinel(t testing.TB, replicas int, args ...string) *Sentinel {
	t.Helper()
	var rnd [8]byte
	rand.Read(rnd[:])
	s := &Sentinel{MasterName: "trickchef", Password: "pw-" + hex.EncodeToString(rnd[:])}
	auth := append([]string{"--requirepass", s.Password, "--masterauth", s.Password}, args...)
	master := Start(t, auth...)
	master.Password = s.Password
	s.Servers = append(s.Servers, master)
	host, port, _ := net.SplitHostPort(master.Addr)
	for range max(replicas, 1) {
		r := Start(t, append([]string{"--replicaof", host, port}, auth...)...)
		r.Password = s.Password
		s.Servers = append(s.Servers, r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	mc := master.Client(t)
	for {
		info, err := mc.Info(ctx, "replication").Result()
		if err == nil && strings.Count(info, "state=online") == len(s.Servers)-1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("redistest: replicas of %s not in sync: %v\n%s", master.Addr, err, info)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for range 3 {
		dir := t.TempDir()
		conf := filepath.Join(dir, "sentinel.conf")
		lines := []string{
			fmt.Sprintf("sentinel monitor %s %s %s 2", s.MasterName, host, port),
			fmt.Sprintf("sentinel auth-pass %s %s", s.MasterName, s.Password),
			fmt.Sprintf("sentinel down-after-milliseconds %s %d", s.MasterName, SentinelDownAfter.Milliseconds()),
			fmt.Sprintf("sentinel failover-timeout %s 10000", s.MasterName),
			fmt.Sprintf("sentinel parallel-syncs %s 1", s.MasterName),
		}
		if err := os.WriteFile(conf, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatalf("redistest: %v", err)
		}
		sn := &Server{dir: dir, conf: conf}
		if err := sn.start(); err != nil {
			t.Fatalf("redistest: sentinel: %v", err)
		}
		t.Cleanup(func() { sn.Kill() })
		s.Sentinels = append(s.Sentinels, sn)
	}
	// Sentinels find the replicas through the master and each other
	// through hello messages, every two seconds or so.
	for _, sn := range s.Sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr})
		for {
			reps, err1 := c.Replicas(ctx, s.MasterName).Result()
			peers, err2 := c.Sentinels(ctx, s.MasterName).Result()
			if err1 == nil && err2 == nil && len(reps) == len(s.Servers)-1 && len(peers) == len(s.Sentinels)-1 {
				break
			}
			if ctx.Err() != nil {
				c.Close()
				t.Fatalf("redistest: sentinel %s sees %d replicas and %d sentinels: %v %v", sn.Addr, len(reps), len(peers), err1, err2)
			}
			time.Sleep(100 * time.Millisecond)
		}
		c.Close()
	}
	return s
}

// Addrs are the sentinels' host:port.
func (s *Sentinel) Addrs() []string {
	var out []string
	for _, sn := range s.Sentinels {
		out = append(out, sn.Addr)
	}
	return out
}

// URL is the setup as a REDIS_URL:
// redis-sentinel://:<password>@<sentinel>,<sentinel>,<sentinel>/<master name>.
func (s *Sentinel) URL() string {
	return "redis-sentinel://:" + s.Password + "@" + strings.Join(s.Addrs(), ",") + "/" + s.MasterName
}

// Client returns a failover client (it finds the master through the
// sentinels and follows a failover), closed when the test ends.
func (s *Sentinel) Client(t testing.TB) *redis.Client {
	c := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: s.MasterName, SentinelAddrs: s.Addrs(), Password: s.Password})
	t.Cleanup(func() { c.Close() })
	return c
}

// MasterAddr asks the sentinels which server is the master now; the
// answer of the first one that answers.
func (s *Sentinel) MasterAddr(ctx context.Context) (string, error) {
	var last error
	for _, sn := range s.Sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr, MaxRetries: -1, DialTimeout: time.Second})
		addr, err := c.GetMasterAddrByName(ctx, s.MasterName).Result()
		c.Close()
		if err == nil && len(addr) == 2 {
			return net.JoinHostPort(addr[0], addr[1]), nil
		}
		last = err
	}
	return "", fmt.Errorf("redistest: no sentinel names the master: %v", last)
}

// Master is the server the sentinels call the master now.
func (s *Sentinel) Master(ctx context.Context) (*Server, error) {
	addr, err := s.MasterAddr(ctx)
	if err != nil {
		return nil, err
	}
	for _, srv := range s.Servers {
		if srv.Addr == addr {
			return srv, nil
		}
	}
	return nil, fmt.Errorf("redistest: the master %s is none of the servers", addr)
}

// KillMaster kills the current master at once (SIGKILL), like a crash,
// and returns it (Restart brings it back; the sentinels then make it a
// replica of the new master).
func (s *Sentinel) KillMaster(ctx context.Context) (*Server, error) {
	m, err := s.Master(ctx)
	if err != nil {
		return nil, err
	}
	return m, m.Kill()
}

// WaitFailover waits until the sentinels name a master other than old and
// that server answers as a master, and returns its address.
func (s *Sentinel) WaitFailover(ctx context.Context, old string) (string, error) {
	for {
		addr, err := s.MasterAddr(ctx)
		if err == nil && addr != old {
			c := redis.NewClient(&redis.Options{Addr: addr, Password: s.Password, MaxRetries: -1})
			role, err := c.Do(ctx, "ROLE").Slice()
			c.Close()
			if err == nil && len(role) > 0 && role[0] == "master" {
				return addr, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("redistest: no failover from %s: %w", old, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
