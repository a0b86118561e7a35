// Package chekharda is the rules engine of «Чехарда», the Russian edition
// of the real-time card game Ruckus, for 2 to 6 players. The full rules as
// implemented are in docs/rules/chekharda.md; every ruling lives in
// rulings.go. The engine is pure: no I/O, clock or logging; the shuffle
// comes from a generator kept inside the State, so a game is fully
// determined by its Config and the actions applied.
//
// Real time without turns. Any player may act at any moment: ToAct lists
// every seat that has a legal action now (each may act, in any order, none
// must), plus game.System while the platform may act. The platform's moves
// are the dealer's deal (during a round, while the deck has cards, without
// the variant: the bot applies it after a quiet pause that every action
// restarts, QuietPause by default, and at once when Stuck reports that no
// player can act) and the next round (PhaseRoundEnd: applied after a pause
// for reading the results). Every action is judged against the current
// state only, so a button pressed on an older view works while the move is
// still legal; when two presses conflict, the first the platform commits
// wins and the other gets a precise code (set_gone).
//
// Everything automatic happens inside the Apply that causes it: pairs in
// a hand are laid as sets after every deal or draw, an emptied hand ends
// the round (the player went out), a deck run out with nobody able to act
// ends it without a winner, a total reaching the target ends the game.
//
// Actions are small ints, at most MaxAction = 86: StealAction(kind,
// victim) = (kind−1)·6 + victim (0..71), AddAction(kind) = 71 + kind
// (72..83), DrawAction() = 84 (variant «Хотите большего?»), DealAction() =
// 85 and NextRoundAction() = 86 (game.System). PublicView shows every
// set, hand sizes, the deck size, totals, the last round's breakdown and
// the last LogSize events (steals with their victims, adds, sets laid,
// deals, draws, round ends), each with a sequence number; SeatView adds
// the seat's hand and legal actions. Hands are never shown to anyone else.
// Robots: Decide(level, view, seed) for Novice, Cook and Shef, and
// ReactionTime for their human-like speed.
//
// Measured on an AMD EPYC-class virtual machine (2 cores, shared: the
// fastest of several runs), Go 1.26, with
//
//	go test -run '^$' -bench . -benchtime 2s -count 3 ./game/chekharda/
//
//	BenchmarkRandomGame     40 µs/op  (≈ 25,000 full 4-player games/s to 77, 146 actions each, 1 alloc: New)
//	BenchmarkRobotGame     1.5 ms/op  (Shef and 3 Cooks in simulated real time, a view per robot per step)
//	BenchmarkDecide       0.3 µs (novice), 1.0 µs (cook), 1.0 µs (shef) per decision
//	BenchmarkApply          42 ns/op  (a steal, 0 allocs)
//	BenchmarkDeal           81 ns/op  (0 allocs)
//	BenchmarkMarshal       105 ns/op  (182 bytes: 4 players mid-round, full log)
//	BenchmarkUnmarshal     0.6 µs/op  (with full validation, 0 allocs)
//	BenchmarkSeatView      2.1 µs/op
package chekharda
