package chef

// Pile is the face-down pile, top (the next card drawn) first: the order
// the last shuffle left it in. It is hidden while the game goes on; it is
// here so a finished game's deal can be checked against its reveal
// (bot/deal). Nothing that plays or draws a view reads it.
func (st *State) Pile() []Card {
	out := make([]Card, st.npile)
	for i := range out {
		out[i] = st.pile[int(st.npile)-1-i]
	}
	return out
}
