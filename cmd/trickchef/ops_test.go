package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web/initdata"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// texts loads the bot's message catalog: the tests find the bot's messages
// and check its answers by key, never by a typed phrase.
func texts(t testing.TB) *bottest.Texts {
	t.Helper()
	x, err := bottest.NewTexts()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// process is Main running against the fake Bot API with the embedded
// store, listening on addr (public) and ops (/healthz, /metrics).
type process struct {
	srv    *telegramtest.Server
	addr   string
	ops    string
	stderr *syncBuffer
	cancel context.CancelFunc
	code   chan int
}

// startMain runs Main with the settings every process test needs, and
// extra ones.
func startMain(t *testing.T, extra map[string]string) *process {
	t.Helper()
	srv := telegramtest.NewServer(telegramtest.WithTB(t))
	t.Cleanup(srv.Close)
	p := &process{srv: srv, addr: freeAddr(t), ops: freeAddr(t), stderr: &syncBuffer{}, code: make(chan int, 1)}
	env := map[string]string{
		"TELEGRAM_TOKEN":   testToken,
		"TELEGRAM_API_URL": srv.URL,
		"DATA_DIR":         t.TempDir(),
		"LISTEN_ADDR":      p.addr,
		"OPS_ADDR":         p.ops,
		// Debug: everything the process can log is checked for the token.
		"LOG_LEVEL": "debug",
	}
	for k, v := range extra {
		env[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	t.Cleanup(cancel)
	go func() { p.code <- Main(ctx, nil, func(k string) string { return env[k] }, p.stderr) }()
	return p
}

// stop ends Main as a stop signal does; it must exit cleanly, and must
// never have logged the token.
func (p *process) stop(t *testing.T) {
	t.Helper()
	p.cancel()
	select {
	case c := <-p.code:
		if c != 0 {
			t.Fatalf("Main exited %d after a stop signal:\n%s", c, p.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Main did not stop")
	}
	if strings.Contains(p.stderr.String(), testSecret) {
		t.Error("the token's secret appears in the logs")
	}
}

// TestMainServesOpsAndDrains runs the real process wiring against the fake
// Bot API with the embedded store: a user's /start is answered, /healthz
// and /metrics answer on OPS_ADDR (polling without a page opens no public
// listener), and cancelling (SIGTERM) ends Main cleanly.
func TestMainServesOpsAndDrains(t *testing.T) {
	p := startMain(t, nil)
	srv, addr, stderr := p.srv, p.ops, p.stderr

	greeting := texts(t).Shown("start.greeting")
	u := srv.NewUser("Аня")
	u.Start("")
	if _, err := u.PrivateChat().WaitMessage(10*time.Second, func(m *telegramtest.Message) bool {
		return strings.Contains(m.Text, greeting)
	}); err != nil {
		t.Fatalf("no greeting: %v\n%s", err, stderr.String())
	}
	if cmds := srv.MyCommands("default", "ru"); len(cmds) == 0 {
		t.Error("no Russian command menu registered")
	}
	deadline := time.Now().Add(5 * time.Second)
	status, body := get(t, "http://"+addr+"/healthz")
	for status != http.StatusOK && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		status, body = get(t, "http://"+addr+"/healthz")
	}
	if status != http.StatusOK {
		t.Fatalf("/healthz: %d %s", status, body)
	}
	// The update is counted right after it was handled, so poll briefly.
	counted := func() bool {
		status, body = get(t, "http://"+addr+"/metrics")
		return status == http.StatusOK && strings.Contains(body, `trickchef_updates_total{kind="message",outcome="ok"}`) &&
			strings.Contains(body, `trickchef_telegram_calls_total{method="sendMessage",result="ok"}`)
	}
	for deadline := time.Now().Add(5 * time.Second); !counted() && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if !counted() {
		t.Fatalf("/metrics: %d\n%s", status, body)
	}
	if _, err := net.DialTimeout("tcp", p.addr, time.Second); err == nil {
		t.Errorf("LISTEN_ADDR %s accepts connections in polling mode without a page", p.addr)
	}
	p.stop(t)
}

// TestMainServesTheWebTable: with WEBAPP_URL set, the process serves the
// «Стол» page and its API at that URL's path on LISTEN_ADDR, with the
// embedded store; an unsigned request is refused; /healthz and /metrics
// are on OPS_ADDR only.
func TestMainServesTheWebTable(t *testing.T) {
	p := startMain(t, map[string]string{
		"WEBAPP_URL":        "https://cards.example.org/table/",
		"WEBAPP_SHORT_NAME": "table",
	})
	addr, stderr := p.addr, p.stderr
	base := "http://" + addr
	deadline := time.Now().Add(10 * time.Second)
	status, body := get(t, base+"/table/")
	for status != http.StatusOK && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		status, body = get(t, base+"/table/")
	}
	if status != http.StatusOK || !strings.Contains(body, `src="app.js?v=`) {
		t.Fatalf("the page at /table/: %d %.200s\n%s", status, body, stderr.String())
	}
	if status, body := get(t, base+"/table/app.js"); status != http.StatusOK || len(body) < 1000 {
		t.Fatalf("/table/app.js: %d, %d bytes", status, len(body))
	}
	if status, body := get(t, base+"/table/api/state?table=-100"); status != http.StatusUnauthorized || !strings.Contains(body, `"auth"`) {
		t.Fatalf("an unsigned state request: %d %s", status, body)
	}
	for _, path := range []string{"/healthz", "/metrics"} {
		if status, _ := get(t, base+path); status != http.StatusNotFound {
			t.Errorf("%s on the public listener: %d, want 404", path, status)
		}
		if status, _ := get(t, "http://"+p.ops+path); status != http.StatusOK {
			t.Errorf("%s on OPS_ADDR: %d", path, status)
		}
	}
	p.stop(t)
}

// TestMainStopsWithStreamsOpen: a stop signal ends the process promptly
// with 100 «Стол» event streams open: the page server ends every stream at
// once instead of the listener waiting out its shutdown timeout for them.
// The time is logged (go test ./cmd/trickchef -run TestMainStopsWithStreamsOpen -v),
// not asserted: docs/web.md gives it.
func TestMainStopsWithStreamsOpen(t *testing.T) {
	p := startMain(t, map[string]string{"WEBAPP_URL": "https://cards.example.org/table/"})
	x := texts(t)
	var people []*telegramtest.User
	for _, name := range []string{"Аня", "Борис", "Вера"} {
		u := p.srv.NewUser(name)
		if err := greet(u); err != nil {
			t.Fatal(err)
		}
		people = append(people, u)
	}
	group := p.srv.NewGroup("Стол", people...)
	if err := openTable(x, p.srv, group, people[0], people[1:], 0); err != nil {
		t.Fatal(err)
	}
	hand, err := people[0].PrivateChat().WaitMessage(slow, func(m *telegramtest.Message) bool {
		_, ok := m.ButtonFunc(func(b telegramtest.Button) bool { return b.WebApp != "" })
		return ok
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := hand.ButtonFunc(func(b telegramtest.Button) bool { return b.WebApp != "" })
	u, err := url.Parse(b.WebApp)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("table")
	// 25 members of the group, four streams each (a user's most).
	var viewers []*telegramtest.User
	for i := range 25 {
		v := p.srv.NewUser("Зритель " + strconv.Itoa(i))
		group.AddMember(v)
		viewers = append(viewers, v)
	}
	ended := make(chan struct{}, 100)
	for i := range 100 {
		v := viewers[i%len(viewers)]
		auth := initdata.SignUser(testToken, initdata.User{ID: v.ID(), FirstName: v.User().FirstName}, time.Now(), "")
		req, _ := http.NewRequest("GET", "http://"+p.addr+"/table/api/events?table="+url.QueryEscape(token), nil)
		req.Header.Set("Authorization", "tma "+auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i, resp.StatusCode)
		}
		go func() {
			defer resp.Body.Close()
			_, _ = io.Copy(io.Discard, resp.Body)
			ended <- struct{}{}
		}()
	}
	start := time.Now()
	p.stop(t)
	took := time.Since(start)
	for i := range 100 {
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of 100 streams still open after the process stopped", 100-i)
		}
	}
	t.Logf("stop with 100 streams open: Main returned after %v", took)
}
