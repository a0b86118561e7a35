package adapter

// YardstickGame is a RobotGame whose Auto also plays levels the lobby does
// not offer, kept to measure the offered ones against (cmd/aibench): a
// previous top level, the engine's plain heuristic. The bot never seats
// them.
type YardstickGame interface {
	// Yardsticks maps a name the tools accept ("prevtop") to the level
	// Auto is given for it ("" is the player the bot puts in for a person
	// whose time ran out).
	Yardsticks() map[string]string
}
