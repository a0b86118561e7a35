package web

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/trickchef/trickchef/bot/adapter"
	"github.com/trickchef/trickchef/bot/cup"
	"github.com/trickchef/trickchef/bot/cups"
	"github.com/trickchef/trickchef/bot/record"
)

// The cup on the «Стол» page (docs/web.md «Кубок»): the round in play,
// its tables, each linked to its own page, and the standings. It is read
// from the group's cup host (record.CupHost) by way of any table of the
// group, with the same question of who may look as a table's: the viewer
// must be in the group.

// ErrNoCup is a table whose group has no cup to show: none running, and
// the table is neither the host nor a table of the last cup.
var ErrNoCup = errors.New("web: no cup")

// Cup is a group's cup as the page shows it.
type Cup struct {
	// Table is the token the page asked with.
	Table string `json:"table"`
	Lang  string `json:"lang"`
	// Title is the cup's headline («Кубок: «Трик-н-Шеф»»), Chat the
	// group's title.
	Title string `json:"title"`
	Chat  string `json:"chat,omitempty"`
	// Phase is the cup's: "playing", "over" or "stopped".
	Phase string `json:"phase"`
	// Round is «Раунд кубка 2 из 3»; Note says how it ended, when it did.
	Round string `json:"round"`
	Note  string `json:"note,omitempty"`
	// Tables are the round's, by number.
	Tables []CupTable `json:"tables"`
	// Bye is who sits the round out, said in a line; "" when nobody.
	Bye       string        `json:"bye,omitempty"`
	Standings []CupStanding `json:"standings"`
	// Texts are the page's words, as in State.
	Texts map[string]string `json:"texts,omitempty"`
}

// CupTable is one table of the cup's round.
type CupTable struct {
	// Name is «Стол 5»; Token opens its page ("" when it has none yet).
	Name  string `json:"name"`
	Token string `json:"token,omitempty"`
	// Playing is true until its game ended (or its cup stopped); Seats
	// carry places once it ended.
	Playing bool      `json:"playing"`
	Seats   []CupSeat `json:"seats"`
	// Here marks the table the page was opened at; You one the viewer
	// sits at.
	Here bool `json:"here,omitempty"`
	You  bool `json:"you,omitempty"`
}

// CupSeat is a seat at a cup's table.
type CupSeat struct {
	Name  string `json:"name"`
	Robot bool   `json:"robot,omitempty"`
	You   bool   `json:"you,omitempty"`
	// Place is the seat's place once the table's game ended, else 0.
	Place int `json:"place,omitempty"`
}

// CupStanding is one line of the cup's standings.
type CupStanding struct {
	Place  int    `json:"place"`
	Name   string `json:"name"`
	Points string `json:"points"` // cup points, at most one decimal
	Games  int    `json:"games"`
	Left   bool   `json:"left,omitempty"`
	Winner bool   `json:"winner,omitempty"`
	You    bool   `json:"you,omitempty"`
}

// Cup is the cup of the group of the table token names, as user may see
// it: ErrNotFound when the token names no table they may see, ErrNoCup
// when its group has no cup to show. It changes nothing.
func (w *Web) Cup(ctx context.Context, token string, user int64) (Cup, error) {
	t, _, err := w.webLoad(ctx, token, user)
	if err != nil {
		return Cup{}, err
	}
	hostID := record.Sibling(t.ID, record.CupHost)
	if t.CupOf != nil {
		hostID = t.CupOf.Host
	}
	if hostID == "" {
		return Cup{}, ErrNoCup
	}
	host := t
	if hostID != t.ID {
		h, version, err := w.tables.Load(ctx, hostID)
		if err != nil {
			return Cup{}, err
		}
		if version == 0 || h.ChatID != t.ChatID {
			return Cup{}, ErrNoCup
		}
		host = h
	}
	s, err := cups.Decode(host.Cup)
	if err != nil || s.Cup == nil {
		return Cup{}, ErrNoCup // none, a lobby, or one the tables will fence
	}
	ours := host == t || t.CupOf != nil && t.CupOf.Cup == s.No
	if s.Phase != cups.Playing && !ours {
		return Cup{}, ErrNoCup // an ended cup shows only from its own tables
	}
	return w.cupOf(ctx, t, host, s, user)
}

// cupOf draws cup s of host for user, opened at table t.
func (w *Web) cupOf(ctx context.Context, t, host *record.Table, s *cups.State, user int64) (Cup, error) {
	l := w.loc(host.Lang)
	game := s.Game
	if g, ok := w.games.Get(s.Game); ok {
		game = adapter.Title(l, g)
	}
	c := Cup{Table: t.Token, Lang: host.Lang, Chat: host.Title, Phase: string(s.Phase),
		Title: l.T("web.cup_title", "Game", game)}
	if c.Chat == "" {
		c.Chat = t.Title
	}
	name := func(id string) string {
		u := cups.UserOf(id)
		for _, p := range s.People {
			if p.User == u {
				return p.Name
			}
		}
		return ""
	}
	me := cups.PersonID(user)
	r, ok := s.Cup.Current()
	if ok {
		c.Round = l.T("web.cup_round", "Round", r.No, "Rounds", s.Cup.Rounds())
	}
	switch s.Phase {
	case cups.Over:
		c.Note = l.T("web.cup_over")
	case cups.Stopped:
		c.Note = l.T("web.cup_stopped")
	}
	for i, rt := range r.Tables {
		// A table of a stopped cup never ends its game: it plays no more.
		ct := CupTable{Playing: rt.Places == nil && s.Phase == cups.Playing, Name: l.T("web.cup_table", "N", i+1)}
		if i < len(s.Tables) {
			id := s.Tables[i]
			ct.Name = l.T("web.cup_table", "N", record.TableNo(id))
			ct.Here = id == t.ID
			tab, version, err := w.tables.Load(ctx, id)
			if err != nil {
				return Cup{}, err
			}
			if version > 0 && tab.CupOf != nil && tab.CupOf.Host == host.ID {
				ct.Token = tab.Token
			}
		}
		for j, id := range rt.Seats {
			seat := CupSeat{Robot: id == cup.Robot, You: id == me}
			if seat.Robot {
				seat.Name = adapter.PlainText(l.T("cup.robot"))
			} else {
				seat.Name = name(id)
			}
			if rt.Places != nil && j < len(rt.Places) {
				seat.Place = rt.Places[j].Place
			}
			ct.You = ct.You || seat.You
			ct.Seats = append(ct.Seats, seat)
		}
		c.Tables = append(c.Tables, ct)
	}
	if ok && r.Bye != "" {
		c.Bye = adapter.PlainText(l.T("cup.bye", "Name", adapter.Esc(name(r.Bye))))
	}
	over := s.Phase == cups.Over
	for _, st := range s.Cup.Standings() {
		c.Standings = append(c.Standings, CupStanding{Place: st.Place, Name: st.Person.Name,
			Points: cupPoints(l, st.Points), Games: st.Games, Left: st.Left,
			Winner: over && st.Place == 1 && st.Games > 0, You: st.Person.ID == me})
	}
	c.Tables = slices.Clip(c.Tables)
	return c, nil
}

// cupPoints is a number of cup points with at most one decimal, written
// as the cup's message writes it.
func cupPoints(l adapter.Loc, x float64) string {
	s := strconv.FormatFloat(float64(int(x*10+0.5))/10, 'f', -1, 64)
	return strings.ReplaceAll(s, ".", l.T("cup.decimal_point"))
}
