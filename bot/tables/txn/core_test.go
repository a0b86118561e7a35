package txn

import (
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"
)

// TestUserLang: a person's Telegram language picks the bot's, else the
// default.
func TestUserLang(t *testing.T) {
	tests := []struct {
		code string
		def  string
		want string
	}{
		{"", "ru", "ru"},
		{"", "en", "en"},
		{"ru", "en", "ru"},
		{"ru-RU", "en", "ru"},
		{"uk", "en", "ru"},
		{"be", "en", "ru"},
		{"kk", "en", "ru"},
		{"en", "ru", "en"},
		{"en-US", "ru", "en"},
		{"de", "ru", "en"},
		{"pt-br", "ru", "en"},
	}
	for _, tc := range tests {
		u := &models.User{ID: 1, FirstName: "A", LanguageCode: tc.code}
		c := New(nil, nil, tc.def, time.Now, zerolog.Nop(), nil)
		if got := c.UserLang(u); got != tc.want {
			t.Errorf("UserLang(%q) with default %q = %q, want %q", tc.code, tc.def, got, tc.want)
		}
	}
	for _, def := range []string{"ru", "en"} {
		if got := New(nil, nil, def, time.Now, zerolog.Nop(), nil).UserLang(nil); got != def {
			t.Errorf("UserLang(nil) with default %q = %q", def, got)
		}
	}
}
