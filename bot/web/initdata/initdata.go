// Package initdata checks the initData string Telegram hands a Mini App
// (Telegram.WebApp.initData) and says who opened the page.
//
// Telegram signs initData with a key derived from the bot's token, so a page
// request that carries valid initData comes from the user it names, through
// this bot, no longer ago than auth_date says. Nothing else a page sends can
// be trusted: the web table authenticates every request with Check.
//
// The scheme (Telegram's "validating data received via the Mini App"):
//
//	secret = HMAC-SHA256(key "WebAppData", message token)
//	hash   = hex(HMAC-SHA256(key secret, message data-check-string))
//
// where the data-check-string is every received field except hash, sorted by
// key, written key=value (values URL-decoded) and joined by '\n'.
package initdata

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Errors Check returns, one per reason, so a handler can answer each with
// its own status and log line (never the data itself: it identifies a user).
var (
	ErrMalformed = errors.New("initdata: not a query string")
	ErrNoHash    = errors.New("initdata: no hash")
	ErrBadHash   = errors.New("initdata: hash does not match")
	ErrNoDate    = errors.New("initdata: no valid auth_date")
	ErrExpired   = errors.New("initdata: auth_date too old")
	ErrFuture    = errors.New("initdata: auth_date in the future")
	ErrNoUser    = errors.New("initdata: no valid user")
)

// MaxLen bounds the raw string Check reads: real initData is well under
// 2 KiB, and hashing megabytes on every request is a cheap attack.
const MaxLen = 8 << 10

// clockSkew is how far in the future auth_date may be: the page's clock is
// Telegram's, ours may lag a little behind it.
const clockSkew = 5 * time.Minute

// User is the Telegram user who opened the page.
type User struct {
	ID           int64  `json:"id"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name,omitempty"`
	Username     string `json:"username,omitempty"`
	LanguageCode string `json:"language_code,omitempty"`
}

// Name is how the table shows the user: first and last name.
func (u User) Name() string {
	return strings.TrimSpace(u.FirstName + " " + u.LastName)
}

// Data is checked initData.
type Data struct {
	User       User
	AuthDate   time.Time
	StartParam string // the startapp payload of a direct link, or ""
	QueryID    string
	ChatType   string // "sender", "private", "group", "supergroup", "channel" or ""
}

// Checker validates initData for one bot token. Make one per token and
// reuse it: the secret key is derived once.
type Checker struct {
	secret []byte
	maxAge time.Duration
}

// NewChecker returns a Checker for token that refuses initData older than
// maxAge (Telegram suggests a day; 0 means 24 hours).
func NewChecker(token string, maxAge time.Duration) *Checker {
	if maxAge <= 0 {
		maxAge = 24 * time.Hour
	}
	return &Checker{secret: mac([]byte("WebAppData"), []byte(token)), maxAge: maxAge}
}

// Check validates raw at time now and returns what it says. The hash is
// compared in constant time before any field is trusted.
func (c *Checker) Check(raw string, now time.Time) (Data, error) {
	if raw == "" || len(raw) > MaxLen {
		return Data{}, ErrMalformed
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return Data{}, ErrMalformed
	}
	for _, v := range values {
		if len(v) != 1 { // a repeated field: which one did Telegram sign?
			return Data{}, ErrMalformed
		}
	}
	got := values.Get("hash")
	if got == "" {
		return Data{}, ErrNoHash
	}
	want := mac(c.secret, []byte(checkString(values)))
	sum, err := hex.DecodeString(got)
	if err != nil || !hmac.Equal(sum, want) {
		return Data{}, ErrBadHash
	}

	unix, err := strconv.ParseInt(values.Get("auth_date"), 10, 64)
	if err != nil || unix <= 0 {
		return Data{}, ErrNoDate
	}
	d := Data{
		AuthDate:   time.Unix(unix, 0),
		StartParam: values.Get("start_param"),
		QueryID:    values.Get("query_id"),
		ChatType:   values.Get("chat_type"),
	}
	switch age := now.Sub(d.AuthDate); {
	case age > c.maxAge:
		return Data{}, ErrExpired
	case age < -clockSkew:
		return Data{}, ErrFuture
	}
	if err := json.Unmarshal([]byte(values.Get("user")), &d.User); err != nil || d.User.ID == 0 {
		return Data{}, ErrNoUser
	}
	return d, nil
}

// Sign returns initData for fields signed with token, as Telegram would
// send it. It is what tests and a development page use to stand in for
// Telegram; the bot itself never signs.
func Sign(token string, fields url.Values) string {
	v := url.Values{}
	for k, vs := range fields {
		if k != "hash" && len(vs) > 0 {
			v.Set(k, vs[0])
		}
	}
	secret := mac([]byte("WebAppData"), []byte(token))
	v.Set("hash", hex.EncodeToString(mac(secret, []byte(checkString(v)))))
	return v.Encode()
}

// SignUser is Sign for the usual fields: the user, auth_date and an
// optional start parameter.
func SignUser(token string, u User, authDate time.Time, startParam string) string {
	user, err := json.Marshal(u)
	if err != nil {
		panic(fmt.Sprintf("initdata: marshal user: %v", err)) // a struct of strings and an int
	}
	v := url.Values{"user": {string(user)}, "auth_date": {strconv.FormatInt(authDate.Unix(), 10)}}
	if startParam != "" {
		v.Set("start_param", startParam)
	}
	return Sign(token, v)
}

// checkString is the data-check-string: every field but hash, sorted.
func checkString(values url.Values) string {
	keys := make([]string, 0, len(values))
	for k := range values {
		if k != "hash" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(values.Get(k))
	}
	return b.String()
}

func mac(key, msg []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(msg)
	return h.Sum(nil)
}
