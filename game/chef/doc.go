// Package chef is the rules engine of «Меню шефа» (Chef), a card game for 2
// to 8 players: everyone collects a menu of six dishes of six colours face up
// in front of them, action cards hit the next player, and the first player
// to take the Addition («Счёт») with an announced complete menu wins. The
// rules as implemented are in docs/rules/chef.md; every decision the rules
// leave open is in rulings.go. The engine is pure: no I/O, clock or
// logging; shuffles come from a generator kept inside the State, so a game
// is fully determined by its Config and the actions applied.
//
// Everything is public but the order of the face-down pile, so SeatView is
// the public view plus the seat's legal actions. One seat acts at a time
// (ToAct). A turn has two steps: StepTurn (draw, take the discard top, play
// an action card, discard a duplicate; announcing is free) and, after a
// draw, StepDrawn (discard a dish, play the drawn action card, redraw after
// a Chef on a complete menu, announce, or end the turn). StepOver ends the
// game: by the Addition, or at closing time when the pile runs out after
// MaxRebuilds rebuilds.
//
// Every choice is one action, a small int at most MaxAction = 60 (see
// actions.go): draw 0, take 1, end 2, announce 3, redraw 4, play Empty plate
// 5, play Blank menu 6, discard dish 7..12, Diet on dish 13..18, Chef taking
// dish 19..24, Hangover on dishes d1 then d2 25..60 (25 + 6·(d1−1) + (d2−1),
// d2 ends on the discard top). Move, DecodeAction and the notation of
// notation.go ("draw", "discard:r", "play:H:rb"; ParseDeal for test
// positions) name them. Rule errors are *game.RuleError with the codes of
// errors.go. Robots: Decide with Novice, Cook or Shef (ai.go; Shef's
// search, its Budget and DecideBudget in ai_search.go).
//
// Measured on a 2-core AMD EPYC-class VM shared with other jobs, Go 1.26,
// with
//
//	go test -run '^$' -bench . -benchtime 2s ./game/chef/
//
//	BenchmarkRandomGame    40 µs/op  (≈ 25,000 full 6-player games/s on one core;
//	                                  638 uniformly random legal actions per game; 1 alloc: New)
//	BenchmarkCookGame     9.8 µs/op  (full 6-player game, Cook at every seat, 147 actions)
//	BenchmarkApply         13 ns     per Apply (26 ns/op for a draw and an end; 0 allocs)
//	BenchmarkMarshal      109 ns/op  (203 bytes, 6 players mid-game)
//	BenchmarkSeatView     1.6 µs/op
//	BenchmarkDecideNovice  as Cook   (Cook's move unless it slips)
//	BenchmarkDecideCook   0.8 µs/op  (one decision, the view rebuilt into a state)
//	BenchmarkDecideShef    14 ms/op  (one decision: 3,000 playouts of 20 turns, under a load
//	                                  of 6 on the 2 cores; the same with 36 legal actions,
//	                                  BenchmarkDecideShefHeavy)
//
// docs/chef.md has the arena results; docs/ai.md («Меню шефа») Shef's.
package chef
