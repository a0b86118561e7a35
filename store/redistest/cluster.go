package redistest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a real three-master Redis Cluster owned by one test: the slots
// are split between three redis-server processes, so keys of different hash
// slots live on different servers and the client follows MOVED redirections,
// as in production.
type Cluster struct {
	// Addrs are host:port of the three masters.
	Addrs []string
	// Nodes are the servers, in slot order (node 0 holds slots 0–5460).
	Nodes []*Server
}

// StartCluster3 starts three redis-servers in cluster mode and joins them
// into one cluster with no replicas: node i owns a third of the 16384 slots.
// It does what `redis-cli --cluster create a b c --cluster-replicas 0
// --cluster-yes` does (CLUSTER ADDSLOTSRANGE on each node, CLUSTER MEET),
// without needing redis-cli. Each node's cluster-bus port is picked free
// (not port+10000, which may be taken or beyond 65535). The servers are
// killed when the test ends.
func StartCluster3(t testing.TB, args ...string) *Cluster {
	t.Helper()
	ranges := [][2]int{{0, 5460}, {5461, 10922}, {10923, 16383}}
	cl := &Cluster{}
	var buses []int
	for range ranges {
		bus, err := freePort()
		if err != nil {
			t.Fatalf("redistest: %v", err)
		}
		s := Start(t, append([]string{
			"--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf",
			"--cluster-port", strconv.Itoa(bus),
			"--cluster-node-timeout", "5000",
		}, args...)...)
		cl.Nodes = append(cl.Nodes, s)
		buses = append(buses, bus)
		cl.Addrs = append(cl.Addrs, s.Addr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clients := make([]*redis.Client, len(cl.Nodes))
	for i, s := range cl.Nodes {
		clients[i] = redis.NewClient(&redis.Options{Addr: s.Addr})
		defer clients[i].Close()
		if err := clients[i].Do(ctx, "CLUSTER", "ADDSLOTSRANGE", ranges[i][0], ranges[i][1]).Err(); err != nil {
			t.Fatalf("redistest: assigning slots %v to %s: %v", ranges[i], s.Addr, err)
		}
	}
	for i, s := range cl.Nodes[1:] {
		host, port, _ := strings.Cut(s.Addr, ":")
		// The bus port is not port+10000, so MEET must be told it.
		if err := clients[0].Do(ctx, "CLUSTER", "MEET", host, port, buses[i+1]).Err(); err != nil {
			t.Fatalf("redistest: CLUSTER MEET %s: %v", s.Addr, err)
		}
	}
	for i, c := range clients {
		for {
			info, err := c.ClusterInfo(ctx).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") && strings.Contains(info, "cluster_known_nodes:3") &&
				strings.Contains(info, "cluster_slots_ok:16384") {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("redistest: cluster node %s not ready: %v\n%s", cl.Addrs[i], err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Every node must route every slot before a client may rely on it.
	for i, c := range clients {
		for {
			slots, err := c.ClusterSlots(ctx).Result()
			if err == nil && len(slots) == 3 {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("redistest: node %s sees %d slot ranges: %v", cl.Addrs[i], len(slots), err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return cl
}

// Client returns a cluster client for the three nodes, closed when the test
// ends.
func (cl *Cluster) Client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs})
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.ForEachShard(ctx, func(ctx context.Context, n *redis.Client) error {
		return n.Ping(ctx).Err()
	}); err != nil {
		t.Fatalf("redistest: cluster %v does not answer: %v", cl.Addrs, err)
	}
	return c
}

// URL returns the cluster as a REDIS_URL for the bot process
// ("redis-cluster://a,b,c").
func (cl *Cluster) URL() string { return "redis-cluster://" + strings.Join(cl.Addrs, ",") }

// KeysPerNode counts the keys each node holds (DBSIZE), in node order, to
// check that data really is spread over the cluster.
func (cl *Cluster) KeysPerNode(ctx context.Context) ([]int64, error) {
	out := make([]int64, len(cl.Nodes))
	for i, s := range cl.Nodes {
		c := redis.NewClient(&redis.Options{Addr: s.Addr})
		n, err := c.DBSize(ctx).Result()
		c.Close()
		if err != nil {
			return nil, fmt.Errorf("redistest: DBSIZE on %s: %w", s.Addr, err)
		}
		out[i] = n
	}
	return out, nil
}
