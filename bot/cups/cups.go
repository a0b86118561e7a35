package cups

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"slices"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/view"
)

// The cup's buttons: the integer of a callback.Cup press. Their values are
// on the wire: never renumbered.
const (
	Join     = 1 // take part (lobby)
	Unjoin   = 2 // give up one's place (lobby)
	Start    = 3 // start the cup (its creator or an admin)
	Cancel   = 4 // cancel the lobby (its creator or an admin)
	Level    = 5 // the robots' level (creator or admin)
	Turn     = 6 // the time for a move (creator or admin)
	Quit     = 7 // leave the cup while it runs (pressed twice)
	StopYes  = 8 // /stop's question about the cup: stop it
	StopNo   = 9 // … keep it
	lastOpID = StopNo
)

// Env is what a cup's change needs from the tables.
type Env struct {
	Games view.Games
	Loc   func(lang string) adapter.Loc
	Now   time.Time
	// TurnTime is a new cup's time for a move (the tables' default).
	TurnTime time.Duration
	// Limit is the group's own table limit: a cup's tables are numbered
	// above it, below the host (record.CupHost).
	Limit int
	// Taken reports whether table id above the limit holds the group's
	// lobby or game, not a cup's: one opened before the limit was lowered,
	// which plays on (bot/tables/lobby.Group.BusyTables). A round passes
	// it by. Nil: none is.
	Taken func(id string) bool
}

// Out is what a change says besides redrawing the cup's message.
type Out struct {
	Answer string            // a press's toast
	Posts  []adapter.Message // to the group
}

// errNoRoom is a cup whose round would need more tables than are free
// above the group's limit.
var errNoRoom = refusal.New("cup.no_room")

// Slots is how many tables a cup may use in a group of limit tables.
func Slots(limit int) int { return max(0, record.CupHost-1-limit) }

// free are the tables above the limit, below the host, a round may take
// now: those the group's own games left over from a higher limit hold
// are passed by.
func (e Env) free(host *record.Table) []string {
	var out []string
	for n := e.Limit + 1; n < record.CupHost; n++ {
		id := record.Sibling(host.ID, n)
		if id != "" && (e.Taken == nil || !e.Taken(id)) {
			out = append(out, id)
		}
	}
	return out
}

func (e Env) state(host *record.Table) (*State, error) {
	return Decode(host.Cup)
}

func (e Env) save(host *record.Table, s *State) error {
	raw, err := s.Encode()
	if err != nil {
		return err
	}
	host.Cup = raw
	host.Board = view.ToBoard(e.Render(host, s))
	return nil
}

// Open opens a cup's lobby of game g on host for rounds rounds (0: the
// default), its creator seated when the bot can write to them (started).
// A cup already running is said so instead; a game or a number of rounds
// the cup cannot take is refused by the caller before.
func (e Env) Open(host *record.Table, g adapter.Game, rounds int, creator Person, started bool) (Out, error) {
	s, err := e.state(host)
	if err != nil {
		return Out{}, err
	}
	l := e.Loc(host.Lang)
	if s.Running() {
		return Out{Posts: []adapter.Message{{Text: l.T("cup.running")}}}, nil
	}
	if host.Phase == record.PhaseLobby || host.Phase == record.PhasePlaying {
		// The group's own lobby or game, opened at the host's table by a
		// version that let MAX_TABLES reach it: it plays on (/stop and
		// /table find it, bot/tables/lobby.Group.CupsOwn).
		return Out{Posts: []adapter.Message{{Text: l.T("newgame.running")}}}, nil
	}
	if rounds == 0 {
		rounds = cup.DefaultRounds
	}
	host.GameNo++
	host.Phase = record.PhaseIdle
	host.State, host.Event, host.Seats = nil, nil, nil
	*s = State{V: Version, No: host.GameNo, Phase: Gathering, Game: g.ID(), Rounds: rounds,
		Creator: creator.User, Level: view.AILevel(g, ""), TurnTime: e.TurnTime, History: s.History}
	if started && creator.User != 0 {
		s.People = []Person{creator}
	}
	return Out{}, e.save(host, s)
}

// Press is a press of one of the cup's buttons by who (admin: they
// administer the group; started: the bot can write to them).
func (e Env) Press(host *record.Table, no, op int, who Person, admin, started bool) (Out, error) {
	s, err := e.state(host)
	if err != nil {
		return Out{}, err
	}
	if no != host.GameNo || s.No != no || !s.Running() || op < 1 || op > lastOpID {
		return Out{}, refusal.New("error.stale")
	}
	l := e.Loc(host.Lang)
	g, ok := e.Games.Get(s.Game)
	if !ok {
		return Out{}, refusal.New("error.stale")
	}
	runs := who.User == s.Creator || admin
	lobby := s.Phase == Gathering
	var out Out
	switch op {
	case Join, Unjoin:
		if err := e.joining(s, op, who, lobby, started, &out, l); err != nil {
			return out, err
		}
	case Level, Turn, Start, Cancel:
		switch {
		case !lobby:
			return out, refusal.New("cup.started")
		case !runs:
			return out, refusal.New("cup.creator_only")
		}
		if err := e.setUp(host, s, g, op, &out, l); err != nil {
			return Out{}, err
		}
	case Quit:
		if err := e.quit(host, s, who, &out); err != nil {
			return Out{}, err
		}
	case StopYes, StopNo:
		if !runs {
			return out, refusal.New("cup.creator_only")
		}
		if op == StopNo {
			out.Answer = l.T("cup.stop_kept")
			break
		}
		e.stop(host, s)
		out.Answer = l.T("cup.stop_done")
		out.Posts = append(out.Posts, adapter.Message{Text: l.T("cup.stopped", "Name", adapter.Esc(who.Name))})
	}
	return out, e.save(host, s)
}

// joining is a press of «join» or «unjoin» in the cup's lobby.
func (e Env) joining(s *State, op int, who Person, lobby, started bool, out *Out, l adapter.Loc) error {
	i := s.joined(who.User)
	switch {
	case !lobby:
		return refusal.New("cup.started")
	case op == Join && i >= 0:
		return refusal.New("cup.already_joined")
	case op == Join && len(s.People) >= cup.MaxPeople:
		return refusal.New("cup.full", "Max", cup.MaxPeople)
	case op == Join && !started:
		return refusal.New("cup.open_chat")
	case op == Unjoin && i < 0:
		return refusal.New("cup.not_joined")
	}
	if op == Join {
		s.People = append(s.People, who)
		if s.Creator == 0 {
			s.Creator = who.User
		}
		out.Answer = l.T("cup.joined")
		return nil
	}
	s.People = slices.Delete(s.People, i, i+1)
	out.Answer = l.T("cup.unjoined")
	if who.User == s.Creator {
		s.Creator = 0
		if len(s.People) > 0 {
			s.Creator = s.People[0].User
		}
	}
	return nil
}

// setUp is a press of the lobby's creator (or an admin): the robots'
// level, the time for a move, «cancel» or «start».
func (e Env) setUp(host *record.Table, s *State, g adapter.Game, op int, out *Out, l adapter.Loc) error {
	switch op {
	case Level:
		ls := adapter.Levels(g)
		if len(ls) == 0 {
			return refusal.New("lobby.no_robots")
		}
		s.Level = ls[(slices.Index(ls, s.Level)+1)%len(ls)]
	case Turn:
		if !view.HasTurnTime(g) {
			return refusal.New("error.bad_button")
		}
		s.TurnTime = nextTurn(s.TurnTime, view.TurnChoices())
	case Cancel:
		s.Phase = Stopped
		out.Posts = append(out.Posts, adapter.Message{Text: l.T("cup.cancelled")})
		out.Answer = l.T("cup.cancelled_toast")
	case Start:
		if err := e.start(host, s, g); err != nil {
			return err
		}
		out.Answer = l.T("cup.started_toast")
		out.Posts = append(out.Posts, e.roundPost(host, s))
	}
	return nil
}

// start pairs the first round and leaves its tables to open.
func (e Env) start(host *record.Table, s *State, g adapter.Game) error {
	if len(s.People) < cup.MinPeople {
		return refusal.New("cup.too_few", "Players", e.Loc(host.Lang).T("count.players", "Count", cup.MinPeople))
	}
	lo, hi := g.SeatRange()
	var people []cup.Person
	for _, p := range s.People {
		people = append(people, cup.Person{ID: PersonID(p.User), Name: p.Name})
	}
	if lo < 2 {
		lo = 2 // a cup's table seats two at least
	}
	if n, _ := cup.Layout(len(people), s.Rounds, lo, hi); len(n) > len(e.free(host)) {
		return errNoRoom
	}
	c, err := cup.New(cup.Config{Game: s.Game, Sizes: [2]int{lo, hi}, Rounds: s.Rounds, Seed: seed(), Robots: s.Level}, people)
	if err != nil {
		return refusal.New("cup.too_few", "Players", e.Loc(host.Lang).T("count.players", "Count", cup.MinPeople))
	}
	s.Cup = c
	s.Phase = Playing
	s.Started = e.Now
	if err := e.pair(host, s); err != nil {
		return err
	}
	if r, _ := s.Cup.Current(); len(adapter.Levels(g)) == 0 {
		for _, t := range r.Tables {
			if slices.Contains(t.Seats, cup.Robot) {
				return refusal.New("cup.no_robots", "Players", e.Loc(host.Lang).T("count.players", "Count", lo))
			}
		}
	}
	return nil
}

// pair seats the next round and leaves a job on the host to open its
// tables (bot/tables does it, once, after the commit).
func (e Env) pair(host *record.Table, s *State) error {
	r, err := s.Cup.Pair()
	if err != nil {
		return err
	}
	if len(r.Tables) > Slots(e.Limit) {
		// Never opened, so never played: the cup stopped here counts the
		// rounds it played, and its stop job names the round in play.
		s.Cup.Played = s.Cup.Played[:len(s.Cup.Played)-1]
		return errNoRoom
	}
	// The free tables first; should the group's games left above the
	// limit hold too many (none opens there since the cup started), the
	// round takes theirs too rather than stall: openTable closes them.
	ids := e.free(host)
	for n := e.Limit + 1; n < record.CupHost; n++ {
		if id := record.Sibling(host.ID, n); id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	s.Tables = append(s.Tables[:0], ids[:len(r.Tables)]...)
	host.Jobs = append(host.Jobs, record.Job{Cup: &record.CupJob{Cup: s.No, Round: r.No}})
	return nil
}

// quit takes who out of the running cup: the first press asks, the
// second leaves; their seat in the round in play goes to a robot.
func (e Env) quit(host *record.Table, s *State, who Person, out *Out) error {
	l := e.Loc(host.Lang)
	if s.Phase != Playing {
		return refusal.New("cup.not_started")
	}
	id := PersonID(who.User)
	in := slices.ContainsFunc(s.Cup.People, func(p cup.Entrant) bool { return p.ID == id && !p.Left })
	if !in {
		return refusal.New("cup.not_in")
	}
	if !slices.Contains(s.Asked, who.User) {
		s.Asked = append(s.Asked, who.User)
		out.Answer = l.T("cup.quit_confirm")
		return nil
	}
	s.Asked = slices.DeleteFunc(s.Asked, func(u int64) bool { return u == who.User })
	if err := s.Cup.Leave(id); err != nil {
		return refusal.New("cup.not_in")
	}
	if r, ok := s.Cup.Current(); ok {
		for _, t := range r.Tables {
			if t.Places == nil && slices.Contains(t.Seats, id) {
				host.Jobs = append(host.Jobs, record.Job{Cup: &record.CupJob{Cup: s.No, Round: r.No, Leaver: who.User}})
			}
		}
	}
	out.Answer = l.T("cup.quit_done")
	out.Posts = append(out.Posts, adapter.Message{Text: l.T("cup.quit_announce", "Name", adapter.Esc(e.name(s, who.User)))})
	return nil
}

// stop ends the cup where it is: its running tables are stopped by a job.
func (e Env) stop(host *record.Table, s *State) {
	if s.Phase == Playing {
		if r, ok := s.Cup.Current(); ok {
			host.Jobs = append(host.Jobs, record.Job{Cup: &record.CupJob{Cup: s.No, Round: r.No, Stop: true}})
		}
		s.remember(e.Now, nil, true)
	}
	s.Phase = Stopped
	s.Asked = nil
}

// remember puts the cup just ended at the top of the group's history.
func (s *State) remember(now time.Time, winners []cup.Person, stopped bool) {
	p := Past{No: s.No, Game: s.Game, Ended: now, People: len(s.People), Rounds: len(s.Cup.Played), Stopped: stopped}
	for _, w := range winners {
		p.Winners = append(p.Winners, w.Name)
	}
	s.History = append([]Past{p}, s.History...)
	if len(s.History) > HistoryLimit {
		s.History = s.History[:HistoryLimit]
	}
}

// StopQuestion is /stop's question about the host's running cup; false
// when no cup runs.
func (e Env) StopQuestion(host *record.Table) (adapter.Message, bool) {
	s, err := e.state(host)
	if err != nil || !s.Running() {
		return adapter.Message{}, false
	}
	l := e.Loc(host.Lang)
	return adapter.Message{Text: l.T("cup.stop_confirm"), Keyboard: [][]adapter.Button{{
		{Text: l.T("stop.yes"), Data: button(host, StopYes)},
		{Text: l.T("stop.no"), Data: button(host, StopNo)},
	}}}, true
}

// Ended records the places of one of the cup's tables (places in seat
// order; nil when nobody is ranked) and, once its round is complete, pairs the next or ends the cup.
// A table of another cup, or recorded already, changes nothing.
func (e Env) Ended(host *record.Table, ct record.CupTable, places []cup.Place) (Out, error) {
	s, err := e.state(host)
	if err != nil {
		return Out{}, err
	}
	if s.No != ct.Cup || s.Phase != Playing {
		return Out{}, refusal.ErrNoChange
	}
	r, ok := s.Cup.Current()
	if !ok || r.No != ct.Round || ct.Table < 1 || ct.Table > len(r.Tables) || r.Tables[ct.Table-1].Places != nil {
		return Out{}, refusal.ErrNoChange
	}
	if places == nil {
		// Nobody ranked (the table ended with no result): everyone shares
		// the place.
		places = make([]cup.Place, len(r.Tables[ct.Table-1].Seats))
	}
	if err := s.Cup.Record(ct.Round, ct.Table, Ranked(places)); err != nil {
		return Out{}, refusal.ErrNoChange
	}
	var out Out
	switch {
	case s.Cup.Done():
		out.Posts = append(out.Posts, e.finish(host, s))
	default:
		err := e.pair(host, s)
		if errors.Is(err, cup.ErrRoundOpen) {
			break // other tables of the round still play
		}
		if errors.Is(err, errNoRoom) {
			// MAX_TABLES was raised since the cup started and leaves its
			// next round too few tables: the cup ends here, said so,
			// rather than wait for a round that cannot open.
			e.stop(host, s)
			out.Posts = append(out.Posts, adapter.Message{Text: e.Loc(host.Lang).T("cup.stopped_no_room")})
			break
		}
		if err != nil {
			return Out{}, err
		}
		out.Posts = append(out.Posts, e.roundPost(host, s))
	}
	return out, e.save(host, s)
}

// finish ends a cup played to its end: the message that names its
// winners, with the final standings.
func (e Env) finish(host *record.Table, s *State) adapter.Message {
	l := e.Loc(host.Lang)
	s.Phase = Over
	s.Asked = nil
	winners := s.Cup.Winners()
	s.remember(e.Now, winners, false)
	// The winners' 🏆, on the group's own table (bot/tables does it).
	host.Jobs = append(host.Jobs, record.Job{Cup: &record.CupJob{Cup: s.No, Round: len(s.Cup.Played), Crown: true}})
	var names []string
	for _, w := range winners {
		names = append(names, adapter.Esc(w.Name))
	}
	key := "cup.winner"
	if len(names) > 1 {
		key = "cup.winners"
	}
	text := l.T(key, "Game", e.title(l, s), "Names", joinNames(l, names)) + "\n\n" + e.standings(l, s, true)
	return adapter.Message{Text: text}
}

// Ranked are places as the cup ranks them: each one more than the number
// of seats placed strictly better (1, 2, 2, 4), whatever the game gave.
func Ranked(places []cup.Place) []cup.Place {
	out := make([]cup.Place, len(places))
	for i, p := range places {
		better := 0
		for _, o := range places {
			if o.Place < p.Place {
				better++
			}
		}
		out[i] = cup.Place{Place: better + 1, Score: p.Score}
	}
	return out
}

// Spec is one table of a round to open: its id, its seats and everything
// else a cup's table takes from its cup.
type Spec struct {
	ID       string
	Game     string
	Seats    []record.Seat
	CupOf    record.CupTable
	TurnTime time.Duration
	Level    string
}

// Round is the tables of round no of the host's cup cup, to open; false
// when that is no longer the cup's round in play.
func (e Env) Round(host *record.Table, no, round int) ([]Spec, bool) {
	s, err := e.state(host)
	if err != nil || s.No != no || s.Phase != Playing {
		return nil, false
	}
	r, ok := s.Cup.Current()
	if !ok || r.No != round || len(s.Tables) != len(r.Tables) {
		return nil, false
	}
	l := e.Loc(host.Lang)
	var out []Spec
	for i, t := range r.Tables {
		sp := Spec{ID: s.Tables[i], Game: s.Game, TurnTime: s.TurnTime, Level: s.Level,
			CupOf: record.CupTable{Host: host.ID, Cup: s.No, Round: r.No, Table: i + 1}}
		robots := 0
		for _, id := range t.Seats {
			if id == cup.Robot {
				robots++
				sp.Seats = append(sp.Seats, record.Seat{Name: l.T("ai.name", "N", robots), AI: s.Level})
				continue
			}
			u := UserOf(id)
			sp.Seats = append(sp.Seats, record.Seat{UserID: u, Name: e.name(s, u)})
		}
		out = append(out, sp)
	}
	return out, true
}

// Seat is the table of round where user sits, and its number; "" when
// none (or that round is no longer in play).
func (e Env) Seat(host *record.Table, no, round int, user int64) (string, int) {
	s, err := e.state(host)
	if err != nil || s.No != no || s.Cup == nil {
		return "", 0
	}
	r, ok := s.Cup.Current()
	if !ok || r.No != round {
		return "", 0
	}
	for i, t := range r.Tables {
		if slices.Contains(t.Seats, PersonID(user)) && i < len(s.Tables) {
			return s.Tables[i], i + 1
		}
	}
	return "", 0
}

func (e Env) name(s *State, user int64) string {
	for _, p := range s.People {
		if p.User == user {
			return p.Name
		}
	}
	return ""
}

func nextTurn(cur time.Duration, choices []time.Duration) time.Duration {
	for _, d := range choices {
		if d > cur {
			return d
		}
	}
	return choices[0]
}

// seed is a cup's seed, from crypto/rand: nobody foresees its pairings.
func seed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return binary.LittleEndian.Uint64(b[:])
}

// TableOf is table id's place in the round the host's cup is playing;
// false when it holds no table of that round, that table's result is
// recorded already, or the round's tables are not all opened yet: the
// host's job that opens them opens this one too (whatever was there
// before is no game of the round).
func (e Env) TableOf(host *record.Table, id string) (record.CupTable, bool) {
	s, err := e.state(host)
	if err != nil || s.Phase != Playing || s.Cup == nil {
		return record.CupTable{}, false
	}
	r, ok := s.Cup.Current()
	i := slices.Index(s.Tables, id)
	if !ok || len(s.Tables) != len(r.Tables) || i < 0 || r.Tables[i].Places != nil {
		return record.CupTable{}, false
	}
	if slices.ContainsFunc(host.Jobs, func(j record.Job) bool {
		return j.Cup.Opens() && j.Cup.Cup == s.No && j.Cup.Round == r.No
	}) {
		return record.CupTable{}, false
	}
	return record.CupTable{Host: host.ID, Cup: s.No, Round: r.No, Table: i + 1}, true
}

// Tables are the ids of round's tables of the host's cup no, whatever
// became of the cup since (a stopped cup's tables are stopped by them).
func (e Env) Tables(host *record.Table, no, round int) []string {
	s, err := e.state(host)
	if err != nil || s.No != no || s.Cup == nil {
		return nil
	}
	if r, ok := s.Cup.Current(); !ok || r.No != round {
		return nil
	}
	return s.Tables
}

// Winners are the users who won the host's cup no, and its game; false
// before it ended (or for another cup).
func (e Env) Winners(host *record.Table, no int) (string, []int64, bool) {
	s, err := e.state(host)
	if err != nil || s.No != no || s.Phase != Over {
		return "", nil, false
	}
	var users []int64
	for _, w := range s.Cup.Winners() {
		users = append(users, UserOf(w.ID))
	}
	return s.Game, users, true
}

// Gone takes user, who left the group, out of the host's cup: out of its
// lobby, or out of the cup as if they had pressed «leave the cup» twice.
func (e Env) Gone(host *record.Table, user int64) (Out, error) {
	s, err := e.state(host)
	if err != nil {
		return Out{}, err
	}
	switch {
	case s.Phase == Gathering && s.joined(user) >= 0:
		return e.Press(host, host.GameNo, Unjoin, Person{User: user}, false, false)
	case s.Phase == Playing:
		s.Asked = append(s.Asked, user) // no question to answer: they are gone
		var out Out
		if err := e.quit(host, s, Person{User: user}, &out); err != nil {
			return Out{}, refusal.ErrNoChange
		}
		out.Answer = ""
		return out, e.save(host, s)
	}
	return Out{}, refusal.ErrNoChange
}

// NeedsAdmin reports whether op is one a cup's creator or a group's admin
// may press (the press then asks who administers the group).
func NeedsAdmin(op int) bool {
	switch op {
	case Start, Cancel, Level, Turn, StopYes, StopNo:
		return true
	}
	return false
}

// Rehome follows a host whose group became a supergroup (a new chat id):
// the round's tables are named by id, and the board's buttons carry the
// host's, so both are rewritten, id mapping an old table id to its new
// one. A host without a cup is left alone; an unreadable one keeps its
// state for the next command to fence, its board says it is broken.
func (e Env) Rehome(host *record.Table, id func(string) string) error {
	if len(host.Cup) == 0 {
		return nil
	}
	s, err := e.state(host)
	if err != nil {
		// Its board's buttons name the old host: nothing to press until a
		// command fences the cup.
		host.Board = &record.Board{Text: e.Loc(host.Lang).T("cup.broken")}
		return nil
	}
	for i, t := range s.Tables {
		s.Tables[i] = id(t)
	}
	return e.save(host, s)
}
