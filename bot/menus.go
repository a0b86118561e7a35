package bot

import (
	"slices"
	"strings"

	"github.com/go-telegram/bot/models"
	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/record"
)

// Menus answer commands with buttons instead of text to copy: /help, the
// game pickers (/rules, an unknown /newgame word), /lang and the reply to
// /newgame while a lobby is open. Their lists of games come from the
// registered games: titles from the catalog, player counts from SeatRange.

// gamePlayers is how many play g: "3–4 игрока", or "2 игрока" for a fixed
// count.
func gamePlayers(l adapter.Loc, g adapter.Game) string {
	lo, hi := g.SeatRange()
	if lo == hi {
		return l.T("count.players", "Count", hi)
	}
	return l.T("games.players", "Min", lo, "Count", hi)
}

// gameLines lists the games, one line each with their player counts.
func (b *Bot) gameLines(l adapter.Loc) string {
	var lines []string
	for _, g := range b.games.games {
		lines = append(lines, l.T("games.line", "Game", adapter.Title(l, g), "Players", gamePlayers(l, g)))
	}
	return strings.Join(lines, "\n")
}

// playButton opens a lobby of g in the group of tableID.
func playButton(l adapter.Loc, tableID string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: l.T("games.play_button", "Game", adapter.Title(l, g)), Data: callback.Data{Op: 'o', Table: tableID, Word: g.ID()}.String()}
}

// rulesButton turns the message it sits on into the first page of g's
// guide.
func rulesButton(text, tableID string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: text, Data: callback.Data{Op: 'r', Table: tableID, Word: g.ID(), Args: []int{0}}.String()}
}

// rulesLink opens the private chat with g's rules: in a group, reading
// them disturbs nobody's messages and costs the group nothing.
func (b *Bot) rulesLink(text string, g adapter.Game) adapter.Button {
	return adapter.Button{Text: text, URL: b.deepLink(rulesPrefix + g.ID())}
}

// helpMessage is /help: in a group each game's row starts it or links to
// its rules in private; in private, where no game is played, the rules and
// a button that adds the bot to a group.
func (b *Bot) helpMessage(l adapter.Loc, tableID string, group bool) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range b.games.games {
		if group {
			kb = append(kb, []adapter.Button{playButton(l, tableID, g), b.rulesLink(l.T("games.rules_short"), g)})
		} else {
			kb = append(kb, []adapter.Button{rulesButton(l.T("games.rules_button", "Game", adapter.Title(l, g)), tableID, g), practiceButton(l, tableID, g)})
		}
	}
	if group {
		return adapter.Message{Text: l.T("help.group", "Games", b.gameLines(l)), Keyboard: kb}
	}
	kb = append(kb, []adapter.Button{{Text: l.T("help.add_button"), URL: "https://t.me/" + b.cfg.Username + "?startgroup=1"}})
	return adapter.Message{Text: l.T("help.private", "Games", b.gameLines(l)), Keyboard: kb}
}

// rulesPicker asks which game's rules to show.
func (b *Bot) rulesPicker(l adapter.Loc, tableID string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range b.games.games {
		kb = append(kb, []adapter.Button{rulesButton(l.T("games.rules_button", "Game", adapter.Title(l, g)), tableID, g)})
	}
	return adapter.Message{Text: l.T("rules.choose", "Games", b.gameLines(l)), Keyboard: kb}
}

// newGamePicker answers /newgame with a word naming no game: the games,
// each a button that opens its lobby.
func (b *Bot) newGamePicker(l adapter.Loc, tableID string) adapter.Message {
	var kb [][]adapter.Button
	for _, g := range b.games.games {
		kb = append(kb, []adapter.Button{playButton(l, tableID, g)})
	}
	return adapter.Message{Text: l.T("newgame.unknown", "Games", b.gameLines(l)), Keyboard: kb}
}

// lobbyOpenReply answers /newgame while a lobby is open: what is open, a
// button to join it, and, when the command named another game, a button
// that lets the creator switch the lobby to it; a word naming no game
// (unknown) is said to be unknown. The open lobby is not posted again, so
// no older copy of it is left behind. The text stays true once the game is
// chosen.
func (b *Bot) lobbyOpenReply(l adapter.Loc, t *record.Table, wanted adapter.Game, unknown string) adapter.Message {
	text := l.T("newgame.lobby_open_choosing")
	if g, ok := b.games.get(t.GameID); ok {
		text = l.T("newgame.lobby_open", "Game", adapter.Title(l, g))
	}
	if unknown != "" {
		text = l.T("newgame.unknown_word", "Word", adapter.Esc(unknown)) + "\n" + text
	}
	kb := [][]adapter.Button{{{Text: l.T("lobby.join_button"), Data: callback.Data{Op: 'l', Table: t.ID, GameNo: t.GameNo, Args: []int{lobbyJoin}}.String()}}}
	if wanted != nil && wanted.ID() != t.GameID {
		hint, button := "newgame.switch_hint", "newgame.switch_button"
		if t.GameID == "" {
			hint, button = "newgame.choose_hint", "newgame.choose_button"
		}
		text += "\n" + l.T(hint, "Game", adapter.Title(l, wanted))
		kb = append(kb, []adapter.Button{{Text: l.T(button, "Game", adapter.Title(l, wanted)),
			Data: callback.Data{Op: 'k', Table: t.ID, GameNo: t.GameNo, Word: wanted.ID()}.String()}})
	}
	return adapter.Message{Text: text, Keyboard: kb}
}

// langChoice offers the catalog's languages, each named in itself.
func (b *Bot) langChoice(l adapter.Loc, tableID string) adapter.Message {
	var row []adapter.Button
	for _, lang := range b.tr.Langs() {
		row = append(row, adapter.Button{Text: b.loc(lang).T("lang.name"), Data: callback.Data{Op: 'g', Table: tableID, Word: lang}.String()})
	}
	return adapter.Message{Text: l.T("lang.choose"), Keyboard: [][]adapter.Button{row}}
}

// mayChangeLang says who may change a group's language: its admins and
// the creator of its table.
func mayChangeLang(t *record.Table, user int64, admin bool) bool {
	return admin || (t.Creator != 0 && t.Creator == user)
}

// langRefusal is who may change the language, as the refusal says it: a
// group that never had a table has no creator to name.
func langRefusal(t *record.Table) string {
	if t.Creator == 0 {
		return "lang.not_allowed_admin"
	}
	return "lang.not_allowed"
}

// greeting answers /start in private when there is nothing else to say:
// what the bot is, with the button that adds it to a group.
func (b *Bot) greeting(l adapter.Loc) adapter.Message {
	return adapter.Message{Text: l.T("start.greeting"), Keyboard: [][]adapter.Button{{{Text: l.T("help.add_button"), URL: "https://t.me/" + b.cfg.Username + "?startgroup=1"}}}}
}

// onLang sets the group's language from the /lang choice. It runs inside
// transact's closure.
func (b *Bot) onLang(t *record.Table, ch *change, p callback.Data, who int64, admin bool) error {
	if !slices.Contains(b.tr.Langs(), p.Word) {
		return refuse("error.bad_button")
	}
	if !mayChangeLang(t, who, admin) {
		return refuse(langRefusal(t))
	}
	if t.Lang == p.Word {
		return refuse("lang.set") // nothing to change: says the language it is
	}
	t.Lang = p.Word
	ch.answer = b.loc(t.Lang).T("lang.set")
	return nil
}

// onOpen opens a lobby of the game a /help or picker button names, as
// /newgame <game> would; the answer is a toast. It runs inside transact's
// closure, so it only reads the store.
func (b *Bot) onOpen(t *record.Table, ch *change, p callback.Data, who *models.User, started bool) error {
	g, ok := b.games.get(p.Word)
	if !ok {
		return refuse("error.bad_button")
	}
	l := b.loc(t.Lang)
	switch t.Phase {
	case record.PhasePlaying:
		return refuse("newgame.running")
	case record.PhaseLobby:
		if open, ok := b.games.get(t.GameID); ok {
			return refuse("newgame.lobby_open_toast", "Game", adapter.Title(l, open))
		}
		if who.ID != t.Creator {
			return refuse("newgame.choosing_toast")
		}
		return b.onChooseGame(t, ch, callback.Data{Op: 'k', Table: t.ID, GameNo: t.GameNo, Word: g.ID()}, who.ID)
	}
	openLobby(t, g.ID(), record.Seat{UserID: who.ID, Name: userName(who), Unreachable: !started})
	if t.Practice() {
		b.openPractice(t, who)
		ch.answer = l.T("practice.opened")
		return nil
	}
	if !started {
		ch.seated = append(ch.seated, who.ID) // their /start finds this table
	}
	ch.answer = l.T("lobby.joined")
	return nil
}
