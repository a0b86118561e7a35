package view

import (
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
)

// TestSignedChange shows a rating change with its sign.
func TestSignedChange(t *testing.T) {
	l := adapter.NewLoc(testCatalog(t), "ru")
	for x, want := range map[float64]string{1.84: "+1,8", -0.44: "−0,4", 0.01: "±0,0", -0.04: "±0,0", 0: "±0,0"} {
		if got := Signed(l, x); got != want {
			t.Errorf("Signed(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestNumbers: one decimal with the language's sign and a true minus. (The
// sum over groups it also pinned is the results' own: TestAddStats there.)
func TestNumbers(t *testing.T) {
	cat := testCatalog(t)
	ru, en := adapter.NewLoc(cat, "ru"), adapter.NewLoc(cat, "en")
	for x, want := range map[float64]string{12.34: "12,3", -1.25: "−1,2", -0.04: "0,0", 0: "0,0", 7: "7,0"} {
		if got := Decimal(ru, x); got != want {
			t.Errorf("Decimal(ru, %v) = %q, want %q", x, got, want)
		}
	}
	if got := Decimal(en, -3.06); got != "−3.1" {
		t.Errorf("Decimal(en, -3.06) = %q", got)
	}
	if Integer(-3) != "−3" || Integer(12) != "12" {
		t.Errorf("Integer: %q %q", Integer(-3), Integer(12))
	}
}
