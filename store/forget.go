package store

import "strconv"

// Forgetting a person (/forgetme) deletes everything the store keeps of
// them: their results everywhere (Forget: stats, ratings, their seats in
// the groups' histories blanked), their pointers (their table, that they
// opened the bot's chat, tips turned off), and their private chat: its
// table (the practice table, with its outbox, message records and applied
// update ids, out of every queue), its waiting updates, its dead letters
// and its results; and, in every kept game they played (their index of
// kept games), their review and their request for one, then the index.
//
// The kept games themselves stay: the others who played them keep them,
// with their reviews. Their copies hold the person's name and user id,
// and so may a dead letter of another chat (an update of theirs, or one
// that quotes them) and a broken table's record set aside: the store
// cannot read any of them, so the runtime renames or drops them first
// (RewriteKeptGame, DropKeptGame, DropDeadLetters, Pointers), then calls
// ForgetUser, which removes the index it found them by. Names the person
// left inside other tables' records are the runtime's too.

// UserPlayer is a person's player id in results ("u<telegram user id>";
// robots are "r<level>").
func UserPlayer(user int64) string { return "u" + strconv.FormatInt(user, 10) }

// TipsOffKey is the pointer that says a user turned the bot's tips off.
func TipsOffKey(user int64) string { return "tipsoff:" + strconv.FormatInt(user, 10) }

// userPointers are every pointer keyed by the person.
func userPointers(user int64) []string {
	return []string{UserTableKey(user), StartedKey(user), TipsOffKey(user)}
}

// privateChat is the person's private chat with the bot: its chat id, its
// inbox key, and its table's id (record.ID(user, 0)).
func privateChat(user int64) string { return strconv.FormatInt(user, 10) }
