// Package webapp serves the «Стол» web page, a Telegram Mini App that draws
// a table live from the bot's WebState.
package webapp

import (
	"embed"
	"io/fs"
)

// static holds the page: index.html, app.js, app.css. go:embed only works
// on a package-level variable; it is never written to.
//
//go:embed static
var static embed.FS

// Static returns the page's files, rooted so that "index.html" is at the
// top (served at "/").
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // "static" is a valid path: fs.Sub cannot fail on it
	}
	return sub
}

// TextKeys lists the page's own words: the catalog keys "web.<key>" the
// server copies into WebState.Texts (by key, without the prefix). app.js
// reads each one as t('<key>'); static_test.go keeps the two in step.
func TextKeys() []string {
	return []string{
		"loading",
		"reconnecting",
		"offline",
		"spectator",
		"rules",
		"log",
		"again",
		"your_turn",
		"no_game",
		"no_game_hint",
		"lobby",
		"over",
		"close",
		"ok",
		"you",
		"robot",
		"away",
		"leader",
		"out",
		"turn",
		"seconds_short",
		"minutes_short",
		"enlarge",
		"replay_back",
		"replay_first",
		"replay_prev",
		"replay_next",
		"replay_last",
		"replay_rounds",
		"replay_mine",
		"replay_file",
		"replay_next_mistake",
		"replay_costly",
		"replay_move_short",
		"cup",
		"cup_back",
		"cup_tables",
		"cup_standings",
		"cup_place",
		"cup_name",
		"cup_points",
		"cup_games",
		"cup_playing",
		"cup_played",
		"cup_here",
		"cup_open",
		"cup_left",
		"cup_winner",
	}
}
