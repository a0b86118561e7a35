package trickchef

// Trick evaluation, shared by the engine and the AIs.

// Trumps returns the trump suits for a centre pool (chefs per suit): among
// suits with at least one chef, those with the fewest. A suit with no chef
// left is never trump; with an empty pool nothing is.
func Trumps(pool [NumSuits]int) SuitSet {
	min := 1 << 30
	for _, n := range pool {
		if n > 0 && n < min {
			min = n
		}
	}
	var t SuitSet
	for s, n := range pool {
		if n > 0 && n == min {
			t |= 1 << s
		}
	}
	return t
}

func trumpsOf(pool *[NumSuits]uint8) SuitSet {
	return Trumps([NumSuits]int{int(pool[0]), int(pool[1]), int(pool[2]), int(pool[3])})
}

// Effective is a card's value with k coins on it (+k on the +2 side, −k on
// the −2 side). There are no bounds.
func Effective(c Card, coins int) int { return c.Value + 2*coins }

// resolve finds, among the first n plays (in playing order), the index of
// the trick's winner and of the chef taker. Winner: if any trump was played
// the highest trump, else the highest card of the led suit (suits[0]); ties
// go to the card played last. Chef: the lowest effective value of any suit;
// ties go to the card played first. n must be ≥ 1.
func resolve(n int, suits *[4]Suit, eff *[4]int, trumps SuitSet) (winner, chef int) {
	anyTrump := false
	for i := 0; i < n; i++ {
		if trumps.Has(suits[i]) {
			anyTrump = true
			break
		}
	}
	winner, chef = -1, 0
	for i := 0; i < n; i++ {
		if eff[i] < eff[chef] {
			chef = i // strict: the first played keeps a tie
		}
		can := suits[i] == suits[0]
		if anyTrump {
			can = trumps.Has(suits[i])
		}
		if !can {
			continue
		}
		if winner < 0 || eff[i] > eff[winner] || (eff[i] == eff[winner] && tieWinnerIsLast) {
			winner = i
		}
	}
	return winner, chef
}

// Resolve evaluates plays in playing order (a complete trick, or the cards
// so far to see who is winning now) under the given trumps and returns the
// indexes into plays of the winner and of the chef taker; (-1, -1) if plays
// is empty or longer than 4. Coins and Card are used; Effective is ignored
// and recomputed.
func Resolve(plays []Played, trumps SuitSet) (winner, chef int) {
	if len(plays) == 0 || len(plays) > 4 {
		return -1, -1
	}
	var suits [4]Suit
	var eff [4]int
	for i, p := range plays {
		suits[i] = p.Card.Suit
		eff[i] = Effective(p.Card, p.Coins)
	}
	return resolve(len(plays), &suits, &eff, trumps)
}
