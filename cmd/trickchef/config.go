package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/record"
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
	ReviewWorkers int
	// MaxTables is how many tables a group may hold at once.
	MaxTables     int
	DefaultLang   string
	LogLevel      zerolog.Level
	WebhookURL    string
	WebhookSecret string
	// ListenAddr is the public listener: the webhook and the «Стол» page.
	ListenAddr string
	// OpsAddr serves /healthz and /metrics, apart from the public listener.
	OpsAddr string
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

// secretVars may hold a secret: each may instead name a file with
// <name>_FILE (a Docker or Kubernetes secret), which keeps the secret out
// of the environment that `docker inspect` or /proc shows.
func secretVars() []string {
	return []string{"TELEGRAM_TOKEN", "WEBHOOK_SECRET", "REDIS_URL", "REDIS_PASSWORD"}
}

// minWebhookSecret is the shortest webhook secret accepted: Telegram
// allows one character, which anyone could guess and push forged updates.
const minWebhookSecret = 32

// parseConfig reads the flags, then the environment for every flag the
// command line left unset. Flag defaults are the built-in ones, so the
// usage text (-h) never shows a value from the environment: no token,
// webhook secret or Redis password. Every problem is reported at once, so
// a newcomer fixes them in one go.
func parseConfig(args []string, getenv func(string) string, out io.Writer) (config, error) {
	def := bot.DefaultConfig()
	fs := flag.NewFlagSet("trickchef", flag.ContinueOnError)
	fs.SetOutput(out)
	variable := map[string]string{} // flag name → its environment variable
	str := func(name, env, value, usage string) *string {
		variable[name] = env
		return fs.String(name, value, usage+" ("+env+")")
	}
	token := str("token", "TELEGRAM_TOKEN", "", "bot token from @BotFather, required; a flag shows in ps, so prefer TELEGRAM_TOKEN_FILE, a file holding it")
	apiURL := str("api-url", "TELEGRAM_API_URL", "https://api.telegram.org", "Bot API server")
	redisURL := str("redis-url", "REDIS_URL", "", "Redis URL: redis://, redis-cluster://h1:p1,h2:p2 or redis-sentinel://h1:p1,h2:p2/master "+
		"(rediss… for TLS); empty: embedded store in -data-dir; REDIS_URL_FILE names a file holding it")
	redisPassword := str("redis-password", "REDIS_PASSWORD", "", "Redis's password (requirepass), put into REDIS_URL, which then carries none; "+
		"a flag shows in ps, so prefer REDIS_PASSWORD_FILE, a file holding it (a Docker secret)")
	variable["redis-allow-eviction"] = "REDIS_ALLOW_EVICTION"
	allowEviction := fs.Bool("redis-allow-eviction", false,
		"run on a Redis whose maxmemory-policy may evict keys, losing games (REDIS_ALLOW_EVICTION=1)")
	dataDir := str("data-dir", "DATA_DIR", "data", "directory of the embedded store")
	turn := str("turn-timeout", "TURN_TIMEOUT", def.TurnTimeout.String(), "time for a move, Go duration")
	aiDelay := str("ai-delay", "AI_DELAY", def.AIDelay.String(), "pause before a robot moves")
	aiBudget := str("ai-budget", "AI_BUDGET", def.AIBudget.String(), "thinking time of a searching robot per move")
	reviewWorkers := str("review-workers", "REVIEW_WORKERS", strconv.Itoa(def.ReviewWorkers), "reviews («🔍 Разбор») computed at once by this replica, each taking a core for up to a second")
	maxTables := str("max-tables", "MAX_TABLES", strconv.Itoa(def.MaxTables), fmt.Sprintf("tables a group may hold at once, 1 to %d: /newgame opens the next free one", record.MaxLimit))
	langs := locales.Supported()
	lang := str("lang", "DEFAULT_LANG", def.DefaultLang, "language of new tables: "+strings.Join(langs, " or "))
	rate := str("telegram-rate", "TELEGRAM_RATE", strconv.Itoa(def.Limits.GlobalPerSecond),
		"Bot API calls per second for the whole token, shared by all replicas; Telegram allows about 30")
	level := str("log-level", "LOG_LEVEL", "info", "debug, info, warn or error")
	webhook := str("webhook-url", "WEBHOOK_URL", "", "public HTTPS URL for updates; empty: long polling")
	secret := str("webhook-secret", "WEBHOOK_SECRET", "", fmt.Sprintf("secret Telegram sends with each update, %d-256 characters of A-Z, a-z, 0-9, _ and -; "+
		"WEBHOOK_SECRET_FILE names a file holding it", minWebhookSecret))
	listen := str("listen", "LISTEN_ADDR", ":8080", "public address of the webhook and the «Стол» page")
	ops := str("ops-addr", "OPS_ADDR", "127.0.0.1:9090", "address of /healthz and /metrics, apart from the public one")
	webApp := str("webapp-url", "WEBAPP_URL", "", "public HTTPS address of the «Стол» Mini App, served on LISTEN_ADDR; empty: none")
	webAppName := str("webapp-short-name", "WEBAPP_SHORT_NAME", "", "the Mini App's short name from @BotFather /newapp, for the group's link")
	maxAge := str("initdata-max-age", "INITDATA_MAX_AGE", "24h", "how old a page's Telegram initData may be")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}

	var problems []string
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	fs.VisitAll(func(f *flag.Flag) {
		env := variable[f.Name]
		if explicit[f.Name] || env == "" {
			return
		}
		v := getenv(env)
		if slices.Contains(secretVars(), env) {
			var err error
			if v, err = fromEnvOrFile(getenv, env); err != nil {
				problems = append(problems, err.Error())
				return
			}
		}
		if v == "" {
			return
		}
		if err := fs.Set(f.Name, v); err != nil {
			// Only a bool can fail, and none holds a secret.
			problems = append(problems, fmt.Sprintf("%s %q must be 1 or 0", env, v))
		}
	})

	c := config{Token: *token, APIURL: *apiURL, RedisURL: *redisURL, AllowEviction: *allowEviction, DataDir: *dataDir,
		DefaultLang: *lang, WebhookURL: *webhook, WebhookSecret: *secret, ListenAddr: *listen, OpsAddr: *ops,
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
	if c.ReviewWorkers, err = strconv.Atoi(*reviewWorkers); err != nil || c.ReviewWorkers < 1 || c.ReviewWorkers > 64 {
		problems = append(problems, fmt.Sprintf("REVIEW_WORKERS %q must be a whole number from 1 to 64, e.g. 1", *reviewWorkers))
	}
	if c.MaxTables, err = strconv.Atoi(*maxTables); err != nil || c.MaxTables < 1 || c.MaxTables > record.MaxLimit {
		problems = append(problems, fmt.Sprintf("MAX_TABLES %q must be a whole number from 1 to %d (the last table hosts the cups), e.g. 4", *maxTables, record.MaxLimit))
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
		switch {
		case c.WebhookSecret == "":
			problems = append(problems, fmt.Sprintf("WEBHOOK_SECRET is required with WEBHOOK_URL: %d-256 characters of A-Z, a-z, 0-9, _ and -, "+
				"e.g. from `openssl rand -hex 32`", minWebhookSecret))
		case !validSecret(c.WebhookSecret):
			problems = append(problems, fmt.Sprintf("WEBHOOK_SECRET must be %d-256 characters of A-Z, a-z, 0-9, _ and - "+
				"(a shorter one can be guessed, and updates forged): make one with `openssl rand -hex 32`", minWebhookSecret))
		}
	}
	problems = append(problems, checkAddrs(c)...)
	if c.InitDataMaxAge, err = time.ParseDuration(*maxAge); err != nil || c.InitDataMaxAge < time.Minute {
		problems = append(problems, fmt.Sprintf("INITDATA_MAX_AGE %q must be a Go duration of at least 1m, e.g. 24h", *maxAge))
	}
	if c.WebAppURL != "" && !validWebhookURL(c.WebAppURL) {
		problems = append(problems, fmt.Sprintf("WEBAPP_URL %q must be an https URL", c.WebAppURL))
	}
	if c.WebhookURL != "" && c.WebAppURL != "" &&
		strings.TrimSuffix(urlPath(c.WebhookURL), "/") == strings.TrimSuffix(urlPath(c.WebAppURL), "/") {
		problems = append(problems, "WEBHOOK_URL and WEBAPP_URL must have different paths, e.g. /telegram/hook and /table/")
	}
	if c.WebAppShortName != "" && (c.WebAppURL == "" || !validShortName(c.WebAppShortName)) {
		problems = append(problems, "WEBAPP_SHORT_NAME needs WEBAPP_URL and is 3-30 characters of a-z, A-Z, 0-9 and _")
	}
	if *redisPassword != "" {
		if c.RedisURL, err = withRedisPassword(c.RedisURL, *redisPassword); err != nil {
			problems = append(problems, err.Error())
		}
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

// checkAddrs reports listen addresses that are not host:port, and the ops
// address sharing the public one's port (one of them could not listen).
func checkAddrs(c config) []string {
	var problems []string
	ports := map[string]string{}
	for _, a := range []struct{ env, addr string }{{"LISTEN_ADDR", c.ListenAddr}, {"OPS_ADDR", c.OpsAddr}} {
		_, port, err := net.SplitHostPort(a.addr)
		if err != nil || port == "" {
			problems = append(problems, fmt.Sprintf("%s %q must be host:port or :port, e.g. 127.0.0.1:9090", a.env, a.addr))
			continue
		}
		ports[a.env] = port
	}
	if p := ports["OPS_ADDR"]; p != "" && p != "0" && p == ports["LISTEN_ADDR"] {
		problems = append(problems, fmt.Sprintf("OPS_ADDR %q must use another port than LISTEN_ADDR %q: /healthz and /metrics are not public", c.OpsAddr, c.ListenAddr))
	}
	return problems
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

// withRedisPassword puts password into a Redis URL (any of DialRedis's
// forms; its user, if any, kept), so a Docker secret can hold the password
// alone while the URL stays in plain configuration. A URL that has a
// password of its own, or none at all, is a mistake; the error never
// repeats either.
func withRedisPassword(rawURL, password string) (string, error) {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return rawURL, errors.New("REDIS_PASSWORD is set, so REDIS_URL must be set too, e.g. redis://redis:6379/0")
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	user := ""
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		info := authority[:at]
		if strings.Contains(info, ":") {
			return rawURL, errors.New("REDIS_URL carries a password and REDIS_PASSWORD is set: set one")
		}
		if u, err := url.PathUnescape(info); err == nil {
			user = u
		}
		authority = authority[at+1:]
	}
	return scheme + "://" + url.UserPassword(user, password).String() + "@" + authority + tail, nil
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

// validSecret is a webhook secret Telegram accepts and nobody guesses.
func validSecret(s string) bool {
	if len(s) < minWebhookSecret || len(s) > 256 {
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
