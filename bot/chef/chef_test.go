package chef

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/bottest"
	"github.com/trickchef/trickchef/bot/bottest/golden"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/refusal"
	"github.com/trickchef/trickchef/game"
	ce "github.com/trickchef/trickchef/game/chef"
)

// chefTestTable seats n people at a table of Меню шефа (creator: seat 0).
func chefTestTable(t *testing.T, n int, opts map[string]int, seed uint64) (*record.Table, *ce.State) {
	t.Helper()
	tab, st := golden.Table(t, Game(), n, 0, "", seed, opts)
	return tab, st.(*ce.State)
}

// chefReachable walks every button flow of seat's private message, from
// no draft, and returns the actions its action buttons make. It fails the
// test on a button that is not the seat's, a draft press the game refuses,
// or an open flow without a way back.
func chefReachable(t *testing.T, l adapter.Loc, tab *record.Table, st *ce.State, seat int) map[game.Action]bool {
	t.Helper()
	g := chefGame{}
	saved := tab.Seats[seat].Draft
	defer func() { tab.Seats[seat].Draft = saved }()
	acts := map[game.Action]bool{}
	seen := map[string]bool{"[]": true}
	queue := [][]int{nil}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		tab.Seats[seat].Draft = d
		m := g.RenderSeat(l, adapter.View(tab), st, seat)
		if !m.Ping || m.Lazy {
			t.Fatalf("the seat to act gets a message that does not ping: %+v", m)
		}
		back := false
		for _, row := range m.Keyboard {
			for _, bt := range row {
				if len(bt.Data) > callback.MaxBytes {
					t.Fatalf("callback data %q over %d bytes", bt.Data, callback.MaxBytes)
				}
				p, err := adapter.ParseButton(bt.Data)
				if err != nil {
					t.Fatalf("button %q: %v", bt.Text, err)
				}
				if p.Table != tab.ID || p.GameNo != tab.GameNo || p.Args[0] != seat || p.Args[1] != tab.Seats[seat].Nonce {
					t.Fatalf("button %q is not seat %d's: %+v", bt.Text, seat, p)
				}
				switch p.Op {
				case 'a':
					acts[game.Action(p.Args[2])] = true
				case 'm':
					next, ok := g.Draft(st, game.Seat(seat), d, p.Args[2])
					if !ok {
						t.Fatalf("draft %v: the button %q (%d) is refused", d, bt.Text, p.Args[2])
					}
					if p.Args[2] == chefCancel {
						back = true
						if next != nil {
							t.Fatalf("cancel left draft %v", next)
						}
					}
					if key := fmt.Sprint(next); !seen[key] {
						seen[key] = true
						queue = append(queue, next)
					}
				default:
					t.Fatalf("unexpected button %q", bt.Data)
				}
			}
		}
		if d != nil && !back {
			t.Fatalf("draft %v: no button cancels it", d)
		}
	}
	return acts
}

// TestChefButtonsReachExactlyLegal plays random games of every size, both
// table settings, and checks at every turn that the actions reachable
// through the seat's buttons, draft steps included, are exactly the
// engine's legal actions; that no other seat has buttons; and that every
// view renders in every language without a missing text.
func TestChefButtonsReachExactlyLegal(t *testing.T) {
	cat := bottest.Catalog(t)
	games := 2
	if testing.Short() {
		games = 1
	}
	for n := ce.MinPlayers; n <= ce.MaxPlayers; n++ {
		for k := 0; k < games; k++ {
			auto := k % 2
			tab, st := chefTestTable(t, n, map[string]int{chefOptAnnounce: auto}, uint64(100*n+k))
			r := rand.New(rand.NewPCG(uint64(n), uint64(k)))
			checked := 0
			for step := 0; !st.Over(); step++ {
				seat := int(st.ToAct()[0])
				lang := cat.Langs()[step%2]
				l := adapter.NewLoc(cat, lang)
				legal := st.Legal(game.Seat(seat))
				got := chefReachable(t, l, tab, st, seat)
				want := map[game.Action]bool{}
				for _, a := range legal {
					want[a] = true
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%d players, step %d: buttons reach %v, legal %v", n, step, got, want)
				}
				checked++
				if step%7 == 0 {
					chefCheckViews(t, l, tab, st)
				}
				a := legal[r.IntN(len(legal))]
				if err := st.Apply(game.Seat(seat), a); err != nil {
					t.Fatal(err)
				}
				tab.Seats[seat].Nonce++
				golden.Sync(t, tab, st)
			}
			chefCheckViews(t, adapter.NewLoc(cat, "ru"), tab, st)
			if checked == 0 {
				t.Fatal("no turn checked")
			}
		}
	}
}

// chefCheckViews renders the board, every seat and the final announcement:
// no missing key, nothing too long, buttons only for the seat to act.
func chefCheckViews(t *testing.T, l adapter.Loc, tab *record.Table, st *ce.State) {
	t.Helper()
	g := chefGame{}
	check := func(what string, m adapter.Message) {
		if strings.Contains(m.Text, "chef.") || strings.Contains(m.Text, "<no value>") {
			t.Fatalf("%s: a missing text in %q", what, m.Text)
		}
		if n := len([]rune(m.Text)); n > 3000 {
			t.Fatalf("%s: %d characters", what, n)
		}
		for _, row := range m.Keyboard {
			for _, bt := range row {
				if strings.Contains(bt.Text, "chef.") {
					t.Fatalf("%s: a missing button text %q", what, bt.Text)
				}
			}
		}
	}
	check("table", g.RenderTable(l, adapter.View(tab), st))
	for i := range tab.Seats {
		m := g.RenderSeat(l, adapter.View(tab), st, i)
		check(fmt.Sprintf("seat %d", i), m)
		toAct := slices.Contains(st.ToAct(), game.Seat(i))
		if !toAct && len(m.Keyboard) > 0 {
			t.Fatalf("seat %d has buttons while not to act", i)
		}
		// A waiting hand is lazy but when it tells its player of a loss.
		told := chefLosses(l, adapter.View(tab), st.PublicView(), game.Seat(i)) != ""
		if !st.Over() && m.Lazy != (!toAct && !told) {
			t.Fatalf("seat %d: lazy %v, to act %v, told of a loss %v", i, m.Lazy, toAct, told)
		}
	}
}

// TestChefDraft checks the draft rules directly: flows open only when one
// of their moves is legal, Похмелье's first dish must lead somewhere, a
// seat not to act has nothing to draft, and cancel always clears.
func TestChefDraft(t *testing.T) {
	g := chefGame{}
	st, err := ce.ParseDeal("0:orpgHDC 1:oorpg 2:b discard:n pile:o")
	if err != nil {
		t.Fatal(err)
	}
	hang := chefFlowCard + int(ce.Hangover)
	tests := []struct {
		name    string
		seat    game.Seat
		current []int
		value   int
		want    []int
		ok      bool
	}{
		{"open Hangover", 0, nil, hang, []int{hang}, true},
		{"open Diet", 0, nil, chefFlowCard + int(ce.Diet), []int{chefFlowCard + int(ce.Diet)}, true},
		{"open Chef", 0, nil, chefFlowCard + int(ce.ChefCard), []int{chefFlowCard + int(ce.ChefCard)}, true},
		{"switch flows", 0, []int{hang}, chefFlowCard + int(ce.Diet), []int{chefFlowCard + int(ce.Diet)}, true},
		{"no duplicate to discard", 0, nil, chefFlowDiscard, nil, false},
		{"no Empty plate", 0, nil, chefFlowCard + int(ce.EmptyPlate), nil, false},
		{"Hangover's first dish", 0, []int{hang}, int(ce.Starter), []int{hang, int(ce.Starter)}, true},
		{"a dish the victim lacks", 0, []int{hang}, int(ce.Drink), nil, false},
		{"a dish without a flow", 0, nil, int(ce.Starter), nil, false},
		{"a dish in the Diet flow", 0, []int{chefFlowCard + int(ce.Diet)}, int(ce.Starter), nil, false},
		{"a second first dish", 0, []int{hang, int(ce.Starter)}, int(ce.Sauce), nil, false},
		{"out of range", 0, []int{hang}, 77, nil, false},
		{"negative", 0, []int{hang}, -1, nil, false},
		{"cancel", 0, []int{hang, int(ce.Starter)}, chefCancel, nil, true},
		{"cancel nothing", 0, nil, chefCancel, nil, true},
		{"not to act", 1, nil, hang, nil, false},
		{"not to act, cancel", 1, nil, chefCancel, nil, false},
	}
	for _, tt := range tests {
		got, ok := g.Draft(st, tt.seat, tt.current, tt.value)
		if ok != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("%s: Draft(%v, %d) = %v, %v; want %v, %v", tt.name, tt.current, tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

// TestChefStaleDraftIgnored: a stored draft that no longer leads to a
// legal move (or is garbage) renders as no draft at all.
func TestChefStaleDraftIgnored(t *testing.T) {
	cat := bottest.Catalog(t)
	l := adapter.NewLoc(cat, "ru")
	tab, st := chefTestTable(t, 3, nil, 5)
	seat := int(st.ToAct()[0])
	want := chefGame{}.RenderSeat(l, adapter.View(tab), st, seat)
	for _, d := range [][]int{{chefFlowCard + int(ce.Hangover)}, {chefFlowDiscard}, {chefFlowCard + int(ce.Hangover), 3}, {5, 5, 5}, {-1}} {
		tab.Seats[seat].Draft = d
		if got := (chefGame{}).RenderSeat(l, adapter.View(tab), st, seat); !reflect.DeepEqual(got, want) {
			t.Errorf("draft %v changes the message:\n%s", d, golden.Show(got))
		}
	}
}

// TestChefDraftPresses goes through the platform's handler: a foreign
// press, a stale one and a senseless one are refused and change nothing;
// a good one records the draft.
func TestChefDraftPresses(t *testing.T) {
	b := bottest.Offline(t, Game())
	tab, _ := chefDeal(t, 3, nil, "0:orpgHDC 1:oorpg 2:b discard:n pile:o")
	hang := chefFlowCard + int(ce.Hangover)
	gameNo := tab.GameNo
	press := func(user int64, nonce, value int) error {
		data := fmt.Sprintf("m:%s:%d:%d:%d:%d", tab.ID, gameNo, 0, nonce, value)
		return b.Tables.PressDraft(tab, data, user)
	}
	refused := func(err error) string {
		if key, ok := refusal.Key(err); ok {
			return key
		}
		return fmt.Sprint(err)
	}
	nonce := tab.Seats[0].Nonce
	for _, tt := range []struct {
		name  string
		user  int64
		nonce int
		value int
		want  string
	}{
		{"foreign", 2, nonce, hang, "error.not_yours"},
		{"stranger", 99, nonce, hang, "error.not_yours"},
		{"stale", 1, nonce - 1, hang, "error.stale"},
		{"senseless", 1, nonce, chefFlowCard + int(ce.EmptyPlate), "error.bad_choice"},
	} {
		if got := refused(press(tt.user, tt.nonce, tt.value)); got != tt.want {
			t.Errorf("%s press: %s, want %s", tt.name, got, tt.want)
		}
		if tab.Seats[0].Draft != nil {
			t.Fatalf("%s press changed the draft to %v", tt.name, tab.Seats[0].Draft)
		}
	}
	if err := press(1, nonce, hang); err != nil {
		t.Fatal(err)
	}
	if err := press(1, nonce, int(ce.Starter)); err != nil {
		t.Fatal(err)
	}
	if want := []int{hang, int(ce.Starter)}; !slices.Equal(tab.Seats[0].Draft, want) {
		t.Fatalf("draft %v, want %v", tab.Seats[0].Draft, want)
	}
	if err := press(1, nonce, chefCancel); err != nil || tab.Seats[0].Draft != nil {
		t.Fatalf("cancel: %v, draft %v", err, tab.Seats[0].Draft)
	}
	gameNo-- // a button of the previous game
	if got := refused(press(1, nonce, hang)); got != "error.stale_game" {
		t.Errorf("an old game's press: %s", got)
	}
}

// TestChefStart: the seat after the creator begins, and the lobby option
// switches «Счёт!» to automatic.
func TestChefStart(t *testing.T) {
	g := Game()
	for _, tt := range []struct {
		creator int64
		first   game.Seat
		auto    int
	}{{1, 1, 0}, {3, 0, 1}, {2, 2, 0}, {42, 0, 1}} {
		tab := &record.Table{Creator: tt.creator, Seed: 7, GameID: g.ID(), Options: map[string]int{chefOptAnnounce: tt.auto}}
		for i := 0; i < 3; i++ {
			tab.Seats = append(tab.Seats, record.Seat{UserID: int64(i + 1), Name: golden.Names[i]})
		}
		st, err := g.Start(adapter.View(tab))
		if err != nil {
			t.Fatal(err)
		}
		cfg := st.(*ce.State).Config()
		if cfg.First != tt.first || cfg.AutoAnnounce != (tt.auto == 1) || cfg.Players != 3 {
			t.Errorf("creator %d, option %d: config %+v", tt.creator, tt.auto, cfg)
		}
	}
}

// TestChefAuto: every level, and a person's timeout, plays a legal move.
func TestChefAuto(t *testing.T) {
	g := chefGame{}
	_, st := chefTestTable(t, 4, nil, 9)
	r := rand.New(rand.NewPCG(9, 9))
	for step := 0; step < 80 && !st.Over(); step++ {
		s := st.ToAct()[0]
		for _, level := range append(g.Levels(), "") {
			a, ok := g.Auto(st, s, adapter.Decision{Level: level, Seed: uint64(step)})
			if !ok || !slices.Contains(st.Legal(s), a) {
				t.Fatalf("level %q: %d, %v; legal %v", level, a, ok, st.Legal(s))
			}
		}
		legal := st.Legal(s)
		if err := st.Apply(s, legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestChefTexts: every engine rule code has the game's own text, and the
// game's names exist in every language.
func TestChefTexts(t *testing.T) {
	cat := bottest.Catalog(t)
	codes := []game.Code{ce.CodeNotYourTurn, ce.CodeGameOver, ce.CodeUnknownAction, ce.CodeBadSeat,
		ce.CodeMustFinishDraw, ce.CodeNotAfterDraw, ce.CodeNoSuchCard, ce.CodeNotTheDrawnCard,
		ce.CodeNoSuchDish, ce.CodeNotADuplicate, ce.CodeNotEnoughDishes, ce.CodeNoDishToTake,
		ce.CodeCannotTakeDiscard, ce.CodeNotAnnounced, ce.CodeNotComplete, ce.CodeAlreadyAnnounced,
		ce.CodeAutoAnnounce, ce.CodeCannotRedraw}
	g := Game()
	keys := []string{"chef.title", "chef.rules", "chef.option.announce"}
	for _, c := range codes {
		keys = append(keys, "chef.error."+string(c))
	}
	for _, lv := range g.(adapter.RobotGame).Levels() {
		keys = append(keys, "chef.level."+lv)
	}
	for c := ce.Starter; c <= ce.Addition; c++ {
		if c.IsDish() {
			keys = append(keys, "chef.dish."+c.Key())
		} else {
			keys = append(keys, "chef.card."+c.Key())
		}
	}
	for _, k := range keys {
		if !cat.Has(k) {
			t.Errorf("no text %s", k)
		}
	}
	l := adapter.NewLoc(cat, "ru")
	if k := adapter.ErrorKey(l, g, ce.CodeNotADuplicate); k != "chef.error.not_a_duplicate" {
		t.Errorf("errorKey: %s", k)
	}
	// Russian counts take three forms (1, 2, 5), and 21 takes 1's.
	for _, key := range []string{"chef.colours", "chef.surplus"} {
		one, few, many := cat.T("ru", key, "Count", 1), cat.T("ru", key, "Count", 2), cat.T("ru", key, "Count", 5)
		if strings.TrimPrefix(one, "1") == strings.TrimPrefix(few, "2") || strings.TrimPrefix(few, "2") == strings.TrimPrefix(many, "5") ||
			strings.TrimPrefix(cat.T("ru", key, "Count", 21), "21") != strings.TrimPrefix(one, "1") {
			t.Errorf("%s: plural forms %q, %q, %q", key, one, few, many)
		}
	}
}

// TestChefLossesTold: a player whose dishes were taken is told in their own
// chat. A waiting victim's hand is redrawn (not lazy) with the news, the
// other waiting hands stay lazy; a Chef's victim, next to play, reads it in
// their turn's message; after the victim's own move it is gone.
func TestChefLossesTold(t *testing.T) {
	g := chefGame{}
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	told := func(tab *record.Table, st *ce.State, seat int, key string, args ...any) (adapter.Message, bool) {
		m := g.RenderSeat(l, adapter.View(tab), st, seat)
		return m, strings.Contains(m.Text, l.T(key, args...))
	}
	// Оля's Hangover at Серёжа (three at the table): he skips, so he waits.
	tab, st := chefDeal(t, 3, nil, "0:H 1:org 2:pg discard:n pile:bbbb", "play:H:or")
	if m, ok := told(tab, st, 1, "chef.hand_lost_penalty", "Name", "Оля", "Card", chefCardAcc(l, ce.Hangover), "Lost", "🍤 🍅"); !ok || m.Lazy || m.Ping {
		t.Errorf("the Hangover's victim, waiting: told %v, lazy %v, ping %v\n%s", ok, m.Lazy, m.Ping, m.Text)
	}
	if m := g.RenderSeat(l, adapter.View(tab), st, 0); !m.Lazy {
		t.Errorf("the player who lost nothing is redrawn while waiting:\n%s", m.Text)
	}
	// Оля's Chef at Серёжа: his turn comes next, and its message says it.
	tab, st = chefDeal(t, 3, nil, "0:C 1:org 2:pg discard:n pile:bbbb", "play:C:o")
	if m, ok := told(tab, st, 1, "chef.hand_lost_chef", "Name", "Оля", "Card", chefCardAcc(l, ce.ChefCard), "Dish", "🍤"); !ok || !m.Ping {
		t.Errorf("the Chef's victim, to play: told %v, ping %v\n%s", ok, m.Ping, m.Text)
	}
	// Серёжа draws: the news has been read.
	tab, st = chefDeal(t, 3, nil, "0:C 1:org 2:pg discard:n pile:bbbb", "play:C:o", "draw")
	if _, ok := told(tab, st, 1, "chef.hand_lost_chef", "Name", "Оля", "Card", chefCardAcc(l, ce.ChefCard), "Dish", "🍤"); ok {
		t.Error("the news is repeated after the victim's own move")
	}
}

// TestChefDrawnLineSaysWhatTheButtonsDo plays random games and checks, at
// every draw of an action card, that the line above the buttons offers
// playing it only when a button plays it and discarding only when a button
// discards: «play it at once — or discard» was shown with only «keep» on
// the keyboard.
func TestChefDrawnLineSaysWhatTheButtonsDo(t *testing.T) {
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	seen := map[string]int{}
	for k := 0; k < 40 && len(seen) < 4; k++ {
		n := ce.MinPlayers + k%(ce.MaxPlayers-ce.MinPlayers+1)
		tab, st := chefTestTable(t, n, nil, uint64(7000+k))
		r := rand.New(rand.NewPCG(uint64(k), 3))
		for !st.Over() {
			seat := int(st.ToAct()[0])
			v := st.SeatView(game.Seat(seat))
			if v.Step == ce.StepDrawn && v.Drawn.IsAction() {
				play, discard := false, false
				for a := range chefReachable(t, l, tab, st, seat) {
					m, _ := ce.DecodeAction(a)
					play = play || m.Kind == ce.KindPlay && m.Card == v.Drawn
					discard = discard || m.Kind == ce.KindDiscard
				}
				want := map[[2]bool]string{
					{true, true}:   "chef.hand_drawn_action",
					{true, false}:  "chef.hand_drawn_action_keep",
					{false, true}:  "chef.hand_drawn_unplayable",
					{false, false}: "chef.hand_drawn_unplayable_keep",
				}[[2]bool{play, discard}]
				if got := chefDrawnKey(v); got != want {
					t.Fatalf("drawn %v, play %v, discard %v: line %s, want %s", v.Drawn, play, discard, got, want)
				}
				seen[want]++
			}
			legal := st.Legal(game.Seat(seat))
			if err := st.Apply(game.Seat(seat), legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			tab.Seats[seat].Nonce++
			golden.Sync(t, tab, st)
		}
	}
	if seen["chef.hand_drawn_unplayable_keep"] == 0 || len(seen) < 3 {
		t.Fatalf("drawn lines met: %v; want the unplayable card with nothing to discard among three", seen)
	}
}

// TestChefTurnLineSaysWhatTheButtonsDo plays random games and checks, at
// every start of a turn, that the line above the buttons names exactly the
// moves the buttons make (it named all four when only drawing was
// offered), and that the next player's line counts their colours, not
// their dishes with duplicates.
func TestChefTurnLineSaysWhatTheButtonsDo(t *testing.T) {
	l := adapter.NewLoc(bottest.Catalog(t), "ru")
	var drawOnly, several, duplicates int
	for k := 0; k < 12; k++ {
		n := ce.MinPlayers + k%(ce.MaxPlayers-ce.MinPlayers+1)
		tab, st := chefTestTable(t, n, nil, uint64(9000+k))
		r := rand.New(rand.NewPCG(uint64(k), 5))
		for !st.Over() {
			seat := int(st.ToAct()[0])
			v := st.SeatView(game.Seat(seat))
			if v.Step != ce.StepDrawn && len(v.Legal) > 0 {
				text := strings.ToLower(chefGame{}.RenderSeat(l, adapter.View(tab), st, seat).Text)
				var take, draw, discard bool
				var plays []ce.Card
				for a := range chefReachable(t, l, tab, st, seat) {
					m, _ := ce.DecodeAction(a)
					switch m.Kind {
					case ce.KindTake:
						take = true
					case ce.KindDraw:
						draw = true
					case ce.KindDiscard:
						discard = true
					case ce.KindPlay:
						if !slices.Contains(plays, m.Card) {
							plays = append(plays, m.Card)
						}
					}
				}
				want := map[string]bool{
					l.T("chef.offer.draw"):     draw,
					l.T("chef.offer.discard"):  discard,
					l.T("chef.offer.play_any"): len(plays) > 1,
				}
				if v.DiscardTop == ce.Addition {
					want[l.T("chef.offer.take_bill")] = take
				} else {
					want[l.T("chef.offer.take", "Card", chefDishEmoji(v.DiscardTop))] = take
				}
				for c := ce.Hangover; c <= ce.ChefCard; c++ {
					want[l.T("chef.offer.play", "Card", chefCardAcc(l, c))] = len(plays) == 1 && plays[0] == c
				}
				for move, offered := range want {
					if strings.Contains(text, strings.ToLower(move)) != offered {
						t.Fatalf("take %v, draw %v, plays %v, discard %v: «%s» named %v:\n%s",
							take, draw, plays, discard, move, !offered, text)
					}
				}
				moves := len(plays)
				for _, b := range []bool{take, draw, discard} {
					if b {
						moves++
					}
				}
				switch {
				case moves == 1 && draw:
					drawOnly++
				case moves > 2:
					several++
				}
				if v.Next != v.Seat {
					nx := v.Seats[v.Next]
					colours := 0
					for c := ce.Starter; c <= ce.Drink; c++ {
						if nx.Cards[c] > 0 {
							colours++
						}
					}
					if colours != nx.Dishes {
						duplicates++
					}
					line := l.T("chef.hand_next", "Name", adapter.SeatName(adapter.View(tab), v.Next),
						"Colours", l.T("chef.colours", "Count", colours), "Menu", chefFront(nx.Cards))
					if !strings.Contains(text, strings.ToLower(line)) {
						t.Fatalf("next player with %d dishes of %d colours: no %q in\n%s", nx.Dishes, colours, line, text)
					}
				}
			}
			legal := st.Legal(game.Seat(seat))
			if err := st.Apply(game.Seat(seat), legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			tab.Seats[seat].Nonce++
			golden.Sync(t, tab, st)
		}
	}
	if drawOnly == 0 || several == 0 || duplicates == 0 {
		t.Fatalf("turns met: %d with only the draw, %d with three moves or more, %d with a next player holding duplicates; want some of each",
			drawOnly, several, duplicates)
	}
}
