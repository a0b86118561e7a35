package telegramtest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// apiJSON is the published Bot API (methods, parameters, types) as machine-readable data,
// trimmed to what the fake simulates; see testdata/README.md.
//
//go:embed testdata/api.json
var apiJSON []byte

type apiField struct {
	Name        string   `json:"name"`
	Types       []string `json:"types"`
	Required    bool     `json:"required"`
	Description string   `json:"description"`
}

type apiEntry struct {
	Name     string     `json:"name"`
	Returns  []string   `json:"returns"`
	Fields   []apiField `json:"fields"`
	Subtypes []string   `json:"subtypes"`
}

// specField is one method parameter or object field with the rules read from the spec.
type specField struct {
	owner    string // method or type name
	name     string
	types    []string
	required bool
	// unless lists parameters whose joint absence makes an optional field required
	// ("Required if inline_message_id is not specified").
	unless []string
	limit  *lengthLimit
	// constant is the only value the field may have ("Scope type, must be chat"): the discriminator of a subtype.
	constant string
}

// lengthLimit is a "1-4096 characters" or "1-64 bytes" range from a field description.
// Characters are counted in UTF-16 code units, as Telegram does.
type lengthLimit struct {
	min, max      int
	bytes         bool
	afterEntities bool // counted after parsing parse_mode markup
}

// specEntry is a method (its parameters) or an object type (its fields) ready for checking.
type specEntry struct {
	name     string
	returns  []string
	fields   []*specField
	byName   map[string]*specField
	subtypes []string
}

// apiSpec is the compiled Bot API description one Server checks requests against.
type apiSpec struct {
	version string
	methods map[string]*specEntry // by lower-case name: Telegram ignores the case of method names
	types   map[string]*specEntry
	others  map[string]string // lower-case → name of the Bot API methods the trimmed copy leaves out
}

// loadSpec parses the embedded spec. It runs once per Server.
func loadSpec() (*apiSpec, error) {
	var raw struct {
		Version      string              `json:"version"`
		Methods      map[string]apiEntry `json:"methods"`
		Types        map[string]apiEntry `json:"types"`
		OtherMethods []string            `json:"other_methods"`
	}
	if err := json.Unmarshal(apiJSON, &raw); err != nil {
		return nil, fmt.Errorf("telegramtest: embedded Bot API spec: %w", err)
	}
	if err := addEphemeral(raw.Methods, raw.Types, &raw.OtherMethods, &raw.Version); err != nil {
		return nil, err
	}
	var (
		limitRe    = regexp.MustCompile(`(\d+)-(\d+) (characters|bytes)( after entit(?:y|ies) parsing)?`)
		unlessRe   = regexp.MustCompile(`(?i)required if ([a-z_]+)(?: and ([a-z_]+))? (?:is not|isn't|are not|aren't) specified`)
		constantRe = regexp.MustCompile(`, (?:must be ([a-z_]+)|always "([a-z_]+)")$`)
	)
	compile := func(e apiEntry) *specEntry {
		out := &specEntry{name: e.Name, returns: e.Returns, subtypes: e.Subtypes, byName: map[string]*specField{}}
		for _, f := range e.Fields {
			sf := &specField{owner: e.Name, name: f.Name, types: f.Types, required: f.Required}
			out.fields = append(out.fields, sf)
			out.byName[f.Name] = sf
			d := f.Description
			if !strings.Contains(d, "characters") && !strings.Contains(d, "bytes") &&
				!strings.Contains(d, "equired if") && !strings.Contains(d, ", must be") && !strings.Contains(d, ", always") {
				continue // most descriptions: skip the regular expressions, which cost most of the loading
			}
			if m := limitRe.FindStringSubmatch(d); m != nil && isStringField(f.Types) {
				lo, _ := strconv.Atoi(m[1])
				hi, _ := strconv.Atoi(m[2])
				sf.limit = &lengthLimit{min: lo, max: hi, bytes: m[3] == "bytes", afterEntities: m[4] != ""}
			}
			if m := unlessRe.FindStringSubmatch(d); m != nil && !f.Required {
				sf.unless = []string{m[1]}
				if m[2] != "" {
					sf.unless = append(sf.unless, m[2])
				}
			}
			if m := constantRe.FindStringSubmatch(d); m != nil && f.Required {
				sf.constant = m[1] + m[2]
			}
		}
		return out
	}
	s := &apiSpec{version: raw.Version, methods: map[string]*specEntry{}, types: map[string]*specEntry{}, others: map[string]string{}}
	for _, m := range raw.Methods {
		s.methods[strings.ToLower(m.Name)] = compile(m)
	}
	for _, t := range raw.Types {
		s.types[t.Name] = compile(t)
	}
	for _, name := range raw.OtherMethods {
		s.others[strings.ToLower(name)] = name
	}
	if len(s.methods) == 0 || len(s.types) == 0 {
		return nil, fmt.Errorf("telegramtest: embedded Bot API spec is empty")
	}
	return s, nil
}

func isStringField(types []string) bool { return len(types) == 1 && types[0] == "String" }

// Violation is a request that breaks the published Bot API: the server answers it with an error
// and, unless AllowSpecViolations was given, fails the test that owns the server (WithTB).
type Violation struct {
	Method  string // as called
	Param   string // parameter, with a path into JSON values (reply_markup.inline_keyboard[0][1].url); "" for the request itself
	Problem string // what is wrong
	Answer  string // the error description the server answered with
}

func (v Violation) String() string {
	where := v.Method
	if v.Param != "" {
		where += " " + v.Param
	}
	return fmt.Sprintf("%s: %s (answered %q)", where, v.Problem, v.Answer)
}

// Telegram's answers for values outside a length range, by owner.field: {too short, too long}.
// The spec states the ranges, not these texts.
var limitAnswers = map[string][2]string{
	"sendMessage.text":                   {"message text is empty", "message is too long"},
	"editMessageText.text":               {"message text is empty", "message is too long"},
	"answerCallbackQuery.text":           {"", "MESSAGE_TOO_LONG"},
	"InlineKeyboardButton.callback_data": {"BUTTON_DATA_INVALID", "BUTTON_DATA_INVALID"},
	"CopyTextButton.text":                {"BUTTON_COPY_TEXT_INVALID", "BUTTON_COPY_TEXT_INVALID"},
	"BotCommand.command":                 {"BOT_COMMAND_INVALID", "BOT_COMMAND_INVALID"},
	"BotCommand.description":             {"command description is empty", "BOT_COMMAND_DESCRIPTION_INVALID"},
	"setWebhook.secret_token":            {"secret token is empty", "secret token is too long"},
}

// charRule is a rule the spec states only in prose: allowed characters or URL schemes.
type charRule struct {
	ok      func(string) bool
	problem string
	answer  string
}

// charRules are the prose rules of the fields the bot and the fake use, by owner.field.
var charRules = map[string]charRule{
	"BotCommand.command": {isCommandText,
		"may contain only lowercase English letters, digits and underscores", "BOT_COMMAND_INVALID"},
	"setWebhook.secret_token": {isSecretText,
		"may contain only A-Z, a-z, 0-9, _ and -", "secret token contains unallowed characters"},
	"InlineKeyboardButton.url": {isButtonURL,
		"must be an HTTP(S) or tg:// URL", "BUTTON_URL_INVALID"},
}

// exclusiveFields: "Exactly one of the fields other than text, icon_custom_emoji_id, and style
// must be used" (InlineKeyboardButton). The spec says so in the type's prose.
var exclusiveFields = map[string][]string{
	"InlineKeyboardButton": {"text", "icon_custom_emoji_id", "style"},
}

// missingAnswers are Telegram's texts for a missing required parameter where it has a specific one;
// others get `Parameter "x" is required`.
var missingAnswers = map[string]string{
	"chat_id":    "chat_id is empty",
	"text":       "message text is empty",
	"message_id": "message identifier is not specified",
}

// jsonLabels name JSON-valued parameters the way Telegram's "can't parse ... JSON object" errors do.
var jsonLabels = map[string]string{
	"reply_markup":         "reply keyboard markup",
	"reply_parameters":     "reply parameters",
	"link_preview_options": "link preview options",
	"scope":                "BotCommandScope",
	"commands":             "commands",
	"entities":             "entities",
	"allowed_updates":      "allowed updates",
}

// objectLabels name object types in Telegram's "can't parse <label>: ..." errors.
var objectLabels = map[string]string{
	"InlineKeyboardButton": "inline keyboard button",
	"KeyboardButton":       "keyboard button",
}

func isCommandText(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func isSecretText(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func isButtonURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "tg://")
}

// argKind tells how a request parameter arrived, which decides what types it can have.
type argKind uint8

const (
	argText       argKind = iota // query string or form field
	argJSONString                // a JSON string in a JSON body
	argJSONValue                 // a JSON number, boolean, object or array in a JSON body (params keeps its JSON text)
	argFile                      // a multipart file part
)

// fault is one problem found in a value, with its path relative to where checking started.
type fault struct {
	path    string
	problem string
	owner   string // the object type the problem is in; "" for the value itself
	tg      string // Telegram's text for the problem inside the object (`Field "x" must be of type String`)
	answer  string // a complete Telegram description that replaces the generic one (BUTTON_DATA_INVALID)
}

// check validates a request against the spec. It returns nil for a valid request, and otherwise
// the violation and the error Telegram would answer with.
func (sp *apiSpec) check(method string, p params, kinds map[string]argKind) (*Violation, *APIError) {
	m := sp.methods[strings.ToLower(method)]
	if m == nil {
		problem := "no such Bot API method (" + sp.version + ")"
		if name, ok := sp.others[strings.ToLower(method)]; ok {
			problem = name + " is a Bot API method the fake server does not simulate"
		}
		return &Violation{Method: method, Problem: problem, Answer: "Not Found"}, &APIError{Code: 404, Description: "Not Found"}
	}
	bad := func(param, problem, answer string) (*Violation, *APIError) {
		return &Violation{Method: m.name, Param: param, Problem: problem, Answer: "Bad Request: " + answer},
			badRequest(answer)
	}
	present := func(name string) bool {
		v, ok := p[name]
		if f := m.byName[name]; ok && v == "" && f != nil && !isStringField(f.types) {
			return false // Telegram reads an empty non-text parameter as absent
		}
		return ok
	}
	for _, name := range sortedKeys(p) {
		if legacyEphemeral(m.name, name, p) {
			continue
		}
		if m.byName[name] == nil {
			return bad(name, "unknown parameter: "+m.name+" has no parameter "+strconv.Quote(name),
				"parameter "+strconv.Quote(name)+" is not supported by the method")
		}
	}
	for _, f := range m.fields {
		if present(f.name) || !f.required && !requiredNow(f, present) {
			continue
		}
		why := "required parameter is missing"
		if len(f.unless) > 0 {
			why = "parameter is required when " + strings.Join(f.unless, " and ") + " is not given"
		}
		answer, ok := missingAnswers[f.name]
		if !ok {
			answer = "Parameter " + strconv.Quote(f.name) + " is required"
		}
		return bad(f.name, why, answer)
	}
	for _, f := range m.fields {
		if !present(f.name) {
			continue
		}
		if v := p[f.name]; v == "" && !f.required && !requiredNow(f, present) {
			continue // an empty optional parameter is the same as none
		}
		if ft := sp.checkParam(m, f, p, kinds[f.name]); ft != nil {
			param := f.name + ft.path
			switch {
			case ft.answer != "":
				return bad(param, ft.problem, ft.answer)
			case ft.owner != "":
				label := objectLabels[ft.owner]
				if label == "" {
					label = ft.owner
				}
				return bad(param, ft.problem, "can't parse "+label+": "+ft.tg)
			case ft.tg != "":
				return bad(param, ft.problem, ft.tg)
			}
			label := jsonLabels[f.name]
			if label == "" {
				label = f.name
			}
			return bad(param, ft.problem, "can't parse "+label+" JSON object")
		}
	}
	return nil, nil
}

// requiredNow reports whether a conditionally required field is required because the
// fields it stands in for are all absent.
func requiredNow(f *specField, present func(string) bool) bool {
	if len(f.unless) == 0 {
		return false
	}
	for _, other := range f.unless {
		if present(other) {
			return false
		}
	}
	return true
}

// checkParam checks one present top-level parameter against its declared types.
func (sp *apiSpec) checkParam(m *specEntry, f *specField, p params, kind argKind) *fault {
	v := p[f.name]
	if kind == argFile {
		for _, t := range f.types {
			if t == "InputFile" {
				return nil
			}
		}
		return &fault{problem: "a file was uploaded, but the parameter is " + typeList(f.types),
			tg: "wrong parameter " + f.name + " in request"}
	}
	var first *fault
	for _, t := range f.types {
		ft := sp.checkArg(m, f, t, v, kind, p)
		if ft == nil {
			return nil
		}
		// Prefer the fault from inside a JSON value: it says more than "is not an Integer".
		if first == nil || first.owner == "" && first.path == "" && ft.path != "" {
			first = ft
		}
	}
	return first
}

// checkArg checks a top-level parameter value against one declared type.
func (sp *apiSpec) checkArg(m *specEntry, f *specField, typ, v string, kind argKind, p params) *fault {
	wrong := func() *fault {
		shown := v
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		return &fault{problem: fmt.Sprintf("value %q is not %s", shown, typeList(f.types)),
			tg: "field " + strconv.Quote(f.name) + " must be of type " + typeList(f.types)}
	}
	switch typ {
	case "Integer", "Int":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return wrong()
		}
		return nil
	case "Float", "Float number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return wrong()
		}
		return nil
	case "Boolean", "True":
		switch strings.ToLower(v) {
		case "true", "1", "yes":
			return nil
		case "false", "0", "no":
			if typ == "Boolean" {
				return nil
			}
		}
		return wrong()
	case "String":
		if kind == argJSONValue {
			return wrong()
		}
		return sp.checkString(m.name, f, v, p["parse_mode"])
	case "InputFile":
		return wrong() // only an upload (argFile, handled by the caller) is an InputFile
	}
	// A JSON-serialized array or object.
	var val any
	dec := json.NewDecoder(strings.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&val); err != nil || dec.More() {
		return &fault{problem: "not valid JSON for " + typ}
	}
	return sp.checkValue(val, typ, "", "")
}

// checkString applies the length limit and prose rules of a String field. A text "after entities
// parsing" is measured after HTML parsing like sendMessage does; Markdown is measured as sent
// (the fake does not parse it), which can only overcount.
func (sp *apiSpec) checkString(owner string, f *specField, v, parseMode string) *fault {
	key := owner + "." + f.name
	if lim := f.limit; lim != nil {
		n := len(v)
		if !lim.bytes {
			text := v
			if lim.afterEntities && strings.EqualFold(parseMode, "html") {
				plain, _, err := parseHTML(v)
				if err != nil {
					return nil // bad markup: the method's own "can't parse entities" answer covers it
				}
				text = plain
			}
			n = utf16Len(text)
		}
		if n < lim.min || n > lim.max {
			unit := "characters"
			if lim.bytes {
				unit = "bytes"
			}
			after := ""
			if lim.afterEntities {
				after = " after entities parsing"
			}
			ft := &fault{problem: fmt.Sprintf("%d %s%s, the Bot API allows %d-%d", n, unit, after, lim.min, lim.max)}
			answers := limitAnswers[key]
			answer := answers[1]
			if n < lim.min {
				answer = answers[0]
			}
			if answer == "" {
				answer = f.name + " must be " + strconv.Itoa(lim.min) + "-" + strconv.Itoa(lim.max) + " " + unit + " long"
			}
			ft.answer = answer
			return ft
		}
	}
	if r, ok := charRules[key]; ok && !r.ok(v) {
		return &fault{problem: fmt.Sprintf("%q %s", v, r.problem), answer: r.answer}
	}
	return nil
}

// checkValue checks a decoded JSON value (numbers as json.Number) against one declared type.
// owner is the object type the value is a field of ("" at the top), for error texts.
func (sp *apiSpec) checkValue(v any, typ, path, owner string) *fault {
	wrongType := func() *fault {
		ft := &fault{path: path, owner: owner, problem: fmt.Sprintf("%s is not %s", jsonKind(v), typ)}
		last := path[strings.LastIndex(path, ".")+1:]
		name, _, inArray := strings.Cut(last, "[")
		switch {
		case name == "": // an element of a top-level array: the caller's "can't parse" text says it
		case inArray:
			ft.tg = "Field " + strconv.Quote(name) + " must contain elements of type " + typ
		default:
			ft.tg = "Field " + strconv.Quote(name) + " must be of type " + typ
		}
		return ft
	}
	if elem, ok := strings.CutPrefix(typ, "Array of "); ok {
		arr, ok := v.([]any)
		if !ok {
			return wrongType()
		}
		for i, x := range arr {
			if ft := sp.checkValue(x, elem, fmt.Sprintf("%s[%d]", path, i), owner); ft != nil {
				return ft
			}
		}
		return nil
	}
	switch typ {
	case "Integer", "Int":
		if n, ok := v.(json.Number); !ok || !isInteger(n) {
			return wrongType()
		}
		return nil
	case "Float", "Float number":
		if _, ok := v.(json.Number); !ok {
			return wrongType()
		}
		return nil
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return wrongType()
		}
		return nil
	case "True":
		if b, ok := v.(bool); !ok || !b {
			return wrongType()
		}
		return nil
	case "String", "InputFile": // inside JSON an InputFile is a file_id, URL or attach://<name>
		if _, ok := v.(string); !ok {
			return wrongType()
		}
		return nil
	}
	t := sp.types[typ]
	if t == nil {
		return nil // a type the trimmed spec leaves out: not checked
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return wrongType()
	}
	return sp.checkObject(obj, t, path)
}

// checkObject checks a JSON object against an object type, choosing the subtype of an abstract type.
func (sp *apiSpec) checkObject(obj map[string]any, t *specEntry, path string) *fault {
	if len(t.subtypes) > 0 {
		return sp.checkSubtype(obj, t, path)
	}
	field := func(name string) string { return path + "." + name }
	if t.name == "InlineKeyboardButton" {
		obj = dropEmptyCopyText(obj)
	}
	for _, name := range sortedKeys(obj) {
		if t.byName[name] == nil {
			return &fault{path: field(name), owner: t.name,
				problem: "unknown field: " + t.name + " has no field " + strconv.Quote(name),
				tg:      "unknown field " + strconv.Quote(name)}
		}
	}
	has := func(name string) bool { _, ok := obj[name]; return ok }
	for _, f := range t.fields {
		if !has(f.name) && (f.required || requiredNow(f, has)) {
			return &fault{path: field(f.name), owner: t.name,
				problem: "required field of " + t.name + " is missing",
				tg:      "Can't find field " + strconv.Quote(f.name)}
		}
	}
	for _, f := range t.fields {
		val, ok := obj[f.name]
		if !ok {
			continue
		}
		var first *fault
		for _, typ := range f.types {
			ft := sp.checkValue(val, typ, field(f.name), t.name)
			if ft == nil {
				first = nil
				break
			}
			if first == nil || first.owner == t.name && ft.owner != t.name {
				first = ft
			}
		}
		if first != nil {
			if len(f.types) > 1 && first.owner == t.name {
				first.problem = fmt.Sprintf("%s is not %s", jsonKind(val), typeList(f.types))
				first.tg = "Field " + strconv.Quote(f.name) + " must be of type " + typeList(f.types)
			}
			return first
		}
		s, isString := val.(string)
		if !isString {
			continue
		}
		if f.constant != "" && s != f.constant {
			return &fault{path: field(f.name), owner: t.name,
				problem: fmt.Sprintf("%q, but %s must be %q", s, t.name, f.constant), tg: "Unsupported type specified"}
		}
		parseMode, _ := obj[f.name+"_parse_mode"].(string)
		if parseMode == "" {
			parseMode, _ = obj["parse_mode"].(string)
		}
		if ft := sp.checkString(t.name, f, s, parseMode); ft != nil {
			ft.path = field(f.name)
			return ft
		}
	}
	if skip, ok := exclusiveFields[t.name]; ok {
		var kinds []string
		for _, name := range sortedKeys(obj) {
			if !slices.Contains(skip, name) {
				kinds = append(kinds, name)
			}
		}
		switch {
		case len(kinds) == 0:
			return &fault{path: path, owner: t.name, problem: t.name + " has none of its kind fields (url, callback_data, ...)",
				tg: "Text buttons are unallowed in the inline keyboard"}
		case len(kinds) > 1:
			return &fault{path: path, owner: t.name,
				problem: "exactly one of the fields other than " + strings.Join(skip, ", ") + " must be used, got " + strings.Join(kinds, ", "),
				tg:      "exactly one of the optional fields must be used"}
		}
	}
	return nil
}

// checkSubtype picks the subtype of an abstract type by its discriminator ("type": "chat"), or
// else the first subtype the object fits.
func (sp *apiSpec) checkSubtype(obj map[string]any, t *specEntry, path string) *fault {
	var first *fault
	for _, name := range t.subtypes {
		sub := sp.types[name]
		if sub == nil {
			continue
		}
		tagged := false
		for _, f := range sub.fields {
			if f.constant == "" {
				continue
			}
			tagged = true
			if obj[f.name] == f.constant {
				return sp.checkObject(obj, sub, path)
			}
		}
		if tagged {
			continue
		}
		ft := sp.checkObject(obj, sub, path)
		if ft == nil {
			return nil
		}
		if first == nil {
			first = ft
		}
	}
	if first != nil {
		return first
	}
	return &fault{path: path, owner: t.name, problem: "matches none of the subtypes of " + t.name, tg: "Unsupported type specified"}
}

// dropEmptyCopyText removes "copy_text":{"text":""} from a button that has another kind.
// go-telegram/bot sends it with every button (its CopyText field is a struct, so omitempty never
// drops it), and Telegram only reads copy_text when url, callback_data and the rest are absent.
func dropEmptyCopyText(obj map[string]any) map[string]any {
	ct, ok := obj["copy_text"].(map[string]any)
	if !ok || len(ct) != 1 || ct["text"] != "" {
		return obj
	}
	others := 0
	for k := range obj {
		if !slices.Contains(exclusiveFields["InlineKeyboardButton"], k) && k != "copy_text" {
			others++
		}
	}
	if others == 0 {
		return obj
	}
	out := make(map[string]any, len(obj)-1)
	for k, v := range obj {
		if k != "copy_text" {
			out[k] = v
		}
	}
	return out
}

func isInteger(n json.Number) bool {
	_, err := strconv.ParseInt(string(n), 10, 64)
	return err == nil
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a Boolean"
	case json.Number:
		return "the number " + string(x)
	case string:
		return "a String"
	case []any:
		return "an Array"
	}
	return "an Object"
}

func typeList(types []string) string { return strings.Join(types, " or ") }

// sortedKeys returns map keys in order, so the first problem reported is stable.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// legacyEphemeral reports a parameter of Bot API 10.2's ephemeral send
// (receiver_user_id, callback_query_id: 10.3 moved them into
// ephemeral_message_parameters) sent beside 10.3's object. telegram-bot-api
// reads only the parameters it knows, so a 10.3 server ignores them and a
// 10.2 one reads them: a bot sends both so that neither posts a hand for
// everyone. The fake, stricter than Telegram about unknown parameters
// elsewhere, lets exactly these pass, and only next to the object.
func legacyEphemeral(method, name string, p params) bool {
	if !strings.EqualFold(method, "sendMessage") || !p.has("ephemeral_message_parameters") {
		return false
	}
	return name == "receiver_user_id" || name == "callback_query_id"
}
