package deal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/trickchef/trickchef/bot/record"
)

// A v2 deal is one the server cannot choose. When the lobby opens the
// server draws a secret, 128 random bits, and the table shows its
// commitment (CommitmentLen2 hex digits of the SHA-256 of the reveal,
// "v2:" and the secret's hex). Only then do the players' own draws come
// in: each person seated by a button press brings the callback query id
// Telegram drew for that press, and the start press brings its own. The
// deal is derived from all of them together with what the game is — its
// id, seats, creator's seat and options — so a server that committed first
// can no longer pick the cards, and the players cannot either (they do not
// know the secret). The deal's seed and the robots' seed are derived apart
// (Derive), so a robot's move says nothing of the cards.
//
// A v1 deal (Deal, New, Reveal) drew seed and salt at the start and
// showed a 64-bit commitment; games dealt that way still read and check.

// SecretLen is the length of a v2 secret: 32 lowercase hex digits, 128
// bits.
const SecretLen = 32

// CommitmentLen2 is the length of a v2 commitment: 32 lowercase hex
// digits, 128 bits of the hash.
const CommitmentLen2 = 32

// v2Prefix starts a v2 reveal.
const v2Prefix = "v2:"

// RevealV2 is the reveal of a v2 deal with secret (SecretLen hex digits).
func RevealV2(secret string) string { return v2Prefix + secret }

// SecretOf is the secret of a v2 reveal; ok is false for anything else
// (a v1 reveal, a malformed word).
func SecretOf(reveal string) (secret string, ok bool) {
	s, ok := strings.CutPrefix(reveal, v2Prefix)
	if !ok || len(s) != SecretLen || !isHex(s) {
		return "", false
	}
	return s, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Inputs are what a v2 deal mixes with the secret: what the game is, as a
// v1 reveal writes it (Deal without seed and salt), and what Telegram drew
// for the players' presses, each seat's ("" for a seat taken otherwise: a
// robot, a command, a link) and the start's.
type Inputs struct {
	Game    string
	Seats   int
	Creator int // the creator's seat, -1 when they do not play
	Options map[string]int
	Joins   []string // by seat
	Start   string
}

// Seeds are the seeds a v2 deal derives, one per purpose.
type Seeds struct {
	Deal   uint64 // every shuffle of the game (record.Table.Seed)
	Robots uint64 // the bot's own decisions (record.Table.RobotSeed)
}

var errInputs = errors.New("deal: the players' draws do not match the seats")

// Derive is the seeds of the v2 deal reveal commits to, with in: for each
// purpose ("deal", "robots"), the first 8 bytes (big-endian) of
// HMAC-SHA256 keyed with the secret's 16 bytes over the purpose and the
// inputs, a line each:
//
//	deal
//	trickchef:3:0:removed=1
//	<seat 1's press id>
//	…
//	<the start press id>
func Derive(reveal string, in Inputs) (Seeds, error) {
	secret, ok := SecretOf(reveal)
	if !ok {
		return Seeds{}, errReveal
	}
	if len(in.Joins) != in.Seats {
		return Seeds{}, errInputs
	}
	for _, j := range append(in.Joins[:len(in.Joins):len(in.Joins)], in.Start) {
		if strings.ContainsAny(j, "\n\r") {
			return Seeds{}, errInputs
		}
	}
	key, _ := hex.DecodeString(secret)
	game := Deal{Game: in.Game, Seats: in.Seats, Creator: in.Creator, Options: in.Options}.what()
	body := game + "\n" + strings.Join(in.Joins, "\n") + "\n" + in.Start
	sub := func(purpose string) uint64 {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(purpose + "\n" + body))
		return binary.BigEndian.Uint64(m.Sum(nil))
	}
	return Seeds{Deal: sub("deal"), Robots: sub("robots")}, nil
}

// InputsOf are the inputs of the v2 deal t holds: its game, seats,
// creator's seat (as Reveal finds it), options, and what Telegram drew
// (record.Table.Drawn).
func InputsOf(t *record.Table) Inputs {
	in := Inputs{Game: t.GameID, Seats: len(t.Seats), Creator: creatorSeat(t), Options: t.Options, Joins: make([]string, len(t.Seats))}
	if len(t.Drawn) == len(t.Seats)+1 {
		copy(in.Joins, t.Drawn)
		in.Start = t.Drawn[len(t.Seats)]
	}
	return in
}

// TableReveal is the reveal of the deal t holds: v2 when it has a secret,
// v1 when it has a salt, "" for a game dealt before commitments.
func TableReveal(t *record.Table) string {
	switch {
	case t.Secret != "":
		return RevealV2(t.Secret)
	case t.Salt != 0:
		return Reveal(t, t.Salt)
	}
	return ""
}
