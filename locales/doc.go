// Package locales holds every text a player reads, in Russian (the default)
// and English, and renders it by key.
//
// # Catalogs
//
// The messages live in ru.toml and en.toml next to this file and are
// embedded into the binary. They are loaded with go-i18n
// (github.com/nicksnyder/go-i18n/v2), which picks plural forms by the CLDR
// rules: Russian needs one/few/many/other (1 монета, 2 монеты, 5 монет,
// 21 монета), English one/other.
//
// The format is TOML, read with github.com/BurntSushi/toml, because it has
// comments (each file documents the conventions at its top and a message
// can carry a translator note), multi-line strings that keep long Telegram
// texts readable without escaping, dotted tables that map straight onto
// dotted keys ([count.coins] is the message count.coins), and none of
// YAML's indentation and implicit-typing traps. JSON has no comments and
// no multi-line strings.
//
// # Conventions
//
// Keys are `area.name` in lowercase ASCII: count.coins, rules.trickchef,
// help.group, commands.newgame. Placeholders are Go templates with CamelCase
// names ({{.Name}}, {{.Count}}); every language of a key uses the same
// placeholders, and a plural message has every form its language needs.
// The package tests enforce all of this, so a key added to one file only,
// or a placeholder misspelt in one language, fails the build's tests. The
// full list of conventions is at the top of ru.toml.
//
// # Telegram HTML and escaping
//
// Messages are written for Telegram's HTML parse mode and may contain <b>,
// <i>, <code> and the other tags Telegram allows. Rendering does no
// escaping: a placeholder that carries user input (a player's name, a chat
// title) must be HTML-escaped by the caller (html.EscapeString) before it
// is passed to T. Numbers and texts produced by the bot itself need no
// escaping.
//
// # Use
//
//	cat, err := locales.New()
//	...
//	lang := locales.Normalize(user.LanguageCode)
//	text := cat.T(lang, "count.coins", "Count", 5) // "5 монет"
//
// A Catalog is immutable after New and safe for concurrent use. T never
// fails: an unknown language falls back to Russian, and a missing key (or
// a render error such as a missing argument) returns the key itself, so the
// bug is visible in the chat and in tests. Render returns the error as well.
package locales
