// Package standings is the tables after a game: the results commands
// (results.go), the jobs a finished game or a results command leaves on
// its table (jobs.go), the games kept for their reviews and the presses of
// «🔍 Разбор» (reviews.go), a person forgotten (forget.go) and a group's
// upgrade that moves its tables and results (migrate.go).
package standings

import (
	"context"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/tables/lobby"
	"github.com/trickchef/trickchef/bot/tables/txn"
	"github.com/trickchef/trickchef/bot/view"
)

// Results is the tables' side of the results commands: /stats, /top,
// /season and /history in a group become the table's job (answered once
// every game before them is recorded, jobs.go); /stats and /season in
// private are answered at once.
type Results struct {
	views   *view.Renderer
	games   view.Games
	names   *lobby.Names
	results Stats
	tx      *txn.Txn
}

// Stats is what the results commands ask of the results role.
type Stats interface {
	// PrivateStats answers /stats in private.
	PrivateStats(ctx context.Context, l adapter.Loc, user int64, name string) (adapter.Message, error)
	// PrivateSeasons answers /season in private; group gives a group's
	// own table (nil when unknown).
	PrivateSeasons(ctx context.Context, l adapter.Loc, user int64, name string, group func(chat int64) *record.Table) (adapter.Message, error)
}

// NewResults builds the results commands.
func NewResults(views *view.Renderer, names *lobby.Names, res Stats, tx *txn.Txn) *Results {
	return &Results{views: views, games: views.Games(), names: names, results: res, tx: tx}
}

// GroupCommand is /stats, /top, /season, /history and /forgetme in a group.
func (sd *Results) GroupCommand(ctx context.Context, r txn.Request) func(t *record.Table, ch *txn.Change) error {
	return func(t *record.Table, ch *txn.Change) error {
		l := sd.views.Loc(t.Lang)
		name := r.Name
		if name == "stats" && r.Msg.SenderChat != nil {
			// Written in the group's (or a channel's) name: no person's
			// results to show, so the group's own list instead.
			name = "top"
		}
		q := &record.Query{Cmd: name, User: r.Msg.From.ID, Name: sd.names.Person(r.Msg.From)}
		switch name {
		case "forgetme":
			ch.PostGroup(t, adapter.Message{Text: l.T("forget.private_only"),
				Keyboard: [][]adapter.Button{{{Text: l.T("lobby.open_chat_button"), URL: sd.views.ChatLink()}}}})
			return nil
		case "top":
			q.Game = t.GameID
			if len(r.Args) > 0 {
				g, ok := sd.games.Find(strings.Join(r.Args, " "))
				if !ok {
					ch.PostGroup(t, adapter.Message{Text: l.T("top.unknown", "Games", sd.gameList(l, "/top"))})
					return nil
				}
				q.Game = g.ID()
			}
		case "season":
			switch arg := strings.ToLower(strings.Join(r.Args, " ")); {
			case arg == "history" || arg == "история":
				q.Cmd = "season_history"
			case arg != "":
				g, ok := sd.games.Find(arg)
				if !ok {
					ch.PostGroup(t, adapter.Message{Text: l.T("season.unknown", "Games", sd.gameList(l, "/season"))})
					return nil
				}
				q.Game = g.ID()
			}
		}
		t.Jobs = append(t.Jobs, record.Job{Query: q})
		return nil
	}
}

// gameList lists the games as commands: "/top chef — Меню шефа".
func (sd *Results) gameList(l adapter.Loc, command string) string {
	var names []string
	for _, g := range sd.games {
		names = append(names, "<code>"+command+" "+g.ID()+"</code> — "+adapter.Title(l, g))
	}
	return strings.Join(names, "\n")
}

// PrivateStats answers /stats in private: the user's results summed over
// every group they played in.
func (sd *Results) PrivateStats(ctx context.Context, r txn.Request, l adapter.Loc) error {
	msg, err := sd.results.PrivateStats(ctx, l, r.Msg.From.ID, sd.names.Person(r.Msg.From))
	if err != nil {
		return err
	}
	return sd.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, msg)
}

// PrivateSeason is /season in private: the person's seasons in every
// group.
func (sd *Results) PrivateSeason(ctx context.Context, r txn.Request, l adapter.Loc) error {
	group := func(chat int64) *record.Table {
		tab, _, err := sd.tx.Load(ctx, record.ID(chat, 0))
		if err != nil {
			return nil
		}
		return tab
	}
	msg, err := sd.results.PrivateSeasons(ctx, l, r.Msg.From.ID, sd.names.Person(r.Msg.From), group)
	if err != nil {
		return err
	}
	return sd.tx.Reply(ctx, r.UpdateID, r.Msg.Chat.ID, msg)
}
