package store_test

import (
	"bytes"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// BenchmarkCommit measures one applied action: a 512-byte state saved with
// compare-and-set, an update id and two dirty views. "serial" is one table
// written by one goroutine (a table's own rate); "parallel" is many tables
// written at once (a busy bot's rate). Redis serial is bound by the round
// trip, Bolt by the fsync that ends every transaction.
func BenchmarkCommit(b *testing.B) {
	stores := []struct {
		name string
		new  func(b *testing.B) tableStore
	}{
		{"Redis", func(b *testing.B) tableStore { return newRedis(b) }},
		// A master with one replica, each commit waiting for it (WAIT 1).
		{"RedisWait", func(b *testing.B) tableStore {
			m := redistest.Start(b)
			host, port, _ := net.SplitHostPort(m.Addr)
			redistest.Start(b, "--replicaof", host, port)
			mc := m.Client(b)
			for !strings.Contains(mc.Info(b.Context(), "replication").Val(), "state=online") {
				time.Sleep(20 * time.Millisecond) // the replica's first sync
			}
			r, err := store.DialRedis(b.Context(), m.URL()+"?wait_replicas=1&wait_timeout=5s", "bench:", store.Config{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { r.Close() })
			return r
		}},
		{"Bolt", func(b *testing.B) tableStore { return newBolt(b) }},
	}
	data := bytes.Repeat([]byte("x"), 512)
	for _, st := range stores {
		b.Run(st.name+"/serial", func(b *testing.B) {
			s, ctx := st.new(b), b.Context()
			var ver int64
			for i := 0; b.Loop(); i++ {
				v, err := s.Commit(ctx, "bench", store.Change{Version: ver, Data: data,
					UpdateID: int64(i + 1), Dirty: []string{"table", "hand:1"}})
				if err != nil {
					b.Fatal(err)
				}
				ver = v
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
		b.Run(st.name+"/parallel", func(b *testing.B) {
			s, ctx := st.new(b), b.Context()
			var tables atomic.Int64
			b.SetParallelism(8) // 8 × GOMAXPROCS concurrent tables: the work is I/O-bound
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				table := fmt.Sprint("bench-", tables.Add(1))
				var ver int64
				for i := 0; pb.Next(); i++ {
					v, err := s.Commit(ctx, table, store.Change{Version: ver, Data: data,
						UpdateID: int64(i + 1), Dirty: []string{"table", "hand:1"}})
					if err != nil {
						b.Error(err)
						return
					}
					ver = v
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
