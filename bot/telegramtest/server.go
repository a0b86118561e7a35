package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"
)

// Server is a fake Telegram Bot API server with a simulated world of users and chats.
// All methods are safe for concurrent use.
type Server struct {
	// URL is the base URL to give the bot (bot.WithServerURL(s.URL)); methods live at URL/bot<token>/<method>.
	URL string

	hs     *httptest.Server
	client *http.Client // for webhook delivery

	// Settings, fixed after NewServer.
	token        string
	bot          models.User
	clock        Clock
	limits       Limits
	queryTimeout time.Duration
	pressTimeout time.Duration
	retryDelay   time.Duration
	spec         *apiSpec
	tb           TB
	lenient      bool // AllowSpecViolations

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every state change
	closed  bool

	nextUserID   int64
	documents    map[string]*Document // the documents sent, by file_id (sendDocument)
	nextGroupID  int64
	nextUpdateID int64
	nextQueryID  int64
	users        map[int64]*userState
	chats        map[int64]*chatState

	updates  []pendingUpdate
	allowed  map[string]bool // nil: Telegram's default set
	pollGen  int
	webhook  webhookState
	queries  map[string]*queryState
	commands map[string][]models.BotCommand

	calls []Call
	// keepParams: each Call keeps its request's parameters (KeepParams).
	keepParams bool
	faults     map[string][]*APIError
	// slow holds, per method, the delays of the next calls' answers: the
	// call takes effect at once, its answer comes late (SlowNext).
	slow map[string][]time.Duration
	// slowIn holds, per method and chat, how late every answer comes
	// (SlowIn).
	slowIn  map[string]time.Duration
	global  window
	perChat map[int64]*window
	n429    int

	violations []Violation

	eph ephemeralState // ephemeral.go
}

// Option configures a Server.
type Option func(*Server)

// WithToken makes the server accept only this token; requests with any other get 401 Unauthorized.
func WithToken(token string) Option { return func(s *Server) { s.token = token } }

// WithBot sets the bot's user id and username returned by getMe and used as the sender of its messages.
func WithBot(id int64, username string) Option {
	return func(s *Server) { s.bot.ID, s.bot.Username = id, username }
}

// WithClock injects the clock used for rate-limit windows, callback query age and message dates,
// so tests can move time instead of sleeping. Waiting (long polls, Press, webhook backoff) uses real time.
func WithClock(c Clock) Option { return func(s *Server) { s.clock = c } }

// WithLimits replaces the default rate limits (see DefaultLimits).
func WithLimits(l Limits) Option { return func(s *Server) { s.limits = l } }

// WithoutLimits switches rate limiting off.
func WithoutLimits() Option { return func(s *Server) { s.limits = Limits{} } }

// WithQueryTimeout sets how long after a press answerCallbackQuery still succeeds (default 15 s).
func WithQueryTimeout(d time.Duration) Option { return func(s *Server) { s.queryTimeout = d } }

// WithPressTimeout sets how long Press waits for the bot's answer (default 10 s).
func WithPressTimeout(d time.Duration) Option { return func(s *Server) { s.pressTimeout = d } }

// WithWebhookRetry sets the pause after a failed webhook delivery before it is retried (default 100 ms).
func WithWebhookRetry(d time.Duration) Option { return func(s *Server) { s.retryDelay = d } }

// TB is the part of testing.TB the server reports Bot API violations to; *testing.T has it.
type TB interface {
	Errorf(format string, args ...any)
}

// WithTB makes every request that breaks the Bot API spec fail t (t.Errorf), besides being
// answered with Telegram's error. Without it, violations are printed to stderr and kept in Violations.
func WithTB(t TB) Option { return func(s *Server) { s.tb = t } }

// AllowSpecViolations is for tests that send bad requests on purpose (tests of the checker itself):
// violations are still answered with an error and kept in Violations, but fail nothing.
func AllowSpecViolations() Option { return func(s *Server) { s.lenient = true } }

// NewServer starts a fake Bot API server. Call Close when done.
// Every request is checked against the Bot API spec (see Violation).
func NewServer(opts ...Option) *Server {
	spec, err := loadSpec()
	if err != nil {
		panic(err) // the spec is embedded: this only fails on a broken checkout
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		bot: models.User{
			ID: 7000000001, IsBot: true, FirstName: "TrickChef Test", Username: "trickchef_test_bot",
			CanJoinGroups: true,
		},
		clock:        realClock{},
		limits:       DefaultLimits(),
		queryTimeout: 15 * time.Second,
		pressTimeout: 10 * time.Second,
		retryDelay:   100 * time.Millisecond,
		client:       &http.Client{Timeout: 10 * time.Second},
		ctx:          ctx,
		cancel:       cancel,
		changed:      make(chan struct{}),
		nextUserID:   100000001,
		nextGroupID:  1,
		nextUpdateID: 500000001,
		users:        map[int64]*userState{},
		chats:        map[int64]*chatState{},
		queries:      map[string]*queryState{},
		commands:     map[string][]models.BotCommand{},
		faults:       map[string][]*APIError{},
		slow:         map[string][]time.Duration{},
		slowIn:       map[string]time.Duration{},
		perChat:      map[int64]*window{},
		spec:         spec,
	}
	for _, o := range opts {
		o(s)
	}
	s.hs = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.hs.URL
	s.wg.Add(1)
	go s.deliverLoop()
	return s
}

// Close stops the server, ends pending long polls and webhook delivery.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.notifyLocked()
	s.mu.Unlock()
	s.cancel()
	s.hs.CloseClientConnections()
	s.hs.Close()
	s.wg.Wait()
}

// Bot returns the bot's own user, as getMe reports it.
func (s *Server) Bot() models.User { return s.bot }

// notifyLocked wakes every waiter (long polls, WaitFor, webhook delivery).
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// changeChan returns the channel that is closed at the next state change.
func (s *Server) changeChan() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// WaitFor polls cond after every state change of the server until it returns true or the timeout passes.
// cond runs without the server lock, so it may read chats.
func (s *Server) WaitFor(timeout time.Duration, cond func() bool) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		ch := s.changeChan()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-t.C:
			if cond() {
				return nil
			}
			return fmt.Errorf("telegramtest: condition not met within %v", timeout)
		case <-s.ctx.Done():
			return fmt.Errorf("telegramtest: server closed")
		}
	}
}

// APIError is an error answer of the Bot API. It is also used to inject faults (FailNext).
type APIError struct {
	Code            int
	Description     string
	RetryAfter      int   // seconds, for 429
	MigrateToChatID int64 // for migrated groups
}

func (e *APIError) Error() string { return fmt.Sprintf("telegram: %d %s", e.Code, e.Description) }

// TooManyRequests returns the 429 answer Telegram gives when a limit is hit.
func TooManyRequests(retryAfter int) *APIError {
	return &APIError{Code: 429, Description: "Too Many Requests: retry after " + strconv.Itoa(retryAfter), RetryAfter: retryAfter}
}

// InternalError returns a 500 answer, as Telegram sometimes gives under load.
func InternalError() *APIError { return &APIError{Code: 500, Description: "Internal Server Error"} }

func badRequest(desc string) *APIError {
	return &APIError{Code: 400, Description: "Bad Request: " + desc}
}
func forbidden(desc string) *APIError { return &APIError{Code: 403, Description: "Forbidden: " + desc} }

// FailNext makes the next n calls of method (e.g. "sendMessage") fail with err before any other processing.
func (s *Server) FailNext(method string, n int, err *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(method)
	for range n {
		s.faults[key] = append(s.faults[key], err)
	}
}

// SlowNext makes the next n calls of method take effect at once but answer
// only after delay, as Telegram does under load: a client that gives up
// waiting never learns that its message was posted.
func (s *Server) SlowNext(method string, n int, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(method)
	for range n {
		s.slow[key] = append(s.slow[key], delay)
	}
}

// SlowIn makes every call of method to one chat take effect at once but
// answer only after delay, until SlowIn is called for them again with 0:
// a person's private chat that Telegram keeps answering late while the
// bot's other calls go as usual. SlowNext's delays come first.
func (s *Server) SlowIn(chatID int64, method string, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := slowKey(method, chatID)
	if delay <= 0 {
		delete(s.slowIn, key)
		return
	}
	s.slowIn[key] = delay
}

// slowKey names the delay SlowIn set for method's calls to chatID.
func slowKey(method string, chatID int64) string {
	return strings.ToLower(method) + "@" + strconv.FormatInt(chatID, 10)
}

// takeSlow is the delay of this call's answer, if one was asked for: the
// next of SlowNext's, or else SlowIn's for its chat.
func (s *Server) takeSlow(method string, chatID int64) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(method)
	if q := s.slow[key]; len(q) > 0 {
		s.slow[key] = q[1:]
		return q[0]
	}
	return s.slowIn[slowKey(method, chatID)]
}

type envelope struct {
	OK          bool            `json:"ok"`
	Result      any             `json:"result,omitempty"`
	ErrorCode   int             `json:"error_code,omitempty"`
	Description string          `json:"description,omitempty"`
	Parameters  *responseParams `json:"parameters,omitempty"`
}

type responseParams struct {
	RetryAfter      int   `json:"retry_after,omitempty"`
	MigrateToChatID int64 `json:"migrate_to_chat_id,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, e *APIError) {
	env := envelope{ErrorCode: e.Code, Description: e.Description}
	if e.RetryAfter > 0 || e.MigrateToChatID != 0 {
		env.Parameters = &responseParams{RetryAfter: e.RetryAfter, MigrateToChatID: e.MigrateToChatID}
	}
	writeJSON(w, e.Code, env)
}

// handler implements one Bot API method. It locks s.mu itself.
type handler func(s *Server, ctx context.Context, p params) (any, *APIError)

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot")
	token, method, ok2 := strings.Cut(rest, "/")
	method = strings.TrimPrefix(method, "test/")
	if !ok || !ok2 {
		writeError(w, &APIError{Code: 404, Description: "Not Found"})
		return
	}
	if token == "" || (s.token != "" && token != s.token) {
		writeError(w, &APIError{Code: 401, Description: "Unauthorized"})
		return
	}
	p, kinds, files, perr := parseParams(r)
	switch {
	case perr == errBodyUnread:
		// The client went away mid-request (a killed process): a broken
		// connection, not a request that breaks the API.
		writeError(w, perr)
		return
	case perr != nil:
		s.violate(Violation{Method: method, Problem: "malformed request body", Answer: perr.Description})
	default:
		if v, e := s.spec.check(method, p, kinds); v != nil {
			s.violate(*v)
			perr = e
		}
	}
	name, h := lookupMethod(method)
	if h == nil {
		if perr == nil { // a method of the spec that the fake does not simulate
			s.violate(Violation{Method: method, Problem: "the fake server does not simulate this method", Answer: "Not Found"})
		}
		writeError(w, &APIError{Code: 404, Description: "Not Found"})
		return
	}
	var res any
	if perr == nil {
		perr = s.takeFault(name)
	}
	if perr == nil {
		hp := p
		if len(files) > 0 { // the uploads' bytes, for the handler only
			hp = maps.Clone(p)
			for k, data := range files {
				hp[uploadKey(k)] = data
			}
		}
		res, perr = h(s, r.Context(), hp)
	}
	if r.Context().Err() != nil && name == "getUpdates" {
		return // the client went away during a long poll
	}
	s.record(name, p, perr)
	chatID, _ := p.int64("chat_id")
	if d := s.takeSlow(name, chatID); d > 0 {
		select { // the call took effect; its answer is late
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	if perr != nil {
		writeError(w, perr)
		return
	}
	writeJSON(w, 200, envelope{OK: true, Result: res})
}

func (s *Server) takeFault(method string) *APIError {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(method)
	q := s.faults[key]
	if len(q) == 0 {
		return nil
	}
	s.faults[key] = q[1:]
	return q[0]
}

// violate records a request that breaks the Bot API and fails the owning test (see WithTB).
func (s *Server) violate(v Violation) {
	s.mu.Lock()
	s.violations = append(s.violations, v)
	s.mu.Unlock()
	switch {
	case s.lenient:
	case s.tb != nil:
		s.tb.Errorf("telegramtest: request breaks the Bot API: %s", v)
	default:
		fmt.Fprintf(os.Stderr, "telegramtest: request breaks the Bot API: %s\n", v)
	}
}

// Violations returns the requests so far that broke the Bot API spec, in order.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Violation(nil), s.violations...)
}

// errBodyUnread answers a request whose body could not be read to its end.
var errBodyUnread = badRequest("can't read request body")

// params holds request parameters as strings; JSON values that are not strings keep their JSON text.
type params map[string]string

// uploadKey is where a handler finds the bytes of the file uploaded as
// parameter k (its name, as Telegram reads it, is p[k]).
func uploadKey(k string) string { return "\x00upload:" + k }

// parseParams reads the parameters and how each arrived (argKind), which the spec check needs,
// and the bytes of the files uploaded, by parameter.
func parseParams(r *http.Request) (params, map[string]argKind, map[string]string, *APIError) {
	p, kinds, files := params{}, map[string]argKind{}, map[string]string{}
	for k, v := range r.URL.Query() {
		p[k] = v[0]
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return p, kinds, files, errBodyUnread
	}
	if len(body) == 0 {
		return p, kinds, files, nil // go-telegram/bot sends parameterless methods as an empty multipart body
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	ct := r.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/json"):
		var m map[string]json.RawMessage
		dec := json.NewDecoder(r.Body)
		if err := dec.Decode(&m); err != nil {
			return p, kinds, files, badRequest("can't parse JSON encoded request parameters")
		}
		for k, raw := range m {
			var str string
			if json.Unmarshal(raw, &str) == nil {
				p[k], kinds[k] = str, argJSONString
			} else if string(raw) != "null" {
				p[k], kinds[k] = string(raw), argJSONValue
			}
		}
	case strings.HasPrefix(ct, "multipart/form-data"):
		if err := r.ParseMultipartForm(10 << 20); err != nil {
			return p, kinds, files, badRequest("can't parse request parameters")
		}
		for k, v := range r.MultipartForm.Value {
			p[k] = v[0]
		}
		for k, fh := range r.MultipartForm.File {
			p[k], kinds[k] = fh[0].Filename, argFile
			f, err := fh[0].Open()
			if err != nil {
				return p, kinds, files, badRequest("can't parse request parameters")
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				return p, kinds, files, badRequest("can't parse request parameters")
			}
			files[k] = string(data)
		}
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		if err := r.ParseForm(); err != nil {
			return p, kinds, files, badRequest("can't parse request parameters")
		}
		for k, v := range r.PostForm {
			p[k] = v[0]
		}
	}
	return p, kinds, files, nil
}

func (p params) has(k string) bool { _, ok := p[k]; return ok }

func (p params) int64(k string) (int64, bool) {
	v, ok := p[k]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return n, err == nil
}

func (p params) int(k string) int {
	n, _ := p.int64(k)
	return int(n)
}

func (p params) bool(k string) bool {
	v := strings.ToLower(p[k])
	return v == "true" || v == "1"
}

// Call is one recorded API request.
type Call struct {
	Time        time.Time // by the server's clock
	Method      string    // canonical name, e.g. "sendMessage"
	ChatID      int64     // 0 when the method has no chat_id
	OK          bool
	ErrorCode   int
	Description string
	// Ephemeral: the call asked for an ephemeral message (a sendMessage
	// with ephemeral_message_parameters or replying to one) or edited or
	// deleted one (editEphemeralMessageText and the like); its ChatID is
	// the group's.
	Ephemeral bool
	// Params are the request's parameters as the bot sent them (text,
	// reply_markup as JSON, a callback answer's text and url, …), once
	// KeepParams was called: what a test that reads everything the bot
	// said looks through.
	Params map[string]string
}

func (s *Server) record(method string, p params, e *APIError) {
	chatID, _ := p.int64("chat_id")
	c := Call{Time: s.clock.Now(), Method: method, ChatID: chatID, OK: e == nil,
		Ephemeral: strings.Contains(method, "Ephemeral") || (method == "sendMessage" && isEphemeralSend(p))}
	if e != nil {
		c.ErrorCode, c.Description = e.Code, e.Description
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keepParams {
		c.Params = maps.Clone(p)
	}
	s.calls = append(s.calls, c)
	if e != nil && e.Code == 429 {
		s.n429++
	}
	s.notifyLocked()
}

// KeepParams makes every call recorded from now on keep its parameters
// (Call.Params). Off by default: the measuring tools record calls by the
// hundred thousand and need only their counts.
func (s *Server) KeepParams() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepParams = true
}

// Calls returns every API call so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// TooManyRequestsCount returns how many 429 answers the server gave (limits and injected faults).
func (s *Server) TooManyRequestsCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n429
}

// limited reports whether a method counts against the rate limits.
func limited(method string) bool {
	switch method {
	case "sendMessage", "sendDocument", "editMessageText", "editMessageReplyMarkup", "deleteMessage", "deleteMessages",
		"editEphemeralMessageText", "editEphemeralMessageReplyMarkup", "deleteEphemeralMessage":
		return true
	}
	return false
}

// CallsPerChat counts the rate-limited calls (send, edit, delete) per chat that were not refused with 429.
func (s *Server) CallsPerChat() map[int64]int {
	out := map[int64]int{}
	for _, c := range s.Calls() {
		if limited(c.Method) && c.ErrorCode != 429 {
			out[c.ChatID]++
		}
	}
	return out
}

// PeakCalls returns the most rate-limited calls (not refused with 429) to chatID within any rolling window.
func (s *Server) PeakCalls(chatID int64, window time.Duration) int {
	return Peak(s.Calls(), chatID, window)
}

// Peak returns the most rate-limited calls among calls (not refused with
// 429) to chatID — to any chat if chatID is 0 — within any rolling window.
func Peak(calls []Call, chatID int64, window time.Duration) int {
	var times []time.Time
	for _, c := range calls {
		if (chatID == 0 || c.ChatID == chatID) && limited(c.Method) && c.ErrorCode != 429 {
			times = append(times, c.Time)
		}
	}
	best, lo := 0, 0
	for hi := range times {
		for times[hi].Sub(times[lo]) >= window {
			lo++
		}
		best = max(best, hi-lo+1)
	}
	return best
}

// PeakCallsAnyChat returns the chat with the most rate-limited calls in any rolling window, and that count.
func (s *Server) PeakCallsAnyChat(window time.Duration) (chatID int64, n int) {
	for id := range s.CallsPerChat() {
		if p := s.PeakCalls(id, window); p > n || p == n && id < chatID {
			chatID, n = id, p
		}
	}
	return chatID, n
}

// PendingUpdates returns how many updates wait to be fetched or delivered.
func (s *Server) PendingUpdates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}
