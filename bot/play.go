package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/game"
)

// onCallback routes a button press. Every press is answered exactly once,
// at once, with a short toast: the reason when it was refused.
func (b *Bot) onCallback(ctx context.Context, updateID int64, q *models.CallbackQuery) error {
	start := time.Now()
	defer func() {
		took := time.Since(start)
		b.answered(took)
		b.metrics.observeAnswer(took)
	}()
	p, err := parsePayload(q.Data)
	if err != nil {
		b.answer(ctx, q, b.loc(langOf(&q.From, b.cfg.DefaultLang)).T("error.bad_button"), false, "")
		return nil
	}
	if p.Op == 'i' {
		return b.onInfo(ctx, q, p)
	}
	t, ch, err := b.update(ctx, p.Table, updateID, func(t *Table, ch *change) error {
		switch p.Op {
		case 'a':
			return b.onAction(t, ch, p, q.From.ID)
		case 'm':
			return b.onMod(t, ch, p, q.From.ID)
		case 'l':
			return b.onLobby(ctx, t, ch, p, &q.From)
		case 's':
			return b.onStop(t, ch, p, q.From.ID)
		case 'b':
			return b.onBack(t, ch, p, q.From.ID)
		}
		return refuse("error.bad_button")
	})
	lang := b.cfg.DefaultLang
	if t != nil {
		lang = t.Lang
	}
	l := b.loc(lang)
	var r *refusal
	switch {
	case err == nil:
		b.answer(ctx, q, ch.answer, false, "")
	case errors.Is(err, errOpenChat):
		b.answer(ctx, q, l.T("lobby.open_chat"), false, b.deepLink(joinPrefix+p.Table))
	case errors.As(err, &r):
		b.answer(ctx, q, l.T(r.key, r.args...), false, "")
	case errors.Is(err, errDuplicate), errors.Is(err, errNoChange):
		b.answer(ctx, q, "", false, "") // done before, or nothing to do
	default:
		return err // not answered: the redelivered update will answer it
	}
	return nil
}

func (b *Bot) answer(ctx context.Context, q *models.CallbackQuery, text string, alert bool, url string) {
	_, err := b.tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{
		CallbackQueryID: q.ID,
		Text:            text,
		ShowAlert:       alert,
		URL:             url,
	})
	if err != nil {
		b.log.Debug().Err(err).Msg("answerCallbackQuery failed")
	}
}

// seatFor checks that a game button belongs to the current game and to the
// presser, and was drawn after the seat's last action.
func (b *Bot) seatFor(t *Table, p payload, who int64) (int, error) {
	if t.Phase != PhasePlaying || p.Game != t.GameNo {
		return 0, refuse("error.stale_game")
	}
	seat := p.Args[0]
	if seat < 0 || seat >= len(t.Seats) {
		return 0, refuse("error.bad_button")
	}
	if !t.Seats[seat].Human() || t.Seats[seat].UserID != who {
		return 0, refuse("error.not_yours")
	}
	if len(p.Args) > 1 && p.Args[1] != t.Seats[seat].Nonce {
		return 0, refuse("error.stale")
	}
	return seat, nil
}

func (b *Bot) onAction(t *Table, ch *change, p payload, who int64) error {
	seat, err := b.seatFor(t, p, who)
	if err != nil {
		return err
	}
	k, st, err := b.decode(t)
	if err != nil {
		return err
	}
	t.Seats[seat].Timeouts = 0 // the player is back
	if err := b.apply(t, ch, k, st, seat, game.Action(p.Args[2]), false); err != nil {
		return err
	}
	if t.Event != nil && t.Event.Seat == seat && t.Event.Key == "event.timeout" {
		t.Event = nil
	}
	return nil
}

// onBack ends auto-play for a player who had let their turns run out.
func (b *Bot) onBack(t *Table, ch *change, p payload, who int64) error {
	seat, err := b.seatFor(t, p, who)
	if err != nil {
		return err
	}
	if t.Seats[seat].Timeouts == 0 {
		return refuse("auto.not_auto")
	}
	t.Seats[seat].Timeouts = 0
	if t.Event != nil && t.Event.Seat == seat {
		t.Event = nil
	}
	if _, st, err := b.decode(t); err == nil {
		if act := st.ToAct(); len(act) > 0 && int(act[0]) == seat {
			b.schedule(t, st) // the player gets a full turn again
		}
	}
	ch.answer = b.loc(t.Lang).T("auto.welcome_back")
	return nil
}

func (b *Bot) onMod(t *Table, ch *change, p payload, who int64) error {
	seat, err := b.seatFor(t, p, who)
	if err != nil {
		return err
	}
	k, st, err := b.decode(t)
	if err != nil {
		return err
	}
	mod, ok := k.ClampMod(st, game.Seat(seat), p.Args[2])
	if !ok {
		return refuse("error.bad_mod")
	}
	if mod == t.Seats[seat].Mod {
		return errNoChange
	}
	t.Seats[seat].Mod = mod
	return nil
}

// onInfo shows a seat's private information (won cards) in an alert.
func (b *Bot) onInfo(ctx context.Context, q *models.CallbackQuery, p payload) error {
	t, _, err := b.load(ctx, p.Table)
	if err != nil {
		return err
	}
	l := b.loc(t.Lang)
	seat, err := b.seatFor(t, payload{Op: p.Op, Table: p.Table, Game: p.Game, Args: p.Args[:1]}, q.From.ID)
	var r *refusal
	if errors.As(err, &r) {
		b.answer(ctx, q, l.T(r.key, r.args...), false, "")
		return nil
	}
	k, st, err := b.decode(t)
	if err != nil {
		return err
	}
	b.answer(ctx, q, k.Info(l, t, st, seat), true, "")
	return nil
}

func (b *Bot) decode(t *Table) (gameKind, game.State, error) {
	k, ok := b.games.get(t.Kind)
	if !ok {
		return nil, nil, errors.New("table " + t.ID + " plays unknown game " + t.Kind)
	}
	st, err := k.Decode(t.Game)
	return k, st, err
}

// apply runs one engine action for a seat and records everything it
// causes: the log, the seat's nonce, announcements and the next timer.
// A rule violation becomes a refusal with the engine's reason.
func (b *Bot) apply(t *Table, ch *change, k gameKind, st game.State, seat int, a game.Action, auto bool) error {
	before, err := k.Decode(t.Game)
	if err != nil {
		return err
	}
	if err := st.Apply(game.Seat(seat), a); err != nil {
		if code := game.CodeOf(err); code != "" {
			return refuse(k.ErrorKey(code))
		}
		return err
	}
	data, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	t.Game = data
	t.Memory = k.Observe(t.Memory, st)
	t.Log = append(t.Log, Move{Seat: game.Seat(seat), Action: a, Auto: auto})
	t.Seats[seat].Nonce++
	t.Seats[seat].Mod = 0
	l := b.loc(t.Lang)
	for _, m := range k.Announce(l, t, before, st) {
		ch.post(t, m)
	}
	if st.Over() {
		t.Phase = PhaseIdle
		t.Deadline, t.AutoAt = time.Time{}, time.Time{}
		return nil
	}
	b.schedule(t, st)
	return nil
}

// schedule sets the timers for the seats that must act now: a person gets
// TurnTimeout (Deadline); seats the bot plays move after AIDelay (AutoAt).
// Several seats may act at once (simultaneous phases).
func (b *Bot) schedule(t *Table, st game.State) {
	t.Deadline, t.AutoAt = time.Time{}, time.Time{}
	now := b.now()
	for _, s := range st.ToAct() {
		if t.Seats[s].Auto() {
			t.AutoAt = now.Add(b.cfg.AIDelay)
		} else {
			t.Deadline = now.Add(b.cfg.TurnTimeout)
		}
	}
}

// fireTimer moves for the seats whose timer has run out: for a robot that
// is its move; for a person it is a timeout, and after two in a row the
// bot keeps playing for them until they press «I'm back». Every seat that
// was due moves now, so people acting at the same time time out together.
func (b *Bot) fireTimer(ctx context.Context, id string) error {
	_, _, err := b.update(ctx, id, 0, func(t *Table, ch *change) error {
		if t.Phase != PhasePlaying {
			return errNoChange
		}
		now := b.now()
		autoDue := !t.AutoAt.IsZero() && !now.Before(t.AutoAt)
		humanDue := !t.Deadline.IsZero() && !now.Before(t.Deadline)
		if !autoDue && !humanDue {
			return errNoChange
		}
		k, st, err := b.decode(t)
		if err != nil {
			return err
		}
		due := map[game.Seat]bool{}
		for _, s := range st.ToAct() {
			if t.Seats[s].Auto() && autoDue || !t.Seats[s].Auto() && humanDue {
				due[s] = true
			}
		}
		moved := false
		for len(due) > 0 && t.Phase == PhasePlaying {
			seat := game.Seat(-1)
			for _, s := range st.ToAct() {
				if due[s] {
					seat = s
					break
				}
			}
			if seat < 0 {
				break
			}
			delete(due, seat)
			s := &t.Seats[seat]
			b.metrics.timeout()
			if !s.Auto() {
				s.Timeouts++
				t.Event = &Event{Key: "event.timeout", Seat: int(seat)}
			}
			level := s.AI
			if s.Human() {
				level = "" // a person's timeout: the baseline plays, quickly
			}
			a := k.Auto(st, seat, decision{Level: level, Seed: seatSeed(t), Memory: t.Memory, Budget: b.cfg.AIBudget})
			if legal := st.Legal(seat); !slices.Contains(legal, a) && len(legal) > 0 {
				// A robot must never stall a game: fall back to a legal move.
				b.log.Error().Str("table", t.ID).Int("seat", int(seat)).Int("action", int(a)).Msg("robot chose an illegal move")
				a = legal[0]
			}
			if err := b.apply(t, ch, k, st, int(seat), a, true); err != nil {
				return err
			}
			moved = true
		}
		if !moved {
			return errNoChange
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}
