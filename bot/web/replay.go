package web

import (
	"context"
	"errors"
	"strconv"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/store"
)

// «▶️ Повтор»: a finished game replayed on the page move by move, every
// seat's cards face up. The table record keeps a finished game (its seed,
// its log and the final state) until the next lobby opens, so the replay
// deals it again and applies its log (review.Replay) up to the step asked
// for. It is only ever drawn for a game that is over: while a game runs,
// or when it was stopped, the hidden cards stay hidden and the replay is
// refused (ErrNoReplay).

// ErrNoReplay is a replay asked of a table whose game is not over (it
// runs, was stopped, or none was played), or of a game that has none.
var ErrNoReplay = errors.New("web: no replay of this table")

// Reviews are the stored «🔍 Разбор» reports: the replay marks the
// viewer's reviewed moves with them.
type Reviews interface {
	// Review is user's report on the game ref (review.Report's stored
	// form); store.ErrNotFound when there is none.
	Review(ctx context.Context, ref string, user int64) ([]byte, error)
}

// Replay is one step of a finished game's replay as the page draws it.
// Step 0 is the deal, step k the table after k moves of the game's log.
type Replay struct {
	Table string `json:"table"`
	Lang  string `json:"lang"`
	// Seat is the viewer's seat in the game (the page puts it at the
	// bottom), Spectator when they played none.
	Seat  int `json:"seat"`
	Step  int `json:"step"`
	Moves int `json:"moves"`
	// Game names the game replayed among the table's games
	// (review.GameKey): a link to a step of one game («🔍 Разбор») is
	// refused for another.
	Game string `json:"game"`
	// Scene is the table at this step with every seat's cards face up
	// (adapter.ReplayGame.OpenScene).
	Scene adapter.Scene `json:"scene"`
	// Label says where the replay is: «Раздача», «Ход 5 из 120».
	Label string `json:"label"`
	// Move is the move that led here (nil at the deal).
	Move *ReplayMove `json:"move,omitempty"`
	// Rounds are the steps where the game's rounds begin, the first at
	// step 0 (one entry for a game of one round).
	Rounds []ReplayRound `json:"rounds"`
	// Marks are the viewer's own moves their review judged costly, in
	// the order of the game.
	Marks []ReplayMark `json:"marks,omitempty"`
	// Yours is the review's verdict on this step's move when it is one
	// of Marks: its grade in words and the top robot's move.
	Yours string `json:"yours,omitempty"`
	// File is the game's file of its deal and moves (bot/deal.File), as
	// each player got it in private but for the reveal (the chat's 🔓):
	// the page offers it to download.
	File *ReplayFile `json:"file,omitempty"`
}

// ReplayFile is a file to download: its name and its text.
type ReplayFile struct {
	Name string `json:"name"`
	Data string `json:"data"`
}

// ReplayMove is one move of the replay: who made it and what it was, as
// the chat names moves (adapter.MoveGame).
type ReplayMove struct {
	Seat int    `json:"seat"`
	Who  string `json:"who"`
	Name string `json:"name"`
}

// ReplayRound is where a round begins.
type ReplayRound struct {
	Step  int    `json:"step"`
	Label string `json:"label"`
}

// ReplayMark is one of the viewer's reviewed moves: the step it leads to
// (review.Step: the review's «Ход N» is this step) and its grade in words,
// on the review's own thresholds (review.Grade), so the replay and the
// review's «Неточностей · ошибок · зевков» tell one story. Only moves that
// cost something are marked.
type ReplayMark struct {
	Step  int    `json:"step"`
	Grade string `json:"grade"`
	// Rank is 1–3 for the review's costliest moments, in the review's
	// order (its «1.», «2.», «3.»), 0 for the other costly moves.
	Rank int `json:"rank,omitempty"`
}

// replayable reports whether the table's game is over and its game has
// a replay: the only case the page offers «▶️ Повтор».
func replayable(t *record.Table, g adapter.Game, st game.State) bool {
	_, ok := g.(adapter.ReplayGame)
	return ok && t.Phase == record.PhaseIdle && st != nil && st.Over() && len(t.Log) > 0
}

// Replay is step of the finished game of the table a page's token names,
// as user sees it: ErrNotFound as for State when they may not see the
// table, ErrNoReplay when its game is not over (or has no replay),
// ErrBadRequest for a step outside 0..moves. It changes nothing and keeps
// nothing: each request replays the log once (pure applies).
func (w *Web) Replay(ctx context.Context, token string, user int64, step int) (Replay, error) {
	t, _, err := w.webLoad(ctx, token, user)
	if err != nil {
		return Replay{}, err
	}
	if t.Phase != record.PhaseIdle || t.State == nil {
		return Replay{}, ErrNoReplay
	}
	g, final, err := w.views.Decode(t)
	if err != nil {
		return Replay{}, err
	}
	if !replayable(t, g, final) {
		return Replay{}, ErrNoReplay
	}
	if step < 0 || step > len(t.Log) {
		return Replay{}, ErrBadRequest
	}
	rg := g.(adapter.ReplayGame)
	l := w.loc(t.Lang)
	// The game as it was played: its renderers draw a running game.
	played := *t
	played.Phase = record.PhasePlaying
	v := adapter.View(&played)
	seat := viewerSeat(t, user)
	r := Replay{Table: t.Token, Lang: t.Lang, Seat: seat, Step: step, Moves: len(t.Log), Game: review.GameKey(t)}

	costs := w.reviewCosts(ctx, t, user)
	next := 0 // the next cost to name
	rounder, _ := g.(adapter.RoundGame)
	lastRound := 0
	round := func(i int, st game.State) {
		if rounder == nil {
			if i == 0 {
				r.Rounds = append(r.Rounds, ReplayRound{Step: 0, Label: l.T("review.replay_round", "Round", 1)})
			}
			return
		}
		if n := rounder.Round(st); i == 0 || n > lastRound {
			lastRound = n
			r.Rounds = append(r.Rounds, ReplayRound{Step: i, Label: l.T("review.replay_round", "Round", n)})
		}
	}
	var bestName string
	err = review.Replay(g, t, func(i int, st game.State, _ []byte) {
		round(i, st)
		if i == step {
			r.Scene = rg.OpenScene(l, v, st)
		}
		m := t.Log[i]
		if i == step-1 {
			r.Move = w.replayMove(l, v, g, st, t, m)
		}
		for next < len(costs.Costs) && costs.Costs[next].Move < i {
			next++
		}
		if next < len(costs.Costs) && costs.Costs[next].Move == i {
			c := costs.Costs[next]
			r.Marks = append(r.Marks, ReplayMark{Step: review.Step(i), Grade: gradeName(l, c.Loss), Rank: rank(costs, i)})
			if i == step-1 && m.Seat >= 0 {
				bestName = view.MoveName(l, v, g, st, m.Seat, c.Best)
			}
		}
	})
	if err != nil {
		w.log.Warn().Err(err).Str("table", t.ID).Msg("web: the finished game does not replay")
		return Replay{}, ErrNoReplay
	}
	round(len(t.Log), final)
	if step == len(t.Log) {
		r.Scene = rg.OpenScene(l, v, final)
	}
	replayMarks(t, &r)
	if f, ok := deal.FileOf(t); ok {
		// Without the reveal: that is the chat's (🔓), and the check
		// takes it apart from the file.
		f.Reveal = ""
		r.File = &ReplayFile{Name: f.Name(), Data: string(f.Encode())}
	}
	r.Label = l.T("review.replay_deal")
	if step > 0 {
		r.Label = l.T("review.replay_move", "N", step, "Total", len(t.Log)) // step is review.Step's number
	}
	for _, mk := range r.Marks {
		if mk.Step == step && bestName != "" {
			pro := view.LevelLabel(l, g, costs.Level)
			r.Yours = l.T("review.replay_yours", "Grade", mk.Grade, "Pro", pro, "Best", bestName)
		}
	}
	return r, nil
}

// replayMarks fills the platform's marks on the replay's seats: names,
// the viewer, robots.
func replayMarks(t *record.Table, r *Replay) {
	sc := &r.Scene
	if len(sc.Seats) != len(t.Seats) {
		sc.Seats = make([]adapter.SceneSeat, len(t.Seats))
	}
	for i, s := range t.Seats {
		ss := &sc.Seats[i]
		if ss.Name == "" {
			ss.Name = s.Name
		}
		ss.You = i == r.Seat
		ss.Robot = !s.Human()
		ss.Away, ss.Deadline = false, 0
	}
	// Nothing to press in a replay, whatever a game's scene offers.
	sc.Hand, sc.Choices, sc.Prompt, sc.Hint = nil, nil, "", ""
}

// replayMove names move m, made in st: its seat and the game's name of
// it, or the deal for the platform's own moves (game.System).
func (w *Web) replayMove(l adapter.Loc, v adapter.TableView, g adapter.Game, st game.State, t *record.Table, m record.Move) *ReplayMove {
	if m.Seat < 0 || int(m.Seat) >= len(t.Seats) {
		return &ReplayMove{Seat: adapter.Spectator, Name: l.T("review.replay_deal")}
	}
	return &ReplayMove{Seat: int(m.Seat), Who: t.Seats[m.Seat].Name, Name: view.MoveName(l, v, g, st, m.Seat, m.Action)}
}

// reviewCosts is user's review of the table's game, when one is stored
// (the zero Report otherwise: no marks).
func (w *Web) reviewCosts(ctx context.Context, t *record.Table, user int64) review.Report {
	if w.reviews == nil {
		return review.Report{}
	}
	data, err := w.reviews.Review(ctx, record.GameRef(t), user)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) && ctx.Err() == nil {
			w.log.Warn().Err(err).Str("table", t.ID).Msg("web: a review for the replay")
		}
		return review.Report{}
	}
	var rep review.Report
	if err := rep.UnmarshalBinary(data); err != nil || rep.Game != t.GameID {
		w.log.Warn().Err(err).Str("table", t.ID).Msg("web: a stored review does not read")
		return review.Report{}
	}
	return rep
}

// viewerSeat is user's seat in the table's game (one they left counts),
// Spectator when they played none.
func viewerSeat(t *record.Table, user int64) int {
	if i := t.SeatOf(user); i >= 0 {
		return i
	}
	for i, s := range t.Seats {
		if s.Leaver != nil && s.Leaver.UserID == user {
			return i
		}
	}
	return adapter.Spectator
}

// rank is the place of the move at index i among rep's costliest moments
// (1 for the costliest), 0 when it is not one of them.
func rank(rep review.Report, i int) int {
	for k, m := range rep.Moments {
		if m.Move == i {
			return k + 1
		}
	}
	return 0
}

// gradeName is a costly move's grade as the page shows it.
func gradeName(l adapter.Loc, loss float64) string {
	return l.T("review.replay_grade_" + strconv.Itoa(review.Grade(loss)))
}
