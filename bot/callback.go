package bot

import (
	"fmt"
	"strconv"
	"strings"
)

// A callback payload is what an inline button sends back. It is ASCII and
// at most 64 bytes (Telegram's limit): an op, the table, the game number
// and op-specific integers, separated by ':'.
//
//	a:<table>:<game>:<seat>:<nonce>:<action>   play an engine action
//	m:<table>:<game>:<seat>:<nonce>:<mod>      choose a modifier for the next action (coins)
//	i:<table>:<game>:<seat>                    show my private info (won cards)
//	b:<table>:<game>:<seat>                    I'm back: stop playing for me
//	l:<table>:<game>:<op>[:<arg>]              lobby buttons
//	s:<table>:<game>:<yes 1 | no 0>            confirm /stop
type payload struct {
	Op    byte
	Table string
	Game  int
	Args  []int
}

const maxCallbackBytes = 64

// Lobby button ops (payload.Args[0] of an 'l' payload).
const (
	lobbyJoin = iota + 1
	lobbyLeave
	lobbyAddAI
	lobbyStart
	lobbyCancel
	lobbyOption
	lobbyKind
	lobbyKick  // remove the last robot
	lobbyLevel // cycle the level of the next robot
)

// argCount is how many integers each op carries after the game number.
func argCount(op byte) (min, max int, ok bool) {
	switch op {
	case 'a', 'm':
		return 3, 3, true
	case 'i', 's', 'b':
		return 1, 1, true
	case 'l':
		return 1, 2, true
	}
	return 0, 0, false
}

func (p payload) String() string {
	var b strings.Builder
	b.WriteByte(p.Op)
	b.WriteByte(':')
	b.WriteString(p.Table)
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(p.Game))
	for _, a := range p.Args {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(a))
	}
	return b.String()
}

// parsePayload accepts exactly what String produces; anything else is an
// error, so a forged or truncated payload never reaches a table.
func parsePayload(s string) (payload, error) {
	var p payload
	if len(s) == 0 || len(s) > maxCallbackBytes {
		return p, fmt.Errorf("payload length %d", len(s))
	}
	parts := strings.Split(s, ":")
	if len(parts) < 3 || len(parts[0]) != 1 {
		return p, fmt.Errorf("malformed payload %q", s)
	}
	p.Op = parts[0][0]
	lo, hi, ok := argCount(p.Op)
	if !ok {
		return p, fmt.Errorf("unknown op %q", s)
	}
	if _, _, err := parseTableID(parts[1]); err != nil {
		return p, err
	}
	p.Table = parts[1]
	g, err := strconv.Atoi(parts[2])
	if err != nil || g < 0 || strconv.Itoa(g) != parts[2] {
		return p, fmt.Errorf("bad game number in %q", s)
	}
	p.Game = g
	args := parts[3:]
	if len(args) < lo || len(args) > hi {
		return p, fmt.Errorf("wrong argument count in %q", s)
	}
	for _, a := range args {
		v, err := strconv.Atoi(a)
		if err != nil || strconv.Itoa(v) != a {
			return p, fmt.Errorf("bad argument in %q", s)
		}
		p.Args = append(p.Args, v)
	}
	return p, nil
}
