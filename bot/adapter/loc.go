package adapter

// Translator renders a catalog message in a language (locales.Catalog).
type Translator interface {
	T(lang, key string, args ...any) string
	// Has reports whether the catalog has key.
	Has(key string) bool
	// Langs lists the catalog's languages, the default first.
	Langs() []string
}

// Loc renders catalog messages in one language: every text a player
// reads comes through it. The platform hands adapters the table's Loc.
type Loc struct {
	tr   Translator
	lang string
}

// NewLoc is the catalog tr in language lang: what the platform hands an
// adapter, and what a test renders with.
func NewLoc(tr Translator, lang string) Loc { return Loc{tr: tr, lang: lang} }

// T renders key with named args ("Name", value, …; "Count", n for plural
// texts). A missing key renders as the key itself.
func (l Loc) T(key string, args ...any) string { return l.tr.T(l.lang, key, args...) }

// Lang is the language the texts are in.
func (l Loc) Lang() string { return l.lang }

// Has reports whether the catalog has key.
func (l Loc) Has(key string) bool { return l.tr.Has(key) }
