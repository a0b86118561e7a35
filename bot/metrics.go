package bot

import (
	"context"
	"errors"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the bot's Prometheus collectors, registered on a registry
// the caller owns (no global registry).
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
}

// NewMetrics creates the collectors and registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
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
	reg.MustRegister(m.updates, m.apply, m.answer, m.conflicts, m.calls, m.wakeSet, m.timers,
		m.deferredCalls, m.deliveryWait, m.budgetUse, m.queued, m.tablesWaiting)
	return m
}

// WithMetrics records the bot's work in m.
func WithMetrics(m *Metrics) Option {
	return func(b *Bot) { b.metrics = m }
}

// kindOf names an update's kind for metrics.
func kindOf(u *models.Update) string {
	switch {
	case u.CallbackQuery != nil:
		return "callback"
	case u.Message != nil:
		return "message"
	case u.MyChatMember != nil:
		return "member"
	}
	return "other"
}

func (m *Metrics) observeUpdate(u *models.Update, took time.Duration, err error) {
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

// flooded counts an update refused because its sender floods the bot.
func (m *Metrics) flooded(u *models.Update) {
	if m != nil {
		m.updates.WithLabelValues(kindOf(u), "flooded").Inc()
	}
}

func (m *Metrics) observeAnswer(d time.Duration) {
	if m != nil {
		m.answer.Observe(d.Seconds())
	}
}

func (m *Metrics) conflict() {
	if m != nil {
		m.conflicts.Inc()
	}
}

func (m *Metrics) timeout() {
	if m != nil {
		m.timers.Inc()
	}
}

func (m *Metrics) scheduled(n int64) {
	if m != nil {
		m.wakeSet.Set(float64(n))
	}
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

func (m *Metrics) deferred(p priority) {
	if m != nil {
		m.deferredCalls.WithLabelValues(p.String()).Inc()
	}
}

func (m *Metrics) delivered(p priority, wait time.Duration) {
	if m != nil {
		m.deliveryWait.WithLabelValues(p.String()).Observe(wait.Seconds())
	}
}

// budgetGauges shows the budget's state; nil-safe, so it can be handed
// to the budget as is.
func (m *Metrics) budgetGauges(use float64, waiting [4]int, tables int) {
	if m == nil {
		return
	}
	m.budgetUse.Set(use)
	for p := priority(0); p < numPriorities; p++ {
		m.queued.WithLabelValues(p.String()).Set(float64(waiting[p]))
	}
	m.tablesWaiting.Set(float64(tables))
}
