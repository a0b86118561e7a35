package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// httptestListener holds a port for the test's length and returns its address.
func httptestListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().String()
}

// TestServerLimits runs the public listener's routing on a server built as
// run builds it, with limits shortened: the page's event stream lives well
// past the write timeout (each write gets it), the same stream on another
// route is cut, a slow answer is cut, a client slow to send its headers is
// dropped, headers over the limit are refused; the webhook and the page are
// routed, /metrics is not there.
func TestServerLimits(t *testing.T) {
	t.Parallel()
	// Shortened, yet far above a loaded machine's pauses: a write of the
	// stream comes 0.1 s after the one before, well within the write
	// timeout, however late its goroutine wakes.
	l := limits{ReadHeader: time.Second, Read: 2 * time.Second, Write: time.Second,
		Idle: time.Second, MaxHeaderBytes: 4 << 10}
	stream := func(w http.ResponseWriter) {
		rc := http.NewResponseController(w)
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 35 { // 3.5 s: three write timeouts
			fmt.Fprintf(w, "data: %d\n\n", i)
			if rc.Flush() != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case eventsPath, "/api/state":
			stream(w)
		case "/api/slow":
			time.Sleep(2 * l.Write)
			fmt.Fprint(w, "late")
		default:
			fmt.Fprint(w, "page")
		}
	})
	hook := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hook") })
	cfg := config{WebhookURL: "https://cards.example.org/telegram/hook", WebAppURL: "https://cards.example.org/table/"}
	srv := newServer(publicHandler(cfg, hook, page, l), l, zerolog.Nop())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()
	read := func(method, path string, header http.Header) (int, string, error) {
		req, _ := http.NewRequest(method, base+path, nil)
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), err
	}

	t.Run("routes", func(t *testing.T) {
		for _, c := range []struct{ method, path, want string }{
			{"GET", "/table/", "page"}, {"GET", "/table/app.js", "page"}, {"POST", "/telegram/hook", "hook"},
		} {
			if code, body, err := read(c.method, c.path, nil); err != nil || code != 200 || body != c.want {
				t.Errorf("%s %s: %d %q %v, want %q", c.method, c.path, code, body, err, c.want)
			}
		}
		for _, path := range []string{"/metrics", "/healthz", "/"} {
			if code, _, _ := read("GET", path, nil); code != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", path, code)
			}
		}
	})
	t.Run("the event stream outlives the write timeout", func(t *testing.T) {
		t.Parallel()
		_, body, err := read("GET", "/table"+eventsPath, nil)
		if err != nil || !strings.Contains(body, "data: 34\n") {
			t.Errorf("the stream was cut: %q %v", body, err)
		}
	})
	t.Run("a stream on another route is cut", func(t *testing.T) {
		t.Parallel()
		if _, body, err := read("GET", "/table/api/state", nil); err == nil && strings.Contains(body, "data: 34\n") {
			t.Errorf("a long answer outside the stream route ran past the write timeout: %q", body)
		}
	})
	t.Run("a slow answer is cut", func(t *testing.T) {
		t.Parallel()
		if _, body, err := read("GET", "/table/api/slow", nil); err == nil && body == "late" {
			t.Error("an answer written after the write timeout arrived")
		}
	})
	t.Run("slow headers are dropped", func(t *testing.T) {
		t.Parallel()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprint(c, "GET /table/ HTTP/1.1\r\nHost: cards.example.org\r\n") // and nothing more
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		if _, err := bufio.NewReader(c).ReadByte(); err != io.EOF {
			t.Errorf("read %v, want the connection closed", err)
		}
		t.Logf("a client that never finished its headers was dropped after %v", time.Since(start))
	})
	t.Run("big headers are refused", func(t *testing.T) {
		t.Parallel()
		h := http.Header{"X-Big": {strings.Repeat("x", 16<<10)}} // well past the limit and its 4 KB of slack
		if code, _, err := read("GET", "/table/", h); err != nil || code != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%d %v, want 431", code, err)
		}
	})
}

// TestServersHaveEveryLimit: the servers run builds carry every limit.
func TestServersHaveEveryLimit(t *testing.T) {
	srv := newServer(http.NotFoundHandler(), serverLimits(), zerolog.Nop())
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Errorf("a limit is unset: %+v", srv)
	}
}
