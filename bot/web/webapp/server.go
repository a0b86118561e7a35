// Package webapp serves «Стол», the table as a Telegram Mini App: a static
// page (embedded, see static.go) that draws any game's adapter.Scene, and the
// API it talks to — the viewer's state, a live stream of it, actions and
// the page's visibility. Every request is authenticated by the initData
// Telegram gives the page (bot/initdata); actions go through the bot's own
// apply path (web.Web.Act), so the chat and the page are one game.
//
// Live updates are Server-Sent Events: every commit, on any replica,
// announces itself through the store (WatchChanges); the table is then read
// once for all its open streams and drawn once per viewer kind (a seat, or
// the spectators), coalescing a burst into the latest version. Views travel
// over our own connection: no Bot API call is spent on a page but the cached
// getChatMember that asks who may watch.
//
// What a page may cost is bounded: reads and actions are rate-limited per
// user, a user has a few streams at most (a new one closes the oldest), the
// process a fixed number (more are refused with 503 and Retry-After), and
// a stream ends when its initData expires, its viewer leaves the group (asked
// again at every state it pushes and every 15 s) or the server stops. A
// move wants initData signed within the hour; reading keeps Telegram's day.
package webapp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot/internal/userlimit"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/bot/web/initdata"
	"github.com/trickchef/trickchef/store"
)

// Web is what the page's API needs of the web role (*web.Web has it).
type Web interface {
	View(ctx context.Context, token string) (*web.View, error)
	State(ctx context.Context, token string, user int64) (web.State, error)
	Act(ctx context.Context, token string, user models.User, data, key string) (web.Reply, error)
	Seen(ctx context.Context, token string, user int64, visible bool) error
	Replay(ctx context.Context, token string, user int64, step int) (web.Replay, error)
	Cup(ctx context.Context, token string, user int64) (web.Cup, error)
	Text(lang, key string, args ...any) string
}

// Changes tells of committed tables (store.Redis and store.Bolt have it).
type Changes interface {
	WatchChanges(ctx context.Context) (<-chan store.TableChange, error)
}

// Config tunes the server. Zero values get the defaults.
type Config struct {
	// Token is the bot's token: initData is signed with a key derived
	// from it.
	Token string
	// MaxAge is how old initData may be to read (default 24 h, as
	// Telegram suggests).
	MaxAge time.Duration
	// ActMaxAge is how old initData may be to act (api/act: a move,
	// «Ещё партию»; default 1 h): a page left open for a day reads on, but
	// makes no move for someone who may have left the group since.
	ActMaxAge time.Duration
	// Recheck is how often an open stream asks again whether its viewer
	// may still watch (default 15 s; it asks at every state it pushes
	// too): with members.MemberTTL, someone who left the group sees the
	// page close within a minute.
	Recheck time.Duration
	// DefaultLang is the language of answers before a table is known.
	DefaultLang string
	// ActionsPerSecond and ActionBurst limit each user's actions
	// (default 4 a second, bursts of 8): more than fingers make.
	ActionsPerSecond float64
	ActionBurst      int
	// ReadsPerSecond and ReadBurst limit each user's reads (api/state
	// and opening a stream; default 2 a second, bursts of 10): a page
	// reads on opening and reconnecting only.
	ReadsPerSecond float64
	ReadBurst      int
	// ReplaysPerSecond and ReplayBurst limit each user's replay steps
	// (api/replay; default 8 a second, bursts of 16): a finger on ▶ taps
	// faster than a page reads, and each step replays the game's log once.
	ReplaysPerSecond float64
	ReplayBurst      int
	// StreamsPerUser is how many live streams one user keeps (default 4:
	// a phone and a desktop, a reload in flight); a further one closes
	// that user's oldest.
	StreamsPerUser int
	// MaxStreams is how many streams this process serves at once
	// (default 2000, about 120 MB); past it a stream is refused with 503
	// and Retry-After, and the page retries (another replica, if any).
	MaxStreams int
	// Ping is how often an idle stream says it is alive (default 15 s),
	// under the idle timeouts of proxies.
	Ping time.Duration
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
	// Panicked, if set, counts a request whose handling panicked.
	Panicked func()
}

// maxBody bounds a request body: an action is well under a kilobyte.
const maxBody = 4 << 10

// Server is the page and its API. Create it with New, start Run, and serve
// Handler.
type Server struct {
	cfg     Config
	web     Web
	changes Changes
	check   *initdata.Checker
	log     zerolog.Logger
	hub     *hub
	limit   *userlimit.Limiter
	reads   *userlimit.Limiter
	replays *userlimit.Limiter
	streams *streams
	files   files
	// closing is closed when Run's context ends: every stream ends then.
	closing chan struct{}
}

// New makes a server; it serves nothing live until Run has started.
func New(cfg Config, w Web, changes Changes, log zerolog.Logger) *Server {
	if cfg.ActionsPerSecond <= 0 {
		cfg.ActionsPerSecond = 4
	}
	if cfg.ActionBurst <= 0 {
		cfg.ActionBurst = 8
	}
	if cfg.ReadsPerSecond <= 0 {
		cfg.ReadsPerSecond = 2
	}
	if cfg.ReadBurst <= 0 {
		cfg.ReadBurst = 10
	}
	if cfg.ReplaysPerSecond <= 0 {
		cfg.ReplaysPerSecond = 8
	}
	if cfg.ReplayBurst <= 0 {
		cfg.ReplayBurst = 16
	}
	if cfg.StreamsPerUser <= 0 {
		cfg.StreamsPerUser = 4
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = 2000
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = 24 * time.Hour
	}
	if cfg.ActMaxAge <= 0 {
		cfg.ActMaxAge = time.Hour
	}
	if cfg.Recheck <= 0 {
		cfg.Recheck = 15 * time.Second
	}
	if cfg.Ping <= 0 {
		cfg.Ping = 15 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.DefaultLang == "" {
		cfg.DefaultLang = "ru"
	}
	return &Server{
		cfg:     cfg,
		web:     w,
		changes: changes,
		check:   initdata.NewChecker(cfg.Token, cfg.MaxAge),
		log:     log,
		hub:     newHub(),
		limit:   userlimit.New(cfg.ActionsPerSecond, cfg.ActionBurst),
		reads:   userlimit.New(cfg.ReadsPerSecond, cfg.ReadBurst),
		replays: userlimit.New(cfg.ReplaysPerSecond, cfg.ReplayBurst),
		streams: newStreams(cfg.StreamsPerUser, cfg.MaxStreams),
		files:   prepareFiles(Static()),
		closing: make(chan struct{}),
	}
}

// Run follows the store's changes until ctx is done, and then ends every
// open stream at once (the pages reconnect, to another replica if there is
// one), so stopping the process does not wait for them. It returns once it
// listens, with an error when it cannot.
func (s *Server) Run(ctx context.Context) error {
	ch, err := s.changes.WatchChanges(ctx)
	if err != nil {
		return err
	}
	safe.Go(s.log, s.cfg.Panicked, "web: following the store's changes", func() {
		for safe.Call(s.log, s.cfg.Panicked, "web: following the store's changes", func() { s.hub.run(ch) }) != nil {
			// A notice that panicked is behind; the next ones still go out.
		}
	})
	safe.Go(s.log, s.cfg.Panicked, "web: closing the streams", func() {
		<-ctx.Done()
		close(s.closing)
	})
	return nil
}

// Handler serves the page at "/" and its API under "/api/"; mount it under
// the path of the page's public address with http.StripPrefix.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/state", s.serveState)
	mux.HandleFunc("GET /api/events", s.serveEvents)
	mux.HandleFunc("POST /api/act", s.serveAct)
	mux.HandleFunc("POST /api/seen", s.serveSeen)
	mux.HandleFunc("GET /api/replay", s.serveReplay)
	mux.HandleFunc("GET /api/cup", s.serveCup)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "not_found", "web.bad_request", "")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		s.files.serve(w, r)
	})
	return secure(s.recovering(mux))
}

// recovering answers a request whose handling panicked (a game's scene, a
// bug) with a 500, logs the panic with its stack and counts it: one page
// never takes the process down, and nobody has to read net/http's stderr.
func (s *Server) recovering(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // net/http's own way to drop a connection
			}
			s.log.Error().Interface("panic", v).Str("path", r.URL.Path).Bytes("stack", debug.Stack()).Msg("web: a request panicked")
			if s.cfg.Panicked != nil {
				s.cfg.Panicked()
			}
			s.fail(w, r, http.StatusInternalServerError, "internal", "error.busy", "")
		}()
		next.ServeHTTP(w, r)
	})
}

// secure adds the headers every answer carries: a Content-Security-Policy
// that allows only our own files (no inline script, no other origin), no
// type sniffing, no referrer; and lets Telegram's web client frame it.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "+
			"base-uri 'none'; form-action 'none'; frame-ancestors 'self' https://web.telegram.org")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if strings.Contains(r.URL.Path, "/api/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// viewer is who sent a request, as their initData says.
type viewer struct {
	user models.User
	lang string
	// signed is when Telegram signed the initData (its auth_date), and
	// expires when it becomes too old to read with.
	signed, expires time.Time
}

// auth checks the request's initData ("Authorization: tma <initData>").
func (s *Server) auth(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "tma ")
	if !ok {
		s.fail(w, r, http.StatusUnauthorized, "auth", "web.auth", "")
		return viewer{}, false
	}
	d, err := s.check.Check(raw, s.cfg.Now())
	if err != nil {
		s.log.Debug().Err(err).Msg("web: initData refused")
		s.fail(w, r, http.StatusUnauthorized, "auth", "web.auth", "")
		return viewer{}, false
	}
	u := d.User
	return viewer{
		user:    models.User{ID: u.ID, FirstName: u.FirstName, LastName: u.LastName, Username: u.Username, LanguageCode: u.LanguageCode},
		lang:    u.LanguageCode,
		signed:  d.AuthDate,
		expires: d.AuthDate.Add(s.cfg.MaxAge),
	}, true
}

// read authenticates a request that reads a table, within its sender's
// rate of reads; a refusal is answered and reported as false.
func (s *Server) read(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	v, ok := s.auth(w, r)
	if !ok {
		return v, false
	}
	if !s.reads.Allow(v.user.ID, s.cfg.Now()) {
		w.Header().Set("Retry-After", "1")
		s.fail(w, r, http.StatusTooManyRequests, "rate", "web.rate_limited", v.lang)
		return v, false
	}
	return v, true
}

// errorBody is a refused request's answer: a code for the page and the
// text to show.
type errorBody struct {
	Error string `json:"error"`
	Text  string `json:"text"`
}

// fail answers a refused request in the viewer's language (the table's
// when known).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, code, key, lang string) {
	if lang == "" {
		lang = s.cfg.DefaultLang
	}
	writeJSON(w, status, errorBody{Error: code, Text: s.web.Text(lang, key)})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// state loads the viewer's state with the page's words filled in; a
// failure is answered and reported as false.
func (s *Server) state(w http.ResponseWriter, r *http.Request, v viewer, table string) (web.State, bool) {
	if table == "" {
		s.noTable(w, r, v)
		return web.State{}, false
	}
	ws, err := s.web.State(r.Context(), table, v.user.ID)
	if s.failed(w, r, v, err, table, "state") {
		return ws, false
	}
	ws.Texts = s.texts(ws.Lang)
	return ws, true
}

// noTable answers a page opened without a table (a link that lost its
// parameter, the app opened from the bot's profile): how to open one.
func (s *Server) noTable(w http.ResponseWriter, r *http.Request, v viewer) {
	s.fail(w, r, http.StatusNotFound, "no_table", "web.no_table", v.lang)
}

// texts are the page's words in a language, read from the catalog.
func (s *Server) texts(lang string) map[string]string {
	keys := TextKeys()
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = s.web.Text(lang, "web."+k)
	}
	return out
}

func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	v, ok := s.read(w, r)
	if !ok {
		return
	}
	ws, ok := s.state(w, r, v, r.URL.Query().Get("table"))
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, ws)
}

// serveEvents streams the viewer's state: at once (unless Last-Event-ID
// says the page has this version), then after every change of the table.
// Who may watch is asked again before every state it pushes and every
// Recheck (cached, members.Cache): a viewer who left the group is sent a
// «closed» event with the words to show and the stream ends. It ends too
// when the page goes, when the viewer's initData expires (the page must
// show it is still theirs: a reconnect checks it again), when the same
// user opens more streams than they may, and when the server stops.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	v, ok := s.read(w, r)
	if !ok {
		return
	}
	token := r.URL.Query().Get("table")
	if token == "" {
		s.noTable(w, r, v)
		return
	}
	view, err := s.web.View(r.Context(), token)
	if err == nil {
		var allowed bool
		if allowed, err = view.Allowed(r.Context(), v.user.ID); err == nil && !allowed {
			err = web.ErrNotFound
		}
	}
	if s.failed(w, r, v, err, token, "stream") {
		return
	}
	ws, err := view.State(view.Kind(v.user.ID))
	if s.failed(w, r, v, err, token, "stream") {
		return
	}
	st, ok := s.streams.open(v.user.ID)
	select {
	case <-s.closing:
		if ok {
			s.streams.close(v.user.ID, st)
		}
		ok = false
	default:
	}
	if !ok {
		w.Header().Set("Retry-After", "5")
		s.fail(w, r, http.StatusServiceUnavailable, "busy", "error.busy", v.lang)
		return
	}
	defer s.streams.close(v.user.ID, st)
	f := s.hub.subscribe(view.ID(), st.wake)
	defer s.hub.unsubscribe(view.ID(), st.wake)
	// A change committed between the read above and the subscription
	// would go unheard: the stream reads once more through the feed.
	f.recheck(st.wake)

	rc := http.NewResponseController(w)
	// A stream lives long: the server's write timeout must not cut it.
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events through at once
	w.WriteHeader(http.StatusOK)

	expiry := time.NewTimer(v.expires.Sub(s.cfg.Now()))
	defer expiry.Stop()
	last, _ := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64)
	ping := time.NewTicker(s.cfg.Ping)
	defer ping.Stop()
	recheck := time.NewTicker(s.cfg.Recheck)
	defer recheck.Stop()
	// still reports whether the viewer may watch on; when not, the page is
	// told so and the stream ends.
	still := func() bool {
		ok, err := view.Allowed(r.Context(), v.user.ID)
		switch {
		case err != nil:
			return false // the page reconnects, and is asked again
		case !ok:
			_ = writeClosed(w, s.web.Text(ws.Lang, "web.left_group"))
			_ = rc.Flush()
			return false
		}
		return true
	}
	var shown string // what the page shows, version and clock aside
	var sentLang, sentRules string
	c := content(ws)
	for {
		if ws.Version != last {
			if c != shown {
				// The page's words and the guide go once per stream (and
				// again when they change): the page keeps them.
				ev := ws
				if ev.Lang != sentLang {
					ev.Texts = s.texts(ev.Lang)
				}
				if ev.Rules == sentRules {
					ev.Rules = ""
				}
				if err := writeEvent(w, ev); err != nil {
					return
				}
				shown, sentLang, sentRules = c, ws.Lang, ws.Rules
			}
			last = ws.Version
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-st.evicted:
			return
		case <-expiry.C:
			return
		case <-ping.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
				return
			}
			continue
		case <-recheck.C:
			if !still() {
				return
			}
			continue
		case <-st.wake:
		}
		if !still() {
			return
		}
		next, err := f.state(r.Context(), s.web, token, v.user.ID)
		if err != nil {
			if r.Context().Err() == nil && !errors.Is(err, web.ErrNotFound) {
				s.log.Warn().Err(err).Str("table", view.ID()).Msg("web: state for a stream")
			}
			return // the page reconnects and resumes
		}
		if next.ws.Version > ws.Version {
			ws, c = next.ws, next.content
		}
	}
}

// content is a state as the page draws it: a commit that changes nothing
// a viewer sees (another page saying it is visible) sends them nothing.
func content(ws web.State) string {
	ws.Version, ws.Now = 0, 0
	data, _ := json.Marshal(ws)
	return string(data)
}

// writeEvent sends one state as an event whose id is its version.
func writeEvent(w io.Writer, ws web.State) error {
	data, err := json.Marshal(ws)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "id: "+strconv.FormatInt(ws.Version, 10)+"\nevent: state\ndata: "+string(data)+"\n\n")
	return err
}

// writeClosed tells the page its viewer may watch no more, with the words
// to show instead of the table; the stream ends after it.
func writeClosed(w io.Writer, text string) error {
	data, err := json.Marshal(errorBody{Error: "left", Text: text})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "event: closed\ndata: "+string(data)+"\n\n")
	return err
}

// actRequest is an action from the page.
type actRequest struct {
	Table string `json:"table"`
	Act   string `json:"act"`
	Key   string `json:"key"`
}

// seenRequest says whether the page is visible.
type seenRequest struct {
	Table   string `json:"table"`
	Visible bool   `json:"visible"`
}

// readJSON decodes a small JSON body, refusing anything else.
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request, v viewer, into any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.fail(w, r, http.StatusRequestEntityTooLarge, "too_large", "web.bad_request", v.lang)
		} else {
			s.fail(w, r, http.StatusBadRequest, "bad_request", "web.bad_request", v.lang)
		}
		return false
	}
	return true
}

// refusedStatus is the HTTP status of a refused action.
var refusedStatus = map[string]int{
	web.RefusedBad:     http.StatusBadRequest,
	web.RefusedForeign: http.StatusForbidden,
	web.RefusedStale:   http.StatusConflict,
	web.RefusedRule:    http.StatusUnprocessableEntity,
	web.RefusedBusy:    http.StatusServiceUnavailable,
	web.RefusedBroken:  http.StatusGone,
}

// post reads a page's request that changes something: its sender, within
// their rate, and its JSON body; a refusal is answered and reported as
// false.
func (s *Server) post(w http.ResponseWriter, r *http.Request, into any) (viewer, bool) {
	v, ok := s.auth(w, r)
	if !ok {
		return v, false
	}
	if !s.limit.Allow(v.user.ID, s.cfg.Now()) {
		w.Header().Set("Retry-After", "1")
		s.fail(w, r, http.StatusTooManyRequests, "rate", "web.rate_limited", v.lang)
		return v, false
	}
	return v, s.readJSON(w, r, v, into)
}

// failed answers what the bot refused or failed to do (4xx for the page's
// mistakes, 503 for ours) and reports whether it did; a request the page
// abandoned gets no answer and is not logged.
func (s *Server) failed(w http.ResponseWriter, r *http.Request, v viewer, err error, table, what string) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, web.ErrBadRequest):
		s.fail(w, r, http.StatusBadRequest, "bad_request", "web.bad_request", v.lang)
	case errors.Is(err, web.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, "not_found", "web.not_found", v.lang)
	case errors.Is(err, web.ErrNoCup):
		s.fail(w, r, http.StatusNotFound, "no_cup", "web.no_cup", v.lang)
	case errors.Is(err, web.ErrNoReplay):
		s.fail(w, r, http.StatusConflict, "no_replay", "web.no_replay", v.lang)
	case r.Context().Err() != nil:
		// The page went away: nobody to answer.
	default:
		s.log.Error().Err(err).Str("table", table).Msg("web: " + what)
		s.fail(w, r, http.StatusServiceUnavailable, "unavailable", "error.busy", v.lang)
	}
	return true
}

func (s *Server) serveAct(w http.ResponseWriter, r *http.Request) {
	var req actRequest
	v, ok := s.post(w, r, &req)
	if !ok {
		return
	}
	if s.cfg.Now().Sub(v.signed) > s.cfg.ActMaxAge {
		// Reading keeps Telegram's day; a move wants the page opened anew.
		s.fail(w, r, http.StatusUnauthorized, "reopen", "web.reopen", v.lang)
		return
	}
	reply, err := s.web.Act(r.Context(), req.Table, v.user, req.Act, req.Key)
	if s.failed(w, r, v, err, req.Table, "action") {
		return
	}
	status := http.StatusOK
	if !reply.OK {
		status = refusedStatus[reply.Refused]
		if status == 0 {
			status = http.StatusUnprocessableEntity
		}
	}
	writeJSON(w, status, reply)
}

func (s *Server) serveSeen(w http.ResponseWriter, r *http.Request) {
	var req seenRequest
	v, ok := s.post(w, r, &req)
	if !ok {
		return
	}
	err := s.web.Seen(r.Context(), req.Table, v.user.ID, req.Visible)
	if s.failed(w, r, v, err, req.Table, "visibility") {
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// maxStepDigits bounds the digits of a replay's step: far more moves than any
// game has, and a number that cannot overflow.
const maxStepDigits = 6

// gameKeyRE is what a review.GameKey looks like: a game number and a time.
var gameKeyRE = regexp.MustCompile(`^[0-9]{1,9}\.[0-9]{1,12}$`)

// serveReplay answers one step of a finished game's replay (web.Replay):
// GET api/replay?table=<token>&step=<k>[&game=<key>], k from 0 (the deal)
// to the game's number of moves; game, when given (a «🔍 Разбор» link),
// is the review.GameKey the replay must be of. The same initData and the
// same right to look as api/state; a step that is no such number, or a
// game that is no key, is 400, a table whose game is not over 409, and
// so is one whose finished game is another (replay_gone).
func (s *Server) serveReplay(w http.ResponseWriter, r *http.Request) {
	v, ok := s.auth(w, r)
	if !ok {
		return
	}
	if !s.replays.Allow(v.user.ID, s.cfg.Now()) {
		w.Header().Set("Retry-After", "1")
		s.fail(w, r, http.StatusTooManyRequests, "rate", "web.rate_limited", v.lang)
		return
	}
	q := r.URL.Query()
	token := q.Get("table")
	if token == "" {
		s.noTable(w, r, v)
		return
	}
	raw := q.Get("step")
	step, err := strconv.ParseUint(raw, 10, 32)
	if err != nil || len(raw) > maxStepDigits || len(q["step"]) != 1 {
		s.fail(w, r, http.StatusBadRequest, "bad_request", "web.bad_request", v.lang)
		return
	}
	game, pinned := q["game"]
	if pinned && (len(game) != 1 || !gameKeyRE.MatchString(game[0])) {
		s.fail(w, r, http.StatusBadRequest, "bad_request", "web.bad_request", v.lang)
		return
	}
	rp, err := s.web.Replay(r.Context(), token, v.user.ID, int(step))
	if s.failed(w, r, v, err, token, "replay") {
		return
	}
	if pinned && rp.Game != game[0] {
		// A link to a move of a game the table no longer holds (a later
		// game replaced it): never another game's move in its place.
		s.fail(w, r, http.StatusConflict, "replay_gone", "web.replay_gone", v.lang)
		return
	}
	writeJSON(w, http.StatusOK, rp)
}

// serveCup answers the cup of the group of a table (web.Cup): GET
// api/cup?table=<token>, the token of any of the group's tables, its
// cup's host or one of the cup's tables. The same initData, rate of reads
// and right to look as api/state; a group with no cup to show is 404
// no_cup. It only reads.
func (s *Server) serveCup(w http.ResponseWriter, r *http.Request) {
	v, ok := s.read(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	token := q.Get("table")
	if token == "" || len(q["table"]) != 1 {
		s.noTable(w, r, v)
		return
	}
	c, err := s.web.Cup(r.Context(), token, v.user.ID)
	if s.failed(w, r, v, err, token, "cup") {
		return
	}
	c.Texts = s.texts(c.Lang)
	writeJSON(w, http.StatusOK, c)
}

// Streams is how many event streams are open (measurements and tests).
func (s *Server) Streams() int { return s.streams.count() }
