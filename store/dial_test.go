package store_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trickchef/trickchef/store"
	"github.com/trickchef/trickchef/store/redistest"
)

// TestDialRedisCluster dials real Cluster nodes the ways a REDIS_URL can
// name them: today's host list, a password, an ACL user, TLS.
func TestDialRedisCluster(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	commit := func(t *testing.T, url string) {
		t.Helper()
		r, err := store.DialRedis(ctx, url, "tc:", store.Config{})
		ok(t, err)
		defer r.Close()
		get(r.Commit(ctx, "g", store.Change{Data: []byte("x"), WakeAt: base, TimerAt: base}))(t)
		if n := get(r.Pending(ctx, store.Timers))(t); n != 1 {
			t.Fatalf("Pending(Timers) = %d", n)
		}
		ok(t, r.Delete(ctx, "g"))
	}
	t.Run("password", func(t *testing.T) {
		t.Parallel()
		cl := redistest.StartCluster(t, "--requirepass", "p@ss/w:rd", "--user", "alice", "on", ">alice-pw", "~*", "&*", "+@all")
		commit(t, "redis-cluster://:p%40ss%2Fw%3Ard@"+cl.Addr)
		commit(t, "redis-cluster://alice:alice-pw@"+cl.Addr+"?dial_timeout=2s")
		_, err := store.DialRedis(ctx, "redis-cluster://alice:wrong-pw@"+cl.Addr, "tc:", store.Config{})
		if err == nil || strings.Contains(err.Error(), "wrong-pw") {
			t.Fatalf("a wrong password: %v (must fail without repeating it)", err)
		}
	})
	t.Run("tls", func(t *testing.T) {
		t.Parallel()
		args, port := tlsArgs(t)
		redistest.StartCluster(t, append(args, "--tls-cluster", "yes")...)
		commit(t, "rediss-cluster://127.0.0.1:"+port+"?skip_verify=true")
		if _, err := store.DialRedis(ctx, "rediss-cluster://127.0.0.1:"+port, "tc:", store.Config{}); err == nil {
			t.Fatal("a certificate nobody signed was accepted without skip_verify")
		}
	})
	t.Run("tls-one-server", func(t *testing.T) {
		t.Parallel()
		args, port := tlsArgs(t)
		redistest.Start(t, append(args, "--requirepass", "pw")...)
		r, err := store.DialRedis(ctx, "rediss://:pw@127.0.0.1:"+port+"/0?skip_verify=true", "tc:", store.Config{})
		ok(t, err)
		defer r.Close()
		get(r.Commit(ctx, "g", store.Change{Data: []byte("x")}))(t)
	})
}

// tlsArgs are redis-server arguments for TLS on a free port besides the
// plain one, with a self-signed certificate for 127.0.0.1.
func tlsArgs(t *testing.T) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ok(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "redistest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	ok(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	ok(t, err)
	cert, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ok(t, os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	ok(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ok(t, err)
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	return []string{"--tls-port", port, "--tls-cert-file", cert, "--tls-key-file", keyFile,
		"--tls-ca-cert-file", cert, "--tls-auth-clients", "no"}, port
}
