package results

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/rating"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
	"github.com/trickchef/trickchef/store"
)

// The results commands: /stats, /top [game] and /history in a group,
// /stats and /forgetme in private.
//
// A group's command is a job on its table, answered (Answer) once every
// job before it is done: a result recorded before it is counted, so an
// answer asked after the final result was shown always counts that game.

const (
	// topSize is how many players /top lists.
	topSize = 10
	// topScan bounds the search for the presser's own place below the top.
	topScan = 200
	// historySize is how many games /history lists.
	historySize = 10
)

// Answer renders a group's results command from the store as it is now.
// A failed read is answered as such rather than retried: unlike a result,
// an answer may be lost.
func (res *Results) Answer(ctx context.Context, t *record.Table, q *record.Query) adapter.Message {
	l := res.loc(t.Lang)
	rs := res.store
	if rs == nil {
		return adapter.Message{Text: l.T("stats.unavailable")}
	}
	var (
		m   adapter.Message
		err error
	)
	switch q.Cmd {
	case "stats":
		var games map[string]store.PlayerStats
		if games, err = rs.PlayerGames(ctx, t.ChatID, record.PersonPlayer(q.User)); err == nil {
			m = res.renderStats(l, adapter.Esc(q.Name), false, 0, games)
		}
	case "top":
		m, err = res.answerTop(ctx, rs, l, t, q)
	case "season":
		m, err = res.answerSeason(ctx, t, q)
	case "season_history":
		m, err = res.answerSeasonHistory(ctx, t)
	case "history":
		var hist []store.Result
		if hist, err = rs.History(ctx, t.ChatID, historySize); err == nil {
			m = res.renderHistory(l, hist)
		}
	default:
		return adapter.Message{Text: l.T("command.unknown")}
	}
	if err != nil {
		res.log.Warn().Err(err).Str("table", t.ID).Str("cmd", q.Cmd).Msg("results not read")
		return adapter.Message{Text: l.T("stats.unavailable")}
	}
	return m
}

// answerTop reads a group's leaderboard, and the presser's own standing
// when they are not on it.
func (res *Results) answerTop(ctx context.Context, rs Store, l adapter.Loc, t *record.Table, q *record.Query) (adapter.Message, error) {
	chat := t.ChatID
	game := q.Game
	if game == "" {
		var err error
		if game, err = res.topGame(ctx, rs, chat); err != nil {
			return adapter.Message{}, err
		}
	}
	if game == "" {
		return adapter.Message{Text: l.T("history.empty")}, nil
	}
	champ := func(player string) bool { return res.topChampion(t, game, player) }
	top, err := rs.Top(ctx, chat, game, topSize)
	if err != nil {
		return adapter.Message{}, err
	}
	me := record.PersonPlayer(q.User)
	if slices.ContainsFunc(top, func(p store.PlayerStats) bool { return p.Player == me }) {
		return res.renderTop(l, game, top, nil, 0, champ), nil
	}
	mine, ok, err := rs.Stats(ctx, chat, game, me)
	if err != nil || !ok || mine.Games == 0 {
		return res.renderTop(l, game, top, nil, 0, champ), err
	}
	mine.Name = q.Name
	rank := 0
	if mine.Games >= store.RankedGames {
		all, err := rs.Top(ctx, chat, game, topScan)
		if err != nil {
			return adapter.Message{}, err
		}
		rank = slices.IndexFunc(all, func(p store.PlayerStats) bool { return p.Player == me }) + 1
	}
	return res.renderTop(l, game, top, &mine, rank, champ), nil
}

// topGame is /top's game when the table has none: the first game, in menu
// order, with a leaderboard, else the game played last.
func (res *Results) topGame(ctx context.Context, rs Store, chat int64) (string, error) {
	for _, g := range res.games {
		top, err := rs.Top(ctx, chat, g.ID(), 1)
		if err != nil {
			return "", err
		}
		if len(top) > 0 {
			return g.ID(), nil
		}
	}
	hist, err := rs.History(ctx, chat, 1)
	if err != nil || len(hist) == 0 {
		return "", err
	}
	return hist[0].Game, nil
}

// addStats adds one group's record of a game to a sum over groups
// (store.PlayerStats.Add); the rating kept is the best of the groups' (by
// ordinal), which /stats in private labels so, where a moved group keeps
// its later rating instead.
func addStats(sum, s store.PlayerStats) store.PlayerStats {
	out := sum.Add(s)
	if ordinal(s) > ordinal(sum) {
		out.Mu, out.Sigma = s.Mu, s.Sigma
	}
	return out
}

// ordinal is the rating shown: mu − 3σ (a player never rated shows as new).
func ordinal(p store.PlayerStats) float64 {
	if p.Sigma == 0 {
		return rating.New().Ordinal()
	}
	return rating.Rating{Mu: p.Mu, Sigma: p.Sigma}.Ordinal()
}

// Rendering. These are pure, so the golden files pin them.

// renderStats is /stats: per game, in menu order. In private the stats
// are summed over groups (the rating shown is then the best of the
// groups', and labelled so).
func (res *Results) renderStats(l adapter.Loc, name string, private bool, groups int, stats map[string]store.PlayerStats) adapter.Message {
	var sb strings.Builder
	gameKey, noneKey := "stats.game_group", "stats.none_group"
	if private {
		sb.WriteString(l.T("stats.title_private", "Name", name, "Groups", l.T("count.groups", "Count", groups)))
		gameKey, noneKey = "stats.game_private", "stats.none_private"
	} else {
		sb.WriteString(l.T("stats.title_group", "Name", name))
	}
	n := 0
	for _, id := range res.gameOrder(stats) {
		s := stats[id]
		if s.Games == 0 {
			continue
		}
		n++
		sb.WriteString("\n\n" + l.T(gameKey,
			"Game", res.gameTitle(l, id),
			"Games", l.T("count.games", "Count", s.Games),
			"Wins", l.T("count.wins", "Count", s.Wins),
			"Percent", int(math.Round(100*float64(s.Wins)/float64(s.Games))),
			"Place", view.Decimal(l, s.AveragePlace()),
			"Best", res.scoreText(l, id, s.BestScore),
			"Rating", view.Decimal(l, ordinal(s))))
	}
	if n == 0 {
		return adapter.Message{Text: l.T(noneKey, "Name", name)}
	}
	sb.WriteString("\n\n" + l.T("stats.rating_note"))
	return adapter.Message{Text: sb.String()}
}

// renderTop is /top: the leaderboard, then the presser's own line when
// they are not on it (rank 0: not ranked yet, or beyond the search).
func (res *Results) renderTop(l adapter.Loc, game string, top []store.PlayerStats, me *store.PlayerStats, rank int, champ func(player string) bool) adapter.Message {
	var sb strings.Builder
	sb.WriteString(l.T("top.title", "Game", res.gameTitle(l, game)))
	name := func(p store.PlayerStats) string {
		n := res.playerName(l, game, p.Player, p.Name)
		if champ != nil && champ(p.Player) {
			n = "🏆 " + n // last month's champion
		}
		return n
	}
	line := func(rank string, p store.PlayerStats) string {
		return l.T("top.line", "Rank", rank, "Name", name(p),
			"Rating", view.Decimal(l, ordinal(p)),
			"Games", l.T("count.games", "Count", p.Games),
			"Wins", l.T("count.wins", "Count", p.Wins))
	}
	if len(top) == 0 {
		sb.WriteString("\n" + l.T("top.empty", "N", store.RankedGames))
	}
	for i, p := range top {
		sb.WriteString("\n" + line(strconv.Itoa(i+1), p))
	}
	if me != nil {
		sb.WriteString("\n")
		switch {
		case me.Games < store.RankedGames:
			sb.WriteString("\n" + l.T("top.unranked", "Name", res.playerName(l, game, me.Player, me.Name),
				"Games", l.T("count.games", "Count", me.Games), "N", store.RankedGames))
		case rank > 0:
			sb.WriteString("\n" + line(strconv.Itoa(rank), *me))
		default:
			sb.WriteString("\n" + line("…", *me))
		}
	}
	return adapter.Message{Text: sb.String()}
}

// renderHistory is /history: one line per game, newest first.
func (res *Results) renderHistory(l adapter.Loc, hist []store.Result) adapter.Message {
	if len(hist) == 0 {
		return adapter.Message{Text: l.T("history.empty")}
	}
	var sb strings.Builder
	sb.WriteString(l.T("history.title"))
	marks := map[string]bool{}
	for _, r := range hist {
		seats := slices.Clone(r.Seats)
		slices.SortStableFunc(seats, func(a, b store.ResultSeat) int { return a.Place - b.Place })
		var winners, scores []string
		for _, s := range seats {
			name := res.historyName(l, r.Game, s)
			if s.Place == 1 {
				winners = append(winners, name)
			}
			shared := 0
			for _, o := range seats {
				if o.Place == s.Place {
					shared++
				}
			}
			scores = append(scores, adapter.PlaceLabel(s.Place, shared)+" "+name+res.markOf(l, r.Game, s, marks))
		}
		sb.WriteString("\n\n" + l.T("history.line",
			"Date", view.Ago(l, res.now().Sub(r.Ended)),
			"Game", res.gameTitle(l, r.Game),
			"Winners", strings.Join(winners, ", "),
			"Scores", strings.Join(scores, " · ")))
	}
	if marks[adapter.LeftMark] || marks[unratedMark] {
		sb.WriteString("\n")
	}
	for _, m := range []struct{ mark, key string }{{adapter.LeftMark, "history.legend_left"}, {unratedMark, "history.legend_unrated"}} {
		if marks[m.mark] {
			sb.WriteString("\n" + l.T(m.key))
		}
	}
	if slices.ContainsFunc(hist, func(r store.Result) bool { return res.reviewed(r.Game) }) {
		// Each person's review is theirs: offered in private, not here.
		sb.WriteString("\n\n" + l.T("review.history_hint"))
	}
	return adapter.Message{Text: sb.String()}
}

// unratedMark marks a person the game did not rate in /history (they
// took a hint, or robots outnumbered people).
const unratedMark = "💤"

// markOf is what follows a seat's name in /history: its score with the
// game's unit, or its mark; the marks used are noted in marks, for the
// legend.
func (res *Results) markOf(l adapter.Loc, game string, s store.ResultSeat, marks map[string]bool) string {
	switch {
	case s.Left:
		marks[adapter.LeftMark] = true
		return " " + adapter.LeftMark
	case s.Unrated:
		marks[unratedMark] = true
		return " — " + res.scoreText(l, game, s.Score) + " " + unratedMark
	}
	return " — " + res.scoreText(l, game, s.Score)
}

// historyName shows a seat of a recorded game as it sat at the table: a
// robot by its name there and its level («🤖 Робот 1 (Профи)»), so two
// robots can be told apart; a record that kept only the level shows that.
func (res *Results) historyName(l adapter.Loc, game string, s store.ResultSeat) string {
	name := res.playerName(l, game, s.Player, s.Name)
	if _, robot := record.PlayerLevel(s.Player); !robot || s.Name == "" {
		return name
	}
	for _, lang := range res.tr.Langs() {
		if "🤖 "+adapter.Esc(s.Name) == res.playerName(res.loc(lang), game, s.Player, s.Name) {
			return name // recorded by its level's name, as records were before
		}
	}
	if name == "🤖 "+l.T("history.robot") {
		return "🤖 " + adapter.Esc(s.Name) // a level unknown: the robot's name says enough
	}
	return "🤖 " + adapter.Esc(s.Name) + " (" + strings.TrimPrefix(name, "🤖 ") + ")"
}

// gameOrder lists the games of a stats map: the bot's games in menu order,
// then any others (a game no longer offered) by id.
func (res *Results) gameOrder(stats map[string]store.PlayerStats) []string {
	var out, rest []string
	for _, g := range res.games {
		if _, ok := stats[g.ID()]; ok {
			out = append(out, g.ID())
		}
	}
	for id := range stats {
		if _, ok := res.games.Get(id); !ok {
			rest = append(rest, id)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// gameTitle is a game's name, or its id when the bot no longer offers it.
func (res *Results) gameTitle(l adapter.Loc, id string) string {
	if g, ok := res.games.Get(id); ok {
		return adapter.Title(l, g)
	}
	return adapter.Esc(id)
}

// scoreText is a recorded score of game id with the game's unit.
func (res *Results) scoreText(l adapter.Loc, id string, score int) string {
	if g, ok := res.games.Get(id); ok {
		return adapter.ScoreText(l, g, score)
	}
	return view.Integer(score)
}

// playerName shows a results player: a person by the name stored, a robot
// by its level, a forgotten person neutrally. HTML-escaped.
func (res *Results) playerName(l adapter.Loc, game, player, name string) string {
	if player == "" {
		return l.T("history.forgotten")
	}
	if level, ok := record.PlayerLevel(player); ok {
		label := l.T("history.robot") // a level the game no longer has
		if g, ok := res.games.Get(game); ok && l.Has(g.ID()+".level."+level) {
			label = view.LevelLabel(l, g, level)
		}
		return "🤖 " + label
	}
	return adapter.Esc(name)
}

// reviewed reports whether the bot reviews games of gameID («🔍 Разбор»).
func (res *Results) reviewed(gameID string) bool {
	g, ok := res.games.Get(gameID)
	return ok && adapter.Reviewable(g)
}
