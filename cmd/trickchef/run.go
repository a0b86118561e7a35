package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/ingest"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/internal/games"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// config is everything the process is told from outside.
type config struct {
	Token    string
	APIURL   string
	RedisURL string
	// AllowEviction runs on a Redis whose maxmemory-policy evicts keys.
	AllowEviction bool
	DataDir       string
	TurnTimeout   time.Duration
	AIDelay       time.Duration
	AIBudget      time.Duration
	DefaultLang   string
	LogLevel      zerolog.Level
	WebhookURL    string
	WebhookSecret string
	ListenAddr    string
	// WebAppURL is the public HTTPS address of the «Стол» page, served on
	// ListenAddr at its path; empty: no page. WebAppShortName is the Mini
	// App's short name (@BotFather /newapp), for the group's link.
	WebAppURL       string
	WebAppShortName string
	// InitDataMaxAge is how old a page's initData may be.
	InitDataMaxAge time.Duration
	// TelegramRate is the token's calls per second, shared by all replicas.
	TelegramRate int
}

// parseConfig reads the environment, then flags. Every problem is
// reported at once, so a newcomer fixes them in one go.
func parseConfig(args []string, getenv func(string) string, out io.Writer) (config, error) {
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	def := bot.DefaultConfig()
	fs := flag.NewFlagSet("trickchef", flag.ContinueOnError)
	fs.SetOutput(out)
	// Secrets get no flag default: the usage text prints defaults.
	token := fs.String("token", "", "bot token from @BotFather (TELEGRAM_TOKEN, required)")
	apiURL := fs.String("api-url", env("TELEGRAM_API_URL", "https://api.telegram.org"), "Bot API server (TELEGRAM_API_URL)")
	redisURL := fs.String("redis-url", "", "Redis URL: redis://, redis-cluster://h1:p1,h2:p2 or redis-sentinel://h1:p1,h2:p2/master "+
		"(rediss… for TLS); empty: embedded store in -data-dir (REDIS_URL, or a file named by REDIS_URL_FILE)")
	allowEviction := fs.Bool("redis-allow-eviction", env("REDIS_ALLOW_EVICTION", "") == "1",
		"run on a Redis whose maxmemory-policy may evict keys, losing games (REDIS_ALLOW_EVICTION=1)")
	dataDir := fs.String("data-dir", env("DATA_DIR", "data"), "directory of the embedded store (DATA_DIR)")
	turn := fs.String("turn-timeout", env("TURN_TIMEOUT", def.TurnTimeout.String()), "time for a move, Go duration (TURN_TIMEOUT)")
	aiDelay := fs.String("ai-delay", env("AI_DELAY", def.AIDelay.String()), "pause before a robot moves (AI_DELAY)")
	aiBudget := fs.String("ai-budget", env("AI_BUDGET", def.AIBudget.String()), "thinking time of a searching robot per move (AI_BUDGET)")
	langs := locales.Supported()
	lang := fs.String("lang", env("DEFAULT_LANG", def.DefaultLang), "language of new tables: "+strings.Join(langs, " or ")+" (DEFAULT_LANG)")
	rate := fs.String("telegram-rate", env("TELEGRAM_RATE", strconv.Itoa(def.Limits.GlobalPerSecond)),
		"Bot API calls per second for the whole token, shared by all replicas; Telegram allows about 30 (TELEGRAM_RATE)")
	level := fs.String("log-level", env("LOG_LEVEL", "info"), "debug, info, warn or error (LOG_LEVEL)")
	webhook := fs.String("webhook-url", env("WEBHOOK_URL", ""), "public HTTPS URL for updates; empty: long polling (WEBHOOK_URL)")
	secret := fs.String("webhook-secret", "", "secret Telegram sends with each update (WEBHOOK_SECRET)")
	listen := fs.String("listen", env("LISTEN_ADDR", ":8080"), "address of the webhook server, the «Стол» page and /healthz (LISTEN_ADDR)")
	webApp := fs.String("webapp-url", env("WEBAPP_URL", ""), "public HTTPS address of the «Стол» Mini App, served on LISTEN_ADDR; empty: none (WEBAPP_URL)")
	webAppName := fs.String("webapp-short-name", env("WEBAPP_SHORT_NAME", ""), "the Mini App's short name from @BotFather /newapp, for the group's link (WEBAPP_SHORT_NAME)")
	maxAge := fs.String("initdata-max-age", env("INITDATA_MAX_AGE", "24h"), "how old a page's Telegram initData may be (INITDATA_MAX_AGE)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if *token == "" {
		*token = getenv("TELEGRAM_TOKEN")
	}
	if *secret == "" {
		*secret = getenv("WEBHOOK_SECRET")
	}
	var problems []string
	if !flagSet(fs, "redis-url") {
		// The URL may hold a password: no flag default shows it, and a
		// file (a Docker or Kubernetes secret) keeps it out of the environment.
		v, err := fromEnvOrFile(getenv, "REDIS_URL")
		if err != nil {
			problems = append(problems, err.Error())
		}
		*redisURL = v
	}
	c := config{Token: *token, APIURL: *apiURL, RedisURL: *redisURL, AllowEviction: *allowEviction, DataDir: *dataDir,
		DefaultLang: *lang, WebhookURL: *webhook, WebhookSecret: *secret, ListenAddr: *listen,
		WebAppURL: *webApp, WebAppShortName: *webAppName}
	if c.Token == "" {
		problems = append(problems, "TELEGRAM_TOKEN is required: get a token from @BotFather")
	} else if !validToken(c.Token) {
		problems = append(problems, "TELEGRAM_TOKEN does not look like a bot token (<digits>:<secret>)")
	}
	if u, err := url.Parse(c.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		problems = append(problems, fmt.Sprintf("TELEGRAM_API_URL %q is not an http(s) URL", c.APIURL))
	}
	var err error
	if c.TurnTimeout, err = time.ParseDuration(*turn); err != nil || c.TurnTimeout < time.Second {
		problems = append(problems, fmt.Sprintf("TURN_TIMEOUT %q must be a Go duration of at least 1s, e.g. 60s", *turn))
	}
	if c.AIDelay, err = time.ParseDuration(*aiDelay); err != nil || c.AIDelay < 0 {
		problems = append(problems, fmt.Sprintf("AI_DELAY %q must be a non-negative Go duration, e.g. 1500ms", *aiDelay))
	}
	if c.AIBudget, err = time.ParseDuration(*aiBudget); err != nil || c.AIBudget < 10*time.Millisecond || c.AIBudget > 10*time.Second {
		problems = append(problems, fmt.Sprintf("AI_BUDGET %q must be a Go duration from 10ms to 10s, e.g. 200ms", *aiBudget))
	}
	if !slices.Contains(langs, c.DefaultLang) {
		problems = append(problems, fmt.Sprintf("DEFAULT_LANG %q must be %s", c.DefaultLang, strings.Join(langs, " or ")))
	}
	if c.TelegramRate, err = strconv.Atoi(*rate); err != nil || c.TelegramRate < 1 || c.TelegramRate > 30 {
		problems = append(problems, fmt.Sprintf("TELEGRAM_RATE %q must be a whole number of calls per second from 1 to 30, e.g. 25", *rate))
	}
	switch strings.ToLower(*level) {
	case "debug", "info", "warn", "error":
		c.LogLevel, _ = zerolog.ParseLevel(strings.ToLower(*level))
	default:
		problems = append(problems, fmt.Sprintf("LOG_LEVEL %q must be debug, info, warn or error", *level))
	}
	if c.WebhookURL != "" {
		if !validWebhookURL(c.WebhookURL) {
			problems = append(problems, fmt.Sprintf("WEBHOOK_URL %q must be an https URL", c.WebhookURL))
		}
		if !validSecret(c.WebhookSecret) {
			problems = append(problems, "WEBHOOK_SECRET is required with WEBHOOK_URL: 1-256 characters of A-Z, a-z, 0-9, _ and -")
		}
	}
	if c.InitDataMaxAge, err = time.ParseDuration(*maxAge); err != nil || c.InitDataMaxAge < time.Minute {
		problems = append(problems, fmt.Sprintf("INITDATA_MAX_AGE %q must be a Go duration of at least 1m, e.g. 24h", *maxAge))
	}
	if c.WebAppURL != "" && !validWebhookURL(c.WebAppURL) {
		problems = append(problems, fmt.Sprintf("WEBAPP_URL %q must be an https URL", c.WebAppURL))
	}
	if c.WebAppShortName != "" && (c.WebAppURL == "" || !validShortName(c.WebAppShortName)) {
		problems = append(problems, "WEBAPP_SHORT_NAME needs WEBAPP_URL and is 3-30 characters of a-z, A-Z, 0-9 and _")
	}
	if c.RedisURL != "" {
		if err := store.CheckRedisURL(c.RedisURL); err != nil {
			problems = append(problems, "REDIS_URL must look like redis://host:6379/0, redis-cluster://h1:p1,h2:p2 or redis-sentinel://h1:p1,h2:p2/master: "+err.Error())
		}
	}
	if len(problems) > 0 {
		return c, errors.New(strings.Join(problems, "\n"))
	}
	return c, nil
}

// flagSet reports whether the command line set the flag (even to "").
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// fromEnvOrFile reads a secret from the variable key, or from the file
// named by key_FILE; a trailing newline of the file is dropped.
func fromEnvOrFile(getenv func(string) string, key string) (string, error) {
	v, file := getenv(key), getenv(key+"_FILE")
	switch {
	case file == "":
		return v, nil
	case v != "":
		return "", fmt.Errorf("%s and %s_FILE are both set: set one", key, key)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %v", key, err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// validWebhookURL accepts https, and plain http only to this machine (a
// reverse proxy or a test in front of the bot).
func validWebhookURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		h := u.Hostname()
		return h == "127.0.0.1" || h == "localhost" || h == "::1"
	}
	return false
}

func validToken(t string) bool {
	id, secret, ok := strings.Cut(t, ":")
	if !ok || id == "" || len(secret) < 20 {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	return !strings.ContainsAny(secret, " /?#")
}

func validSecret(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, r := range s {
		ok := r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// Main runs the bot until ctx is done and returns the exit code.
func Main(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	cfg, err := parseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "trickchef: configuration problem:\n%s\n", err)
		return 2
	}
	log := zerolog.New(stderr).Level(cfg.LogLevel).With().Timestamp().Logger()
	if err := run(ctx, cfg, log); err != nil {
		log.Error().Err(err).Msg("trickchef stopped")
		return 1
	}
	log.Info().Msg("trickchef stopped")
	return 0
}

// backend is a store the process owns: the bot's part, plus health and close.
type backend interface {
	bot.Store
	webapp.Changes
	Ping(ctx context.Context) error
	Close() error
}

// keyBase starts every Redis key of the bot. Each bot's keys are under
// keyBase<bot id>: (store.BotPrefix), so bots sharing a Redis share
// nothing; keys written directly under keyBase by earlier versions are
// carried into the first bot that starts (store.MigrateFrom).
const keyBase = "tc:"

// openStore picks Redis when configured, else the embedded store. botID is
// the bot's own id from getMe: it names the bot's keys.
func openStore(ctx context.Context, cfg config, botID int64, log zerolog.Logger) (backend, error) {
	if cfg.RedisURL != "" {
		r, err := store.DialRedis(ctx, cfg.RedisURL, store.BotPrefix(keyBase, botID))
		if err != nil {
			return nil, err
		}
		if err := checkRedis(ctx, r, cfg.AllowEviction, log); err != nil {
			r.Close()
			return nil, err
		}
		m, err := r.MigrateFrom(ctx, keyBase)
		if err != nil {
			r.Close()
			return nil, err
		}
		own := store.BotPrefix(keyBase, botID)
		switch {
		case m.Owner != own:
			log.Info().Str("owner", m.Owner).Msg("keys of the old layout belong to another bot; none carried over")
		case m.Kept > 0:
			log.Warn().Int("moved", m.Moved).Int("kept", m.Kept).Str("old", keyBase).
				Msg("old keys left in place: this bot already had newer keys of the same name")
		case m.Moved > 0:
			log.Info().Int("moved", m.Moved).Str("from", keyBase).Str("to", own).Msg("keys of the old layout carried over")
		}
		return r, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	b, err := store.OpenBolt(filepath.Join(cfg.DataDir, "trickchef.db"))
	if err != nil {
		return nil, err
	}
	// One file per bot: the file is opened by one process at a time, so
	// refusing another bot's file is all the separation it needs.
	if err := b.Own(strconv.FormatInt(botID, 10)); err != nil {
		b.Close()
		return nil, fmt.Errorf("DATA_DIR %s: %w; give each bot its own DATA_DIR", cfg.DataDir, err)
	}
	return b, nil
}

// checkRedis refuses a Redis that may evict keys (an evicted table is a
// game lost mid-move) unless told to run anyway, and warns when Redis keeps
// nothing on disk or does not say (a hosted Redis refuses CONFIG).
func checkRedis(ctx context.Context, r *store.Redis, allowEviction bool, log zerolog.Logger) error {
	chk, err := r.CheckServer(ctx)
	if err != nil {
		return err
	}
	if chk.Evicts() {
		if !allowEviction {
			return fmt.Errorf("Redis may evict keys (maxmemory-policy %s), losing games mid-move: set maxmemory-policy noeviction, "+
				"or REDIS_ALLOW_EVICTION=1 to run anyway", chk.Policy)
		}
		log.Warn().Str("maxmemory_policy", chk.Policy).Msg("Redis may evict keys and lose games: running anyway (REDIS_ALLOW_EVICTION)")
	}
	if !chk.ConfigAllowed {
		log.Warn().Str("persistence", chk.Persistence).Msg("Redis refuses CONFIG (a hosted Redis?): make sure it persists (AOF or RDB) and evicts nothing")
	}
	if chk.PersistsNothing() {
		log.Warn().Msg("Redis persists nothing (no AOF, no RDB saves): a restart of Redis loses every game; turn on appendonly")
	}
	return nil
}

func run(ctx context.Context, cfg config, log zerolog.Logger) error {
	catalog, err := locales.New()
	if err != nil {
		return err
	}
	redact := func(err error) string { return strings.ReplaceAll(err.Error(), cfg.Token, "***") }
	tg, err := tgbot.New(cfg.Token, tgbot.WithServerURL(cfg.APIURL), tgbot.WithSkipGetMe(),
		tgbot.WithErrorsHandler(func(err error) {
			log.Warn().Str("err", redact(err)).Msg("telegram client")
		}))
	if err != nil {
		return fmt.Errorf("telegram client: %w", err)
	}
	// The bot's id names its keys in the store, so getMe comes first.
	meCtx, cancelMe := context.WithTimeout(ctx, 30*time.Second)
	me, err := tg.GetMe(meCtx)
	cancelMe()
	if err != nil {
		return fmt.Errorf("getMe: %s", redact(err))
	}
	st, err := openStore(ctx, cfg, me.ID, log)
	if err != nil {
		return err
	}
	defer st.Close()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	b := bot.New(bot.Config{TurnTimeout: cfg.TurnTimeout, AIDelay: cfg.AIDelay, AIBudget: cfg.AIBudget, DefaultLang: cfg.DefaultLang,
		Username: me.Username, Limits: bot.Limits{GlobalPerSecond: cfg.TelegramRate},
		WebAppURL: cfg.WebAppURL, WebAppShortName: cfg.WebAppShortName},
		st, tg, catalog, bot.WithLogger(log), bot.WithMetrics(metrics.New(reg)), bot.WithGames(games.All()...))
	initCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := b.Init(initCtx); err != nil {
		return fmt.Errorf("init: %s", redact(err))
	}
	mode := "polling"
	if cfg.WebhookURL != "" {
		mode = "webhook"
	}
	storeKind := "embedded"
	if cfg.RedisURL != "" {
		storeKind = "redis"
	}
	log.Info().Str("mode", mode).Str("store", storeKind).Int64("bot_id", me.ID).Str("bot", me.Username).
		Dur("turn_timeout", cfg.TurnTimeout).Msg("trickchef running")

	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		pctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := st.Ping(pctx); err != nil {
			http.Error(w, "store unreachable", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	if cfg.WebAppURL != "" {
		if err := serveWebApp(ctx, cfg, b, st, mux, log); err != nil {
			return err
		}
	}
	workersDone := make(chan error, 1)
	go func() { workersDone <- b.Run(ctx) }()
	if cfg.WebhookURL != "" {
		err = serveWebhook(ctx, cfg, b, tg, mux)
	} else {
		ops := serveOps(cfg.ListenAddr, mux, log)
		if _, derr := tg.DeleteWebhook(ctx, &tgbot.DeleteWebhookParams{}); derr != nil {
			log.Warn().Str("err", strings.ReplaceAll(derr.Error(), cfg.Token, "***")).Msg("deleteWebhook")
		}
		err = b.Ingest.Poll(ctx, &ingest.Poller{APIURL: cfg.APIURL, Token: cfg.Token, Timeout: 25 * time.Second})
		shutdown(ops)
	}
	<-workersDone
	return err
}

// serveWebApp mounts the «Стол» page and its API at the path of
// WEBAPP_URL, on the same listener as the webhook and /healthz.
func serveWebApp(ctx context.Context, cfg config, b *bot.Bot, st backend, mux *http.ServeMux, log zerolog.Logger) error {
	web := webapp.New(webapp.Config{Token: cfg.Token, MaxAge: cfg.InitDataMaxAge, DefaultLang: cfg.DefaultLang}, b.Web, st, log)
	if err := web.Run(ctx); err != nil {
		return fmt.Errorf("web table: %w", err)
	}
	u, _ := url.Parse(cfg.WebAppURL)
	prefix := strings.TrimSuffix(u.Path, "/")
	mux.Handle(prefix+"/", http.StripPrefix(prefix, web.Handler()))
	log.Info().Str("url", cfg.WebAppURL).Str("listen", cfg.ListenAddr).Msg("«Стол» web table served")
	return nil
}

// validShortName is a Mini App short name as @BotFather accepts it.
func validShortName(s string) bool {
	if len(s) < 3 || len(s) > 30 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// serveOps serves /healthz and /metrics in polling mode. A busy port is
// not fatal there: the bot works without them.
func serveOps(addr string, mux *http.ServeMux, log zerolog.Logger) *http.Server {
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn().Err(err).Str("addr", addr).Msg("/healthz and /metrics not served")
		}
	}()
	return srv
}

func shutdown(srv *http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
}

// serveWebhook registers the webhook and serves it (with /healthz and
// /metrics) until ctx is done, then drains requests in flight: each is
// answered only after its update was applied.
func serveWebhook(ctx context.Context, cfg config, b *bot.Bot, tg *tgbot.Bot, mux *http.ServeMux) error {
	u, _ := url.Parse(cfg.WebhookURL)
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux.Handle(path, b.Ingest.Webhook(cfg.WebhookSecret))
	srv := &http.Server{Addr: cfg.ListenAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	if _, err := tg.SetWebhook(ctx, &tgbot.SetWebhookParams{
		URL:            cfg.WebhookURL,
		SecretToken:    cfg.WebhookSecret,
		AllowedUpdates: []string{"message", "callback_query", "my_chat_member"},
	}); err != nil {
		srv.Close()
		return fmt.Errorf("setWebhook: %s", strings.ReplaceAll(err.Error(), cfg.Token, "***"))
	}
	select {
	case err := <-errc:
		return fmt.Errorf("webhook server: %w", err)
	case <-ctx.Done():
	}
	shutdown(srv)
	return nil
}
