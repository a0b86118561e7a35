package record

// DecisionSeed is the seed of the decision the bot makes for a seat (a
// robot's move, a timed-out person's, a hint) when the game's log holds
// moves moves: derived from the table's seed and the log's length, so a
// game replays identically from its seed and log, and a review can ask
// the top level with the seed it would have had at any point.
func DecisionSeed(seed uint64, moves int) uint64 {
	x := seed + uint64(moves+1)*0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return x
}

// DecisionBase is the seed the bot's decisions for t's seats derive from
// (DecisionSeed): the robots' own seed of a v2 deal, the table's seed in a
// v1 one.
func (t *Table) DecisionBase() uint64 {
	if t.RobotSeed != 0 {
		return t.RobotSeed
	}
	return t.Seed
}
