package lobby

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// pressed keeps the id of the press that seated user in a lobby.
func pressed(t *record.Table, ch *txn.Change, user int64) {
	if ch.Press == "" || t.SeatOf(user) < 0 {
		return
	}
	if t.Pressed == nil {
		t.Pressed = map[int64]string{}
	}
	t.Pressed[user] = ch.Press
}

// dealSeeds draws the game's seeds as it starts. A lobby opened with a
// secret deals the v2 way (bot/deal): the seats' presses and this start
// press go in with the secret committed to since the lobby opened. A
// lobby from before (no secret) deals the v1 way: seed and salt drawn
// now, kept secret, the commitment shown from now on.
func dealSeeds(t *record.Table, ch *txn.Change) error {
	if t.Secret == "" {
		t.Seed, t.Salt = newSeed(), newSalt()
		return nil
	}
	t.Drawn = make([]string, 0, len(t.Seats)+1)
	for _, s := range t.Seats {
		t.Drawn = append(t.Drawn, t.Pressed[s.UserID]) // "" for a robot or a seat taken by command
	}
	t.Drawn = append(t.Drawn, ch.Press)
	seeds, err := deal.Derive(deal.TableReveal(t), deal.InputsOf(t))
	if err != nil {
		return err
	}
	t.Seed, t.Salt, t.RobotSeed = seeds.Deal, 0, seeds.Robots
	t.Pressed = nil
	return nil
}

// newSecret is a v2 deal's secret: 128 bits from crypto/rand, in hex.
func newSecret() string {
	var buf [16]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return hex.EncodeToString(buf[:])
}

// DealFile is the entry that sends a finished game's file of its deal and
// moves (data, a bot/deal.File), named <game>-<n>.json, with a caption
// saying what it is for; ok is false for a game with none (dealt before
// commitments).
func DealFile(l adapter.Loc, games view.Games, data []byte) (outbox.Entry, bool) {
	if len(data) == 0 {
		return outbox.Entry{}, false
	}
	f, err := deal.ReadFile(data)
	if err != nil {
		return outbox.Entry{}, false
	}
	title := f.Game
	if g, ok := games.Get(f.Game); ok {
		title = adapter.Title(l, g)
	}
	return outbox.Entry{Message: adapter.Message{Text: l.T("review.deal_file", "Game", adapter.Esc(title))},
		Document: &outbox.Document{Name: f.Name(), Data: f.Encode()}}, true
}

// stoppedFiles queues a stopped game's file to each person seated (a
// finished game's goes with the private results, bot/tables/standings): its practice
// chat, or each person the bot can write to.
func stoppedFiles(l adapter.Loc, games view.Games, t *record.Table, ch *txn.Change) {
	f, ok := deal.FileOf(t)
	if !ok || t.State == nil {
		return
	}
	e, ok := DealFile(l, games, f.Encode())
	if !ok {
		return
	}
	if view.PracticeChat(t.ChatID) {
		e.ChatID = t.ChatID
		ch.Outbox = append(ch.Outbox, e)
		return
	}
	for _, s := range t.Seats {
		if s.Human() && !s.Unreachable {
			e.ChatID = s.UserID
			ch.Outbox = append(ch.Outbox, e)
		}
	}
}
