package members

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"
)

// asker answers getChatMember from a set of members, counting the calls;
// fail makes it fail as Telegram does when it does not answer, and hold
// keeps a call waiting until it is closed.
type asker struct {
	mu      sync.Mutex
	members map[int64]bool
	calls   int
	fail    error
	hold    chan struct{}
}

func (a *asker) GetChatMember(_ context.Context, p *tgbot.GetChatMemberParams) (*models.ChatMember, error) {
	a.mu.Lock()
	a.calls++
	in, fail, hold := a.members[p.UserID], a.fail, a.hold
	a.mu.Unlock()
	if hold != nil {
		<-hold
	}
	if fail != nil {
		return nil, fail
	}
	if in {
		return &models.ChatMember{Type: models.ChatMemberTypeMember, Member: &models.ChatMemberMember{}}, nil
	}
	return &models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{}}, nil
}

func (a *asker) set(user int64, in bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.members[user] = in
}

const group = -100

// TestForgetDropsAYesAtOnce: a cached yes holds until MemberTTL, unless
// Forget (Telegram said they left) drops it; a question in flight when
// Forget came is answered but not cached.
func TestForgetDropsAYesAtOnce(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	a := &asker{members: map[int64]bool{1: true}}
	c := New(a, func() time.Time { return now }, zerolog.Nop())
	if ok, _ := c.Belongs(ctx, group, 1); !ok {
		t.Fatal("a member is no member")
	}
	a.set(1, false)
	if ok, _ := c.Belongs(ctx, group, 1); !ok || a.calls != 1 {
		t.Fatalf("within MemberTTL: %v after %d calls, want the cached yes", ok, a.calls)
	}
	c.Forget(group, 1)
	if ok, _ := c.Belongs(ctx, group, 1); ok || a.calls != 2 {
		t.Fatalf("after Forget: %v after %d calls, want Telegram's no", ok, a.calls)
	}

	// In flight: asked before she left, answered after Forget.
	a.set(2, true)
	a.hold = make(chan struct{})
	done := make(chan bool)
	go func() { ok, _ := c.Member(ctx, group, 2); done <- ok }()
	for {
		a.mu.Lock()
		n := a.calls
		a.mu.Unlock()
		if n == 3 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	c.Forget(group, 2)
	a.set(2, false)
	close(a.hold)
	<-done
	a.hold = nil
	if ok, _ := c.Member(ctx, group, 2); ok || a.calls != 4 {
		t.Fatalf("an answer from before Forget was cached: %v after %d calls", ok, a.calls)
	}

	// Past MemberTTL Telegram is asked again.
	a.set(3, true)
	c.Member(ctx, group, 3)
	a.set(3, false)
	now = now.Add(MemberTTL)
	if ok, _ := c.Member(ctx, group, 3); ok {
		t.Fatal("a yes outlived MemberTTL")
	}
}

// TestNoAnswerKeepsAYesBriefly: Telegram not answering keeps an earlier
// yes for RetryTTL (a flaky Telegram turns no member out), and is a no for
// someone never seen; Telegram refusing the question is a no at once.
// A private chat belongs to its person alone, asking nobody.
func TestNoAnswerKeepsAYesBriefly(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	a := &asker{members: map[int64]bool{1: true}}
	c := New(a, func() time.Time { return now }, zerolog.Nop())
	c.Member(ctx, group, 1)
	now = now.Add(MemberTTL)
	a.fail = errors.New("context deadline exceeded (Client.Timeout)")
	if ok, _ := c.Member(ctx, group, 1); !ok {
		t.Fatal("no answer turned a member out")
	}
	if ok, _ := c.Member(ctx, group, 2); ok {
		t.Fatal("no answer let a stranger in")
	}
	now = now.Add(RetryTTL)
	a.fail = tgbot.ErrorBadRequest
	if ok, _ := c.Member(ctx, group, 1); ok {
		t.Fatal("Telegram's refusal kept a yes")
	}
	calls := a.calls
	if ok, _ := c.Belongs(ctx, 7, 7); !ok {
		t.Fatal("a private chat's person does not belong there")
	}
	if ok, _ := c.Belongs(ctx, 7, 8); ok || a.calls != calls {
		t.Fatalf("someone else belongs in a private chat (%v), or Telegram was asked (%d calls)", ok, a.calls-calls)
	}
}
