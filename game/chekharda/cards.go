package chekharda

// Kind is one of the twelve set kinds. The zero value NoKind means "none"
// (for example in an Event that concerns no kind).
type Kind uint8

// NoKind is no kind at all.
const NoKind Kind = 0

// The twelve kinds, in the order the engine lists them everywhere (views,
// Legal, notation). The numbers are part of the action encoding and the
// state encoding: never reorder them.
const (
	Champion Kind = iota + 1 // «Эль Чемпионо»
	Tea                      // «Чай со слоном»
	Monkey                   // «Мартышка в бутылке» (Monkey in a Bottle)
	Pig                      // «Свинья на чердаке» (Pig in the Attic)
	FishMan                  // «Человек-рыба» (Fish Man)
	Monster                  // «Головастый монстр» (Head Monster)
	Block                    // «Вокруг квартала» (Around the Block)
	Solar                    // «Солнечная энергия» (Solar Power)
	Jump                     // «Время прыжков» (Jump Time)
	Robot                    // «Весёлый робот» (Happy Robot)
	Alien                    // «Не от мира сего» (Outta This World)
	Zone                     // «На волне» (In the Zone)
)

// Box contents.
const (
	// NumKinds is the number of kinds.
	NumKinds = 12
	// CopiesPerKind is how many cards of each kind the box holds.
	CopiesPerKind = 6
	// NumCards is the whole deck: 72 cards.
	NumCards = NumKinds * CopiesPerKind
)

// kindSlots sizes per-kind arrays indexed by Kind (slot 0, NoKind, is
// always zero), so that code never has to shift kinds by one.
const kindSlots = NumKinds + 1

// KindInfo is what a kind looks like. ID is stable lowercase ASCII: the
// bot keys its locale strings chekharda.kind.<ID>. Name is the Russian
// name (the text the bot's Russian locale shows). Emoji is one code point,
// no variation selector, so it renders on every phone. Letter is the
// notation letter.
type KindInfo struct {
	ID     string
	Name   string
	Emoji  string
	Letter byte
}

// kindTable is indexed by Kind; entry 0 describes NoKind.
var kindTable = [kindSlots]KindInfo{
	{ID: "", Name: "", Emoji: "", Letter: '-'},
	{ID: "champion", Name: "Эль Чемпионо", Emoji: "🏆", Letter: 'C'},
	{ID: "tea", Name: "Чай со слоном", Emoji: "🐘", Letter: 'T'},
	{ID: "monkey", Name: "Мартышка в бутылке", Emoji: "🐒", Letter: 'M'},
	{ID: "pig", Name: "Свинья на чердаке", Emoji: "🐷", Letter: 'P'},
	{ID: "fishman", Name: "Человек-рыба", Emoji: "🐟", Letter: 'F'},
	{ID: "monster", Name: "Головастый монстр", Emoji: "👹", Letter: 'H'},
	{ID: "block", Name: "Вокруг квартала", Emoji: "🚲", Letter: 'B'},
	{ID: "solar", Name: "Солнечная энергия", Emoji: "🌞", Letter: 'S'},
	{ID: "jump", Name: "Время прыжков", Emoji: "🐸", Letter: 'J'},
	{ID: "robot", Name: "Весёлый робот", Emoji: "🤖", Letter: 'R'},
	{ID: "alien", Name: "Не от мира сего", Emoji: "👽", Letter: 'A'},
	{ID: "zone", Name: "На волне", Emoji: "🏄", Letter: 'Z'},
}

// Kinds returns the twelve kinds in order (a new slice each time).
func Kinds() []Kind {
	out := make([]Kind, NumKinds)
	for i := range out {
		out[i] = Kind(i + 1)
	}
	return out
}

// Valid reports whether k is one of the twelve kinds.
func (k Kind) Valid() bool { return k >= Champion && k <= Zone }

// Info describes the kind; NoKind and invalid kinds get an empty KindInfo
// with Letter '-'.
func (k Kind) Info() KindInfo {
	if !k.Valid() {
		return kindTable[0]
	}
	return kindTable[k]
}

// ID is the stable ASCII id ("pig"), "" for an invalid kind.
func (k Kind) ID() string { return k.Info().ID }

// Name is the Russian name («Свинья на чердаке»).
func (k Kind) Name() string { return k.Info().Name }

// Emoji is the kind's emoji (🐷).
func (k Kind) Emoji() string { return k.Info().Emoji }

// String is the notation letter ("P"), "-" for an invalid kind.
func (k Kind) String() string { return string(k.Info().Letter) }

// KindByID finds a kind by its ASCII id.
func KindByID(id string) (Kind, bool) {
	for k := Champion; k <= Zone; k++ {
		if kindTable[k].ID == id {
			return k, true
		}
	}
	return NoKind, false
}
