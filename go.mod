module github.com/trickchef/trickchef

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/go-telegram/bot v1.19.0
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	github.com/redis/go-redis/v9 v9.23.0
	github.com/rs/zerolog v1.35.1
	go.etcd.io/bbolt v1.5.0
	golang.org/x/text v0.43.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
