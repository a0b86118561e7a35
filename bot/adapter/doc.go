// Package adapter is the contract between the bot and a game: what a game's
// adapter (bot/<id>) implements, and everything it may use to do so. It
// stands apart from the runtime (package bot) as database/sql/driver stands
// apart from database/sql: adapters import this package, the game's engine
// (game/<id>) and package game, never the runtime; the runtime imports this
// package and no adapter. cmd/games hands the adapters to bot.New.
//
// # Writing a game
//
// A game is an engine plus an adapter. The engine is a game.State: pure,
// deterministic from its seed, tested by game/gametest's conformance suite,
// and knows nothing of Telegram. The adapter implements [Game] — the small
// core every game has: its id, seat range, deal, decode, the group's table
// message, a seat's private message and the announcements a move makes — and
// whichever optional capabilities it needs, each an interface the runtime
// looks for:
//
//   - [OptionGame]: lobby settings, read back with [OptionValue];
//   - [RobotGame]: robots and the moves of people whose time ran out
//     ([MemoryGame]: robots that remember public history; [HintGame]: advice
//     from the top level; [ReviewGame]: the top level's review of a
//     person's moves after the game; [YardstickGame]: levels kept only to
//     measure the offered ones against);
//   - [DraftGame]: a move composed in several presses;
//   - [InfoGame]: private information in an alert;
//   - [ClockGame]: a game that sets its own timers (real time), with
//     [LiveGame] buttons that stay valid across moves;
//   - [ExplainGame], [MoveGame], [ScoreGame], [TipGame]: more words for a
//     refusal, a move's name, a score's unit, a first game's tips;
//   - [WebGame]: the [Scene] the «Стол» page draws ([ReplayGame]: every
//     card face up, for the replay of a finished game);
//   - [DealGame]: the cards a finished game was dealt, for anyone to check
//     against its reveal (bot/deal).
//
// The runtime hands every method the table as a read-only [TableView] and
// the texts as a [Loc] in the table's language; an adapter keeps no state of
// its own. It draws with [Message] and [Button], makes its keyboards with
// [ActionButton], [DraftButton] and [InfoButton] (the runtime routes their
// presses back to the engine and refuses stale ones), and says what every
// game says alike with the shared helpers: [SeatName], [Mention],
// [SeatMark], [DeadlineText], [IdleFor], [EventLine], [ResultTable],
// [WinnerLine], [Rows], [Esc], [Title], [ErrorKey].
//
// Package example is a whole game in a page: «Старшая карта», the core
// Game only, with its test through the fake Bot API. docs/bot.md walks
// through it; bot/bottest is the harness an adapter's tests use.
package adapter
