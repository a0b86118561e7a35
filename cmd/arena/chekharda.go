package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/game/chekharda"
)

// chekhardaGame is «Чехарда», the real-time game: kinds are the robot
// levels novice, cook and shef, 2 to 6 of them; the score is the game
// total (target 77).
//
//	go run ./cmd/arena -game chekharda -games 2000 -players shef,cook,cook,cook -seed 1
//
// There are no turns, so the table simulates time the way the bot runs
// it. After every change each seat that has a legal action decides (the
// arena asks them in seat order: toAct lists them all, and each decide is
// followed by an apply that only records the proposal); each robot also
// draws its level's reaction time (chekharda.ReactionTime, from the same
// seed). Once all have answered, the fastest robot that wants to act acts.
// If none acts before the quiet pause (chekharda.QuietPause, 3 s), the
// dealer deals instead; if nobody can act at all (Stuck) the dealer deals
// at once, and between rounds the next round starts, without asking
// anyone. The decisions of the slower robots are dropped: they decide
// again on the new state.
//
// The table also counts races (the JSON line's "races", and lines on
// stdout): how often a robot of each level acted first while a robot of
// another level also wanted to act, and how often the dealer's quiet
// pause came first though a robot wanted to act.
type chekhardaGame struct{}

func (chekhardaGame) name() string { return "chekharda" }
func (chekhardaGame) kinds() []string {
	return []string{string(chekharda.Novice), string(chekharda.Cook), string(chekharda.Shef)}
}
func (chekhardaGame) aliases() map[string]string {
	return map[string]string{"top": string(chekharda.Shef), "middle": string(chekharda.Cook), "bottom": string(chekharda.Novice)}
}
func (chekhardaGame) defaultPlayers() string { return "shef,cook,cook,cook" }
func (chekhardaGame) seats() (int, int)      { return chekharda.MinPlayers, chekharda.MaxPlayers }
func (chekhardaGame) scoreLabel() string     { return "total" }
func (chekhardaGame) about(*config) string {
	return fmt.Sprintf("game chekharda, target %d, quiet pause %v, reaction times by level",
		chekharda.TargetFull, chekharda.QuietPause)
}

func (chekhardaGame) newTable(_ *config, players int, seed uint64) (table, error) {
	st, err := chekharda.New(chekharda.DefaultConfig(players, seed))
	if err != nil {
		return nil, err
	}
	return &chekhardaTable{st: st, levels: map[game.Seat]string{}, race: map[string]int{}}, nil
}

// maxIdle bounds the rounds of asking in which every robot waits and no
// deal can come (only Novice waits by chance with the deck empty); then
// the first seat asked plays its first legal move, so a game always ends.
const maxIdle = 100

// proposal is one seat's answer in the current round of asking.
type proposal struct {
	seat game.Seat
	a    game.Action
	ok   bool          // false: the robot waits
	rt   time.Duration // its reaction time
}

type chekhardaTable struct {
	st     *chekharda.State
	asked  []game.Seat // the seats asked since the last change
	props  []proposal
	levels map[game.Seat]string // the level of each seat, as decide was told
	idle   int
	err    error // an engine error in a move the table made itself
	// race counts the settled rounds of asking: "a>b" each time a robot of
	// level a acted while one of level b also wanted to (a != b), "a>pause"
	// when a robot of level a acted before the quiet pause while a deal
	// could come, "pause>a" when the dealer dealt although it wanted to act.
	race map[string]int
}

// races implements racer.
func (t *chekhardaTable) races() map[string]int { return t.race }

// toAct applies the platform's own moves (next round, the deal when
// nobody can act) and returns the seats to ask.
func (t *chekhardaTable) toAct() []game.Seat {
	t.props = t.props[:0]
	for t.err == nil && !t.st.Over() {
		switch {
		case t.st.Phase() == chekharda.PhaseRoundEnd:
			t.system(chekharda.NextRoundAction())
			continue
		case t.st.Stuck():
			t.system(chekharda.DealAction())
			continue
		}
		t.asked = t.asked[:0]
		for _, s := range t.st.ToAct() {
			if s != game.System {
				t.asked = append(t.asked, s)
			}
		}
		if len(t.asked) > 0 {
			return t.asked
		}
		t.system(chekharda.DealAction()) // unreachable: only the dealer can act means Stuck
	}
	if t.err != nil {
		return []game.Seat{0} // the next apply reports it
	}
	return nil
}

func (t *chekhardaTable) system(a game.Action) {
	if err := t.st.Apply(game.System, a); err != nil {
		t.err = fmt.Errorf("platform move %d: %w", a, err)
	}
}

func (t *chekhardaTable) decide(kind string, s game.Seat, seed uint64) (game.Action, time.Duration) {
	if t.err != nil {
		return -1, 0
	}
	lv := chekharda.Level(kind)
	t.levels[s] = kind
	v := t.st.SeatView(s)
	t0 := time.Now()
	a, ok := chekharda.Decide(lv, v, seed)
	d := time.Since(t0)
	t.props = append(t.props, proposal{seat: s, a: a, ok: ok, rt: chekharda.ReactionTime(lv, seed)})
	return a, d
}

// apply records nothing itself (decide did); after the last seat asked it
// settles the race.
func (t *chekhardaTable) apply(game.Seat, game.Action) error {
	if t.err != nil {
		return t.err
	}
	if len(t.props) < len(t.asked) {
		return nil
	}
	best := -1
	for i, p := range t.props {
		if p.ok && (best < 0 || p.rt < t.props[best].rt) {
			best = i
		}
	}
	deal := slices.Contains(t.st.Legal(game.System), chekharda.DealAction())
	switch {
	case best >= 0 && (t.props[best].rt < chekharda.QuietPause || !deal):
		t.idle = 0
		p := t.props[best]
		t.count(best, deal)
		return t.st.Apply(p.seat, p.a)
	case deal:
		t.count(-1, true)
		return t.st.Apply(game.System, chekharda.DealAction())
	}
	if t.idle++; t.idle < maxIdle {
		return nil
	}
	t.idle = 0
	s := t.asked[0]
	return t.st.Apply(s, t.st.Legal(s)[0])
}

// count records a settled round of asking: props[won] acted (-1: the
// dealer dealt); deal tells whether the dealer could have.
func (t *chekhardaTable) count(won int, deal bool) {
	seen := map[string]bool{}
	for i, p := range t.props {
		if !p.ok || i == won {
			continue
		}
		lv := t.levels[p.seat]
		switch {
		case won < 0 && !seen[lv]:
			t.race["pause>"+lv]++
		case won >= 0 && lv != t.levels[t.props[won].seat] && !seen[lv]:
			t.race[t.levels[t.props[won].seat]+">"+lv]++
		}
		seen[lv] = true
	}
	if won >= 0 && deal {
		t.race[t.levels[t.props[won].seat]+">pause"]++
	}
}

func (t *chekhardaTable) result() ([]int, []game.Seat) {
	r := t.st.Result()
	return r.Scores, r.Winners
}
