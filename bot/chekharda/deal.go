package chekharda

import (
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/game"
	ck "github.com/trickchef/trickchef/game/chekharda"
)

// Deal tells a round's deal: who dealt, every seat's hand and the sets
// laid from it, and the deck in the order the dealer deals it. Each round
// is shuffled from the generator the seed starts and nothing else draws
// from it, so every round's deal follows from the reveal alone (how many
// rounds there were, from the moves).
func (chekhardaGame) Deal(l adapter.Loc, t adapter.TableView, st game.State) string {
	s := st.(*ck.State)
	p := s.PublicView()
	lines := []string{l.T("chekharda.deal.round", "Round", s.Round(), "Dealer", adapter.SeatPlainName(t, s.Dealer()))}
	for i := range s.Seats() {
		v := s.SeatView(game.Seat(i))
		hand := make([]string, len(v.Hand))
		for j, k := range v.Hand {
			hand[j] = k.Emoji()
		}
		var sets []ck.Set
		for _, set := range p.Sets {
			if set.Owner == game.Seat(i) {
				sets = append(sets, set)
			}
		}
		lines = append(lines, l.T("chekharda.deal.hand", "Name", adapter.SeatPlainName(t, game.Seat(i)),
			"Cards", strings.Join(hand, " "), "Sets", chekhardaSets(sets)))
	}
	lines = append(lines, l.T("chekharda.deal.deck", "Cards", deckText(s)))
	return strings.Join(lines, "\n")
}

// deckText is the deck, top first, as emoji.
func deckText(s *ck.State) string {
	kinds, _ := deckKinds(s)
	if len(kinds) == 0 {
		return "—"
	}
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.Emoji()
	}
	return strings.Join(out, " ")
}

// deckKinds is the deck, top first: read from the engine's full notation,
// the one place the deck's order shows.
func deckKinds(s *ck.State) ([]ck.Kind, bool) {
	_, deck, ok := strings.Cut(s.Notation(), "; deck ")
	var out []ck.Kind
	for i := 0; i < len(deck); i++ {
		if k, ok := ck.ParseKind(deck[i]); ok {
			out = append(out, k)
		}
	}
	return out, ok
}

// Shuffled: a new round was dealt.
func (chekhardaGame) Shuffled(before, after game.State) bool {
	return after.(*ck.State).Round() != before.(*ck.State).Round()
}
