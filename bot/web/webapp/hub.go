package webapp

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/trickchef/trickchef/bot/web"
	"github.com/trickchef/trickchef/store"
)

// hub hands table changes to the streams watching those tables, through
// one feed per table.
type hub struct {
	mu    sync.Mutex
	feeds map[string]*feed // by table id
}

// feed is one table's open streams and its latest reading, shared by them:
// after a change the first stream to ask reads the table, and every
// stream of the same viewer kind gets the same drawn state.
type feed struct {
	gen  atomic.Uint64          // change notices heard
	subs map[chan struct{}]bool // streams' wake signals, under hub.mu
	mu   sync.Mutex             // held while reading, so one read serves all
	snap *snapshot              // under mu
}

// snapshot is the table as read after gen notices, drawn per viewer kind
// on demand.
type snapshot struct {
	gen   uint64
	view  *web.View
	kinds map[int]drawn
}

// drawn is a viewer kind's state and what the page would draw of it.
type drawn struct {
	ws      web.State
	content string
}

func newHub() *hub { return &hub{feeds: map[string]*feed{}} }

// subscribe adds a stream's wake signal to the table's feed.
func (h *hub) subscribe(table string, wake chan struct{}) *feed {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.feeds[table]
	if f == nil {
		f = &feed{subs: map[chan struct{}]bool{}}
		h.feeds[table] = f
	}
	f.subs[wake] = true
	return f
}

func (h *hub) unsubscribe(table string, wake chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if f := h.feeds[table]; f != nil {
		delete(f.subs, wake)
		if len(f.subs) == 0 {
			delete(h.feeds, table)
		}
	}
}

// run wakes the streams of each changed table; a resync (notices were
// lost) wakes every stream, which rereads and sends only what changed.
func (h *hub) run(changes <-chan store.TableChange) {
	for c := range changes {
		h.mu.Lock()
		if c.Table == "" {
			for _, f := range h.feeds {
				f.wake()
			}
		} else if f := h.feeds[c.Table]; f != nil {
			f.wake()
		}
		h.mu.Unlock()
	}
}

// wake counts a notice and signals the feed's streams (under hub.mu). A
// stream's signal holds one pending wake at most: a burst of moves
// becomes one read of the latest state.
func (f *feed) wake() {
	f.gen.Add(1)
	for c := range f.subs {
		select {
		case c <- struct{}{}:
		default: // already signalled: the read will see this change too
		}
	}
}

// recheck makes the next state a fresh read and wakes one stream for it:
// a stream that just subscribed may have missed a change.
func (f *feed) recheck(wake chan struct{}) {
	f.gen.Add(1)
	select {
	case wake <- struct{}{}:
	default:
	}
}

// state is the latest state for user: read once after each notice,
// whichever stream asks first, and drawn once per viewer kind.
func (f *feed) state(ctx context.Context, w Web, token string, user int64) (drawn, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if g := f.gen.Load(); f.snap == nil || f.snap.gen < g {
		view, err := w.View(ctx, token)
		if err != nil {
			return drawn{}, err
		}
		f.snap = &snapshot{gen: g, view: view, kinds: map[int]drawn{}}
	}
	kind := f.snap.view.Kind(user)
	d, ok := f.snap.kinds[kind]
	if !ok {
		ws, err := f.snap.view.State(kind)
		if err != nil {
			return drawn{}, err
		}
		d = drawn{ws: ws, content: content(ws)}
		f.snap.kinds[kind] = d
	}
	return d, nil
}

// stream is one open event stream.
type stream struct {
	// wake is signalled when its table changed.
	wake chan struct{}
	// evicted is closed when the same user opened one stream too many.
	evicted chan struct{}
}

// streams counts the open streams, per user and in all.
type streams struct {
	mu      sync.Mutex
	perUser int
	max     int
	total   int
	byUser  map[int64][]*stream // oldest first
}

func newStreams(perUser, max int) *streams {
	return &streams{perUser: perUser, max: max, byUser: map[int64][]*stream{}}
}

// open registers a stream of user's, closing their oldest when they have
// as many as they may; false when the process serves all it can.
func (s *streams) open(user int64) (*stream, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.byUser[user]
	if len(list) >= s.perUser {
		close(list[0].evicted)
		list = list[1:]
		s.total--
	}
	if s.total >= s.max {
		s.byUser[user] = list
		if len(list) == 0 {
			delete(s.byUser, user)
		}
		return nil, false
	}
	st := &stream{wake: make(chan struct{}, 1), evicted: make(chan struct{})}
	s.byUser[user] = append(list, st)
	s.total++
	return st, true
}

// close forgets a stream that ended (an evicted one is already gone).
func (s *streams) close(user int64, st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.byUser[user]
	for i, x := range list {
		if x == st {
			list = append(list[:i:i], list[i+1:]...)
			s.total--
			break
		}
	}
	if len(list) == 0 {
		delete(s.byUser, user)
	} else {
		s.byUser[user] = list
	}
}

// count reports how many streams are open (tests and measurements).
func (s *streams) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}
