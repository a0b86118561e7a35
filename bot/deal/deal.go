// Package deal is a deal anyone can check and the server cannot choose.
// When a lobby opens the group sees a commitment: 32 hex digits of the
// SHA-256 of a reveal, "v2:" and a secret of 128 random bits the server
// drew then (v2.go). The seeds are derived from the secret together with
// what the game is (its id, seats, creator's seat and options) and the ids
// Telegram drew for the players' presses — each seat's and the start's
// (Derive) — so the server, committed first, can no longer pick the cards
// and the players, not knowing the secret, cannot either. With the final
// result (or on /stop) the group sees the reveal, and each player gets the
// game's file (File: the commitment, the reveal, the seats with their
// press ids, the options, every move). Anyone can hash the reveal and
// compare, and remake every deal from the reveal and the file, since an
// engine draws every shuffle (a new round, a rebuilt pile, a blind pick)
// from the generator its seed starts (cmd/aibench deal -reveal … -log
// <file>).
//
// A v1 deal (Deal, New, Reveal: sixteen hex digits of commitment over
// game:seats:creator:options:seed:salt, drawn at the start) is what games
// dealt before v2 show; they still read and check. It is pure.
package deal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/record"
)

// Deal is what a reveal holds.
type Deal struct {
	Game  string // the game's id
	Seats int
	// Creator is the seat of the person who opened the lobby (a game may
	// start from their neighbour), -1 when they do not play.
	Creator int
	// Options are the table's lobby options (record.Table.Options) that
	// are set; an option left at its default is not written.
	Options map[string]int
	Seed    uint64
	Salt    uint64
}

// CommitmentLen is the length of a v1 commitment: 16 lowercase hex
// digits, 64 bits of the hash (a v2 one is CommitmentLen2).
const CommitmentLen = 16

// A v1 reveal is six fields separated by ":" — the game id, the seats, the
// creator's seat or "-", the options as key=value joined by "," in key
// order or "-", the seed and the salt as 16 lowercase hex digits each:
//
//	trickchef:3:0:removed=1:9f3ab12c0d4e5f60:1a2b3c4d5e6f7a8b
const sep = ":"

// New is the reveal of a game of game for seats seats, dealt with the lobby
// options and seed, salted with salt; the creator does not play.
func New(game string, seats int, options map[string]int, seed, salt uint64) string {
	return Deal{Game: game, Seats: seats, Creator: -1, Options: options, Seed: seed, Salt: salt}.String()
}

// Reveal is the reveal of the game t holds (its game, seats, creator's
// seat, options and seed), salted with salt: what the runtime shows with
// the final result. The creator's seat is where they sat when the cards
// were dealt: a creator who left the game since (a robot plays the seat)
// still counts, so the commitment stays the same all game long.
func Reveal(t *record.Table, salt uint64) string {
	return Deal{Game: t.GameID, Seats: len(t.Seats), Creator: creatorSeat(t), Options: t.Options, Seed: t.Seed, Salt: salt}.String()
}

// creatorSeat is the seat of t's creator where they sat when the cards
// were dealt, -1 when they do not play.
func creatorSeat(t *record.Table) int {
	for i, s := range t.Seats {
		if t.Creator != 0 && (s.Human() && s.UserID == t.Creator || s.Leaver != nil && s.Leaver.UserID == t.Creator) {
			return i
		}
	}
	return -1
}

// String is the reveal.
func (d Deal) String() string {
	return strings.Join([]string{d.what(), hex16(d.Seed), hex16(d.Salt)}, sep)
}

// what is the reveal's first four fields: the game, the seats, the
// creator's seat and the options — what the game is, without its seeds.
func (d Deal) what() string {
	creator := "-"
	if d.Creator >= 0 {
		creator = strconv.Itoa(d.Creator)
	}
	var opts []string
	for _, k := range slices.Sorted(maps.Keys(d.Options)) {
		if v := d.Options[k]; v != 0 {
			opts = append(opts, k+"="+strconv.Itoa(v))
		}
	}
	options := "-"
	if len(opts) > 0 {
		options = strings.Join(opts, ",")
	}
	return strings.Join([]string{d.Game, strconv.Itoa(d.Seats), creator, options}, sep)
}

func hex16(x uint64) string { return fmt.Sprintf("%016x", x) }

// Commitment is the first lowercase hex digits of the SHA-256 of the
// reveal: CommitmentLen2 of a v2 reveal (what the table shows from the
// lobby on), CommitmentLen of a v1 one (shown once the cards were dealt).
func Commitment(reveal string) string {
	sum := sha256.Sum256([]byte(reveal))
	if _, v2 := SecretOf(reveal); v2 {
		return hex.EncodeToString(sum[:])[:CommitmentLen2]
	}
	return hex.EncodeToString(sum[:])[:CommitmentLen]
}

// Check reports whether reveal is the one commitment was made from.
func Check(reveal, commitment string) bool { return Commitment(reveal) == commitment }

var errReveal = errors.New("deal: not a reveal (game:seats:creator:options:seed:salt)")

// Parse reads a reveal back. It accepts exactly what String writes, so a
// reveal parsed and written again is the same word (and has the same
// commitment).
func Parse(reveal string) (Deal, error) {
	f := strings.Split(reveal, sep)
	if len(f) != 6 || !isID(f[0]) {
		return Deal{}, errReveal
	}
	d := Deal{Game: f[0], Creator: -1}
	var err error
	if d.Seats, err = strconv.Atoi(f[1]); err != nil || d.Seats < 1 || d.Seats > 64 {
		return Deal{}, errReveal
	}
	if f[2] != "-" {
		if d.Creator, err = strconv.Atoi(f[2]); err != nil || d.Creator < 0 || d.Creator >= d.Seats {
			return Deal{}, errReveal
		}
	}
	if f[3] != "-" {
		d.Options = map[string]int{}
		for _, kv := range strings.Split(f[3], ",") {
			k, v, ok := strings.Cut(kv, "=")
			n, err := strconv.Atoi(v)
			if !ok || !isID(k) || err != nil || n == 0 {
				return Deal{}, errReveal
			}
			if _, dup := d.Options[k]; dup {
				return Deal{}, errReveal
			}
			d.Options[k] = n
		}
	}
	if d.Seed, err = parseHex16(f[4]); err != nil {
		return Deal{}, errReveal
	}
	if d.Salt, err = parseHex16(f[5]); err != nil {
		return Deal{}, errReveal
	}
	if d.String() != reveal {
		return Deal{}, errReveal // not canonical: "+3", "03", options out of order
	}
	return d, nil
}

func parseHex16(s string) (uint64, error) {
	if len(s) != 16 || strings.ToLower(s) != s {
		return 0, errReveal
	}
	return strconv.ParseUint(s, 16, 64)
}

// isID reports whether s is a game id or option key: lowercase ASCII
// letters, digits and "_".
func isID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Table is a table record from which the game's Start deals exactly the
// game d was made from: its seats (named "1", "2", …, the creator's a
// person, the others too), options and seed, the game playing.
func (d Deal) Table() *record.Table {
	t := &record.Table{ID: "deal", GameID: d.Game, Phase: record.PhasePlaying, Seed: d.Seed, Options: maps.Clone(d.Options), Lang: "ru"}
	for i := range d.Seats {
		t.Seats = append(t.Seats, record.Seat{UserID: int64(i + 1), Name: strconv.Itoa(i + 1)})
	}
	if d.Creator >= 0 {
		t.Creator = int64(d.Creator + 1)
	}
	return t
}
