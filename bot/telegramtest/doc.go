// Package telegramtest is a fake Telegram Bot API server with simulated users and chats, for
// end-to-end tests of the bot, in the spirit of net/http/httptest.
//
// The fake is strict where the real API is: it validates parameters, answers with Telegram's
// envelope and error texts (403 before Start, "message is not modified", BUTTON_DATA_INVALID,
// migrate_to_chat_id, ...) and enforces rate limits by default (see DefaultLimits), so a bot that
// passes here behaves on Telegram. Requests may be multipart/form-data (go-telegram/bot),
// application/json or application/x-www-form-urlencoded.
//
// Every request is also checked against the published Bot API (an embedded copy of its
// machine-readable description, testdata/api.json): the method must exist, every parameter must
// be one of its parameters, required ones must be there, values must have a declared type (JSON
// objects such as reply_markup are checked field by field, recursively), and texts must fit the
// stated lengths (text 1-4096 characters after entities parsing, callback_data 1-64 bytes, ...).
// A violation is answered with Telegram's error and fails the test given with WithTB; stricter
// than Telegram, unknown parameters and unknown fields inside objects are refused, to catch typos.
// Tests of bad requests pass AllowSpecViolations; Violations lists what was caught.
//
// A test starts a server, points the bot at it, and plays users:
//
//	s := telegramtest.NewServer(telegramtest.WithTB(t), telegramtest.WithClock(clock))
//	defer s.Close()
//	// Run the bot with api URL s.URL (any token works unless WithToken is given),
//	// polling getUpdates or with a webhook set through setWebhook.
//
//	alice, bob := s.NewUser("Alice"), s.NewUser("Bob", telegramtest.WithLanguage("ru"))
//	alice.Start("")                           // the bot may now write to Alice
//	g := s.NewGroup("Kitchen", alice, bob)    // Alice owns the group
//	alice.Send(g, "/newgame@trickchef_test_bot")
//	lobby, err := g.WaitMessage(5*time.Second, func(m *telegramtest.Message) bool {
//		_, ok := m.Button("Join")
//		return ok
//	})
//	ans, err := bob.Press(lobby, "Join")      // waits for answerCallbackQuery
//	hand := alice.PrivateChat().Last()        // current text and keyboard after edits
//
// Reading is by snapshots: Chat.Messages, Last, Find and Message return messages as they look
// now (edited text and keyboard, deleted ones gone). Waiting uses Server.WaitFor and
// Chat.WaitMessage, which re-check after every state change instead of sleeping.
//
// Measurements: Server.Calls records every API call (with its parameters, after KeepParams);
// CallsPerChat, PeakCalls and TooManyRequestsCount summarise them. FailNext injects faults such as TooManyRequests(2).
//
// Things the bot must expect, as on Telegram:
//   - Creating a group sends the bot a my_chat_member update (added as member); KickBot, Block and
//     leaveChat send one too. A second concurrent getUpdates ends the first with 409.
//   - Members come and go: AddMember, User.Leave and Chat.RemoveMember change what getChatMember
//     says and post new_chat_members / left_chat_member service messages (none after
//     HideMemberMessages, as large supergroups post none); a chat_member update goes to the bot
//     only where it is an administrator (MakeBotAdmin) and named chat_member in allowed_updates.
//   - Updates stay pending until a getUpdates offset confirms them (or a webhook answers 2xx).
//   - editMessageText without reply_markup removes the keyboard.
//   - Kicked: "Forbidden: bot was kicked from the supergroup chat" (or "group chat" for basic
//     groups), so match on "bot was kicked".
//   - With a FakeClock, rate-limit windows only empty when the test advances the clock.
//
// Ephemeral messages (Bot API 10.2/10.3, see ephemeral.go): sendMessage with
// ephemeral_message_parameters in answer to a user's press (or at any time once Chat.MakeBotAdmin
// made the bot an administrator) puts a message only that user sees: User.Ephemeral,
// User.LastEphemeral and User.WaitEphemeral read them, User.View shows the chat as that user sees
// it (Chat.Messages is the history, without them), and Press and its kin press their buttons. The
// bot edits and deletes them with editEphemeralMessageText, editEphemeralMessageReplyMarkup and
// deleteEphemeralMessage. DropEphemeral loses a share of them (the user offline);
// WithoutEphemeralMessages makes a server that predates them.
//
// Time: rate-limit windows, callback query age and message dates use the injected Clock
// (WithClock, FakeClock); long polls, Press waits and webhook retries use real time.
package telegramtest
