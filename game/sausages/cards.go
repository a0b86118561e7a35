package sausages

// Card is the face of one card: a sausage (Skull's rose) or the boot
// (Skull's skull). The zero value NoCard means "none" or "unknown".
type Card uint8

const (
	NoCard Card = iota
	Sausage
	Boot
)

// Box contents, per player and in total.
const (
	// MaxPlayers is the number of boards in the box.
	MaxPlayers = 6
	// CardsPerPlayer is what every player starts with: 3 sausages, 1 boot.
	CardsPerPlayer = 4
	// SausagesPerPlayer is the number of sausages among them.
	SausagesPerPlayer = CardsPerPlayer - 1
	// MaxCards is the number of cards in the box (18 sausages, 6 boots),
	// and so the highest possible bid.
	MaxCards = MaxPlayers * CardsPerPlayer
)

// String returns the one-letter notation: "S", "B", or "-" for NoCard.
func (c Card) String() string {
	switch c {
	case Sausage:
		return "S"
	case Boot:
		return "B"
	}
	return "-"
}

// Valid reports whether c is a sausage or a boot.
func (c Card) Valid() bool { return c == Sausage || c == Boot }
