package txn

import "github.com/go-telegram/bot/models"

// Request is a command as it came: "/newgame@bot trickchef" → newgame,
// [trickchef]. The commands' router (bot/tables) makes it; each part's
// handler reads it.
type Request struct {
	UpdateID int64
	Msg      *models.Message
	Name     string
	Args     []string
	// Addressed is set when the command names this bot ("/cmd@ourbot"):
	// a name it does not know then gets an answer, not silence.
	Addressed bool
}
