package tables

import (
	"testing"

	"github.com/trickchef/trickchef/store/redistest"
)

// The results tests run over a real Redis (store/redistest).
func TestMain(m *testing.M) { redistest.Main(m) }
