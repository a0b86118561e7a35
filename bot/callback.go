package bot

// Lobby button ops (payload.Args[0] of an 'l' payload).
const (
	lobbyJoin = iota + 1
	lobbyLeave
	lobbyAddAI
	lobbyStart
	lobbyCancel
	lobbyOption // cycle option Args[1] of the game's options
	_           // was: choose the game by index (now the 'k' op)
	lobbyKick   // remove the last robot
	lobbyLevel  // cycle the level of the next robot
	lobbyTurn   // cycle the time for a move (turnChoices)
	lobbyHints  // turn hints on or off
)
