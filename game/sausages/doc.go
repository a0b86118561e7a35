// Package sausages is the rules engine of Сосиски, a Russian re-theme of
// the bluffing game Skull (sausage = rose, boot = skull) for 3 to 6
// players, as described in docs/rules/sausages.md. It is pure: no I/O,
// clock or logging; the blind shuffle comes from a generator kept inside
// the State, so a game is fully determined by its Config and the actions
// applied.
//
// Phases: PhaseSetup (simultaneous: every seat still in places one card
// face down; ToAct lists them all), PhaseAdd (from the round's first player
// clockwise: add a card or open the bidding; a seat with an empty hand must
// bid), PhaseBid (raise or pass; ends when all but one passed or at the
// total), PhaseAttempt (the challenger's own stack is turned automatically;
// then one reveal action per opponent card), PhasePick (the owner of the
// revealed boot picks one of the challenger's shuffled cards blind),
// PhaseLose (own boot: the challenger chooses the kind to lose), PhaseName
// (out on an own boot: the challenger names the next first player),
// PhaseOver.
//
// Actions are small ints, at most MaxAction = 44: place S/B = 0/1, pass =
// 2, lose S/B = 3/4, reveal seat s = 5+s, name seat s = 11+s, pick index i
// = 17+i, bid n = 20+n. Every [ruling] lives in rulings.go. Three AIs read
// only a SeatView: Baseline, the counting Sly and the top level Sharp
// (ai_sharp.go: a belief over every stack, deliberate bluffs).
//
// Measured on an AMD EPYC (2 cores), Go 1.26, with
//
//	go test -run '^$' -bench . -benchtime 2s ./game/sausages/
//
//	BenchmarkRandomGame   6.0 µs/op  (≈ 166,000 full 4-player games/s, 1 alloc: New)
//	BenchmarkSlyGame      141 µs/op  (4 Sly seats, a view per decision)
//	BenchmarkBaseline     103 ns/op  (one decision, 6-player bidding, 17 legal)
//	BenchmarkSly          186 ns/op  (the same decision)
//	BenchmarkApply         32 ns/op  (0 allocs)
//	BenchmarkMarshal       17 ns/op  (43 bytes, 6 players bidding)
//	BenchmarkSeatView    0.85 µs/op
package sausages
