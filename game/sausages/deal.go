package sausages

// BlindOrder is, while a blind pick is to be made (PhasePick), the
// challenger's cards in the order the engine shuffled them, the one the
// picker chooses by position; nil otherwise. It is hidden while the game
// goes on; it is here so a finished game's shuffles can be checked against
// its reveal (bot/deal). Nothing that plays or draws a view reads it.
func (st *State) BlindOrder() []Card {
	if st.phase != PhasePick {
		return nil
	}
	out := make([]Card, st.seats[st.bidder].owned())
	for i := range out {
		out[i] = Sausage
		if int(st.fan) == i+1 {
			out[i] = Boot
		}
	}
	return out
}
