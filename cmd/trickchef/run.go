package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"

	"github.com/trickchef/trickchef/bot"
	"github.com/trickchef/trickchef/bot/ephemeral"
	"github.com/trickchef/trickchef/bot/ingest"
	"github.com/trickchef/trickchef/bot/metrics"
	"github.com/trickchef/trickchef/bot/safe"
	"github.com/trickchef/trickchef/bot/web/webapp"
	"github.com/trickchef/trickchef/cmd/games"
	"github.com/trickchef/trickchef/locales"
	"github.com/trickchef/trickchef/store"
)

// Main runs the bot until ctx is done and returns the exit code; or, with
// the command `deadletters` first, looks at the dead letters and stops
// (deadletters.go), writing what it shows to stderr (main gives it
// stdout then).
func Main(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	if len(args) > 0 && args[0] == deadLettersCommand {
		return deadLetters(ctx, args[1:], getenv, stderr)
	}
	cfg, err := parseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "trickchef: configuration problem:\n%s\n", err)
		return 2
	}
	log := zerolog.New(stderr).Level(cfg.LogLevel).With().Timestamp().Logger()
	err = run(ctx, cfg, log)
	switch {
	case err != nil && ctx.Err() != nil:
		// Asked to stop (a signal) while still starting, say in the middle
		// of getMe or a migration: what was cut short says so, but the stop
		// is the one asked for.
		log.Warn().Err(err).Msg("trickchef stopped while starting")
		return 0
	case err != nil:
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
		r, err := store.DialRedis(ctx, cfg.RedisURL, store.BotPrefix(keyBase, botID), store.Config{})
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
	b, err := store.OpenBolt(filepath.Join(cfg.DataDir, "trickchef.db"), store.Config{})
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

func run(parent context.Context, cfg config, log zerolog.Logger) (err error) {
	// Whatever must stop the whole process (a 401 from the Bot API, a
	// server that fails, setWebhook refused) ends ctx with its reason:
	// every part stops as on a signal, and run returns that reason.
	ctx, stop := context.WithCancelCause(parent)
	defer stop(nil)
	defer func() {
		if cause := context.Cause(ctx); cause != nil && cause != context.Cause(parent) {
			err = cause
		}
	}()
	// Listen first: a busy port is told at once, naming its variable.
	opsL, err := listen("OPS_ADDR", cfg.OpsAddr)
	if err != nil {
		return err
	}
	defer opsL.Close()
	var pubL net.Listener
	if cfg.WebhookURL != "" || cfg.WebAppURL != "" {
		if pubL, err = listen("LISTEN_ADDR", cfg.ListenAddr); err != nil {
			return err
		}
		defer pubL.Close()
	}

	catalog, err := locales.New()
	if err != nil {
		return err
	}
	redact := func(err error) string { return strings.ReplaceAll(err.Error(), cfg.Token, "***") }
	guard := &tokenGuard{next: http.DefaultTransport, stop: stop}
	tg, err := tgbot.New(cfg.Token, tgbot.WithServerURL(cfg.APIURL), tgbot.WithSkipGetMe(),
		tgbot.WithHTTPClient(time.Minute, &http.Client{Timeout: time.Minute, Transport: guard}),
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
	m := metrics.New(reg)
	b := bot.New(bot.Params{
		Config: bot.Config{TurnTimeout: cfg.TurnTimeout, AIDelay: cfg.AIDelay, AIBudget: cfg.AIBudget, ReviewWorkers: cfg.ReviewWorkers,
			MaxTables: cfg.MaxTables, DefaultLang: cfg.DefaultLang, Username: me.Username, Limits: bot.Limits{GlobalPerSecond: cfg.TelegramRate},
			WebAppURL: cfg.WebAppURL, WebAppShortName: cfg.WebAppShortName},
		Store: st, Telegram: tg, Translator: catalog, Games: games.All(), Log: log, Metrics: m, StoreClock: true,
		// The hand in the group, on the same server and guarded transport.
		GroupHands: ephemeral.New(cfg.APIURL, cfg.Token, &http.Client{Timeout: time.Minute, Transport: guard})})
	initCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := b.Init(initCtx); err != nil {
		return fmt.Errorf("init: %s", redact(err))
	}

	lim := serverLimits()
	failed := func(env string) func(error) {
		return func(err error) { stop(fmt.Errorf("%s server: %w", env, err)) }
	}
	ops := newServer(opsHandler(st, reg), lim, log)
	serve(ops, opsL, failed("OPS_ADDR"), log, m.Panic)
	defer shutdown(ops)
	var page, hook http.Handler
	if cfg.WebAppURL != "" {
		web := webapp.New(webapp.Config{Token: cfg.Token, MaxAge: cfg.InitDataMaxAge, DefaultLang: cfg.DefaultLang, Panicked: m.Panic}, b.Web, st, log)
		if err := web.Run(ctx); err != nil {
			return fmt.Errorf("web table: %w", err)
		}
		page = web.Handler()
	}
	if cfg.WebhookURL != "" {
		hook = b.Ingest.Webhook(cfg.WebhookSecret)
	}
	var public *http.Server
	if pubL != nil {
		public = newServer(publicHandler(cfg, hook, page, lim), lim, log)
		serve(public, pubL, failed("LISTEN_ADDR"), log, m.Panic)
	}

	mode := "polling"
	if cfg.WebhookURL != "" {
		mode = "webhook"
	}
	storeKind := "embedded"
	if cfg.RedisURL != "" {
		storeKind = "redis"
	}
	ev := log.Info().Str("mode", mode).Str("store", storeKind).Int64("bot_id", me.ID).Str("bot", me.Username).
		Dur("turn_timeout", cfg.TurnTimeout).Str("ops", opsL.Addr().String())
	if pubL != nil {
		ev = ev.Str("listen", pubL.Addr().String())
	}
	if cfg.WebAppURL != "" {
		ev = ev.Str("webapp", cfg.WebAppURL)
	}
	ev.Msg("trickchef running")

	// A worker that fails stops the process: what it serves would
	// otherwise wait unseen.
	workersDone := make(chan struct{})
	safe.Go(log, m.Panic, "workers", func() {
		defer close(workersDone)
		if err := b.Run(ctx); err != nil {
			stop(fmt.Errorf("workers: %w", err))
		}
	})
	if cfg.WebhookURL != "" {
		if _, err := tg.SetWebhook(ctx, &tgbot.SetWebhookParams{
			URL:            cfg.WebhookURL,
			SecretToken:    cfg.WebhookSecret,
			AllowedUpdates: ingest.AllowedUpdates(),
		}); err != nil {
			stop(fmt.Errorf("setWebhook: %s", redact(err)))
		}
		<-ctx.Done()
	} else {
		if _, err := tg.DeleteWebhook(ctx, &tgbot.DeleteWebhookParams{}); err != nil {
			log.Warn().Str("err", redact(err)).Msg("deleteWebhook")
		}
		poller := &ingest.Poller{APIURL: cfg.APIURL, Token: cfg.Token, Timeout: 25 * time.Second,
			Client: &http.Client{Timeout: 35 * time.Second, Transport: guard}}
		if err := b.Ingest.Poll(ctx, poller); err != nil {
			stop(err)
		}
	}
	// Requests in flight finish first: a webhook update is answered only
	// once stored.
	if public != nil {
		shutdown(public)
	}
	<-workersDone
	return nil
}
