package locales

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

// Language codes the catalog provides.
const (
	Russian = "ru"
	English = "en"

	// Default is the language used for an unknown or empty code.
	Default = Russian
)

// Supported lists the catalog's languages, the default first.
func Supported() []string { return []string{Russian, English} }

// CountArg is the argument that selects a plural form.
const CountArg = "Count"

// files holds the embedded catalogs: "<lang>.toml" has the shared texts
// (lobby, commands, common errors) and "<game>.<lang>.toml" every text one
// game owns, all keyed "<game>.…", so adding a game adds files and edits
// none. go:embed only works on a package-level variable; it is never
// written to.
//
//go:embed *.toml
var files embed.FS

// Catalog renders messages by language and key. It is immutable after New
// and safe for concurrent use.
type Catalog struct {
	langs  []string
	byLang map[string]*langCatalog
	parser i18ntemplate.Parser
}

// langCatalog is the catalog of one language.
type langCatalog struct {
	tag       language.Tag
	localizer *i18n.Localizer
	messages  map[string]*i18n.Message
	// simple holds the messages rendered by substitution (see simple.go).
	simple map[string]simpleMessage
}

// New loads the embedded catalogs. It fails on any TOML error, on a
// template that does not parse, and on a key defined twice.
func New() (*Catalog, error) {
	bundle := i18n.NewBundle(language.Russian)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{
		langs:  Supported(),
		byLang: make(map[string]*langCatalog),
		// missingkey=error: a template whose argument was not passed fails
		// instead of printing "<no value>". Funcs stays nil, so go-i18n
		// caches each parsed template.
		parser: &i18ntemplate.TextParser{Option: "missingkey=error"},
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	for _, lang := range c.langs {
		messages := make(map[string]*i18n.Message)
		for _, e := range entries {
			name := e.Name()
			prefix, ok := strings.CutSuffix(name, "."+lang+".toml")
			if name != lang+".toml" && !ok {
				continue
			}
			file, err := bundle.LoadMessageFileFS(files, name)
			if err != nil {
				return nil, fmt.Errorf("locales: load %s: %w", name, err)
			}
			for _, m := range file.Messages {
				if ok && !strings.HasPrefix(m.ID, prefix+".") {
					return nil, fmt.Errorf("locales: %s: key %q must start with %q", name, m.ID, prefix+".")
				}
				if _, dup := messages[m.ID]; dup {
					return nil, fmt.Errorf("locales: %s: key %q defined twice", name, m.ID)
				}
				for form, src := range forms(m) {
					if _, err := parseTemplate(src); err != nil {
						return nil, fmt.Errorf("locales: %s: key %q, form %s: %w", name, m.ID, form, err)
					}
				}
				messages[m.ID] = m
			}
		}
		simple := make(map[string]simpleMessage)
		for id, m := range messages {
			if sm := newSimpleMessage(m); sm != nil {
				simple[id] = sm
			}
		}
		c.byLang[lang] = &langCatalog{
			tag:       language.Make(lang),
			localizer: i18n.NewLocalizer(bundle, lang),
			messages:  messages,
			simple:    simple,
		}
	}
	return c, nil
}

// Langs returns the catalog's languages, the default first: ["ru", "en"].
func (c *Catalog) Langs() []string {
	return slices.Clone(c.langs)
}

// Keys returns every key of the default language's catalog, sorted.
func (c *Catalog) Keys() []string {
	keys := make([]string, 0, len(c.byLang[Default].messages))
	for k := range c.byLang[Default].messages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Has reports whether key exists (in the default language; the parity test
// keeps every language's keys equal).
func (c *Catalog) Has(key string) bool {
	_, ok := c.byLang[Default].messages[key]
	return ok
}

// T renders the message key in lang. args are name/value pairs that fill the
// template's placeholders: T("ru", "count.coins", "Count", 5). The argument
// "Count" (an integer) selects the plural form of a plural message.
//
// An unknown lang renders in Russian. A missing key, bad args or a template
// that fails return the key itself, so the bug is visible. Use Render to get
// the error.
func (c *Catalog) T(lang, key string, args ...any) string {
	s, _ := c.Render(lang, key, args...)
	return s
}

// Render is T that also reports why it returned the key instead of a text.
func (c *Catalog) Render(lang, key string, args ...any) (string, error) {
	lc, ok := c.byLang[lang]
	if !ok {
		lang = Default
		lc = c.byLang[lang]
	}
	msg, ok := lc.messages[key]
	if !ok {
		return key, fmt.Errorf("locales: no message %q in %q", key, lang)
	}
	if err := checkArgs(args); err != nil {
		return key, fmt.Errorf("locales: %s/%s: %w", lang, key, err)
	}
	if sm, ok := lc.simple[key]; ok {
		s, done, err := renderSimple(lc.tag, sm, isPlural(msg), args)
		if err != nil {
			return key, fmt.Errorf("locales: %s/%s: %w", lang, key, err)
		}
		if done {
			return s, nil
		}
	}
	return c.localize(lc, lang, key, msg, args)
}

// localize renders through go-i18n: the reference for what a message says,
// and the way for messages richer than {{.Name}}.
func (c *Catalog) localize(lc *langCatalog, lang, key string, msg *i18n.Message, args []any) (string, error) {
	data, err := templateData(args)
	if err != nil {
		return key, fmt.Errorf("locales: %s/%s: %w", lang, key, err)
	}
	cfg := &i18n.LocalizeConfig{
		MessageID:      key,
		TemplateData:   data,
		TemplateParser: c.parser,
	}
	if isPlural(msg) {
		n, ok := data[CountArg]
		if !ok {
			return key, fmt.Errorf("locales: %s/%s: plural message needs the argument %q", lang, key, CountArg)
		}
		cfg.PluralCount = n
	}
	s, err := lc.localizer.Localize(cfg)
	if err != nil {
		return key, fmt.Errorf("locales: %s/%s: %w", lang, key, err)
	}
	return s, nil
}

// Normalize maps a Telegram language_code ("ru", "ru-RU", "en-US", "uk") to
// a catalog language: Russian for ru, uk, be and kk, English for any other
// code, and "" for an empty code (the caller then picks a default, such as
// the group's language).
func Normalize(code string) string {
	code = strings.ToLower(strings.TrimSpace(code))
	if code == "" {
		return ""
	}
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	switch code {
	case "ru", "uk", "be", "kk":
		return Russian
	default:
		return English
	}
}

// templateData turns name/value pairs into a template's data.
func templateData(args []any) (map[string]any, error) {
	if len(args)%2 != 0 {
		return nil, fmt.Errorf("odd number of args (%d): want name/value pairs", len(args))
	}
	data := make(map[string]any, len(args)/2)
	for i := 0; i < len(args); i += 2 {
		name, ok := args[i].(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("arg %d: name must be a non-empty string, got %#v", i, args[i])
		}
		data[name] = args[i+1]
	}
	return data, nil
}

// isPlural reports whether m has any form besides "other".
func isPlural(m *i18n.Message) bool {
	return m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
}

// forms returns m's non-empty forms by CLDR category name.
func forms(m *i18n.Message) map[string]string {
	all := map[string]string{
		"zero":  m.Zero,
		"one":   m.One,
		"two":   m.Two,
		"few":   m.Few,
		"many":  m.Many,
		"other": m.Other,
	}
	for k, v := range all {
		if v == "" {
			delete(all, k)
		}
	}
	return all
}

// parseTemplate parses a message form the way go-i18n does.
func parseTemplate(src string) (*template.Template, error) {
	t, err := template.New("").Option("missingkey=error").Parse(src)
	if err != nil {
		return nil, err
	}
	return t, nil
}
