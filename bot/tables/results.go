package tables

import (
	"context"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/outbox"
	"github.com/trickchef/trickchef/bot/record"
)

// standing is the tables' side of the results commands: /stats, /top and
// /history in a group become the table's job (answered once every game
// before them is recorded), /stats in private is answered at once, and
// /forgetme asks, then forgets.
type standing struct {
	*core
	moves   *moves
	leaving *leaving
}

// forgetWindow is how long a /forgetme confirmation button stays valid.
const forgetWindow = 10 * time.Minute

// groupCommand is /stats, /top, /season, /history and /forgetme in a group.
func (sd *standing) groupCommand(ctx context.Context, r request) func(t *record.Table, ch *change) error {
	return func(t *record.Table, ch *change) error {
		l := sd.loc(t.Lang)
		name := r.name
		if name == "stats" && r.msg.SenderChat != nil {
			// Written in the group's (or a channel's) name: no person's
			// results to show, so the group's own list instead.
			name = "top"
		}
		q := &record.Query{Cmd: name, User: r.msg.From.ID, Name: sd.names.person(r.msg.From)}
		switch name {
		case "forgetme":
			ch.postGroup(t, adapter.Message{Text: l.T("forget.private_only"),
				Keyboard: [][]adapter.Button{{{Text: l.T("lobby.open_chat_button"), URL: sd.views.ChatLink()}}}})
			return nil
		case "top":
			q.Game = t.GameID
			if len(r.args) > 0 {
				g, ok := sd.games.Find(strings.Join(r.args, " "))
				if !ok {
					ch.postGroup(t, adapter.Message{Text: l.T("top.unknown", "Games", sd.gameList(l, "/top"))})
					return nil
				}
				q.Game = g.ID()
			}
		case "season":
			switch arg := strings.ToLower(strings.Join(r.args, " ")); {
			case arg == "history" || arg == "история":
				q.Cmd = "season_history"
			case arg != "":
				g, ok := sd.games.Find(arg)
				if !ok {
					ch.postGroup(t, adapter.Message{Text: l.T("season.unknown", "Games", sd.gameList(l, "/season"))})
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
func (sd *standing) gameList(l adapter.Loc, command string) string {
	var names []string
	for _, g := range sd.games {
		names = append(names, "<code>"+command+" "+g.ID()+"</code> — "+adapter.Title(l, g))
	}
	return strings.Join(names, "\n")
}

// privateStats answers /stats in private: the user's results summed over
// every group they played in.
func (sd *standing) privateStats(ctx context.Context, r request, l adapter.Loc) error {
	msg, err := sd.results.PrivateStats(ctx, l, r.msg.From.ID, sd.names.person(r.msg.From))
	if err != nil {
		return err
	}
	return sd.reply(ctx, r.updateID, r.msg.Chat.ID, msg)
}

// askForget asks for a confirmation of /forgetme. The buttons carry the
// asker and the time of the question, so only they can confirm, and only
// for a while.
func (sd *standing) askForget(ctx context.Context, r request, l adapter.Loc) error {
	return sd.reply(ctx, r.updateID, r.msg.Chat.ID, sd.forgetQuestion(l, r.msg.Chat.ID))
}

// forgetQuestion is /forgetme's question in user's private chat: what
// forgetting deletes and what it leaves to the others, and the two
// buttons.
func (sd *standing) forgetQuestion(l adapter.Loc, user int64) adapter.Message {
	btn := func(text string, yes int) adapter.Button {
		return adapter.Button{Text: text, Data: callback.Data{Op: callback.Forget, Table: record.ID(user, 0), GameNo: int(sd.now().Unix()), Args: []int{yes}}.String()}
	}
	return adapter.Message{Text: l.T("forget.confirm"), Keyboard: [][]adapter.Button{{
		btn(l.T("forget.yes"), 1), btn(l.T("forget.no"), 0),
	}}}
}

// onForget handles the /forgetme confirmation: the person is forgotten
// everywhere (forget.go), and the question is replaced by the outcome so
// its buttons are gone. Forgetting twice is harmless.
func (sd *standing) onForget(ctx context.Context, updateID int64, q *models.CallbackQuery, p callback.Data) error {
	l := sd.loc(sd.userLang(&q.From))
	user, _, _ := record.ParseID(p.Table) // callback.Parse checked it
	asked := time.Unix(int64(p.GameNo), 0)
	switch {
	case user != q.From.ID:
		sd.answer(ctx, q, l.T("error.not_yours"), false, "")
		return nil
	case p.Args[0] != 0 && p.Args[0] != 1:
		sd.answer(ctx, q, l.T("error.bad_button"), false, "")
		return nil
	case sd.now().Sub(asked) > forgetWindow || asked.After(sd.now().Add(time.Minute)):
		sd.answer(ctx, q, l.T("error.stale"), false, "")
		return nil
	}
	text := l.T("forget.kept")
	if p.Args[0] == 1 {
		if err := sd.forget(ctx, user); err != nil {
			return err // not answered: the redelivered press tries again
		}
		text = l.T("forget.done")
	}
	sd.answer(ctx, q, "", false, "")
	// The question turns into its outcome; sent anew when Telegram sent
	// the press without its message (too old).
	out := outbox.Entry{ChatID: user, Message: adapter.Message{Text: text}, Reply: true}
	if msg := q.Message.Message; msg != nil {
		out.Edit = msg.ID
	}
	return sd.queue(ctx, record.ID(user, 0), updateID, out)
}
