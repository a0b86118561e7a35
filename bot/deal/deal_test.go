package deal_test

import (
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/locales"
)

// A reveal is one word that reads back as itself, and its commitment is
// the SHA-256 prefix anyone can compute (printf %s word | sha256sum).
func TestReveal(t *testing.T) {
	r := deal.New("trickchef", 3, map[string]int{"removed": 1}, 255, 0x0123456789abcdef)
	if want := "trickchef:3:-:removed=1:00000000000000ff:0123456789abcdef"; r != want {
		t.Fatalf("reveal %q, want %q", r, want)
	}
	tab := &record.Table{GameID: "trickchef", Creator: 7, Seed: 255, Options: map[string]int{"removed": 1, "zero": 0},
		Seats: []record.Seat{{UserID: 7, Name: "Оля"}, {UserID: 8}, {Name: "Робот", AI: "cook"}}}
	r = deal.Reveal(tab, 0x0123456789abcdef)
	if want := "trickchef:3:0:removed=1:00000000000000ff:0123456789abcdef"; r != want {
		t.Fatalf("reveal %q, want %q", r, want)
	}
	if c := deal.Commitment(r); c != "123295a7eb22d637" || !deal.Check(r, c) || deal.Check(r+"x", c) {
		t.Fatalf("commitment %q", c)
	}
	d, err := deal.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	if d.Game != "trickchef" || d.Seats != 3 || d.Creator != 0 || d.Options["removed"] != 1 || d.Seed != 255 || d.Salt != 0x0123456789abcdef || d.String() != r {
		t.Fatalf("parsed %+v", d)
	}
	if strings.ContainsAny(r, " \n\t") {
		t.Fatalf("%q is not one word", r)
	}
	// The creator leaves the game: a robot takes the seat, and the
	// reveal (so the commitment shown since the deal) stays the same.
	tab.Seats[0] = record.Seat{Name: "Робот 2", AI: "cook", Leaver: &record.Leaver{UserID: 7, Name: "Оля"}}
	if got := deal.Reveal(tab, 0x0123456789abcdef); got != r {
		t.Fatalf("the creator left: reveal %q, want %q", got, r)
	}
}

// Anything but a reveal as String writes it is refused.
func TestParseRefuses(t *testing.T) {
	good := "highcard:4:-:target=1,variant=1:00000000000000ff:0123456789abcdef"
	if _, err := deal.Parse(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"", "trickchef", good + ":x", strings.Replace(good, "highcard", "Highcard", 1),
		strings.Replace(good, ":4:", ":0:", 1), strings.Replace(good, ":4:", ":04:", 1), strings.Replace(good, ":4:", ":+4:", 1),
		strings.Replace(good, ":-:", ":4:", 1), strings.Replace(good, ":-:", ":-1:", 1),
		strings.Replace(good, "target=1,variant=1", "variant=1,target=1", 1), strings.Replace(good, "target=1", "target=0", 1),
		strings.Replace(good, "target=1", "target", 1), strings.Replace(good, "target=1,variant=1", "target=1,target=2", 1),
		strings.Replace(good, "00000000000000ff", "ff", 1), strings.Replace(good, "00000000000000ff", "00000000000000FF", 1),
		strings.Replace(good, "0123456789abcdef", "0123456789abcdeg", 1),
	} {
		if d, err := deal.Parse(bad); err == nil {
			t.Errorf("%q read as %+v", bad, d)
		}
	}
}

// A log of another game is refused, and so is a log that does not
// replay (every game's deals are checked by bot/bottest/contract).
func TestTellRefuses(t *testing.T) {
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	l := adapter.NewLoc(cat, "ru")
	d, _ := deal.Parse(deal.New("chef", 3, nil, 1, 1))
	if _, err := deal.Tell(trickchef.Game(), d, nil, l); err == nil {
		t.Error("a reveal of Меню шефа told as Трик-н-Шеф")
	}
	d, _ = deal.Parse(deal.New("trickchef", 3, nil, 1, 1))
	if _, err := deal.Tell(trickchef.Game(), d, record.MoveLog{{Seat: 2, Action: 99}}, l); err == nil {
		t.Error("a log that does not replay told")
	}
}
