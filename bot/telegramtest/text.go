package telegramtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// parseText validates text and parse_mode like sendMessage does and returns the plain text and entities.
func parseText(p params) (string, []models.MessageEntity, *APIError) {
	raw := p["text"]
	text, ents := raw, []models.MessageEntity(nil)
	switch strings.ToLower(p["parse_mode"]) {
	case "":
		if e := p["entities"]; e != "" {
			if err := json.Unmarshal([]byte(e), &ents); err != nil {
				return "", nil, badRequest("can't parse entities JSON object")
			}
		}
	case "html":
		var err error
		text, ents, err = parseHTML(raw)
		if err != nil {
			return "", nil, badRequest("can't parse entities: " + err.Error())
		}
	case "markdown", "markdownv2":
		// Kept verbatim: the fake does not check Markdown.
	default:
		return "", nil, badRequest("unsupported parse_mode")
	}
	if strings.TrimSpace(text) == "" {
		return "", nil, badRequest("message text is empty")
	}
	if utf16Len(text) > 4096 {
		return "", nil, badRequest("message is too long")
	}
	return text, ents, nil
}

// htmlEntity maps the tags Telegram supports to entity types.
func htmlEntity(tag string) (models.MessageEntityType, bool) {
	switch tag {
	case "b", "strong":
		return models.MessageEntityTypeBold, true
	case "i", "em":
		return models.MessageEntityTypeItalic, true
	case "u", "ins":
		return models.MessageEntityTypeUnderline, true
	case "s", "strike", "del":
		return models.MessageEntityTypeStrikethrough, true
	case "tg-spoiler", "span":
		return models.MessageEntityTypeSpoiler, true
	case "a":
		return models.MessageEntityTypeTextLink, true
	case "code":
		return models.MessageEntityTypeCode, true
	case "pre":
		return models.MessageEntityTypePre, true
	case "blockquote":
		return models.MessageEntityTypeBlockquote, true
	case "tg-emoji":
		return models.MessageEntityTypeCustomEmoji, true
	}
	return "", false
}

// parseHTML checks tags roughly like Telegram (supported, balanced, properly nested), strips them,
// decodes character references and returns entities with UTF-16 offsets. Error texts follow Telegram's.
func parseHTML(src string) (string, []models.MessageEntity, error) {
	type open struct {
		tag string
		off int
		url string
	}
	var (
		out   strings.Builder
		stack []open
		ents  []models.MessageEntity
		pos   int // UTF-16 offset in out
	)
	write := func(s string) {
		out.WriteString(s)
		pos += utf16Len(s)
	}
	for i := 0; i < len(src); {
		switch src[i] {
		case '<':
			j := strings.IndexByte(src[i:], '>')
			if j < 0 {
				return "", nil, fmt.Errorf("Unclosed start tag at byte offset %d", i)
			}
			inner := src[i+1 : i+j]
			if rest, ok := strings.CutPrefix(inner, "/"); ok {
				tag := strings.ToLower(strings.TrimSpace(rest))
				if len(stack) == 0 {
					return "", nil, fmt.Errorf("Unexpected end tag at byte offset %d", i)
				}
				top := stack[len(stack)-1]
				if tag != top.tag {
					return "", nil, fmt.Errorf("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", i, top.tag, tag)
				}
				stack = stack[:len(stack)-1]
				typ, _ := htmlEntity(tag)
				if pos > top.off {
					ents = append(ents, models.MessageEntity{Type: typ, Offset: top.off, Length: pos - top.off, URL: top.url})
				}
			} else {
				name, attrs, _ := strings.Cut(inner, " ")
				tag := strings.ToLower(name)
				if _, ok := htmlEntity(tag); !ok {
					return "", nil, fmt.Errorf("Unsupported start tag \"%s\" at byte offset %d", tag, i)
				}
				o := open{tag: tag, off: pos}
				if tag == "a" {
					_, v, ok := strings.Cut(attrs, "href=")
					if ok {
						o.url = strings.Trim(strings.Fields(v + " ")[0], `"'`)
					}
				}
				stack = append(stack, o)
			}
			i += j + 1
		case '&':
			j := strings.IndexByte(src[i:], ';')
			if j > 0 && j <= 10 {
				if s, ok := decodeRef(src[i+1 : i+j]); ok {
					write(s)
					i += j + 1
					continue
				}
			}
			write("&")
			i++
		default:
			_, n := utf8.DecodeRuneInString(src[i:])
			write(src[i : i+n])
			i += n
		}
	}
	if len(stack) > 0 {
		return "", nil, fmt.Errorf("Can't find end tag corresponding to start tag \"%s\"", stack[len(stack)-1].tag)
	}
	slices.SortStableFunc(ents, func(a, b models.MessageEntity) int { return a.Offset - b.Offset })
	return out.String(), ents, nil
}

func decodeRef(name string) (string, bool) {
	switch name {
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "amp":
		return "&", true
	case "quot":
		return `"`, true
	}
	if num, ok := strings.CutPrefix(name, "#"); ok {
		base := 10
		if h, ok := strings.CutPrefix(strings.ToLower(num), "x"); ok {
			num, base = h, 16
		}
		n, err := strconv.ParseInt(num, base, 32)
		if err == nil && utf8.ValidRune(rune(n)) {
			return string(rune(n)), true
		}
	}
	return "", false
}

// parseKeyboard validates reply_markup; it returns the inline keyboard (nil for none or other markups).
func parseKeyboard(raw string) ([][]Button, *APIError) {
	if raw == "" {
		return nil, nil
	}
	var mk struct {
		InlineKeyboard *[][]map[string]json.RawMessage `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(raw), &mk); err != nil {
		return nil, badRequest("can't parse reply keyboard markup JSON object")
	}
	if mk.InlineKeyboard == nil {
		return nil, nil
	}
	var out [][]Button
	for _, row := range *mk.InlineKeyboard {
		var r []Button
		for _, btn := range row {
			b, e := parseButton(btn)
			if e != nil {
				return nil, e
			}
			r = append(r, b)
		}
		if len(r) > 0 {
			out = append(out, r)
		}
	}
	return out, nil
}

// checkWebApps refuses web_app buttons outside private chats, as Telegram
// does: "Available only in private chats between a user and the bot".
func checkWebApps(c *chatState, kb [][]Button) *APIError {
	if c.chat.Type == models.ChatTypePrivate {
		return nil
	}
	for _, row := range kb {
		for _, b := range row {
			if b.WebApp != "" {
				return badRequest("BUTTON_TYPE_INVALID")
			}
		}
	}
	return nil
}

func parseButton(btn map[string]json.RawMessage) (Button, *APIError) {
	var b Button
	if err := json.Unmarshal(btn["text"], &b.Text); err != nil {
		return b, badRequest(`can't parse inline keyboard button: Field "text" must be of type String`)
	}
	kinds := 0
	if v, ok := btn["callback_data"]; ok {
		if err := json.Unmarshal(v, &b.CallbackData); err != nil || len(b.CallbackData) == 0 || len(b.CallbackData) > 64 {
			return b, badRequest("BUTTON_DATA_INVALID")
		}
		kinds++
	}
	if v, ok := btn["url"]; ok {
		if err := json.Unmarshal(v, &b.URL); err != nil || b.URL == "" {
			return b, badRequest("BUTTON_URL_INVALID")
		}
		kinds++
	}
	if v, ok := btn["copy_text"]; ok {
		var ct struct{ Text string }
		// go-telegram/bot always sends copy_text, empty when unused.
		if json.Unmarshal(v, &ct) == nil && ct.Text != "" {
			kinds++
		}
	}
	if v, ok := btn["web_app"]; ok && string(v) != "null" {
		var wa struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(v, &wa); err != nil || !strings.HasPrefix(wa.URL, "https://") {
			return b, badRequest("BUTTON_URL_INVALID") // Web Apps open HTTPS addresses only
		}
		b.WebApp = wa.URL
		kinds++
	}
	for _, k := range []string{"login_url", "switch_inline_query", "switch_inline_query_current_chat",
		"switch_inline_query_chosen_chat", "callback_game", "pay"} {
		if v, ok := btn[k]; ok && string(v) != "null" && string(v) != "false" {
			kinds++
		}
	}
	if kinds == 0 {
		return b, badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
	}
	return b, nil
}
