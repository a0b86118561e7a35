package record

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/trickchef/trickchef/game"
)

func TestMoveLogRoundTrip(t *testing.T) {
	for _, log := range []MoveLog{
		nil,
		{{Seat: 0, Action: 13}},
		{{Seat: game.System, Action: 85, Auto: true}, {Seat: 2, Action: 0}, {Seat: 11, Action: 1234, Auto: true}},
	} {
		tab := Table{ID: "1", Log: log}
		data, err := json.Marshal(&tab)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(got.Log, log) {
			t.Errorf("%s: decoded %v, want %v", data, got.Log, log)
		}
	}
}

func TestMoveLogCompactForm(t *testing.T) {
	data, err := json.Marshal(MoveLog{{Seat: 0, Action: 13}, {Seat: game.System, Action: 85, Auto: true}})
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `"0:13 -1:85!"` {
		t.Errorf("compact form %s", data)
	}
}

// A record written before the compact form keeps its log.
func TestMoveLogReadsTheOldArray(t *testing.T) {
	old := []byte(`{"id":"1","log":[{"s":-1,"a":85,"auto":true},{"s":0,"a":13},{"s":2,"a":12}]}`)
	tab, err := Decode(old)
	if err != nil {
		t.Fatal(err)
	}
	want := MoveLog{{Seat: game.System, Action: 85, Auto: true}, {Seat: 0, Action: 13}, {Seat: 2, Action: 12}}
	if !reflect.DeepEqual(tab.Log, want) {
		t.Errorf("old log read as %v", tab.Log)
	}
}

func TestMoveLogRefusesGarbage(t *testing.T) {
	for _, s := range []string{`"0"`, `"0:"`, `":1"`, `"0:1 "`, `"0:1  2:3"`, `"a:1"`, `"0:1!!"`, `"0:x"`, `12`, `{"s":1}`, `"0:1,2:3"`} {
		var l MoveLog
		if err := json.Unmarshal([]byte(s), &l); err == nil {
			t.Errorf("%s read as %v", s, l)
		}
	}
}

// BenchmarkDecodeTable decodes a Чехарда-sized record mid-game: the
// decoding every update and every redraw pays.
func BenchmarkDecodeTable(b *testing.B) {
	tab := Table{ID: "-1000000000001", ChatID: -1000000000001, Title: "Группа", Lang: "ru", Phase: PhasePlaying,
		GameNo: 3, GameID: "chekharda", Creator: 10, Seed: 42, State: make([]byte, 180)}
	for i := 0; i < 4; i++ {
		tab.Seats = append(tab.Seats, Seat{UserID: int64(10 + i), Name: "Игрок", Nonce: 40})
	}
	for i := 0; i < 300; i++ {
		tab.Log = append(tab.Log, Move{Seat: game.Seat(i%5 - 1), Action: game.Action(i % 90), Auto: i%5 == 0})
	}
	data, err := tab.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
