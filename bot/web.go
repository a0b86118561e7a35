package bot

// WebState is what the «Стол» page shows of a table to one viewer: the
// table's scene as that viewer may see it, and the page's own words in the
// table's language. Version is the table record's version: the page asks
// again after every change it hears of and ignores an older answer.
type WebState struct {
	Table   string `json:"table"`
	Version int64  `json:"version"`
	// Game is the game's id ("" before the first game) and Title its name.
	Game  string `json:"game,omitempty"`
	Title string `json:"title,omitempty"`
	// Chat is the group's title.
	Chat string `json:"chat,omitempty"`
	Lang string `json:"lang"`
	// Phase is "idle" (no game yet, or it ended: Scene shows the last
	// one), "lobby" or "playing".
	Phase Phase `json:"phase"`
	// Seat is the viewer's seat, Spectator when they play none.
	Seat  int    `json:"seat"`
	Scene *Scene `json:"scene,omitempty"`
	// Over reports that the scene shows a finished game; Again is then
	// the data of «Ещё партию» for the viewer, when they may start one.
	Over  bool   `json:"over,omitempty"`
	Again string `json:"again,omitempty"`
	// Rules is the game's guide as plain text, pages joined.
	Rules string `json:"rules,omitempty"`
	// Now is the server's clock (Unix ms), so countdowns do not depend on
	// the phone's.
	Now int64 `json:"now"`
	// Texts are the page's own words (catalog keys "web.<key>", by key).
	Texts map[string]string `json:"texts"`
}

// WebReply answers an action from the page: OK when it was applied (or
// was applied before: a retried request), and the toast to show, which is
// the chat's toast for the same press (the reason when refused).
type WebReply struct {
	OK   bool   `json:"ok"`
	Text string `json:"text,omitempty"`
	// Alert asks for a dialog instead of a toast (private information).
	Alert bool `json:"alert,omitempty"`
}
