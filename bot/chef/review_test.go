package chef_test

import (
	"testing"

	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/chef"
	"github.com/trickchef/trickchef/bot/review/reviewtest"
)

// reviewPlayouts keeps the tests' reviews quick; the checks hold for any
// budget.
const reviewPlayouts = 60

// TestReview: over seeded positions every judgement is in range, names
// «Профи»'s own move, costs nothing for that move and reads as catalog
// lines; whole games reviewed give reports that survive their stored form,
// «Профи» reviewing itself at exactly 100%.
func TestReview(t *testing.T) {
	if n := reviewtest.Check(t, chef.Game(), 40, reviewPlayouts); n < 15 {
		t.Fatalf("only %d moves other than «Профи»'s judged", n)
	}
	acc := reviewtest.CheckReviews(t, chef.Game(), 2, reviewPlayouts)
	t.Logf("accuracy by level: %.1f", acc)
}

// TestReviewGolden pins how a review reads in the person's private chat.
func TestReviewGolden(t *testing.T) {
	golden.Check(t, "review", reviewtest.Sample(t, chef.Game(), reviewPlayouts))
}
