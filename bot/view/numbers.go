package view

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
)

// Integer shows a whole number with a true minus: «−3».
func Integer(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

// Decimal shows a number with one decimal, the language's decimal sign
// and a true minus: «−1,5», "12.3".
func Decimal(l adapter.Loc, x float64) string {
	s := strconv.FormatFloat(x, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	s = strings.Replace(s, ".", l.T("number.decimal"), 1)
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		s = "−" + rest
	}
	return s
}

// Signed shows a rating change with its sign as the ratings are shown
// (one decimal): «+1,8», «−0,4», «±0,0».
func Signed(l adapter.Loc, x float64) string {
	d := Decimal(l, x)
	switch {
	case d == Decimal(l, 0):
		return "±" + d
	case strings.HasPrefix(d, "−"):
		return d
	}
	return "+" + d
}

// RatingText is a rating and its change by a game: «Рейтинг: 14,3 (+1,8)».
func RatingText(l adapter.Loc, before, after float64) string {
	return l.T("private.rating", "Rating", Decimal(l, after), "Change", Signed(l, after-before))
}
