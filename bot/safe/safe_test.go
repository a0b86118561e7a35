package safe

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"
)

// TestPanicsEndWhereTheyAreRecovered: a goroutine's panic, a call's, and
// a counter's own panic are each logged and counted once, and none gets
// out (the test binary would die).
func TestPanicsEndWhereTheyAreRecovered(t *testing.T) {
	var buf syncBuffer
	log := zerolog.New(&buf)
	var n atomic.Int32
	count := func() { n.Add(1) }
	done := make(chan struct{})
	Go(log, count, "a goroutine", func() {
		defer close(done)
		panic("one")
	})
	<-done
	if v := Call(log, count, "a call", func() { panic("two") }); v != "two" {
		t.Errorf("Call returned %v, want the panic's value", v)
	}
	if v := Call(log, count, "a call", func() {}); v != nil {
		t.Errorf("Call of a function that did not panic returned %v", v)
	}
	Call(log, func() { panic("the counter") }, "a call whose counter panics", func() { panic("three") })
	func() {
		defer Recover(log, count, "a function")
		panic("four")
	}()
	for n.Load() < 3 {
		runtime.Gosched() // Go's report may still be running
	}
	if got := n.Load(); got != 3 {
		t.Errorf("counted %d panics, want 3", got)
	}
	out := buf.String()
	for _, want := range []string{`"in":"a goroutine"`, `"panic":"one"`, `"panic":"two"`, `"panic":"three"`, `"panic":"four"`, `"stack":`} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %s:\n%s", want, out)
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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
