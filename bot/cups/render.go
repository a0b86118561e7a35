package cups

import (
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/callback"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/record"
	"github.com/trickchef/trickchef/bot/view"
)

// button is the data of one of the host's cup buttons.
func button(host *record.Table, op int) string {
	return callback.Data{Op: callback.Cup, Table: host.ID, GameNo: host.GameNo, Args: []int{op}}.String()
}

func (e Env) title(l adapter.Loc, s *State) string {
	if g, ok := e.Games.Get(s.Game); ok {
		return adapter.Title(l, g)
	}
	return s.Game
}

// Render is the cup's message: its lobby, its round in play with the
// standings, or how it ended.
func (e Env) Render(host *record.Table, s *State) adapter.Message {
	l := e.Loc(host.Lang)
	game := e.title(l, s)
	var b strings.Builder
	switch s.Phase {
	case Gathering:
		b.WriteString(l.T("cup.lobby_title", "Game", game, "Rounds", l.T("count.rounds", "Count", s.Rounds)))
		b.WriteString("\n")
		if g, ok := e.Games.Get(s.Game); ok {
			line := l.T("cup.lobby_robots", "Level", e.level(l, g, s.Level))
			if view.HasTurnTime(g) {
				line = l.T("cup.lobby_turn", "Time", view.TurnTimeText(l, s.TurnTime)) + " · " + line
			}
			b.WriteString(line + "\n")
		}
		var names []string
		for _, p := range s.People {
			names = append(names, adapter.Esc(p.Name))
		}
		if len(names) == 0 {
			b.WriteString(l.T("cup.lobby_nobody"))
		} else {
			b.WriteString(l.T("cup.lobby_people", "Count", len(names), "Names", strings.Join(names, ", ")))
		}
		b.WriteString("\n\n" + l.T("cup.lobby_note", "Min", cup.MinPeople, "Max", cup.MaxPeople))
		m := adapter.Message{Text: b.String(), Keyboard: [][]adapter.Button{
			{{Text: l.T("cup.join_button"), Data: button(host, Join)}, {Text: l.T("cup.unjoin_button"), Data: button(host, Unjoin)}},
		}}
		var settings []adapter.Button
		if g, ok := e.Games.Get(s.Game); ok {
			if view.HasTurnTime(g) {
				settings = append(settings, adapter.Button{Text: l.T("cup.turn_button", "Time", view.TurnTimeText(l, s.TurnTime)), Data: button(host, Turn)})
			}
			if len(adapter.Levels(g)) > 0 {
				settings = append(settings, adapter.Button{Text: l.T("cup.level_button", "Level", e.level(l, g, s.Level)), Data: button(host, Level)})
			}
		}
		if len(settings) > 0 {
			m.Keyboard = append(m.Keyboard, settings)
		}
		m.Keyboard = append(m.Keyboard, []adapter.Button{{Text: l.T("cup.start_button"), Data: button(host, Start)}, {Text: l.T("cup.cancel_button"), Data: button(host, Cancel)}})
		return m
	case Playing:
		r, _ := s.Cup.Current()
		b.WriteString(l.T("cup.round_title", "Game", game, "Round", r.No, "Rounds", s.Cup.Rounds()))
		b.WriteString("\n\n" + e.tables(l, s, r))
		b.WriteString("\n\n" + e.standings(l, s, false))
		return adapter.Message{Text: b.String(), Keyboard: [][]adapter.Button{{{Text: l.T("cup.quit_button"), Data: button(host, Quit)}}}}
	case Over:
		b.WriteString(l.T("cup.over_title", "Game", game, "Rounds", l.T("count.rounds", "Count", len(s.Cup.Played))))
		b.WriteString("\n\n" + e.standings(l, s, true))
		return adapter.Message{Text: b.String()}
	}
	text := l.T("cup.cancelled")
	if s.Cup != nil {
		text = l.T("cup.stopped_title", "Game", game) + "\n\n" + e.standings(l, s, false)
	}
	return adapter.Message{Text: text}
}

func (e Env) level(l adapter.Loc, g adapter.Game, level string) string {
	if level == "" || len(adapter.Levels(g)) == 0 {
		return ""
	}
	return view.LevelLabel(l, g, level)
}

// tables are the round's tables, a line each: its number, who sits there,
// and its places once it ended.
func (e Env) tables(l adapter.Loc, s *State, r cup.Round) string {
	var lines []string
	for i, t := range r.Tables {
		var names []string
		for j, id := range t.Seats {
			name := l.T("cup.robot")
			if id != cup.Robot {
				name = adapter.Esc(e.name(s, UserOf(id)))
			}
			if t.Places != nil {
				name = strconv.Itoa(t.Places[j].Place) + ". " + name
			}
			names = append(names, name)
		}
		no := i + 1
		if i < len(s.Tables) {
			no = record.TableNo(s.Tables[i])
		}
		key := "cup.table_playing"
		if t.Places != nil {
			key = "cup.table_over"
		}
		lines = append(lines, l.T(key, "N", no, "Names", strings.Join(names, ", ")))
	}
	if r.Bye != "" {
		lines = append(lines, l.T("cup.bye", "Name", adapter.Esc(e.name(s, UserOf(r.Bye)))))
	}
	return strings.Join(lines, "\n")
}

// standings are the cup's lines, best first: place, name, cup points (a
// person who left marked so); the winners carry 🏆 once the cup is over.
func (e Env) standings(l adapter.Loc, s *State, over bool) string {
	lines := []string{l.T("cup.standings_title")}
	for _, st := range s.Cup.Standings() {
		name := adapter.Esc(st.Person.Name)
		if over && st.Place == 1 && st.Games > 0 {
			name = l.T("cup.winner_mark", "Name", name)
		}
		line := l.T("cup.standing_line", "Place", st.Place, "Name", name, "Points", points(l, st.Points))
		if st.Left {
			line += " " + l.T("cup.left_mark")
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// points is a number of cup points, with at most one decimal.
func points(l adapter.Loc, x float64) string {
	s := strconv.FormatFloat(float64(int(x*10+0.5))/10, 'f', -1, 64)
	return l.T("cup.points", "Points", strings.ReplaceAll(s, ".", l.T("cup.decimal_point")))
}

// roundPost tells the group a round began: it pings, where the cup's
// message is only edited.
func (e Env) roundPost(host *record.Table, s *State) adapter.Message {
	l := e.Loc(host.Lang)
	r, _ := s.Cup.Current()
	var nos []string
	for _, id := range s.Tables {
		nos = append(nos, strconv.Itoa(record.TableNo(id)))
	}
	return adapter.Message{Text: l.T("cup.round_started", "Round", r.No, "Rounds", s.Cup.Rounds(), "Game", e.title(l, s), "Tables", strings.Join(nos, ", "))}
}

// History is /cup history: the group's cups, newest first.
func (e Env) History(host *record.Table) adapter.Message {
	l := e.Loc(host.Lang)
	s, err := e.state(host)
	if err != nil || len(s.History) == 0 {
		return adapter.Message{Text: l.T("cup.history_none")}
	}
	lines := []string{l.T("cup.history_title")}
	for _, p := range s.History {
		title := p.Game
		if g, ok := e.Games.Get(p.Game); ok {
			title = adapter.Title(l, g)
		}
		var names []string
		for _, n := range p.Winners {
			names = append(names, adapter.Esc(n))
		}
		key := "cup.history_line"
		if p.Stopped || len(names) == 0 {
			key = "cup.history_stopped"
		}
		lines = append(lines, l.T(key, "Date", p.Ended.In(host.Location()).Format("02.01.2006"), "Game", title,
			"People", l.T("count.players", "Count", p.People), "Rounds", l.T("count.rounds", "Count", p.Rounds), "Names", joinNames(l, names)))
	}
	return adapter.Message{Text: strings.Join(lines, "\n")}
}

// joinNames joins names: «Оля, Петя и Маша».
func joinNames(l adapter.Loc, names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return l.T("cup.and", "First", strings.Join(names[:len(names)-1], ", "), "Last", names[len(names)-1])
}
