package chef_test

import (
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/store/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// allGames are the games the tests' bot offers: this one.
func allGames() []adapter.Game { return []adapter.Game{chef.Game()} }

// harness is bottest.Test with the helpers of this package's tests.
type harness struct{ *bottest.Test }

// newHarness runs a bot with the game over a fresh namespace of the test
// Redis server.
func newHarness(t *testing.T, turnTimeout time.Duration) *harness {
	t.Helper()
	return &harness{bottest.NewTest(t, allGames(), turnTimeout)}
}
