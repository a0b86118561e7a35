package cups

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/locales"
)

func testEnv(t *testing.T) Env {
	t.Helper()
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	return Env{
		Games:    view.Games{trickchef.Game()},
		Loc:      func(lang string) adapter.Loc { return adapter.NewLoc(cat, lang) },
		Now:      time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC),
		TurnTime: time.Minute,
		Limit:    4,
	}
}

func newHost() *record.Table {
	return &record.Table{ID: record.TableID(-100123, 0, record.CupHost), ChatID: -100123, Lang: "ru"}
}

func refused(t *testing.T, err error, key string) {
	t.Helper()
	var r *refusal.Refusal
	if !errors.As(err, &r) || r.Key != key {
		t.Errorf("got %v, want the refusal %s", err, key)
	}
}

// open makes a cup of n people (user ids 1…n) on a fresh host, started.
func open(t *testing.T, e Env, n, rounds int) *record.Table {
	t.Helper()
	h := newHost()
	if _, err := e.Open(h, trickchef.Game(), rounds, Person{User: 1, Name: "Аня"}, true); err != nil {
		t.Fatal(err)
	}
	for u := int64(2); u <= int64(n); u++ {
		if _, err := e.Press(h, h.GameNo, Join, Person{User: u, Name: "P" + string(rune('A'+u))}, false, true); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func TestCupLobbyRefuses(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 2, 2)
	_, err := e.Press(h, h.GameNo, Join, Person{User: 2}, false, true)
	refused(t, err, "cup.already_joined")
	_, err = e.Press(h, h.GameNo, Join, Person{User: 9}, false, false)
	refused(t, err, "cup.open_chat")
	_, err = e.Press(h, h.GameNo, Start, Person{User: 2}, false, true)
	refused(t, err, "cup.creator_only")
	_, err = e.Press(h, h.GameNo, Start, Person{User: 1}, false, true)
	refused(t, err, "cup.too_few")
	_, err = e.Press(h, h.GameNo-1, Join, Person{User: 9}, false, true)
	refused(t, err, "error.stale")
	_, err = e.Press(h, h.GameNo, 99, Person{User: 9}, false, true)
	refused(t, err, "error.stale")
	// An admin may start what someone else created; a second /cup says
	// one runs.
	if _, err := e.Press(h, h.GameNo, Join, Person{User: 3, Name: "Вера"}, false, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 7}, true, true); err != nil {
		t.Fatal(err)
	}
	out, err := e.Open(h, trickchef.Game(), 0, Person{User: 2}, true)
	if err != nil || len(out.Posts) != 1 || out.Posts[0].Text != e.Loc("ru").T("cup.running") {
		t.Errorf("a second cup: %v %+v", err, out)
	}
}

func TestCupCreatorLeavingHandsOver(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 3, 1)
	if _, err := e.Press(h, h.GameNo, Unjoin, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	s, _ := Decode(h.Cup)
	if s.Creator != 2 || len(s.People) != 2 {
		t.Errorf("after the creator left: creator %d, %d people", s.Creator, len(s.People))
	}
}

// TestRoundsToTheWinner plays a cup of seven over two rounds through Ended
// and checks the round's post, the winner's message and the history.
func TestCupRoundsToTheWinner(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 7, 2)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	winner := ""
	for round := 1; round <= 2; round++ {
		specs, ok := e.Round(h, h.GameNo, round)
		if !ok || len(specs) < 2 {
			t.Fatalf("round %d: %v %v", round, ok, specs)
		}
		for i, sp := range specs {
			if n := record.TableNo(sp.ID); n != e.Limit+1+i {
				t.Errorf("round %d's table %d is numbered %d", round, i+1, n)
			}
			places := inSeatOrder(len(sp.Seats))
			out, err := e.Ended(h, sp.CupOf, places)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Ended(h, sp.CupOf, places); !errors.Is(err, refusal.ErrNoChange) {
				t.Errorf("told twice: %v", err)
			}
			for _, m := range out.Posts {
				if strings.Contains(m.Text, "Победител") {
					winner = m.Text
				}
			}
		}
	}
	s, _ := Decode(h.Cup)
	if s.Phase != Over || len(s.History) != 1 || len(s.History[0].Winners) == 0 {
		t.Fatalf("after the end: %s %+v", s.Phase, s.History)
	}
	// The cup is paired at random: two may share the first place.
	key := "cup.winner"
	if len(s.History[0].Winners) > 1 {
		key = "cup.winners"
	}
	head, _, _ := strings.Cut(e.Loc("ru").T(key, "Game", "\x00", "Names", "\x00"), "\x00")
	if !strings.HasPrefix(winner, head) {
		t.Fatalf("no winner's message (%s): %q", key, winner)
	}
	for _, name := range s.History[0].Winners {
		if !strings.Contains(winner, name) {
			t.Errorf("the winner's message does not name %s: %q", name, winner)
		}
	}
	if strings.Contains(h.Board.Text, "Победител") {
		t.Errorf("the cup's message names the winner as the winner's message does:\n%s", h.Board.Text)
	}
	if got := e.History(h).Text; !strings.Contains(got, "🏆") {
		t.Errorf("/cup history: %s", got)
	}
}

func TestCupQuitAsksThenLeaves(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 4, 2)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	h.Jobs = nil
	out, err := e.Press(h, h.GameNo, Quit, Person{User: 3}, false, true)
	if err != nil || out.Answer != e.Loc("ru").T("cup.quit_confirm") || len(h.Jobs) != 0 {
		t.Fatalf("the first press: %v %+v %v", err, out, h.Jobs)
	}
	if _, err := e.Press(h, h.GameNo, Quit, Person{User: 3}, false, true); err != nil {
		t.Fatal(err)
	}
	if len(h.Jobs) != 1 || h.Jobs[0].Cup.Leaver != 3 {
		t.Errorf("the leaver's seat is not handed to a robot: %+v", h.Jobs)
	}
	_, err = e.Press(h, h.GameNo, Quit, Person{User: 3}, false, true)
	refused(t, err, "cup.not_in")
	_, err = e.Press(h, h.GameNo, Quit, Person{User: 42}, false, true)
	refused(t, err, "cup.not_in")
}

func TestCupStopStopsTheRound(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 6, 2)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	h.Jobs = nil
	_, err := e.Press(h, h.GameNo, StopYes, Person{User: 2}, false, true)
	refused(t, err, "cup.creator_only")
	if _, err := e.Press(h, h.GameNo, StopYes, Person{User: 9, Name: "Админ"}, true, true); err != nil {
		t.Fatal(err)
	}
	s, _ := Decode(h.Cup)
	if s.Phase != Stopped || len(h.Jobs) != 1 || !h.Jobs[0].Cup.Stop || len(s.History) != 1 || !s.History[0].Stopped {
		t.Errorf("after /stop: %s, jobs %+v, history %+v", s.Phase, h.Jobs, s.History)
	}
	_, err = e.Press(h, h.GameNo, StopYes, Person{User: 1}, false, true)
	refused(t, err, "error.stale")
}

func TestCupRanked(t *testing.T) {
	got := Ranked([]cup.Place{{Place: 2}, {Place: 1}, {Place: 2}, {Place: 4}})
	want := []int{2, 1, 2, 4}
	for i, p := range got {
		if p.Place != want[i] {
			t.Fatalf("Ranked: %v", got)
		}
	}
	got = Ranked([]cup.Place{{Place: 1}, {Place: 1}, {Place: 3}})
	if got[2].Place != 3 || got[0].Place != 1 {
		t.Fatalf("Ranked: %v", got)
	}
	got = Ranked([]cup.Place{{Place: 3}, {Place: 5}, {Place: 5}}) // a game's own numbering
	if got[0].Place != 1 || got[1].Place != 2 || got[2].Place != 2 {
		t.Fatalf("Ranked: %v", got)
	}
}

func TestCupDecodeRefuses(t *testing.T) {
	for _, b := range []string{`{"v":2}`, `{`, `{"v":1,"phase":"playing"}`, `{"v":1,"phase":"playing","cup":{"v":1,"config":{"game":"x","sizes":[3,4],"rounds":1},"people":[]}}`} {
		var u *Unreadable
		if _, err := Decode([]byte(b)); !errors.As(err, &u) {
			t.Errorf("Decode(%s) = %v, want Unreadable", b, err)
		}
	}
	if s, err := Decode(nil); err != nil || s.Running() {
		t.Errorf("Decode(nil) = %+v, %v", s, err)
	}
}

// TestStateSize bounds what a cup adds to its host's record: sixteen
// people over ten rounds, with a full history, stays well under the
// record of a game (measured in docs/bot.md «Cups»).
func TestCupStateSize(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 16, cup.MaxRounds)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= cup.MaxRounds; round++ {
		specs, ok := e.Round(h, h.GameNo, round)
		if !ok {
			t.Fatalf("round %d not in play", round)
		}
		for _, sp := range specs {
			places := make([]cup.Place, len(sp.Seats))
			for j := range places {
				places[j] = cup.Place{Place: j + 1, Score: 100 - j}
			}
			if _, err := e.Ended(h, sp.CupOf, places); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, _ := Decode(h.Cup)
	for len(s.History) < HistoryLimit {
		s.History = append(s.History, s.History[0])
	}
	raw, _ := s.Encode()
	t.Logf("a finished cup of 16 over %d rounds with %d cups of history: state %d bytes, message %d bytes",
		cup.MaxRounds, len(s.History), len(raw), len(h.Board.Text))
	if len(raw) > 16<<10 {
		t.Errorf("the state takes %d bytes", len(raw))
	}
}

// TestGone: a person who left the group leaves the cup's lobby, or the
// cup itself with their seat handed to a robot; anyone else changes
// nothing.
func TestCupGone(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 4, 2)
	if _, err := e.Gone(h, 4); err != nil {
		t.Fatal(err)
	}
	if s, _ := Decode(h.Cup); len(s.People) != 3 {
		t.Fatalf("the lobby after someone left the group: %+v", s.People)
	}
	if _, err := e.Gone(h, 42); !errors.Is(err, refusal.ErrNoChange) {
		t.Errorf("a stranger gone: %v", err)
	}
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	h.Jobs = nil
	out, err := e.Gone(h, 2)
	if err != nil || len(out.Posts) != 1 || len(h.Jobs) != 1 || h.Jobs[0].Cup.Leaver != 2 {
		t.Fatalf("gone from a running cup: %v %+v %+v", err, out, h.Jobs)
	}
	s, _ := Decode(h.Cup)
	for _, p := range s.Cup.People {
		if p.ID == PersonID(2) && !p.Left {
			t.Error("still in the cup")
		}
	}
}

// TestCupRehome: a group become a supergroup rewrites the round's tables
// and redraws the board with the new host's id; an unreadable cup keeps
// its state for fencing, and its board offers no button naming the old
// host.
func TestCupRehome(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 4, 2)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Round(h, h.GameNo, 1); !ok {
		t.Fatal("no first round")
	}
	oldHost := h.ID
	names := func(b *record.Board, id string) bool {
		for _, row := range b.Rows {
			for _, bt := range row {
				if strings.Contains(bt.Data, id) {
					return true
				}
			}
		}
		return false
	}
	if !names(h.Board, oldHost) {
		t.Fatalf("no board button names the host %s: %+v", oldHost, h.Board)
	}
	const newChat = -1009999
	id := func(s string) string {
		if _, _, n, err := record.ParseTable(s); err == nil {
			return record.TableID(newChat, 0, n)
		}
		return s
	}
	h.ID, h.ChatID = id(h.ID), newChat
	if err := e.Rehome(h, id); err != nil {
		t.Fatal(err)
	}
	s, err := Decode(h.Cup)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range s.Tables {
		if c, _, _, _ := record.ParseTable(tb); c != newChat {
			t.Errorf("a round's table left in the old chat: %s", tb)
		}
	}
	if names(h.Board, oldHost) || !names(h.Board, h.ID) {
		t.Errorf("the board after the move: %+v", h.Board)
	}
	bad := newHost()
	bad.Cup = []byte(`{"v":999}`)
	bad.Board = &record.Board{Text: "old", Rows: [][]record.BoardButton{{{Text: "x", Data: "t:" + bad.ID}}}}
	if err := e.Rehome(bad, id); err != nil {
		t.Fatal(err)
	}
	if string(bad.Cup) != `{"v":999}` || len(bad.Board.Rows) != 0 {
		t.Errorf("an unreadable cup: state %s, board %+v", bad.Cup, bad.Board)
	}
}

// inSeatOrder is a table's places of n seats: the first seat first, each
// a point behind the one before.
func inSeatOrder(n int) []cup.Place {
	places := make([]cup.Place, n)
	for j := range places {
		places[j] = cup.Place{Place: j + 1, Score: 10 - j}
	}
	return places
}

// TestCupStopsWhenTheLimitLeavesNoRoom: MAX_TABLES raised in the middle
// of a cup leaves its next round too few tables above the limit; the
// last table of the round played ends the cup, said so, instead of a
// round that waits for ever.
func TestCupStopsWhenTheLimitLeavesNoRoom(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 6, 2)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	specs, ok := e.Round(h, h.GameNo, 1)
	if !ok || len(specs) < 2 {
		t.Fatalf("round 1: %v %v", ok, specs)
	}
	e.Limit = record.CupHost - 2 // one table left above the limit
	var posts []adapter.Message
	for _, sp := range specs {
		places := inSeatOrder(len(sp.Seats))
		out, err := e.Ended(h, sp.CupOf, places)
		if err != nil {
			t.Fatal(err)
		}
		posts = append(posts, out.Posts...)
	}
	s, _ := Decode(h.Cup)
	if s.Phase != Stopped || len(s.History) != 1 || !s.History[0].Stopped {
		t.Fatalf("after the round: %s, history %+v", s.Phase, s.History)
	}
	if len(posts) != 1 || posts[0].Text != e.Loc("ru").T("cup.stopped_no_room") {
		t.Errorf("posts %+v", posts)
	}
	if _, ok := e.Round(h, h.GameNo, 2); ok {
		t.Error("round 2 still to open")
	}
	// The round that found no room was never played: the history and the
	// cup's rounds count the one that was.
	if r, _ := s.Cup.Current(); r.No != 1 || s.History[0].Rounds != 1 {
		t.Errorf("the stopped cup counts round %d, history %d rounds: one was played", r.No, s.History[0].Rounds)
	}
	if len(h.Jobs) > 0 {
		if j := h.Jobs[len(h.Jobs)-1].Cup; j != nil && j.Stop && j.Round != 1 {
			t.Errorf("the stop job names round %d, which never opened", j.Round)
		}
	}
}

// TestCupEndedDamagedTableNumber: a round's table whose record names no
// table of the round (table 0 or negative: a damaged record) changes
// nothing, and does not panic.
func TestCupEndedDamagedTableNumber(t *testing.T) {
	e := testEnv(t)
	h := open(t, e, 4, 1)
	if _, err := e.Press(h, h.GameNo, Start, Person{User: 1}, false, true); err != nil {
		t.Fatal(err)
	}
	specs, ok := e.Round(h, h.GameNo, 1)
	if !ok || len(specs) == 0 {
		t.Fatalf("round 1: %v %v", ok, specs)
	}
	for _, n := range []int{0, -1} {
		ct := specs[0].CupOf
		ct.Table = n
		if _, err := e.Ended(h, ct, make([]cup.Place, len(specs[0].Seats))); !errors.Is(err, refusal.ErrNoChange) {
			t.Errorf("table %d: %v, want no change", n, err)
		}
	}
}
