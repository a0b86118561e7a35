package lobby

import (
	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/tables/txn"
)

// AskStop asks for a confirmation before a game is stopped.
func (lb *Lobby) AskStop(t *record.Table, ch *txn.Change, user int64, admin bool) error {
	l := lb.views.Loc(t.Lang)
	if t.Phase == record.PhaseIdle {
		ch.Post(t, adapter.Message{Text: l.T("stop.nothing")})
		return nil
	}
	if (user == 0 || user != t.Creator) && !admin {
		ch.Post(t, adapter.Message{Text: l.T("stop.not_allowed")})
		return nil
	}
	t.StopAsked = user
	if user == 0 {
		t.StopAsked = record.AnyAdmin // asked in the group's name
	}
	ch.Post(t, adapter.Message{Text: l.T("stop.confirm"), Keyboard: [][]adapter.Button{{
		{Text: l.T("stop.yes"), Data: callback.Data{Op: callback.Stop, Table: t.ID, GameNo: t.GameNo, Args: []int{1}}.String()},
		{Text: l.T("stop.no"), Data: callback.Data{Op: callback.Stop, Table: t.ID, GameNo: t.GameNo, Args: []int{0}}.String()},
	}}})
	return nil
}

// OnStop handles the confirmation buttons of /stop: the person who asked
// answers, or any admin when an anonymous admin asked.
func (lb *Lobby) OnStop(t *record.Table, ch *txn.Change, p callback.Data, user *models.User, admin bool) error {
	who := user.ID
	switch {
	case t.Phase == record.PhaseIdle || p.GameNo != t.GameNo:
		return refusal.New("error.stale_game")
	case t.StopAsked == 0:
		return refusal.New("stop.answered")
	}
	switch {
	case t.StopAsked == record.AnyAdmin && !admin:
		return refusal.New("stop.admins_only") // asked in the group's name: nobody to name
	case t.StopAsked != record.AnyAdmin && who != t.StopAsked:
		return refusal.New("stop.not_yours")
	}
	l := lb.views.Loc(t.Lang)
	if p.Args[0] == 0 {
		t.StopAsked = 0
		ch.Answer = l.T("stop.kept")
		return nil
	}
	if t.Phase == record.PhasePlaying {
		stoppedFiles(l, lb.games, t, ch) // deal.go
	}
	txn.CloseTable(t)
	t.Event = &record.Event{Key: "event.stopped", Name: lb.names.Person(user)}
	if seat := t.SeatOf(who); seat >= 0 {
		t.Event = &record.Event{Key: "event.stopped", Seat: seat}
	}
	ch.Answer = l.T("stop.done")
	return nil
}

// OnStopAsk answers a button of the question «which game to stop?»: the
// question turns into /stop's own for that game, asked by the presser
// (who may: the table's creator or a group admin).
func (lb *Lobby) OnStopAsk(t *record.Table, ch *txn.Change, p callback.Data, user *models.User, admin bool, msg *models.Message) error {
	if t.Phase == record.PhaseIdle || p.GameNo != t.GameNo {
		return refusal.New("error.stale_game")
	}
	if user.ID != t.Creator && !admin {
		return refusal.New("stop.not_allowed")
	}
	ask := &txn.Change{}
	if err := lb.AskStop(t, ask, user.ID, admin); err != nil {
		return err
	}
	for _, e := range ask.Outbox {
		if msg != nil {
			e.ChatID, e.Edit = msg.Chat.ID, msg.ID // the question becomes this one
		}
		e.Reply = true
		ch.Outbox = append(ch.Outbox, e)
	}
	return nil
}
