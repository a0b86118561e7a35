package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// DialRedis connects to the Redis named by a URL and checks it answers, so
// that process wiring never imports go-redis itself. The store owns the
// connection pool: Close it when done. The URLs (a password or a name with
// reserved characters is percent-encoded, as in any URL):
//
//	redis://[[user]:password@]host:port[/db][?options]         one server
//	redis-cluster://[[user]:password@]host:port[,host:port…][?options]
//	redis-sentinel://[[user]:password@]host:port[,host:port…]/master[/db][?options]
//
// rediss://, rediss-cluster:// and rediss-sentinel:// are the same over
// TLS; each connection checks the certificate of the host it dials, and the
// option skip_verify=true turns that off. A Cluster URL lists one or more
// nodes (the rest are discovered); go-redis's own form with addr=host:port
// options is accepted too. A Sentinel URL lists the sentinels and names the
// master; user and password are the master's (and its replicas'), and the
// options sentinel_username and sentinel_password give the sentinels' own.
// The other options are go-redis's (dial_timeout=3s, pool_size=20, …; see
// redis.ParseURL), plus the store's wait_replicas and wait_timeout (see
// Config.WaitReplicas, which wins over them when set).
func DialRedis(ctx context.Context, rawURL, prefix string, cfg Config) (*Redis, error) {
	d, err := parseRedisURL(rawURL)
	if err != nil {
		return nil, err
	}
	if cfg.WaitReplicas == 0 {
		cfg.WaitReplicas, cfg.WaitTimeout = d.waitReplicas, d.waitTimeout
	}
	c := d.client()
	r := NewRedis(c, prefix, cfg)
	r.owned = true
	if err := r.Ping(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return r, nil
}

// CheckRedisURL reports what is wrong with a Redis URL, without dialing,
// in words that never repeat its password.
func CheckRedisURL(rawURL string) error {
	_, err := parseRedisURL(rawURL)
	return err
}

// dialTarget is what a URL names: the options of one of go-redis's
// clients, and the replica wait asked for (none: zero).
type dialTarget struct {
	one          *redis.Options
	cluster      *redis.ClusterOptions
	failover     *redis.FailoverOptions
	waitReplicas int
	waitTimeout  time.Duration
}

// client makes the client (it connects on first use).
func (d dialTarget) client() redis.UniversalClient {
	switch {
	case d.cluster != nil:
		return redis.NewClusterClient(d.cluster)
	case d.failover != nil:
		return redis.NewFailoverClient(d.failover)
	}
	return redis.NewClient(d.one)
}

// parseRedisURL reads a URL (see DialRedis).
func parseRedisURL(rawURL string) (dialTarget, error) {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return dialTarget{}, errors.New("store: redis url: no scheme (redis://, redis-cluster://, redis-sentinel://)")
	}
	base, kind, _ := strings.Cut(scheme, "-")
	if base != "redis" && base != "rediss" {
		return dialTarget{}, fmt.Errorf("store: redis url: unknown scheme %q", scheme)
	}
	tls := base == "rediss"
	// The authority ends where the path or the query begins; it may list
	// several hosts, which url.Parse refuses, so it is split by hand.
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	var user *url.Userinfo
	hostList := authority
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		u, err := url.Parse("x://" + authority[:at+1] + "h")
		if err != nil {
			return dialTarget{}, errors.New("store: redis url: bad user or password (percent-encode reserved characters)")
		}
		user, hostList = u.User, authority[at+1:]
	}
	path, rawQuery, _ := strings.Cut(tail, "?")
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return dialTarget{}, fmt.Errorf("store: redis url: bad options: %w", err)
	}
	waitN, waitT, err := takeWait(query)
	if err != nil {
		return dialTarget{}, err
	}
	hosts := strings.Split(hostList, ",")
	for _, h := range hosts {
		if h == "" {
			return dialTarget{}, errors.New("store: redis url: empty host")
		}
	}
	goScheme := "redis"
	if tls {
		goScheme = "rediss"
	}
	switch kind {
	case "":
		if len(hosts) > 1 {
			return dialTarget{}, errors.New("store: redis url: several hosts: use redis-cluster:// or redis-sentinel://")
		}
		o, err := redis.ParseURL(rawURLWithout(goScheme, user, hosts[0], path, query))
		if err != nil {
			return dialTarget{}, redactURLError(err, user)
		}
		return dialTarget{one: o, waitReplicas: waitN, waitTimeout: waitT}, nil
	case "cluster":
		if strings.Trim(path, "/") != "" {
			return dialTarget{}, errors.New("store: redis url: a Cluster has no database number")
		}
		if waitN > 0 {
			return dialTarget{}, errors.New("store: redis url: wait_replicas works with redis:// and redis-sentinel:// only")
		}
		skip := query.Get("skip_verify") == "true"
		query.Del("skip_verify")
		for _, h := range hosts[1:] {
			query.Add("addr", h)
		}
		o, err := redis.ParseClusterURL(rawURLWithout(goScheme, user, hosts[0], "", query))
		if err != nil {
			return dialTarget{}, redactURLError(err, user)
		}
		if o.TLSConfig != nil {
			o.TLSConfig.ServerName = "" // each node's own name, not the first's
			o.TLSConfig.InsecureSkipVerify = skip
		}
		return dialTarget{cluster: o}, nil
	case "sentinel":
		parts := strings.Split(strings.Trim(path, "/"), "/")
		if parts[0] == "" || len(parts) > 2 {
			return dialTarget{}, errors.New("store: redis url: a Sentinel URL ends in /<master name>[/<db>]")
		}
		master, err := url.PathUnescape(parts[0])
		if err != nil {
			return dialTarget{}, errors.New("store: redis url: bad master name")
		}
		query.Set("master_name", master)
		if len(parts) == 2 {
			query.Set("db", parts[1])
		}
		if user != nil {
			query.Set("username", user.Username())
			if p, ok := user.Password(); ok {
				query.Set("password", p)
			}
		}
		var sentinels *url.Userinfo
		if su, sp := query.Get("sentinel_username"), query.Get("sentinel_password"); su != "" || sp != "" {
			sentinels = url.UserPassword(su, sp)
		}
		query.Del("sentinel_username")
		query.Del("sentinel_password")
		for _, h := range hosts[1:] {
			query.Add("addr", h)
		}
		o, err := redis.ParseFailoverURL(rawURLWithout(goScheme, sentinels, hosts[0], "", query))
		if err != nil {
			return dialTarget{}, redactURLError(err, user, sentinels)
		}
		if o.TLSConfig != nil {
			o.TLSConfig.ServerName = ""
		}
		return dialTarget{failover: o, waitReplicas: waitN, waitTimeout: waitT}, nil
	}
	return dialTarget{}, fmt.Errorf("store: redis url: unknown scheme %q", scheme)
}

// redactURLError words a parse error without the password, which go-redis
// may quote with the URL.
func redactURLError(err error, users ...*url.Userinfo) error {
	msg := err.Error()
	for _, u := range users {
		if u == nil {
			continue
		}
		if p, ok := u.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, url.QueryEscape(p), "***")
			msg = strings.ReplaceAll(msg, url.PathEscape(p), "***")
			msg = strings.ReplaceAll(msg, p, "***")
		}
	}
	return errors.New("store: redis url: " + msg)
}

// rawURLWithout builds a URL in go-redis's own form.
func rawURLWithout(scheme string, user *url.Userinfo, host, path string, query url.Values) string {
	u := url.URL{Scheme: scheme, User: user, Host: host, Path: path, RawQuery: query.Encode()}
	return u.String()
}

// takeWait removes the store's own options from a URL's query and returns
// the replica wait they ask for (none: zero).
func takeWait(q url.Values) (int, time.Duration, error) {
	n, t := q.Get("wait_replicas"), q.Get("wait_timeout")
	q.Del("wait_replicas")
	q.Del("wait_timeout")
	if n == "" {
		if t != "" {
			return 0, 0, errors.New("store: redis url: wait_timeout needs wait_replicas")
		}
		return 0, 0, nil
	}
	replicas, err := strconv.Atoi(n)
	if err != nil || replicas < 1 {
		return 0, 0, fmt.Errorf("store: redis url: wait_replicas %q must be a number of replicas ≥ 1", n)
	}
	timeout := time.Second
	if t != "" {
		if timeout, err = time.ParseDuration(t); err != nil || timeout <= 0 {
			return 0, 0, fmt.Errorf("store: redis url: wait_timeout %q must be a Go duration, e.g. 500ms", t)
		}
	}
	return replicas, timeout, nil
}

// Close closes the connection pool if DialRedis opened it. A client passed
// to NewRedis belongs to the caller and is left open.
func (r *Redis) Close() error {
	if !r.owned {
		return nil
	}
	return r.c.Close()
}
