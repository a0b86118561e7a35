package deal_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/deal"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/locales"
)

const secret = "00112233445566778899aabbccddeeff"

var inputs = deal.Inputs{Game: "trickchef", Seats: 3, Creator: 0, Options: map[string]int{"removed": 1},
	Joins: []string{"4382094170129871234", "", "4382094170129875555"}, Start: "4382094170129879999"}

// The v2 vectors: a reveal is "v2:" and the secret, its commitment 32 hex
// digits of its SHA-256, and each seed the first 8 bytes of HMAC-SHA256
// keyed with the secret over the purpose and the inputs, a line each —
// written out here as anyone would, apart from the package.
func TestDeriveV2Vectors(t *testing.T) {
	r := deal.RevealV2(secret)
	if r != "v2:"+secret {
		t.Fatalf("reveal %q", r)
	}
	sum := sha256.Sum256([]byte(r))
	c := deal.Commitment(r)
	if c != hex.EncodeToString(sum[:16]) || len(c) != 32 || !deal.Check(r, c) {
		t.Fatalf("commitment %q", c)
	}
	// printf %s v2:… | sha256sum
	if c != "49e6d90d19155aa3b4d1d99805609714" {
		t.Errorf("commitment %q changed", c)
	}
	got, err := deal.Derive(r, inputs)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := hex.DecodeString(secret)
	body := "trickchef:3:0:removed=1\n4382094170129871234\n\n4382094170129875555\n4382094170129879999"
	for purpose, seed := range map[string]uint64{"deal": got.Deal, "robots": got.Robots} {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(purpose + "\n" + body))
		if want := binary.BigEndian.Uint64(m.Sum(nil)); seed != want {
			t.Errorf("%s seed %x, want %x", purpose, seed, want)
		}
	}
	// printf 'deal\n…' | openssl dgst -sha256 -mac HMAC -macopt hexkey:…
	if got.Deal != 0x195b7988071d8e40 || got.Robots != 0x521a75d2c5f260a1 {
		t.Errorf("seeds %x %x changed", got.Deal, got.Robots)
	}
	if got.Deal == got.Robots {
		t.Error("one seed for the deal and the robots")
	}
}

// Every input moves the deal: a different press, a seat more, another
// creator, an option, another secret; and the v1 vector still holds.
func TestDeriveEveryInputCounts(t *testing.T) {
	r := deal.RevealV2(secret)
	base, _ := deal.Derive(r, inputs)
	change := []func(in *deal.Inputs){
		func(in *deal.Inputs) { in.Joins = []string{"4382094170129871235", "", "4382094170129875555"} },
		func(in *deal.Inputs) { in.Joins = []string{"", "4382094170129871234", "4382094170129875555"} },
		func(in *deal.Inputs) { in.Start = "4382094170129879998" },
		func(in *deal.Inputs) { in.Creator = 1 },
		func(in *deal.Inputs) { in.Options = nil },
		func(in *deal.Inputs) { in.Game = "chef" },
		func(in *deal.Inputs) { in.Seats = 4; in.Joins = append(in.Joins, "") },
	}
	for i, f := range change {
		in := inputs
		in.Joins = append([]string(nil), inputs.Joins...)
		f(&in)
		got, err := deal.Derive(r, in)
		if err != nil {
			t.Fatal(err)
		}
		if got.Deal == base.Deal || got.Robots == base.Robots {
			t.Errorf("change %d leaves a seed as it was", i)
		}
	}
	other, _ := deal.Derive(deal.RevealV2(strings.Repeat("f", 32)), inputs)
	if other == base {
		t.Error("another secret, the same seeds")
	}
	for _, bad := range []string{"v2:" + secret[:31], "v2:" + strings.ToUpper(secret), "v3:" + secret, secret, "v2:" + secret + "0"} {
		if _, err := deal.Derive(bad, inputs); err == nil {
			t.Errorf("%q derived", bad)
		}
	}
	in := inputs
	in.Joins = inputs.Joins[:2]
	if _, err := deal.Derive(r, in); err == nil {
		t.Error("two presses for three seats derived")
	}
	in = inputs
	in.Start = "a\nb"
	if _, err := deal.Derive(r, in); err == nil {
		t.Error("a press id of two lines derived")
	}
	// v1: the reveal holds the seed itself, and its commitment is 16 digits.
	v1 := deal.New("trickchef", 3, map[string]int{"removed": 1}, 255, 0x0123456789abcdef)
	if c := deal.Commitment(v1); len(c) != 16 || !deal.Check(v1, c) {
		t.Errorf("v1 commitment %q", c)
	}
}

// A v2 table's file remakes its deal: the table from the file and the
// reveal deals what the table dealt, names its seats as the game did,
// and a reveal that does not match the commitment is refused.
func TestFileRemakesTheDeal(t *testing.T) {
	g := trickchef.Game()
	tab := &record.Table{GameID: "trickchef", GameNo: 4, Creator: 7, Secret: secret, Options: map[string]int{"removed": 1, "x": 0},
		Seats: []record.Seat{{UserID: 7, Name: "Оля"}, {Name: "Робот 1", AI: "cook"}, {Name: "Робот 2", AI: "cook", Leaver: &record.Leaver{UserID: 8, Name: "Петя"}}},
		Drawn: []string{"111", "", "333", "999"},
		Log:   record.MoveLog{{Seat: 0, Action: 3}},
		Phase: record.PhaseIdle,
	}
	seeds, err := deal.Derive(deal.TableReveal(tab), deal.InputsOf(tab))
	if err != nil {
		t.Fatal(err)
	}
	tab.Seed, tab.RobotSeed = seeds.Deal, seeds.Robots
	f, ok := deal.FileOf(tab)
	if !ok || f.Name() != "trickchef-4.json" || f.Start != "999" || f.Seats[0].Join != "111" || f.Seats[2].Name != "Петя" || !f.Seats[1].Robot || f.Creator != 0 {
		t.Fatalf("file %+v", f)
	}
	back, err := deal.ReadFile(f.Encode())
	if err != nil {
		t.Fatal(err)
	}
	remade, err := back.Table("")
	if err != nil {
		t.Fatal(err)
	}
	if remade.Seed != tab.Seed || remade.RobotSeed != tab.RobotSeed || remade.Seats[2].Name != "Петя" {
		t.Fatalf("remade %+v", remade)
	}
	want, _ := g.Start(adapter.View(tab))
	got, _ := g.Start(adapter.View(remade))
	a, _ := want.MarshalBinary()
	b, _ := got.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("the file deals another game")
	}
	if _, err := back.Table(deal.RevealV2(strings.Repeat("0", 32))); err == nil {
		t.Error("a reveal that does not match the commitment remade a deal")
	}
	cat, _ := locales.New()
	deals, err := deal.TellTable(g, remade, back.Moves, adapter.NewLoc(cat, "ru"))
	if err != nil || !strings.Contains(deals[0], "Петя") || !strings.Contains(deals[0], "Оля") {
		t.Fatalf("told %q, %v", deals, err)
	}
	// A v1 table's file holds its v1 reveal and still remakes the deal.
	v1 := &record.Table{GameID: "trickchef", GameNo: 2, Seed: 255, Salt: 9, Seats: tab.Seats[:3], Phase: record.PhaseIdle}
	f1, ok := deal.FileOf(v1)
	if !ok || f1.Start != "" || f1.Seats[0].Join != "" {
		t.Fatalf("v1 file %+v", f1)
	}
	r1, err := f1.Table("")
	if err != nil || r1.Seed != 255 || r1.Seats[0].Name != "Оля" {
		t.Fatalf("v1 remade %+v, %v", r1, err)
	}
	if _, ok := deal.FileOf(&record.Table{GameID: "chef", Seed: 3}); ok {
		t.Error("a file of a game dealt before commitments")
	}
}

// BenchmarkDerive is the cost of a v2 deal's seeds, once per game.
func BenchmarkDerive(b *testing.B) {
	r := deal.RevealV2(secret)
	for b.Loop() {
		if _, err := deal.Derive(r, inputs); err != nil {
			b.Fatal(err)
		}
	}
}
