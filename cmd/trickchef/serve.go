package main

import (
	"context"
	"errors"
	"fmt"
	stdlog "log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/safe"
)

// The process serves two listeners: the public one (LISTEN_ADDR: the
// webhook and the «Стол» page, behind a reverse proxy) and the operator's
// (OPS_ADDR: /healthz and /metrics, on loopback by default), so what
// tells the bot's internals is never reachable from where Telegram and
// players come.

// limits bound what one client may hold of a server: a slow or silent
// client is dropped instead of keeping a connection (and its goroutine)
// for ever.
type limits struct {
	// ReadHeader is how long a client may take to send a request's
	// headers; Read, the whole request with its body.
	ReadHeader, Read time.Duration
	// Write is how long an answer may take to be written. The page's event
	// streams live for hours: for them it bounds each write instead.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next request.
	Idle time.Duration
	// MaxHeaderBytes bounds a request's headers (the page's signed
	// initData is the largest, about 1 KB).
	MaxHeaderBytes int
}

// serverLimits are the limits every server of the process runs with. A
// webhook update or a page's action is answered once stored, well within
// Write; Telegram and the page retry what was cut.
func serverLimits() limits {
	return limits{ReadHeader: 5 * time.Second, Read: 30 * time.Second, Write: 60 * time.Second,
		Idle: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}

// newServer is an http.Server with every limit set, logging through log.
func newServer(h http.Handler, l limits, log zerolog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ErrorLog:          stdlog.New(warnWriter{log}, "", 0),
	}
}

// warnWriter logs what net/http reports (a failed accept, a bad TLS
// handshake) as warnings.
type warnWriter struct{ log zerolog.Logger }

func (w warnWriter) Write(p []byte) (int, error) {
	w.log.Warn().Msg(strings.TrimSpace(string(p)))
	return len(p), nil
}

// listen opens a listener at once, so a busy port stops the process at
// start with the variable to change, not later and silently.
func listen(env, addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", env, addr, err)
	}
	return l, nil
}

// pinger is what /healthz asks: the store answers.
type pinger interface {
	Ping(ctx context.Context) error
}

// opsHandler serves /healthz (200 while the store answers) and /metrics.
func opsHandler(st pinger, reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := st.Ping(ctx); err != nil {
			http.Error(w, "store unreachable", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

// eventsPath is the page's event stream, under the page's path: the one
// long-lived route of the public listener.
const eventsPath = "/api/events"

// publicHandler routes the public listener: the webhook at its URL's path
// (hook nil: polling), the page at its URL's path (page nil: no page), and
// the page's event streams with a write timeout per write.
func publicHandler(cfg config, hook, page http.Handler, l limits) http.Handler {
	mux := http.NewServeMux()
	if hook != nil {
		mux.Handle(urlPath(cfg.WebhookURL), hook)
	}
	if page != nil {
		prefix := strings.TrimSuffix(urlPath(cfg.WebAppURL), "/")
		h := http.StripPrefix(prefix, page)
		mux.Handle(prefix+"/", h)
		mux.Handle("GET "+prefix+eventsPath, perWrite(h, l.Write))
	}
	return mux
}

// urlPath is the path of a URL the configuration checked, "/" when empty.
func urlPath(raw string) string {
	u, _ := url.Parse(raw)
	if u == nil || u.Path == "" {
		return "/"
	}
	return u.Path
}

// perWrite gives each write of a long answer the write timeout, instead
// of the whole answer: an event stream lives as long as its page is open,
// and a client that stops reading is still dropped.
func perWrite(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}, r)
	})
}

// deadlineWriter moves the write deadline before every write and flush.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) extend() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

// FlushError is what http.ResponseController.Flush calls.
func (w *deadlineWriter) FlushError() error {
	w.extend()
	return w.rc.Flush()
}

func (w *deadlineWriter) Flush() { _ = w.FlushError() }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serve runs srv on l; failed gets its error, if it ends other than by
// shutdown (a panic is logged and counted, and ends it too).
func serve(srv *http.Server, l net.Listener, failed func(error), log zerolog.Logger, panics func()) {
	safe.Go(log, panics, "serving "+l.Addr().String(), func() {
		err := errors.New("the server stopped")
		defer func() {
			if err != nil && !errors.Is(err, http.ErrServerClosed) {
				failed(err)
			}
		}()
		err = srv.Serve(l)
	})
}

// shutdown stops srv, letting requests in flight finish: a webhook
// update is answered only once stored.
func shutdown(srv *http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
}
