// Package metrics holds the bot's Prometheus collectors, registered on a
// registry the caller owns (no global registry). Every method is nil-safe:
// a nil *Metrics measures nothing.
package metrics

import (
	"context"
	"errors"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the bot's Prometheus collectors.
type Metrics struct {
	updates   *prometheus.CounterVec
	apply     prometheus.Histogram
	answer    prometheus.Histogram
	conflicts prometheus.Counter
	calls     *prometheus.CounterVec
	wakeSet   prometheus.Gauge
	timers    prometheus.Counter
	// The token's budget: calls refused by the limits (a view or message
	// left waiting) and how long a change took to reach Telegram, per
	// priority; budget use, views waiting per priority, tables waiting.
	deferredCalls *prometheus.CounterVec
	deliveryWait  *prometheus.HistogramVec
	budgetUse     prometheus.Gauge
	queued        *prometheus.GaugeVec
	tablesWaiting prometheus.Gauge
	// A table fenced off because its game cannot go on, and panics
	// recovered while changing or serving a table.
	quarantined prometheus.Counter
	panics      prometheus.Counter
	// Updates given up and kept for a person to look at (the store's
	// count, all replicas'), and how long the oldest update of each kind
	// has waited in the inboxes.
	deadLetters prometheus.Gauge
	inboxOldest *prometheus.GaugeVec
	// Reviews («🔍 Разбор») by outcome, and the CPU time of each made.
	reviews    *prometheus.CounterVec
	reviewTook prometheus.Histogram
}

// New creates the collectors and registers them on reg.
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		updates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trickchef_updates_total", Help: "Telegram updates handled, by kind and outcome.",
		}, []string{"kind", "outcome"}),
		apply: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "trickchef_apply_seconds", Help: "Time to apply one update (load, change, commit).",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}),
		answer: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "trickchef_press_answer_seconds", Help: "Time from a button press update to its answer.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "trickchef_cas_conflicts_total", Help: "Commits retried because another writer changed the table first.",
		}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trickchef_telegram_calls_total", Help: "Bot API calls by method and result.",
		}, []string{"method", "result"}),
		wakeSet: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "trickchef_tables_scheduled", Help: "Tables with pending delivery or a running turn timer (the wake set).",
		}),
		timers: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "trickchef_turn_timeouts_total", Help: "Moves the bot made because a turn timer ran out (people and robots).",
		}),
		deferredCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trickchef_delivery_deferred_total", Help: "Calls put off by the chat's or the token's limits, by priority.",
		}, []string{"priority"}),
		deliveryWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "trickchef_delivery_wait_seconds", Help: "From a table change to the call that showed it, by priority.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 10),
		}, []string{"priority"}),
		budgetUse: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "trickchef_budget_use_ratio", Help: "Share of the token's calls per second this replica used in the last second.",
		}),
		queued: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "trickchef_delivery_waiting", Help: "Views and messages waiting for the limits, by priority (this replica).",
		}, []string{"priority"}),
		tablesWaiting: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "trickchef_tables_waiting", Help: "Tables with something waiting for the limits (this replica).",
		}),
	}
	m.quarantined = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "trickchef_tables_broken_total", Help: "Tables fenced off because their game could not go on (unreadable state, repeated failures).",
	})
	m.panics = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "trickchef_panics_total", Help: "Panics recovered while changing or serving a table, or handling an update.",
	})
	m.deadLetters = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "trickchef_dead_letters", Help: "Updates given up after their handler failed again and again, kept in the store for a person to look at.",
	})
	m.inboxOldest = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "trickchef_inbox_oldest_seconds", Help: "How long the oldest update of each kind (press, command, other) has waited in the chats' inboxes: a stalled chat shows here.",
	}, []string{"kind"})
	m.reviews = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "trickchef_reviews_total", Help: "Reviews asked for, by outcome: queued (computed later), kept (answered from a kept one), gone (the game no longer kept), made, failed.",
	}, []string{"outcome"})
	m.reviewTook = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "trickchef_review_seconds", Help: "Time to compute one review (the top robot judging a person's every decision).",
		Buckets: prometheus.ExponentialBuckets(0.01, 2, 12),
	})
	reg.MustRegister(m.quarantined, m.panics, m.deadLetters, m.inboxOldest, m.reviews, m.reviewTook)
	reg.MustRegister(m.updates, m.apply, m.answer, m.conflicts, m.calls, m.wakeSet, m.timers,
		m.deferredCalls, m.deliveryWait, m.budgetUse, m.queued, m.tablesWaiting)
	return m
}

// kindOf names an update's kind for metrics.
func kindOf(u *models.Update) string {
	switch {
	case u.CallbackQuery != nil:
		return "callback"
	case u.Message != nil:
		return "message"
	case u.MyChatMember != nil, u.ChatMember != nil:
		return "member"
	}
	return "other"
}

// ObserveUpdate counts an update handled and how long it took.
func (m *Metrics) ObserveUpdate(u *models.Update, took time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "retry"
	}
	m.updates.WithLabelValues(kindOf(u), outcome).Inc()
	m.apply.Observe(took.Seconds())
}

// Flooded counts an update refused because its sender floods the bot.
func (m *Metrics) Flooded(u *models.Update) {
	if m != nil {
		m.updates.WithLabelValues(kindOf(u), "flooded").Inc()
	}
}

// ObserveAnswer records how long a press waited for its answer.
func (m *Metrics) ObserveAnswer(d time.Duration) {
	if m != nil {
		m.answer.Observe(d.Seconds())
	}
}

// Conflict counts a lost compare-and-set, retried.
func (m *Metrics) Conflict() {
	if m != nil {
		m.conflicts.Inc()
	}
}

// Timeout counts a move the bot made because a timer ran out.
func (m *Metrics) Timeout() {
	if m != nil {
		m.timers.Inc()
	}
}

// DeadLetter counts an update given up to the dead letters.
func (m *Metrics) DeadLetter(u *models.Update) {
	if m != nil {
		m.updates.WithLabelValues(kindOf(u), "dead_letter").Inc()
	}
}

// DeadLetters shows how many updates are kept in the dead letters.
func (m *Metrics) DeadLetters(n int64) {
	if m != nil {
		m.deadLetters.Set(float64(n))
	}
}

// UpdateKinds are the kinds of update trickchef_inbox_oldest_seconds tells
// apart: a button's press, a message (a command), anything else.
var UpdateKinds = []string{"press", "command", "other"}

// UpdateKind is an update's kind among UpdateKinds.
func UpdateKind(u *models.Update) string {
	switch {
	case u.CallbackQuery != nil:
		return "press"
	case u.Message != nil:
		return "command"
	}
	return "other"
}

// InboxOldest shows how long the oldest waiting update of each kind has
// waited (a kind missing from oldest: none waits).
func (m *Metrics) InboxOldest(oldest map[string]time.Duration) {
	if m != nil {
		for _, k := range UpdateKinds {
			m.inboxOldest.WithLabelValues(k).Set(oldest[k].Seconds())
		}
	}
}

// Quarantined counts a table fenced off.
func (m *Metrics) Quarantined() {
	if m != nil {
		m.quarantined.Inc()
	}
}

// Review counts a review asked for, by outcome.
func (m *Metrics) Review(outcome string) {
	if m != nil {
		m.reviews.WithLabelValues(outcome).Inc()
	}
}

// ReviewTook records how long a review took to compute.
func (m *Metrics) ReviewTook(d time.Duration) {
	if m != nil {
		m.reviewTook.Observe(d.Seconds())
	}
}

// Panic counts a panic recovered.
func (m *Metrics) Panic() {
	if m != nil {
		m.panics.Inc()
	}
}

// Scheduled shows how many tables wait in the delivery queue.
func (m *Metrics) Scheduled(n int64) {
	if m != nil {
		m.wakeSet.Set(float64(n))
	}
}

// Deferred counts a call of priority prio put off by the limits.
func (m *Metrics) Deferred(prio string) {
	if m != nil {
		m.deferredCalls.WithLabelValues(prio).Inc()
	}
}

// Delivered records how long a change of priority prio took to reach
// Telegram.
func (m *Metrics) Delivered(prio string, wait time.Duration) {
	if m != nil {
		m.deliveryWait.WithLabelValues(prio).Observe(wait.Seconds())
	}
}

// Budget shows the token's budget: this replica's use of its calls a
// second, what waits by priority (names and counts in the same order), and
// the tables waiting.
func (m *Metrics) Budget(use float64, prios []string, waiting []int, tables int) {
	if m == nil {
		return
	}
	m.budgetUse.Set(use)
	for i, p := range prios {
		m.queued.WithLabelValues(p).Set(float64(waiting[i]))
	}
	m.tablesWaiting.Set(float64(tables))
}

// Telegram is the part of the Bot API the bot calls (*tgbot.Bot has it).
type Telegram interface {
	GetMe(ctx context.Context) (*models.User, error)
	SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error)
	SendDocument(ctx context.Context, p *tgbot.SendDocumentParams) (*models.Message, error)
	EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error)
	EditMessageReplyMarkup(ctx context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error)
	DeleteMessage(ctx context.Context, p *tgbot.DeleteMessageParams) (bool, error)
	DeleteMessages(ctx context.Context, p *tgbot.DeleteMessagesParams) (bool, error)
	AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error)
	SetMyCommands(ctx context.Context, p *tgbot.SetMyCommandsParams) (bool, error)
	GetChatMember(ctx context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error)
}

// Instrument counts every Bot API call tg makes by method and result; with
// a nil m it returns tg as it is.
func (m *Metrics) Instrument(tg Telegram) Telegram {
	if m == nil {
		return tg
	}
	return instrumented{Telegram: tg, m: m}
}

// instrumented counts every Bot API call by method and result.
type instrumented struct {
	Telegram
	m *Metrics
}

func (t instrumented) record(method string, err error) {
	result := "ok"
	var tooMany *tgbot.TooManyRequestsError
	switch {
	case err == nil:
	case errors.As(err, &tooMany):
		result = "429"
	case errors.Is(err, tgbot.ErrorBadRequest):
		result = "400"
	case errors.Is(err, tgbot.ErrorForbidden):
		result = "403"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		result = "timeout"
	default:
		result = "error"
	}
	t.m.calls.WithLabelValues(method, result).Inc()
}

func (t instrumented) SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	r, err := t.Telegram.SendMessage(ctx, p)
	t.record("sendMessage", err)
	return r, err
}

func (t instrumented) SendDocument(ctx context.Context, p *tgbot.SendDocumentParams) (*models.Message, error) {
	r, err := t.Telegram.SendDocument(ctx, p)
	t.record("sendDocument", err)
	return r, err
}

func (t instrumented) EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	r, err := t.Telegram.EditMessageText(ctx, p)
	t.record("editMessageText", err)
	return r, err
}

func (t instrumented) EditMessageReplyMarkup(ctx context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error) {
	r, err := t.Telegram.EditMessageReplyMarkup(ctx, p)
	t.record("editMessageReplyMarkup", err)
	return r, err
}

func (t instrumented) DeleteMessage(ctx context.Context, p *tgbot.DeleteMessageParams) (bool, error) {
	r, err := t.Telegram.DeleteMessage(ctx, p)
	t.record("deleteMessage", err)
	return r, err
}

func (t instrumented) DeleteMessages(ctx context.Context, p *tgbot.DeleteMessagesParams) (bool, error) {
	r, err := t.Telegram.DeleteMessages(ctx, p)
	t.record("deleteMessages", err)
	return r, err
}

func (t instrumented) AnswerCallbackQuery(ctx context.Context, p *tgbot.AnswerCallbackQueryParams) (bool, error) {
	r, err := t.Telegram.AnswerCallbackQuery(ctx, p)
	t.record("answerCallbackQuery", err)
	return r, err
}

func (t instrumented) GetChatMember(ctx context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error) {
	r, err := t.Telegram.GetChatMember(ctx, p)
	t.record("getChatMember", err)
	return r, err
}
