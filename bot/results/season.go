package results

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/internal/lease"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/season"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// Seasons: /season in a group and in private, and the month's end — a
// recap per game played, posted once within a minute after midnight of
// the 1st in the group's zone (docs/bot.md «Seasons»).
//
// The month's end is the store's Seasons queue: a recorded game makes its
// group due at the end of its month (Record), a lease.Loop claims it then
// (one replica at a time, taken over after a crash), and the recap is
// posted by the group's table in one commit with the month it sums up
// (record.Season), so a month is recapped once whoever posts it.

// Group is what the month's end needs of a group: its table (the zone,
// the language, the thread, the last month recapped), and a way to post
// the recap with the new record.Season in one commit of that table —
// nothing when the table's Season is already m or later.
type Group interface {
	SeasonTable(ctx context.Context, chat int64) (*record.Table, error)
	PostSeason(ctx context.Context, chat int64, s record.Season, msgs []adapter.Message) error
}

const (
	// seasonLease is how long a group's month's end is held by a replica.
	seasonLease = 30 * time.Second
	// seasonHistoryMonths is how far /season history looks back.
	seasonHistoryMonths = 12
)

// earliestEnd is the end of t's month in the offered zone where it ends
// first: a group is made due then, before or at its own month's end,
// without knowing its zone; serving it early only sets the right time.
func earliestEnd(t time.Time) time.Time {
	var out time.Time
	for _, z := range record.Zones() {
		loc, err := time.LoadLocation(z.Name)
		if err != nil {
			continue
		}
		if e := season.NextEnd(t, loc); out.IsZero() || e.Before(out) {
			out = e
		}
	}
	if out.IsZero() {
		out = season.NextEnd(t, time.UTC)
	}
	return out
}

// scheduleSeason makes a group due at its month's end after a game that
// ended at ended. Practice chats have no seasons.
func (res *Results) scheduleSeason(ctx context.Context, chat int64, ended time.Time) error {
	if res.store == nil || view.PracticeChat(chat) || chat >= 0 {
		return nil
	}
	return res.store.Schedule(ctx, store.Seasons, strconv.FormatInt(chat, 10), earliestEnd(ended))
}

// RunSeasons serves the month's ends until ctx is done.
func (res *Results) RunSeasons(ctx context.Context, groups Group) error {
	if res.store == nil {
		<-ctx.Done()
		return nil
	}
	loop := &lease.Loop{Name: "seasons", Queue: lease.Bind(res.store, store.Seasons), Lease: seasonLease,
		Workers: 2, Idle: time.Second, Now: res.now, Log: res.log,
		Serve:    func(ctx context.Context, name string) time.Time { return res.serveSeason(ctx, groups, name) },
		Panicked: func(string, any) time.Time { return res.now().Add(time.Minute) }}
	return loop.Run(ctx)
}

// serveSeason is one group's month's end: the last whole month in the
// group's zone is recapped (once: the table refuses a month it has), and
// the group is due again at the end of this month if it played in it.
func (res *Results) serveSeason(ctx context.Context, groups Group, name string) time.Time {
	chat, err := strconv.ParseInt(name, 10, 64)
	if err != nil {
		return time.Time{} // not a chat: out of the queue
	}
	log := res.log.With().Int64("chat", chat).Logger()
	t, err := groups.SeasonTable(ctx, chat)
	if err != nil {
		log.Warn().Err(err).Msg("season: the group's table not read")
		return res.now().Add(10 * time.Second)
	}
	loc, now := t.Location(), res.now()
	this := season.Of(now, loc)
	past := this.Prev()
	rs, err := res.store.SeasonResults(ctx, chat, past.Prev().Start(loc), this.End(loc))
	if err != nil {
		log.Warn().Err(err).Msg("season: results not read")
		return now.Add(10 * time.Second)
	}
	if t.Season == nil || t.Season.Month < past.String() {
		if rc, ok := season.MonthRecap(rs, past, loc); ok {
			msgs := res.recapMessages(res.loc(t.Lang), rc)
			s := record.Season{Month: past.String(), Until: this.End(loc), Champions: map[string][]int64{}}
			for _, g := range rc.Games {
				for _, c := range g.Champions() {
					if user, ok := record.PlayerUser(c.Player); ok {
						s.Champions[g.Game] = append(s.Champions[g.Game], user)
					}
				}
			}
			if err := groups.PostSeason(ctx, chat, s, msgs); err != nil {
				log.Warn().Err(err).Msg("season: recap not posted")
				return now.Add(10 * time.Second)
			}
		}
	}
	if slices.ContainsFunc(rs, func(r store.Result) bool { return this.Contains(r.Ended, loc) }) {
		return this.End(loc)
	}
	return time.Time{} // the next game makes it due again
}

// recapMessages are a month's recap: one message per game played.
func (res *Results) recapMessages(l adapter.Loc, rc season.Recap) []adapter.Message {
	var out []adapter.Message
	for _, g := range rc.Games {
		var sb strings.Builder
		sb.WriteString(l.T("season.recap_title", "Game", res.gameTitle(l, g.Game), "Month", monthName(l, rc.Month),
			"Games", l.T("count.games", "Count", g.Played)))
		names := func(lines []season.Line) string {
			var ns []string
			for _, x := range lines {
				ns = append(ns, res.playerName(l, g.Game, x.Player, x.Name))
			}
			return strings.Join(ns, ", ")
		}
		if c := g.Champions(); len(c) > 0 {
			key := "season.recap_champion"
			if len(c) > 1 {
				key = "season.recap_champions"
			}
			sb.WriteString("\n\n" + l.T(key, "Names", names(c)))
			for _, p := range g.Podium {
				sb.WriteString("\n" + l.T("season.recap_podium", "Place", medal(p.Place), "Name", res.playerName(l, g.Game, p.Player, p.Name),
					"Score", view.Decimal(l, p.Score), "Games", l.T("count.games", "Count", p.Games)))
			}
		} else {
			sb.WriteString("\n\n" + l.T("season.recap_nobody", "Min", l.T("count.games", "Count", season.MinGames)))
		}
		if len(g.MostGames) > 0 {
			sb.WriteString("\n\n" + l.T("season.recap_most", "Names", names(g.MostGames), "Games", l.T("count.games", "Count", g.MostGames[0].Games)))
		}
		if b := g.Best; b != nil {
			sb.WriteString("\n" + l.T("season.recap_best", "Name", res.playerName(l, g.Game, b.Player, b.Name), "Score", res.scoreText(l, g.Game, b.Score)))
		}
		if r := g.Rise; r != nil {
			sb.WriteString("\n" + l.T("season.recap_rise", "Name", res.playerName(l, g.Game, r.Player, r.Name),
				"From", view.Decimal(l, r.From), "To", view.Decimal(l, r.Score)))
		}
		sb.WriteString("\n\n" + l.T("season.recap_next"))
		out = append(out, adapter.Message{Text: sb.String()})
	}
	return out
}

// monthName is «ноябрь 2026».
func monthName(l adapter.Loc, m season.Month) string {
	return l.T("season.month", "Name", l.T("season.month_"+strconv.Itoa(int(m.Month))), "Year", m.Year)
}

// answerSeason is /season [game] in a group: this month's standings, the
// asker's own line always, the score explained.
func (res *Results) answerSeason(ctx context.Context, t *record.Table, q *record.Query) (adapter.Message, error) {
	l := res.loc(t.Lang)
	loc, now := t.Location(), res.now()
	m := season.Of(now, loc)
	rs, err := res.store.SeasonResults(ctx, t.ChatID, m.Start(loc), m.End(loc))
	if err != nil {
		return adapter.Message{}, err
	}
	game := q.Game
	if game == "" {
		game = mostPlayed(rs, t.GameID)
	}
	if game == "" {
		return adapter.Message{Text: l.T("season.empty", "Month", monthName(l, m))}, nil
	}
	lines := season.Standings(rs, game, m, loc)
	champ := func(player string) bool {
		user, ok := record.PlayerUser(player)
		return ok && t.Champion(user, game, now)
	}
	me := season.Find(lines, record.PersonPlayer(q.User))
	if me.Name == "" {
		me.Name = q.Name
	}
	return res.renderSeason(l, game, m, lines, me, champ), nil
}

// mostPlayed is the game /season shows when none is named: the table's
// game when it was played this month, else the month's most played.
func mostPlayed(rs []store.Result, current string) string {
	count := map[string]int{}
	best := ""
	for _, r := range rs {
		count[r.Game]++
		if best == "" || count[r.Game] > count[best] || count[r.Game] == count[best] && r.Game < best {
			best = r.Game
		}
	}
	if count[current] > 0 {
		return current
	}
	return best
}

// renderSeason draws a month's standings: the placed, then the others
// (most games first), then the asker's line when it is not among them,
// then the score explained. champ marks last month's champions (🏆).
func (res *Results) renderSeason(l adapter.Loc, game string, m season.Month, lines []season.Line, me season.Line, champ func(string) bool) adapter.Message {
	var sb strings.Builder
	sb.WriteString(l.T("season.title", "Game", res.gameTitle(l, game), "Month", monthName(l, m)))
	name := func(x season.Line) string {
		n := res.playerName(l, game, x.Player, x.Name)
		if champ(x.Player) {
			n = "🏆 " + n
		}
		return n
	}
	line := func(x season.Line) string {
		place := "–"
		if x.Placed() {
			place = strconv.Itoa(x.Place)
		}
		return l.T("season.line", "Place", place, "Name", name(x), "Games", l.T("count.games", "Count", x.Games),
			"Wins", l.T("count.wins", "Count", x.Wins), "Score", view.Decimal(l, x.Score))
	}
	const shown = 10
	mine := false
	if len(lines) == 0 {
		sb.WriteString("\n" + l.T("season.nobody"))
	}
	for i, x := range lines {
		if i >= shown && x.Player != me.Player {
			continue
		}
		if x.Player == me.Player {
			mine = true
		}
		sb.WriteString("\n" + line(x))
	}
	if !mine {
		sb.WriteString("\n\n" + line(me))
	}
	if me.Need > 0 {
		sb.WriteString("\n" + l.T("season.need", "Games", l.T("count.games", "Count", me.Need)))
	}
	sb.WriteString("\n\n" + l.T("season.score_note", "Min", l.T("count.games", "Count", season.MinGames)))
	return adapter.Message{Text: sb.String()}
}

// answerSeasonHistory is /season history: the group's champions of the
// past months, newest first, a line per month and game.
func (res *Results) answerSeasonHistory(ctx context.Context, t *record.Table) (adapter.Message, error) {
	l := res.loc(t.Lang)
	loc, now := t.Location(), res.now()
	this := season.Of(now, loc)
	first := this
	for range seasonHistoryMonths {
		first = first.Prev()
	}
	rs, err := res.store.SeasonResults(ctx, t.ChatID, first.Prev().Start(loc), this.Start(loc))
	if err != nil {
		return adapter.Message{}, err
	}
	return res.renderSeasonHistory(l, rs, first, this, loc), nil
}

// renderSeasonHistory lists the champions of the months from first up to
// (not including) this, newest first.
func (res *Results) renderSeasonHistory(l adapter.Loc, rs []store.Result, first, this season.Month, loc *time.Location) adapter.Message {
	var months []string
	for m := this.Prev(); !m.Before(first); m = m.Prev() {
		rc, ok := season.MonthRecap(rs, m, loc)
		if !ok {
			continue
		}
		var parts []string
		for _, g := range rc.Games {
			var ns []string
			for _, c := range g.Champions() {
				ns = append(ns, res.playerName(l, g.Game, c.Player, c.Name))
			}
			who := l.T("season.history_none")
			if len(ns) > 0 {
				who = "🏆 " + strings.Join(ns, ", ")
			}
			parts = append(parts, l.T("season.history_game", "Game", res.gameTitle(l, g.Game), "Names", who))
		}
		months = append(months, "<b>"+adapter.UpperFirst(monthName(l, m))+"</b>\n"+strings.Join(parts, "\n"))
	}
	if len(months) == 0 {
		return adapter.Message{Text: l.T("season.history_empty")}
	}
	return adapter.Message{Text: l.T("season.history_title") + "\n\n" + strings.Join(months, "\n\n")}
}

// PrivateSeasons answers /season in private: the person's line in this
// month's season of every game in every group they played in this month.
// group gives a group's table (its title and zone; nil when unknown).
func (res *Results) PrivateSeasons(ctx context.Context, l adapter.Loc, user int64, name string, group func(chat int64) *record.Table) (adapter.Message, error) {
	rs := res.store
	if rs == nil {
		return adapter.Message{Text: l.T("stats.unavailable")}, nil
	}
	player := record.PersonPlayer(user)
	chats, err := rs.PlayerChats(ctx, player)
	if err != nil {
		return adapter.Message{}, err
	}
	var blocks []string
	now := res.now()
	for _, chat := range chats {
		if view.PracticeChat(chat) || chat >= 0 {
			continue
		}
		t := group(chat)
		if t == nil {
			t = &record.Table{ChatID: chat}
		}
		loc := t.Location()
		m := season.Of(now, loc)
		results, err := rs.SeasonResults(ctx, chat, m.Start(loc), m.End(loc))
		if err != nil {
			return adapter.Message{}, err
		}
		var lines []string
		for _, id := range res.resultGames(results) {
			me := season.Find(season.Standings(results, id, m, loc), player)
			if me.Games == 0 {
				continue
			}
			place := l.T("season.private_unplaced", "Games", l.T("count.games", "Count", me.Need))
			if me.Placed() {
				place = l.T("season.private_place", "Place", me.Place)
			}
			if t.Champion(user, id, now) {
				place = "🏆 " + place
			}
			lines = append(lines, l.T("season.private_game", "Game", res.gameTitle(l, id), "Place", place,
				"Games", l.T("count.games", "Count", me.Games), "Score", view.Decimal(l, me.Score)))
		}
		if len(lines) == 0 {
			continue
		}
		title := adapter.Esc(t.Title)
		if title == "" {
			title = l.T("season.private_group")
		}
		blocks = append(blocks, l.T("season.private_where", "Group", title, "Month", monthName(l, m))+"\n"+strings.Join(lines, "\n"))
	}
	if len(blocks) == 0 {
		return adapter.Message{Text: l.T("season.private_none", "Name", adapter.Esc(name))}, nil
	}
	return adapter.Message{Text: l.T("season.private_title", "Name", adapter.Esc(name)) + "\n\n" + strings.Join(blocks, "\n\n") +
		"\n\n" + l.T("season.score_note", "Min", l.T("count.games", "Count", season.MinGames))}, nil
}

// resultGames lists the games of results in menu order, then others by id.
func (res *Results) resultGames(rs []store.Result) []string {
	seen := map[string]store.PlayerStats{}
	for _, r := range rs {
		seen[r.Game] = store.PlayerStats{}
	}
	return res.gameOrder(seen)
}

// TopChampion reports whether player carries 🏆 in game's /top of t.
func (res *Results) topChampion(t *record.Table, game, player string) bool {
	if t == nil {
		return false
	}
	user, ok := record.PlayerUser(player)
	return ok && t.Champion(user, game, res.now())
}

// medal is a podium place's medal.
func medal(place int) string {
	if place >= 1 && place <= 3 {
		return []string{"🥇", "🥈", "🥉"}[place-1]
	}
	return strconv.Itoa(place) + "."
}
