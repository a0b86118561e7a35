// Package webpage talks to the «Стол» page server (bot/web/webapp) as an open
// page does: it signs the initData, opens the event stream, asks for the
// state and posts acts and «seen». The scenarios of cmd/botbench that open
// pages (web, and pace with -pages) share it, so both drive the server the
// same way.
package webpage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/telegramtest"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/store"
)

// Client is the pages' side of a page server on a local listener. Its
// methods name a table by its id, as the scenarios know it, and send the
// table's web token, as a page does.
type Client struct {
	base    string
	token   string
	streams *http.Client // long-lived event streams
	calls   *http.Client // state, act and seen requests
	srv     *http.Server
	bot     *bot.Bot
	// Web is the page server (its open streams, for measurements).
	Web *webapp.Server

	mu     sync.Mutex
	tokens map[string]string // table id → web token
}

// Serve runs the page server for b (signed with bottest.Token) on a local
// listener until ctx ends or Close is called, and returns its client.
// Its read limit is far above a page's: the scenarios read the state for
// every move they make.
func Serve(ctx context.Context, b *bot.Bot, st *store.Redis, log zerolog.Logger) (*Client, error) {
	return ServeWith(ctx, webapp.Config{ReadsPerSecond: 1000, ReadBurst: 1000}, b, st, log)
}

// ServeWith is Serve with the server's configuration (its token is
// bottest.Token's).
func ServeWith(ctx context.Context, cfg webapp.Config, b *bot.Bot, st *store.Redis, log zerolog.Logger) (*Client, error) {
	cfg.Token = bottest.Token
	web := webapp.New(cfg, b.Web, st, log)
	if err := web.Run(ctx); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: web.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	return &Client{
		base:    "http://" + ln.Addr().String(),
		token:   bottest.Token,
		streams: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}},
		calls: &http.Client{Timeout: time.Minute, Transport: &http.Transport{
			MaxIdleConnsPerHost: 256, DisableCompression: true,
		}},
		srv:    hs,
		bot:    b,
		Web:    web,
		tokens: map[string]string{},
	}, nil
}

// tableToken is the web token of table id, minted once.
func (c *Client) tableToken(ctx context.Context, id string) (string, error) {
	c.mu.Lock()
	tok, ok := c.tokens[id]
	c.mu.Unlock()
	if ok {
		return tok, nil
	}
	tok, err := c.bot.Web.Token(ctx, id)
	if err != nil {
		return "", fmt.Errorf("web token of %s: %w", id, err)
	}
	c.mu.Lock()
	c.tokens[id] = tok
	c.mu.Unlock()
	return tok, nil
}

// Get sends u's GET of an API path for the table, as a page would: the
// caller reads the answer, whatever its status, and closes it.
func (c *Client) Get(ctx context.Context, path, table string, u *telegramtest.User) (*http.Response, error) {
	hc := c.calls
	if strings.HasSuffix(path, "events") {
		hc = c.streams
	}
	return c.get(ctx, hc, u, path, table)
}

// Shutdown stops the server as the process does on SIGTERM: its Run
// context must have ended first, which ends the open streams.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.srv.Shutdown(ctx)
}

// Close stops the server and drops the idle connections.
func (c *Client) Close() {
	_ = c.srv.Close()
	c.streams.CloseIdleConnections()
	c.calls.CloseIdleConnections()
}

// auth is u's Authorization header, freshly signed as Telegram would.
func (c *Client) auth(u *telegramtest.User) string {
	return "tma " + initdata.SignUser(c.token, initdata.User{ID: u.ID(), FirstName: u.User().FirstName}, time.Now(), "")
}

func (c *Client) get(ctx context.Context, hc *http.Client, u *telegramtest.User, path, table string) (*http.Response, error) {
	tok, err := c.tableToken(ctx, table)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+path+"?table="+url.QueryEscape(tok), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", c.auth(u))
	return hc.Do(req)
}

func (c *Client) post(ctx context.Context, u *telegramtest.User, path string, body any) (*http.Response, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+path, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", c.auth(u))
	req.Header.Set("Content-Type", "application/json")
	return c.calls.Do(req)
}

// Events opens u's event stream of the table; the caller reads and closes
// the body.
func (c *Client) Events(ctx context.Context, table string, u *telegramtest.User) (io.ReadCloser, error) {
	resp, err := c.get(ctx, c.streams, u, "/api/events", table)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		return nil, fmt.Errorf("events: %d %s", resp.StatusCode, body)
	}
	return resp.Body, nil
}

// State asks for u's state of the table; size is its JSON's length.
func (c *Client) State(ctx context.Context, table string, u *telegramtest.User) (ws web.State, size int, err error) {
	resp, err := c.get(ctx, c.calls, u, "/api/state", table)
	if err != nil {
		return ws, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ws, 0, fmt.Errorf("state: %d", resp.StatusCode)
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return ws, 0, err
	}
	return ws, len(raw), json.Unmarshal(raw, &ws)
}

// Act sends one action from u's page; ok reports it was applied.
func (c *Client) Act(ctx context.Context, table string, u *telegramtest.User, data, key string) (bool, error) {
	tok, err := c.tableToken(ctx, table)
	if err != nil {
		return false, err
	}
	resp, err := c.post(ctx, u, "/api/act", map[string]string{"table": tok, "act": data, "key": key})
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var r web.Reply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return false, fmt.Errorf("act: %d: %w", resp.StatusCode, err)
	}
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
		return false, fmt.Errorf("act: %d %s", resp.StatusCode, r.Text)
	}
	return resp.StatusCode == http.StatusOK && r.OK, nil
}

// Seen tells the bot u's page of the table is visible.
func (c *Client) Seen(ctx context.Context, table string, u *telegramtest.User) error {
	tok, err := c.tableToken(ctx, table)
	if err != nil {
		return err
	}
	resp, err := c.post(ctx, u, "/api/seen", map[string]any{"table": tok, "visible": true})
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// Acts are what a viewer's page offers to press, but those skip holds
// for: moves (cards that are not dim, choices) and steps of a choice in
// parts. A choice labelled in brackets is a card the chat shows as not
// playable (a game whose web buttons are its chat buttons).
func Acts(ws web.State, skip func(act string) bool) (moves, steps []string) {
	if ws.Scene == nil {
		return nil, nil
	}
	add := func(a string) {
		b, err := adapter.ParseButton(a)
		switch {
		case err != nil || (skip != nil && skip(a)):
		case b.Op == callback.Action:
			moves = append(moves, a)
		case b.Op == callback.Draft || b.Op == callback.Back:
			steps = append(steps, a)
		}
	}
	for _, c := range ws.Scene.Hand {
		if c.Act != "" && !c.Dim {
			add(c.Act)
		}
	}
	for _, c := range ws.Scene.Choices {
		if !strings.HasPrefix(c.Text, "(") {
			add(c.Act)
		}
	}
	return moves, steps
}
