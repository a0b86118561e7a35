package store

import (
	"strings"
	"testing"
	"time"
)

// TestParseRedisURL pins what each URL form gives go-redis, and that no
// error repeats a password.
func TestParseRedisURL(t *testing.T) {
	parse := func(raw string) dialTarget {
		t.Helper()
		d, err := parseRedisURL(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return d
	}
	// One server, as before.
	one := parse("rediss://bob:p%40ss@h:6380/3?dial_timeout=2s").one
	if one.Addr != "h:6380" || one.Username != "bob" || one.Password != "p@ss" || one.DB != 3 || one.TLSConfig == nil || one.DialTimeout != 2*time.Second {
		t.Errorf("rediss:// = %+v", one)
	}
	// Today's Cluster form, and with a user, a password, TLS and options.
	cl := parse("redis-cluster://h1:7000,h2:7001").cluster
	if strings.Join(cl.Addrs, ",") != "h1:7000,h2:7001" || cl.Password != "" || cl.TLSConfig != nil {
		t.Errorf("redis-cluster:// = %+v", cl)
	}
	cl = parse("rediss-cluster://alice:s%2Fcr%3At@h1:7000,h2:7001,[::1]:7002?read_timeout=4s&skip_verify=true&addr=h4:7003").cluster
	if strings.Join(cl.Addrs, ",") != "h1:7000,h4:7003,h2:7001,[::1]:7002" && strings.Join(cl.Addrs, ",") != "h1:7000,h2:7001,[::1]:7002,h4:7003" {
		t.Errorf("cluster addrs = %v", cl.Addrs)
	}
	if cl.Username != "alice" || cl.Password != "s/cr:t" || cl.ReadTimeout != 4*time.Second ||
		cl.TLSConfig == nil || cl.TLSConfig.ServerName != "" || !cl.TLSConfig.InsecureSkipVerify {
		t.Errorf("rediss-cluster:// = %+v (tls %+v)", cl, cl.TLSConfig)
	}
	// Sentinel: the sentinels, the master's name, db and password; the
	// sentinels' own password as an option.
	fo := parse("redis-sentinel://:m%40ster@s1:26379,s2:26380,s3:26381/my%20master/2?sentinel_password=sent&pool_size=7&wait_replicas=1&wait_timeout=250ms").failover
	if fo.MasterName != "my master" || strings.Join(fo.SentinelAddrs, ",") != "s1:26379,s2:26380,s3:26381" || fo.Password != "m@ster" ||
		fo.SentinelPassword != "sent" || fo.DB != 2 || fo.PoolSize != 7 || fo.TLSConfig != nil {
		t.Errorf("redis-sentinel:// = %+v", fo)
	}
	if d := parse("redis-sentinel://s1:1/m?wait_replicas=1&wait_timeout=250ms"); d.waitReplicas == 0 {
		t.Error("wait_replicas not taken")
	} else if s := (Config{WaitReplicas: d.waitReplicas, WaitTimeout: d.waitTimeout}).settings(); s.waitReplicas != 1 || s.waitTimeout != 250*time.Millisecond {
		t.Errorf("wait settings = %+v", s)
	}
	if fo := parse("rediss-sentinel://s1:26379/m").failover; fo.TLSConfig == nil || fo.TLSConfig.ServerName != "" || fo.Password != "" {
		t.Errorf("rediss-sentinel:// = %+v", fo)
	}

	for _, bad := range []string{
		"http://h:1",
		"redis-cluster://:hunter2@h1:1,h2:2/0",
		"redis-cluster://:hunter2@h1:1?wait_replicas=1",
		"redis-sentinel://:hunter2@h1:1",
		"redis-sentinel://:hunter2@h1:1/m/x/y",
		"redis://:hunter2@h1:1,h2:2",
		"redis://:hunter2@h1:1?bogus=1",
		"redis-cluster://:hunter2@h1:1?bogus=1",
		"redis-sentinel://:hunter2@h1:1/m?bogus=1",
		"redis://:hunter2@h1:1?wait_replicas=0",
		"redis://:hunter2@h1:1?wait_timeout=1s",
		"redis-cluster://:hunter2@,h1:1",
		"redis",
	} {
		err := CheckRedisURL(bad)
		if err == nil {
			t.Errorf("%s accepted", bad)
		} else if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error repeats the password: %v", bad, err)
		}
	}
}
