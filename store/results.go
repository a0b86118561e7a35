package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Results: finished games, per-group player stats, ratings, leaderboards and
// history. Everything is scoped to one group chat; inside it stats and
// ratings are kept per (game, player). The store never computes ratings: the
// caller's rate function turns the current stats into new (mu, sigma) pairs,
// and the store only orders the leaderboard by the ordinal mu − 3σ.
//
// Both stores implement the same methods (see docs/store.md, "Results"):
//
//	RecordResult(ctx, Result, rate) (recorded bool, err error)
//	Top(ctx, chat, game, n) ([]PlayerStats, error)
//	Stats(ctx, chat, game, player) (PlayerStats, bool, error)
//	PlayerGames(ctx, chat, player) (map[string]PlayerStats, error)
//	PlayerChats(ctx, player) ([]int64, error)
//	History(ctx, chat, n) ([]Result, error)
//	SeasonResults(ctx, chat, from, to) ([]Result, error)
//	Forget(ctx, player) error
//	MoveChat(ctx, from, to) error

// Result is one finished game.
type Result struct {
	ID             string // unique per game (idempotency key), printable ASCII
	Game           string // game id, e.g. "trickchef"
	Chat           int64  // the group chat it was played in
	Started, Ended time.Time
	Options        string       // the game's options as the bot shows them (opaque)
	Seats          []ResultSeat // in seat order
}

// ResultSeat is one player's outcome in a Result.
type ResultSeat struct {
	Player string // "u<telegram user id>" for people, "r<level>" for robots; "" once forgotten
	Name   string // display name at the time of the game; "" once forgotten
	Place  int    // 1 = best; equal places are a tie
	Score  int
	// Left marks a person who left the game before its end: recorded
	// last, rated as last, with score 0 (the robot that finished for them
	// played the rest).
	Left bool
	// Unrated marks a person the bot played for most of the game: their
	// place is recorded, their rating was not changed.
	Unrated bool
}

// PlayerStats is one player's record in one group for one game.
type PlayerStats struct {
	Player    string
	Name      string // the latest name the player played under
	Games     int
	Wins      int // games with Place 1
	PlaceSum  int // for the average place: the sum of Place, a shared place counted as its best
	TieHalves int // what shared places add to PlaceSum in half places (2nd–3rd: 1 more); 0 in stats recorded before
	BestScore int
	Mu, Sigma float64 // current rating; zero Sigma = never rated
}

// RateFunc returns the new ratings of a result's seats, in seat order, from
// their current stats (zero values with Player and Name set for newcomers).
// It may be called more than once for one result when concurrent writers
// collide in Redis, so it must not have side effects.
type RateFunc = func(current []PlayerStats) (mu, sigma []float64)

const (
	// ResultRetention is how long result ids (and the marker of a moved
	// group) are remembered for exactly-once recording. A retry of a result
	// comes within minutes; a month leaves room for a long outage.
	ResultRetention = 30 * 24 * time.Hour
	// HistoryLimit is how many results each group keeps; older ones are
	// dropped (their games stay counted in the stats). The history is
	// also the seasons' memory (SeasonResults): 3,000 games are a year of
	// a group that plays eight games a day, so its past champions can be
	// named (the group's keys live Retention.Results, 400 days, after its
	// last game).
	HistoryLimit = 3000
	// SeasonSlack is how far SeasonResults reads past the window's start:
	// the history is in the order results were recorded, which is the
	// order they ended in but for a result recorded late (a job retried
	// while the store was away), and a day covers that.
	SeasonSlack = 24 * time.Hour
	// RankedGames is how many games of a game a player needs in a group to
	// appear on its leaderboard, so one lucky game does not top it.
	RankedGames = 3

	// resultRetries bounds the optimistic retries of one Redis write when
	// other writers keep changing the same group.
	resultRetries = 64
	// movedHops bounds how many group migrations a write follows.
	movedHops = 8
	// resultFormat and statsFormat tag the encodings below, so that a later
	// version can read older entries. Results of format 1 have no seat
	// flags (resultFormatNoFlags); format 2 added them.
	resultFormat        = 2
	resultFormatNoFlags = 1
	statsFormat         = 1
	// statsFormatTies is statsFormat with TieHalves, written only when it
	// is not zero, so stats without shared places stay readable by the
	// code before it.
	statsFormatTies = 2
)

// ErrResultConflict is returned when a results write kept losing to
// concurrent writers of the same group; the caller may retry later.
var ErrResultConflict = errors.New("store: results write kept conflicting")

// isHuman tells people from robots: only people are indexed for their
// private /stats and can ask to be forgotten.
func isHuman(player string) bool { return strings.HasPrefix(player, "u") }

// checkToken accepts a non-empty printable-ASCII string without spaces or
// braces (braces would change a Redis hash tag).
func checkToken(what, s string, maxLen int) error {
	if s == "" || len(s) > maxLen {
		return fmt.Errorf("store: invalid %s %q", what, s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' || c == '{' || c == '}' {
			return fmt.Errorf("store: invalid %s %q", what, s)
		}
	}
	return nil
}

func checkGame(game string) error     { return checkToken("game id", game, 64) }
func checkPlayer(player string) error { return checkToken("player id", player, 64) }

func checkResultChat(chat int64) error {
	if chat == 0 {
		return errors.New("store: invalid chat 0")
	}
	return nil
}

// check validates a result before anything is written.
func (r *Result) check() error {
	if err := checkToken("result id", r.ID, 200); err != nil {
		return err
	}
	if err := checkGame(r.Game); err != nil {
		return err
	}
	if err := checkResultChat(r.Chat); err != nil {
		return err
	}
	if len(r.Seats) == 0 {
		return fmt.Errorf("store: result %s has no seats", r.ID)
	}
	seen := make(map[string]bool, len(r.Seats))
	for _, s := range r.Seats {
		if err := checkPlayer(s.Player); err != nil {
			return err
		}
		if seen[s.Player] {
			return fmt.Errorf("store: result %s seats %s twice", r.ID, s.Player)
		}
		seen[s.Player] = true
		if s.Place < 1 {
			return fmt.Errorf("store: result %s: place %d of %s", r.ID, s.Place, s.Player)
		}
	}
	return nil
}

// players lists the result's players in seat order.
func (r *Result) players() []string {
	out := make([]string, len(r.Seats))
	for i, s := range r.Seats {
		out[i] = s.Player
	}
	return out
}

// humans lists the people of a set of players (robots have no index).
func humans(players []string) []string {
	var out []string
	for _, p := range players {
		if isHuman(p) {
			out = append(out, p)
		}
	}
	return out
}

// applyResult computes the seats' new stats from their current ones (in seat
// order, Player and Name filled) and the ratings rate returns.
func applyResult(r *Result, cur []PlayerStats, rate RateFunc) ([]PlayerStats, error) {
	next := slices.Clone(cur)
	if rate != nil {
		mu, sigma := rate(slices.Clone(cur))
		if len(mu) != len(cur) || len(sigma) != len(cur) {
			return nil, fmt.Errorf("store: result %s: rate returned %d/%d ratings for %d seats", r.ID, len(mu), len(sigma), len(cur))
		}
		for i := range next {
			if !finiteFloat(mu[i]) || !finiteFloat(sigma[i]) || sigma[i] < 0 {
				return nil, fmt.Errorf("store: result %s: bad rating %v/%v for %s", r.ID, mu[i], sigma[i], cur[i].Player)
			}
			next[i].Mu, next[i].Sigma = mu[i], sigma[i]
		}
	}
	for i, s := range r.Seats {
		p := &next[i]
		if p.Games == 0 || s.Score > p.BestScore {
			p.BestScore = s.Score
		}
		p.Games++
		if s.Place == 1 {
			p.Wins++
		}
		p.PlaceSum += s.Place
		p.TieHalves += r.tieHalves(i)
		p.Name = s.Name
	}
	return next, nil
}

// tieHalves is what seat i's shared place adds to its Place, in half
// places: n seats sharing place p take places p…p+n−1, on average p +
// (n−1)/2.
func (r *Result) tieHalves(i int) int {
	n := 0
	for _, s := range r.Seats {
		if s.Place == r.Seats[i].Place {
			n++
		}
	}
	return n - 1
}

// AveragePlace is the player's mean place, a shared place counted as the
// middle of the places it spans (2nd–3rd as 2.5); 0 without games.
func (p PlayerStats) AveragePlace() float64 {
	if p.Games == 0 {
		return 0
	}
	return (float64(p.PlaceSum) + float64(p.TieHalves)/2) / float64(p.Games)
}

func finiteFloat(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// ranked reports whether the player belongs on the leaderboard.
func (p PlayerStats) ranked() bool { return p.Games >= RankedGames }

// ordinal is the conservative rating the leaderboard sorts by.
func (p PlayerStats) ordinal() float64 { return p.Mu - 3*p.Sigma }

// rankScore is the leaderboard sort value: ascending rankScore is best
// first; ties are broken by the player id in byte order (Redis sorts equal
// scores by member, Bolt appends the player to the key).
func (p PlayerStats) rankScore() float64 {
	s := -p.ordinal()
	if s == 0 {
		s = 0 // no negative zero: Bolt orders by the float's bits
	}
	return s
}

// Add sums two records of one player's games of one game (two groups', or
// a moved group's and its new group's): the counts add up, the best score
// is the higher one, and the name is p's; a p without games is o whole.
// The rating stays p's, for which of two ratings stands for a sum depends
// on what the sum is for: a moved group keeps the later games' (MoveChat,
// mergeStats), a person's /stats over their groups shows the best.
func (p PlayerStats) Add(o PlayerStats) PlayerStats {
	if p.Games == 0 {
		return o
	}
	out := p
	out.Games += o.Games
	out.Wins += o.Wins
	out.PlaceSum += o.PlaceSum
	out.TieHalves += o.TieHalves
	out.BestScore = max(p.BestScore, o.BestScore)
	return out
}

// mergeStats folds a moved group's stats of one player (from) into the stats
// the new group already has (into), as Add does, with the rating of the new
// group when it has rated the player already, since its games came later.
func mergeStats(into, from PlayerStats) PlayerStats {
	out := into.Add(from)
	if into.Sigma == 0 {
		out.Mu, out.Sigma = from.Mu, from.Sigma
	}
	return out
}

// mergeHistory merges two groups' histories (each newest first) into one,
// newest first by end time, capped at HistoryLimit, every entry moved to
// chat.
func mergeHistory(a, b []Result, chat int64) []Result {
	all := append(slices.Clone(a), b...)
	slices.SortStableFunc(all, func(x, y Result) int { return y.Ended.Compare(x.Ended) })
	if len(all) > HistoryLimit {
		all = all[:HistoryLimit]
	}
	for i := range all {
		all[i].Chat = chat
	}
	return all
}

// seasonWindow keeps the results that ended in [from, to) of a history
// read newest first, oldest first (by end, then id).
func seasonWindow(hist []Result, from, to time.Time) []Result {
	var out []Result
	for _, r := range hist {
		if !r.Ended.Before(from) && r.Ended.Before(to) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Result) int {
		if c := a.Ended.Compare(b.Ended); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// scrub removes a player from a result, keeping their seat so places and
// scores still read right. It reports whether anything changed.
func scrub(r *Result, player string) bool {
	changed := false
	for i := range r.Seats {
		if r.Seats[i].Player == player {
			r.Seats[i].Player, r.Seats[i].Name = "", ""
			changed = true
		}
	}
	return changed
}

// moveMarker is the result-id entry a group gets when another group's
// results were merged into it, so a repeated MoveChat merges only once. It
// contains a space, which result ids cannot.
func moveMarker(from int64) string { return fmt.Sprintf("moved from %d", from) }

// Encodings shared by both stores. Stats (the player id is the key):
//
//	format byte, uvarint games, wins, place sum, [uvarint tie halves,]
//	varint best score, 8-byte mu, 8-byte sigma (IEEE 754, big-endian),
//	name bytes to the end
//
// where the tie halves are there in statsFormatTies only (format 1 has
// none: 0).
//
// Result:
//
//	format byte, string id, string game, varint chat, varint started (ms),
//	varint ended (ms), string options, uvarint seats,
//	per seat: string player, string name, uvarint place, varint score,
//	uvarint flags (1 left, 2 unrated; not in format 1)
//
// where a string is a uvarint length and the bytes.

func encodeStats(p PlayerStats) []byte {
	b := make([]byte, 0, 40+len(p.Name))
	format := byte(statsFormat)
	if p.TieHalves != 0 {
		format = statsFormatTies
	}
	b = append(b, format)
	b = binary.AppendUvarint(b, uint64(p.Games))
	b = binary.AppendUvarint(b, uint64(p.Wins))
	b = binary.AppendUvarint(b, uint64(p.PlaceSum))
	if format == statsFormatTies {
		b = binary.AppendUvarint(b, uint64(p.TieHalves))
	}
	b = binary.AppendVarint(b, int64(p.BestScore))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(p.Mu))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(p.Sigma))
	return append(b, p.Name...)
}

func decodeStats(player string, b []byte) (PlayerStats, error) {
	d := decoder{b: b}
	f := d.readByte()
	if f != statsFormat && f != statsFormatTies {
		return PlayerStats{}, fmt.Errorf("store: stats of %s: unknown format %d", player, f)
	}
	p := PlayerStats{Player: player}
	p.Games = int(d.uvarint())
	p.Wins = int(d.uvarint())
	p.PlaceSum = int(d.uvarint())
	if f == statsFormatTies {
		p.TieHalves = int(d.uvarint())
	}
	p.BestScore = int(d.varint())
	p.Mu = math.Float64frombits(d.u64())
	p.Sigma = math.Float64frombits(d.u64())
	if d.err != nil {
		return PlayerStats{}, fmt.Errorf("store: stats of %s: %w", player, d.err)
	}
	p.Name = string(d.b)
	return p, nil
}

func encodeResult(r *Result) []byte {
	b := make([]byte, 0, 64+len(r.ID)+len(r.Options)+24*len(r.Seats))
	b = append(b, resultFormat)
	b = appendString(b, r.ID)
	b = appendString(b, r.Game)
	b = binary.AppendVarint(b, r.Chat)
	b = binary.AppendVarint(b, toMillis(r.Started))
	b = binary.AppendVarint(b, toMillis(r.Ended))
	b = appendString(b, r.Options)
	b = binary.AppendUvarint(b, uint64(len(r.Seats)))
	for _, s := range r.Seats {
		b = appendString(b, s.Player)
		b = appendString(b, s.Name)
		b = binary.AppendUvarint(b, uint64(s.Place))
		b = binary.AppendVarint(b, int64(s.Score))
		b = binary.AppendUvarint(b, s.flags())
	}
	return b
}

// Seat flags in the result encoding.
const (
	seatLeft    = 1
	seatUnrated = 2
)

func (s ResultSeat) flags() uint64 {
	var f uint64
	if s.Left {
		f |= seatLeft
	}
	if s.Unrated {
		f |= seatUnrated
	}
	return f
}

func decodeResult(b []byte) (Result, error) {
	d := decoder{b: b}
	format := d.readByte()
	if format != resultFormat && format != resultFormatNoFlags {
		return Result{}, fmt.Errorf("store: result: unknown format %d", format)
	}
	var r Result
	r.ID = d.str()
	r.Game = d.str()
	r.Chat = d.varint()
	r.Started = fromMillis(d.varint())
	r.Ended = fromMillis(d.varint())
	r.Options = d.str()
	n := d.uvarint()
	if n > uint64(len(d.b)) { // each seat takes at least a byte
		return Result{}, errors.New("store: result: bad seat count")
	}
	r.Seats = make([]ResultSeat, n)
	for i := range r.Seats {
		s := &r.Seats[i]
		s.Player = d.str()
		s.Name = d.str()
		s.Place = int(d.uvarint())
		s.Score = int(d.varint())
		if format != resultFormatNoFlags {
			f := d.uvarint()
			s.Left, s.Unrated = f&seatLeft != 0, f&seatUnrated != 0
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return Result{}, fmt.Errorf("store: result: %w", d.err)
	}
	return r, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decoder reads the encodings above; the first error sticks and later reads
// return zero values.
type decoder struct {
	b   []byte
	err error
}

var errTruncated = errors.New("truncated")

func (d *decoder) readByte() byte {
	if d.err == nil && len(d.b) == 0 {
		d.err = errTruncated
	}
	if d.err != nil {
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errTruncated
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errTruncated
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u64() uint64 {
	if d.err == nil && len(d.b) < 8 {
		d.err = errTruncated
	}
	if d.err != nil {
		return 0
	}
	v := binary.BigEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *decoder) str() string {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)) {
		d.err = errTruncated
	}
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// orderedFloat encodes a float so that byte order is numeric order (no NaN).
func orderedFloat(f float64) []byte {
	bits := math.Float64bits(f)
	if bits>>63 == 1 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], bits)
	return b[:]
}

// topKey is a player's Bolt leaderboard key: sort value, then player id.
func topKey(p PlayerStats) []byte {
	return append(orderedFloat(p.rankScore()), p.Player...)
}
