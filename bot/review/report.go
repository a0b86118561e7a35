package review

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/game"
)

// Message is the Report as the person's private message: «🔍 Разбор» and
// the game, the accuracy over the decisions judged with what it means, the
// inaccuracies, mistakes and blunders, and the costliest moments, each as
// the game's Describe put it. The texts are r's own
// (rendered when it was made); l gives the words around them.
func (r Report) Message(l adapter.Loc) adapter.Message {
	pro := l.T(r.Game + ".level." + r.Level)
	var b strings.Builder
	b.WriteString(l.T("review.header", "Title", l.T(r.Game+".title")))
	b.WriteString("\n")
	if r.Judged == 0 {
		b.WriteString(l.T("review.no_decisions"))
		return adapter.Message{Text: b.String()}
	}
	b.WriteString(l.T("review.accuracy", "Accuracy", percent(r.Accuracy), "Pro", pro,
		"Decisions", l.T("review.count_decisions", "Count", r.Judged)))
	b.WriteString("\n" + l.T("review.accuracy_means", "Pro", pro))
	b.WriteString("\n" + l.T("review.grades",
		"Inaccuracies", l.T("review.count_inaccuracies", "Count", r.Inaccuracies),
		"Mistakes", l.T("review.count_mistakes", "Count", r.Mistakes),
		"Blunders", l.T("review.count_blunders", "Count", r.Blunders)))
	if len(r.Moments) == 0 {
		b.WriteString("\n\n" + l.T("review.clean", "Pro", pro))
		return adapter.Message{Text: b.String()}
	}
	b.WriteString("\n\n" + l.T("review.costliest"))
	for i, m := range r.Moments {
		// Each moment carries its grade, in the words of the grades line
		// and of the replay in «Стол» (review.replay_grade_*).
		b.WriteString("\n\n" + l.T("review.moment", "N", i+1, "Step", Step(m.Move),
			"Grade", l.T("review.replay_grade_"+strconv.Itoa(Grade(m.Loss))), "Moment", m.Judged.Moment))
		for _, line := range []string{m.Judged.Played, m.Judged.Best, m.Judged.Cost} {
			if line != "" {
				b.WriteString("\n" + line)
			}
		}
	}
	return adapter.Message{Text: adapter.Clip(b.String())}
}

// Step is the number players see for the move at index move of a game's
// log: the replay's step that move leads to («Ход N из M» in «Стол»), so
// the review's «Ход N» is the replay's. Every move of the log counts, the
// dealer's and the robots' too: the replay steps through them all.
func Step(move int) int { return move + 1 }

// GameKey names t's game among its table's games, for links to its replay
// in «Стол»: its number and when it was dealt («7.1764927600»), as
// record.GameRef tells games apart, without the table's id (a link names
// the table by its token).
func GameKey(t *record.Table) string {
	return strconv.Itoa(t.GameNo) + "." + strconv.FormatInt(t.Started.Unix(), 10)
}

// percent is an accuracy as the message shows it: a whole percentage,
// 100 only when it is exactly 100 (99.6 shows as 99).
func percent(x float64) int {
	if x >= 100 {
		return 100
	}
	return min(99, int(math.Round(x)))
}

// The stored form of a Report (MarshalBinary): a format byte, then either
// the fields as they are (formatPlain) or DEFLATEd (formatDeflate), kept
// when smaller. The fields: the game id and the level (each a length and
// its bytes), the accuracy in hundredths of a percent, the decisions
// judged, the number of moments and for each its move, its loss in
// ten-thousandths and its four texts (each a length and its bytes), then
// the number of costs and for each its move (after the previous cost's),
// the best move and the loss in ten-thousandths; lengths and numbers are
// unsigned varints.
const (
	formatPlain   = 1
	formatDeflate = 2
)

// maxText bounds a text read back, so a corrupt record cannot ask for
// much memory.
const maxText = 1 << 14

var errReport = errors.New("review: malformed report")

// MarshalBinary is the Report's stored form: compact, a few hundred bytes
// (docs/ai.md, «Разбор», has the sizes measured per game).
func (r Report) MarshalBinary() ([]byte, error) {
	var p []byte
	str := func(s string) {
		p = binary.AppendUvarint(p, uint64(len(s)))
		p = append(p, s...)
	}
	str(r.Game)
	str(r.Level)
	p = binary.AppendUvarint(p, uint64(math.Round(min(100, max(0, r.Accuracy))*100)))
	p = binary.AppendUvarint(p, uint64(r.Judged))
	p = binary.AppendUvarint(p, uint64(len(r.Moments)))
	for _, m := range r.Moments {
		p = binary.AppendUvarint(p, uint64(m.Move))
		p = binary.AppendUvarint(p, uint64(math.Round(min(1, max(0, m.Loss))*1e4)))
		for _, s := range []string{m.Judged.Moment, m.Judged.Played, m.Judged.Best, m.Judged.Cost} {
			str(s)
		}
	}
	p = binary.AppendUvarint(p, uint64(len(r.Costs)))
	prev := 0
	for _, c := range r.Costs {
		if c.Move < prev || c.Best < 0 {
			return nil, errors.New("review: costs out of order")
		}
		p = binary.AppendUvarint(p, uint64(c.Move-prev))
		p = binary.AppendUvarint(p, uint64(c.Best))
		p = binary.AppendUvarint(p, uint64(math.Round(min(1, max(0, c.Loss))*1e4)))
		prev = c.Move
	}
	var z bytes.Buffer
	z.WriteByte(formatDeflate)
	w, err := flate.NewWriter(&z, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(p); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if z.Len() < 1+len(p) {
		return z.Bytes(), nil
	}
	return append([]byte{formatPlain}, p...), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (r *Report) UnmarshalBinary(data []byte) error {
	if len(data) == 0 {
		return errReport
	}
	p := data[1:]
	switch data[0] {
	case formatPlain:
	case formatDeflate:
		z := bytes.NewReader(p) // an io.ByteReader: flate reads no byte past its stream
		raw, err := io.ReadAll(io.LimitReader(flate.NewReader(z), 8*maxText))
		if err != nil || z.Len() != 0 {
			return errReport
		}
		p = raw
	default:
		return fmt.Errorf("review: report format %d", data[0])
	}
	rd := reader{p: p}
	var out Report
	out.Game, out.Level = rd.str(), rd.str()
	out.Accuracy = float64(rd.num(100*100)) / 100
	out.Judged = int(rd.num(1 << 20))
	n := int(rd.num(Moments))
	for range n {
		m := Moment{Move: int(rd.num(1 << 24)), Loss: float64(rd.num(1e4)) / 1e4}
		m.Judged = adapter.Judged{Moment: rd.str(), Played: rd.str(), Best: rd.str(), Cost: rd.str()}
		out.Moments = append(out.Moments, m)
	}
	move := 0
	for range rd.num(1 << 16) {
		move += int(rd.num(1 << 24))
		c := Cost{Move: move, Best: game.Action(rd.num(1 << 24))}
		c.Loss = float64(rd.num(1e4)) / 1e4
		out.Costs = append(out.Costs, c)
		if rd.err != nil {
			break
		}
	}
	if rd.err != nil || len(rd.p) != 0 {
		return errReport
	}
	// The grades are the costs' (every judged decision that lost
	// anything is one), so they are not stored.
	for _, c := range out.Costs {
		switch Grade(c.Loss) {
		case 1:
			out.Inaccuracies++
		case 2:
			out.Mistakes++
		case 3:
			out.Blunders++
		}
	}
	*r = out
	return nil
}

// reader reads the fields of a stored Report, remembering the first
// error.
type reader struct {
	p   []byte
	err error
}

func (rd *reader) num(limit uint64) uint64 {
	v, n := binary.Uvarint(rd.p)
	if n <= 0 || v > limit {
		rd.err, rd.p = errReport, nil
		return 0
	}
	rd.p = rd.p[n:]
	return v
}

func (rd *reader) str() string {
	n := rd.num(maxText)
	if uint64(len(rd.p)) < n {
		rd.err, rd.p = errReport, nil
		return ""
	}
	s := string(rd.p[:n])
	rd.p = rd.p[n:]
	return s
}

// String is a short account of the Report for logs and tests.
func (r Report) String() string {
	var b strings.Builder
	b.WriteString(r.Game + " " + strconv.FormatFloat(r.Accuracy, 'f', 1, 64) + "% of " + strconv.Itoa(r.Judged))
	for _, m := range r.Moments {
		fmt.Fprintf(&b, "; move %d loss %.3f", m.Move, m.Loss)
	}
	return b.String()
}
