//go:build ignore

// Trim cuts a full api.json of the telegram-bot-api-spec project down to what the fake server
// checks: the methods it simulates, every type their parameters can carry (recursively), and the
// types of its own answers. Run from bot/telegramtest:
//
//	go run testdata/trim.go /path/to/full/api.json > testdata/api.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// methods are the ones the fake simulates (lookupMethod).
var methods = strings.Fields(`getMe getUpdates setWebhook deleteWebhook getWebhookInfo sendMessage
	editMessageText editMessageReplyMarkup deleteMessage deleteMessages answerCallbackQuery setMyCommands getMyCommands
	deleteMyCommands getChatMember getChatAdministrators getChat pinChatMessage unpinChatMessage
	unpinAllChatMessages sendChatAction leaveChat logOut close sendDocument`)

// answers are the types of the fake's results and updates; kept with their subtypes, not
// recursively, and without field descriptions (only parameter types need those, for limits)
// except those of required String fields, where the subtype discriminators are.
var answers = strings.Fields(`Update Message MaybeInaccessibleMessage User Chat ChatFullInfo MessageEntity
	CallbackQuery ChatMemberUpdated ChatMember WebhookInfo BotCommand ForumTopicCreated
	InlineKeyboardMarkup InlineKeyboardButton AcceptedGiftTypes Document`)

type field struct {
	Name        string   `json:"name"`
	Types       []string `json:"types"`
	Required    bool     `json:"required"`
	Description string   `json:"description,omitempty"`
}

type entry struct {
	Name      string   `json:"name"`
	Href      string   `json:"href"`
	Returns   []string `json:"returns,omitempty"`
	Fields    []field  `json:"fields,omitempty"`
	Subtypes  []string `json:"subtypes,omitempty"`
	SubtypeOf []string `json:"subtype_of,omitempty"`
}

type spec struct {
	Version      string           `json:"version"`
	ReleaseDate  string           `json:"release_date"`
	Changelog    string           `json:"changelog"`
	Methods      map[string]entry `json:"methods"`
	Types        map[string]entry `json:"types"`
	OtherMethods []string         `json:"other_methods"`
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var full spec
	if err := json.Unmarshal(raw, &full); err != nil {
		panic(err)
	}
	out := spec{Version: full.Version, ReleaseDate: full.ReleaseDate, Changelog: full.Changelog,
		Methods: map[string]entry{}, Types: map[string]entry{}}
	var queue []string
	for _, m := range methods {
		e, ok := full.Methods[m]
		if !ok {
			panic("no method " + m)
		}
		out.Methods[m] = e
		for _, f := range e.Fields {
			queue = append(queue, f.Types...)
		}
	}
	for len(queue) > 0 { // parameter types, recursively with fields and subtypes
		t := strings.TrimPrefix(queue[0], "Array of ")
		queue = queue[1:]
		if strings.HasPrefix(t, "Array of ") {
			queue = append(queue, t)
			continue
		}
		e, ok := full.Types[t]
		if _, seen := out.Types[t]; seen || !ok {
			continue
		}
		out.Types[t] = e
		queue = append(queue, e.Subtypes...)
		for _, f := range e.Fields {
			queue = append(queue, f.Types...)
		}
	}
	for _, t := range answers {
		for _, name := range append([]string{t}, full.Types[t].Subtypes...) {
			e, ok := full.Types[name]
			if !ok {
				panic("no type " + name)
			}
			if _, input := out.Types[name]; input {
				continue
			}
			e.Fields = slices.Clone(e.Fields)
			for i, f := range e.Fields {
				if !f.Required || !slices.Equal(f.Types, []string{"String"}) { // keeps `status, always "creator"`
					e.Fields[i].Description = ""
				}
			}
			out.Types[name] = e
		}
	}
	for name := range full.Methods {
		if _, ok := out.Methods[name]; !ok {
			out.OtherMethods = append(out.OtherMethods, name)
		}
	}
	slices.Sort(out.OtherMethods)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "%d methods, %d types, %d other method names\n", len(out.Methods), len(out.Types), len(out.OtherMethods))
}
