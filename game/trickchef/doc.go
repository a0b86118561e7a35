// Package trickchef is the rules engine of the trick-taking card game
// Трик-н-Шеф for 3 or 4 players, as described in docs/rules/trickchef.md.
// It is pure: no I/O, clock or logging; the shuffle comes from a generator
// kept inside the State, so a game is fully determined by its Config and
// the actions applied.
//
// Phases: PhasePick (round start: each seat in turn takes a set-aside chef;
// the last one is assigned automatically), PhasePlay (play one card with
// coins), PhaseAward (the player of the lowest card chooses a chef from the
// pool; automatic if only one suit is left), PhaseOver.
//
// Actions are small ints: ChefAction(suit) = 0..3 and
// PlayAction(card, coins) = 4 + (suit*10+value-1)*41 + coins+20, at most
// 1643 (MaxAction). Every [ruling] (docs/rules/trickchef.md, «Rulings»)
// lives in rulings.go.
//
// Measured on an AMD EPYC (2 cores), Go 1.26, with
//
//	go test -run '^$' -bench . -benchtime 2s ./game/trickchef/
//
//	BenchmarkRandomGame   10.6 µs/op  (≈ 94,000 full 4-player games/s, 1 alloc: New)
//	BenchmarkBaseline      2.9 µs/op  (one decision, last to play, 39 legal actions)
//	BenchmarkApply          71 ns/op  (0 allocs)
//	BenchmarkMarshal        38 ns/op  (246 bytes per state, fixed size)
//	BenchmarkSeatView      6.2 µs/op
package trickchef
