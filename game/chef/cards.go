package chef

// Card is the face of one card. Dishes are Starter..Drink, one per colour;
// the action cards follow. The zero value NoCard means "none".
type Card uint8

const (
	NoCard  Card = iota
	Starter      // orange frame
	Sauce        // red frame
	Main         // purple frame
	Side         // green frame
	Dessert      // blue frame
	Drink        // brown frame
	// Hangover («Похмелье»): the next player loses two dishes of the
	// player's choosing and skips a turn.
	Hangover
	// Diet («Диета»): the next player loses one dish and skips a turn.
	Diet
	// EmptyPlate («Пустая тарелка»): the next player skips a turn.
	EmptyPlate
	// BlankMenu («Пустое меню»): the direction of play reverses.
	BlankMenu
	// ChefCard («Шеф»): take one dish from the next player (no skip).
	ChefCard
	// Addition («Счёт»): wins for a seat whose complete menu was announced.
	Addition
)

// NumKinds sizes arrays indexed by Card (index 0, NoCard, is unused).
const NumKinds = int(Addition) + 1

// NumColours is the number of dish colours, and so the size of a menu.
const NumColours = 6

// Box contents.
const (
	// DishesPerColour is the number of dishes of each colour.
	DishesPerColour = 10
	// PenaltiesPerKind is the number of each penalty card (Hangover, Diet,
	// EmptyPlate, BlankMenu).
	PenaltiesPerKind = 5
	// ChefCards and Additions are the numbers of those cards.
	ChefCards = 10
	Additions = 10
	// DeckSize is the number of cards in the box.
	DeckSize = NumColours*DishesPerColour + 4*PenaltiesPerKind + ChefCards + Additions
)

// BoxCount returns how many cards of kind c the box holds.
func BoxCount(c Card) int {
	switch {
	case c.IsDish():
		return DishesPerColour
	case c >= Hangover && c <= BlankMenu:
		return PenaltiesPerKind
	case c == ChefCard:
		return ChefCards
	case c == Addition:
		return Additions
	}
	return 0
}

// IsDish reports whether c is a dish (Starter..Drink).
func (c Card) IsDish() bool { return c >= Starter && c <= Drink }

// IsAction reports whether c is an action card that can lie in front of a
// player and be played: Hangover, Diet, EmptyPlate, BlankMenu or ChefCard.
// (The Addition is never kept: it wins or goes straight to the discard.)
func (c Card) IsAction() bool { return c >= Hangover && c <= ChefCard }

// Valid reports whether c is a real card.
func (c Card) Valid() bool { return c >= Starter && c <= Addition }

// Dish returns the dish of colour index i (0..5), NoCard if out of range.
func Dish(i int) Card {
	if i < 0 || i >= NumColours {
		return NoCard
	}
	return Starter + Card(i)
}

// letters is the notation: lower case for dishes (by frame colour), upper
// case for the other cards.
const letters = "-orpgbnHDEMCA"

// String returns the card's notation letter: o r p g b n for the orange,
// red, purple, green, blue and brown dishes; H (Hangover), D (Diet),
// E (EmptyPlate), M (BlankMenu), C (ChefCard), A (Addition); "-" for NoCard.
func (c Card) String() string {
	if int(c) >= len(letters) {
		return "?"
	}
	return letters[c : c+1]
}

// Key is a stable lower-case name for locale keys and logs: "starter",
// "sauce", "main", "side", "dessert", "drink", "hangover", "diet",
// "empty_plate", "blank_menu", "chef", "addition"; "" for NoCard.
func (c Card) Key() string {
	switch c {
	case Starter:
		return "starter"
	case Sauce:
		return "sauce"
	case Main:
		return "main"
	case Side:
		return "side"
	case Dessert:
		return "dessert"
	case Drink:
		return "drink"
	case Hangover:
		return "hangover"
	case Diet:
		return "diet"
	case EmptyPlate:
		return "empty_plate"
	case BlankMenu:
		return "blank_menu"
	case ChefCard:
		return "chef"
	case Addition:
		return "addition"
	}
	return ""
}

// Colour is a dish's frame colour: "orange", "red", "purple", "green",
// "blue", "brown"; "" for other cards.
func (c Card) Colour() string {
	switch c {
	case Starter:
		return "orange"
	case Sauce:
		return "red"
	case Main:
		return "purple"
	case Side:
		return "green"
	case Dessert:
		return "blue"
	case Drink:
		return "brown"
	}
	return ""
}

func parseCard(b byte) (Card, bool) {
	for i := 1; i < len(letters); i++ {
		if letters[i] == b {
			return Card(i), true
		}
	}
	return NoCard, false
}
