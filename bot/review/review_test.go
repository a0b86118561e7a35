package review_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/chekharda"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/review"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
	"github.com/trickchef/trickchef/bot/trickchef"
	"github.com/trickchef/trickchef/game"
	"github.com/trickchef/trickchef/locales"
)

func loc(t *testing.T, lang string) adapter.Loc {
	t.Helper()
	cat, err := locales.New()
	if err != nil {
		t.Fatal(err)
	}
	return adapter.NewLoc(cat, lang)
}

// A game's accuracy: 100 for the judge's moves, 0 for losing what a
// random move loses on average, weighted by how much each choice
// mattered (a choice that could cost nothing counts for nothing), never
// below 0.
func TestScore(t *testing.T) {
	for _, c := range []struct {
		loss, random []float64
		want         float64
	}{
		{nil, nil, 100},
		{[]float64{0, 0}, []float64{0.2, 0.1}, 100},
		{[]float64{0.2, 0.1}, []float64{0.2, 0.1}, 0},
		{[]float64{0.3, 0}, []float64{0.1, 0.1}, 0},
		{[]float64{0.1, 0}, []float64{0.2, 0}, 50},
		{[]float64{0.1, 0}, []float64{0.1, 0.3}, 75},
		{[]float64{0, 0.05}, []float64{0.3, 0.01}, 100 * (1 - 0.05/0.31)},
	} {
		if got := review.Score(c.loss, c.random); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Score(%v, %v) = %.3f, want %.3f", c.loss, c.random, got, c.want)
		}
	}
}

// Decisions are graded on Lichess's thresholds of lost winning chances,
// in the stored form's ten-thousandths.
func TestGrade(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want int
	}{{0, 0}, {0.0499, 0}, {0.05, 1}, {0.0999, 1}, {0.6 - 0.5, 2}, {0.14999, 3}, {0.149, 2}, {0.15, 3}, {1, 3}} {
		if got := review.Grade(c.loss); got != c.want {
			t.Errorf("Grade(%v) = %d, want %d", c.loss, got, c.want)
		}
	}
}

// A report survives its stored form, which stays small, and a damaged
// one is refused.
func TestReportStored(t *testing.T) {
	r := review.Report{Game: "trickchef", Level: "shef", Accuracy: 87.456, Judged: 31}
	for i := range review.Moments {
		r.Moments = append(r.Moments, review.Moment{Move: 40 + i, Loss: 0.3 - float64(i)/10, Judged: adapter.Judged{
			Moment: "Раунд 2, взятка 3, козырь 🟥. На столе: Оля 🟥9, Серёжа 🟦3 +2 → 5.\nВаши карты: 🟥2 🟥7 🟨4 🟨9 🟩1; у вас 2 монеты.",
			Played: "Ваш ход: 🟥7.", Best: "Ход Профи — «карта 🟥2»: по расчёту, с этой картой взятка уйдёт другим с вероятностью 81%, а шанс быть впереди после раунда — 40%.",
			Cost: "Цена хода: шанс быть впереди после раунда — 31% вместо 40%; в среднем это 2,4 очка в пользу соперников.",
		}})
	}
	for i := range 20 {
		r.Costs = append(r.Costs, review.Cost{Move: 3 + 4*i, Best: game.Action(200 + i), Loss: float64(i) / 40})
		switch review.Grade(float64(i) / 40) {
		case 1:
			r.Inaccuracies++
		case 2:
			r.Mistakes++
		case 3:
			r.Blunders++
		}
	}
	data, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes", len(data))
	if len(data) > 700 {
		t.Errorf("a report of three moments takes %d bytes", len(data))
	}
	var back review.Report
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	r.Accuracy = 87.46 // kept in hundredths
	if back.String() != r.String() || back.Moments[2].Judged != r.Moments[2].Judged || back.Level != "shef" || !slices.Equal(back.Costs, r.Costs) ||
		back.Inaccuracies != 2 || back.Mistakes != 2 || back.Blunders != 14 || back.Inaccuracies != r.Inaccuracies || back.Mistakes != r.Mistakes || back.Blunders != r.Blunders {
		t.Fatalf("stored %v, read back %v", r, back)
	}
	for _, bad := range [][]byte{nil, {9}, {1}, data[:len(data)/2], append(bytes.Clone(data), 0)} {
		if err := back.UnmarshalBinary(bad); err == nil {
			t.Errorf("%d bytes of damage read as a report", len(bad))
		}
	}
}

// The message: the header, the accuracy over the decisions, the moments
// or that there were none; a game without choices says so.
func TestMessage(t *testing.T) {
	l := loc(t, "ru")
	r := review.Report{Game: "trickchef", Level: "shef", Accuracy: 99.6, Judged: 22, Inaccuracies: 3, Mistakes: 2, Blunders: 1}
	text := r.Message(l).Text
	pro := l.T("trickchef.level.shef")
	for _, want := range []string{l.T("review.header", "Title", l.T("trickchef.title")), "99%",
		l.T("review.count_decisions", "Count", 22), l.T("review.clean", "Pro", pro), l.T("review.accuracy_means", "Pro", pro),
		"3 неточности · 2 ошибки · 1 зевок"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	// Each moment says its move by the replay's number (review.Step: the
	// move at index 13 of the log is the replay's «Ход 14») and its grade
	// (a loss of 0.2 is a blunder, review.Grade 3).
	r.Moments = []review.Moment{{Move: 13, Loss: 0.2, Judged: adapter.Judged{Moment: "M", Played: "P", Best: "B", Cost: "C"}}}
	moment := l.T("review.moment", "N", 1, "Step", 14, "Grade", l.T("review.replay_grade_3"), "Moment", "M") + "\nP\nB\nC"
	if text := r.Message(l).Text; !strings.Contains(text, moment) || review.Step(13) != 14 || review.Grade(0.2) != 3 {
		t.Errorf("moment not told:\n%s", text)
	}
	if text := (review.Report{Game: "trickchef", Level: "shef", Accuracy: 100}).Message(l).Text; !strings.Contains(text, "не было выбора") {
		t.Errorf("a game without choices:\n%s", text)
	}
}

// Only a game whose robots review is reviewed, only an existing seat, and
// only a log that replays.
func TestReviewRefuses(t *testing.T) {
	l := loc(t, "ru")
	tab := reviewtest.Play(t, trickchef.Game(), 3, 5, "novice", []string{"cook"}, 20)
	if _, err := review.Review(chekharda.Game(), tab, 0, l, review.Options{}); !errors.Is(err, review.ErrNotReviewable) {
		t.Errorf("Чехарда reviewed: %v", err)
	}
	if _, err := review.Review(trickchef.Game(), tab, 3, l, review.Options{}); err == nil {
		t.Error("a seat out of range reviewed")
	}
	bad := *tab
	bad.Log = append(record.MoveLog{{Seat: 2, Action: 0}}, tab.Log...)
	if _, err := review.Review(trickchef.Game(), &bad, 0, l, review.Options{Playouts: 20}); err == nil {
		t.Error("a log that does not replay reviewed")
	}
}

// A review judges the seat's own moves with a choice, never the bot's
// moves for it, and leaves the record as it was.
func TestReviewJudgesOwnMoves(t *testing.T) {
	g := trickchef.Game()
	tab := reviewtest.Play(t, g, 4, 9, "cook", []string{"cook"}, 20)
	for i := range tab.Log {
		if tab.Log[i].Seat == 0 && i%3 == 0 {
			tab.Log[i].Auto = true // the bot moved for the person here
		}
	}
	before, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	err = review.Replay(g, tab, func(i int, st game.State, _ []byte) {
		if m := tab.Log[i]; m.Seat == 0 && !m.Auto && len(st.Legal(0)) > 1 {
			own++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := review.Review(g, tab, 0, loc(t, "en"), review.Options{Playouts: 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.Judged != own || own == 0 {
		t.Errorf("judged %d decisions, the seat made %d itself", r.Judged, own)
	}
	for i, c := range r.Costs {
		if c.Loss <= 0 || tab.Log[c.Move].Seat != 0 || tab.Log[c.Move].Auto || i > 0 && c.Move <= r.Costs[i-1].Move {
			t.Errorf("cost %+v of the seat's moves in order", c)
		}
	}
	if len(r.Costs) < len(r.Moments) {
		t.Errorf("%d costs, %d moments", len(r.Costs), len(r.Moments))
	}
	after, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the review changed the record")
	}
}
