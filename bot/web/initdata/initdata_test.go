package initdata_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/bot/web/initdata"
)

const token = "123456:ABC-test-token"

var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// TestKnownVector checks Check against a hash computed here by hand from a
// literal data-check-string, so Check and Sign cannot agree on a wrong scheme.
func TestKnownVector(t *testing.T) {
	user := `{"id":42,"first_name":"Аня","language_code":"ru"}`
	authDate := "1795608000" // 2026-11-25 12:00 UTC
	dcs := "auth_date=" + authDate + "\nquery_id=AAE\nstart_param=g-100\nuser=" + user
	secret := hmacSHA256([]byte("WebAppData"), []byte(token))
	hash := hex.EncodeToString(hmacSHA256(secret, []byte(dcs)))
	raw := "query_id=AAE&user=" + url.QueryEscape(user) + "&auth_date=" + authDate +
		"&start_param=g-100&hash=" + hash

	d, err := initdata.NewChecker(token, 0).Check(raw, now)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if d.User.ID != 42 || d.User.Name() != "Аня" || d.User.LanguageCode != "ru" ||
		d.StartParam != "g-100" || d.QueryID != "AAE" || d.AuthDate.Unix() != 1795608000 {
		t.Fatalf("got %+v", d)
	}
	if again := initdata.Sign(token, mustParse(t, raw)); !strings.Contains(again, "hash="+hash) {
		t.Fatalf("Sign gave %s, want hash %s", again, hash)
	}
}

func TestRefusals(t *testing.T) {
	u := initdata.User{ID: 7, FirstName: "Боб"}
	good := initdata.SignUser(token, u, now.Add(-time.Hour), "")
	c := initdata.NewChecker(token, 24*time.Hour)
	if _, err := c.Check(good, now); err != nil {
		t.Fatalf("good initData refused: %v", err)
	}

	tampered := mustParse(t, good)
	tampered.Set("user", `{"id":8,"first_name":"Боб"}`)
	noHash := mustParse(t, good)
	noHash.Del("hash")
	badHex := mustParse(t, good)
	badHex.Set("hash", "zz")
	noUser := url.Values{"auth_date": {"1795608000"}}

	cases := []struct {
		name string
		raw  string
		want error
	}{
		{"empty", "", initdata.ErrMalformed},
		{"not a query", "%zz", initdata.ErrMalformed},
		{"too long", good + "&x=" + strings.Repeat("a", initdata.MaxLen), initdata.ErrMalformed},
		{"repeated field", good + "&user=x", initdata.ErrMalformed},
		{"no hash", noHash.Encode(), initdata.ErrNoHash},
		{"hash not hex", badHex.Encode(), initdata.ErrBadHash},
		{"another user swapped in", tampered.Encode(), initdata.ErrBadHash},
		{"another bot's token", initdata.SignUser("654321:OTHER", u, now, ""), initdata.ErrBadHash},
		{"expired", initdata.SignUser(token, u, now.Add(-25*time.Hour), ""), initdata.ErrExpired},
		{"from the future", initdata.SignUser(token, u, now.Add(time.Hour), ""), initdata.ErrFuture},
		{"no auth_date", initdata.Sign(token, url.Values{"user": {`{"id":7}`}}), initdata.ErrNoDate},
		{"no user", initdata.Sign(token, noUser), initdata.ErrNoUser},
		{"user without id", initdata.Sign(token, url.Values{"auth_date": {"1795608000"}, "user": {`{"first_name":"x"}`}}), initdata.ErrNoUser},
	}
	for _, tc := range cases {
		if _, err := c.Check(tc.raw, now); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestMaxAgeConfigurable(t *testing.T) {
	raw := initdata.SignUser(token, initdata.User{ID: 1, FirstName: "a"}, now.Add(-2*time.Hour), "")
	if _, err := initdata.NewChecker(token, time.Hour).Check(raw, now); !errors.Is(err, initdata.ErrExpired) {
		t.Fatalf("1h max age: got %v", err)
	}
	if _, err := initdata.NewChecker(token, 3*time.Hour).Check(raw, now); err != nil {
		t.Fatalf("3h max age: got %v", err)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(initdata.SignUser(token, initdata.User{ID: 1, FirstName: "a"}, now, "x"))
	f.Add("hash=00&auth_date=1")
	c := initdata.NewChecker(token, 0)
	f.Fuzz(func(t *testing.T, raw string) {
		d, err := c.Check(raw, now)
		if err == nil && d.User.ID == 0 {
			t.Fatalf("accepted %q without a user", raw)
		}
	})
}

func hmacSHA256(key, msg []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(msg)
	return h.Sum(nil)
}

func mustParse(t *testing.T, raw string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
