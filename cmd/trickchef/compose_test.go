package main

// Docker is not at hand where the tests run, so docker-compose.yml is
// checked the way Compose would read it: parsed (unknown keys refused),
// its variables interpolated as Compose does, the bot's environment given
// to parseConfig, and the Caddyfile it carries read for what reaches the bot.

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/trickchef/trickchef/store"
)

// composeFile is the part of the Compose specification the file uses;
// a key outside it fails the test (a typo Compose would refuse or ignore).
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Configs  map[string]struct {
		Content string `yaml:"content"`
	} `yaml:"configs"`
	Secrets map[string]struct {
		File string `yaml:"file"`
	} `yaml:"secrets"`
	Volumes map[string]any `yaml:"volumes"`
}

type composeService struct {
	Image       string            `yaml:"image"`
	Build       string            `yaml:"build"`
	Entrypoint  []string          `yaml:"entrypoint"`
	Command     []string          `yaml:"command"`
	Secrets     []string          `yaml:"secrets"`
	Environment map[string]string `yaml:"environment"`
	Expose      []string          `yaml:"expose"`
	Ports       []string          `yaml:"ports"`
	Configs     []struct {
		Source string `yaml:"source"`
		Target string `yaml:"target"`
	} `yaml:"configs"`
	Volumes     []string       `yaml:"volumes"`
	DependsOn   any            `yaml:"depends_on"`
	Restart     string         `yaml:"restart"`
	Healthcheck map[string]any `yaml:"healthcheck"`
	Logging     struct {
		Driver  string            `yaml:"driver"`
		Options map[string]string `yaml:"options"`
	} `yaml:"logging"`
}

// loadCompose reads docker-compose.yml with the variables of env (what
// .env holds), as `docker compose config` would.
func loadCompose(t *testing.T, env map[string]string) (composeFile, error) {
	t.Helper()
	raw, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(raw, &root); err != nil {
		t.Fatalf("docker-compose.yml is not YAML: %v", err)
	}
	if err := interpolateNode(&root, env); err != nil {
		return composeFile{}, err
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	if err := enc.Encode(&root); err != nil {
		t.Fatal(err)
	}
	var f composeFile
	dec := yaml.NewDecoder(&out)
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return f, nil
}

// interpolateNode interpolates every value (not key) under n.
func interpolateNode(n *yaml.Node, env map[string]string) error {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if err := interpolateNode(c, env); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if err := interpolateNode(n.Content[i], env); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		v, err := interpolate(n.Value, env)
		if err != nil {
			return err
		}
		n.Value = v
	}
	return nil
}

// interpolate expands $$, $VAR and ${VAR}, ${VAR:-default}, ${VAR-default},
// ${VAR:?error}, ${VAR?error}, ${VAR:+other}, ${VAR+other}, nested, as
// Compose does (docs.docker.com/reference/compose-file/interpolation).
func interpolate(s string, env map[string]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		switch next := s[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i += 2
		case next == '{':
			end, depth := i+2, 1
			for ; end < len(s) && depth > 0; end++ {
				switch s[end] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			if depth > 0 {
				return "", fmt.Errorf("unclosed ${ in %q", s)
			}
			v, err := expand(s[i+2:end-1], env)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = end
		default:
			name := regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*`).FindString(s[i+1:])
			if name == "" {
				b.WriteByte('$')
				i++
				continue
			}
			b.WriteString(env[name])
			i += 1 + len(name)
		}
	}
	return b.String(), nil
}

// expand is one ${…}: a name, then maybe an operator and its word.
func expand(expr string, env map[string]string) (string, error) {
	name := regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*`).FindString(expr)
	rest := expr[len(name):]
	v, set := env[name]
	for _, op := range []string{":-", "-", ":?", "?", ":+", "+"} {
		word, ok := strings.CutPrefix(rest, op)
		if !ok {
			continue
		}
		given := set && (v != "" || !strings.HasPrefix(op, ":"))
		switch op[len(op)-1] {
		case '-':
			if given {
				return v, nil
			}
			return interpolate(word, env)
		case '?':
			if given {
				return v, nil
			}
			msg, _ := interpolate(word, env)
			return "", fmt.Errorf("required variable %s is missing a value: %s", name, msg)
		case '+':
			if given {
				return interpolate(word, env)
			}
			return "", nil
		}
	}
	if rest != "" {
		return "", fmt.Errorf("bad interpolation ${%s}", expr)
	}
	return v, nil
}

func TestInterpolate(t *testing.T) {
	env := map[string]string{"A": "a", "E": ""}
	for in, want := range map[string]string{
		"x$A-${A}": "xa-a", "$$A": "$A", "${E:-d}": "d", "${E-d}": "", "${N-d}": "d", "${E:+r}": "", "${A:+r${A}}": "ra",
		"${N:-${A:-z}}": "a", "${A:?no}": "a", "cost $5": "cost $5",
	} {
		if got, err := interpolate(in, env); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	if _, err := interpolate("${E:?set E}", env); err == nil || !strings.Contains(err.Error(), "set E") {
		t.Errorf("a required empty variable: %v", err)
	}
}

// caddyRoute is a handle block of a Caddyfile's site.
type caddyRoute struct {
	matcher  string // "" for the fallback
	upstream string // its reverse_proxy, "" for none
}

// readCaddyfile reads the site addresses and their handle blocks of a
// Caddyfile as simple as ours: one directive a line.
func readCaddyfile(t *testing.T, text string) map[string][]caddyRoute {
	t.Helper()
	sites := map[string][]caddyRoute{}
	var site string
	var route *caddyRoute
	depth := 0
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch {
		case line == "}":
			depth--
			if depth == 1 && route != nil {
				sites[site] = append(sites[site], *route)
				route = nil
			}
		case strings.HasSuffix(line, "{"):
			depth++
			args := fields[:len(fields)-1]
			switch {
			case depth == 1:
				site = strings.Join(args, " ")
				sites[site] = nil
			case depth == 2 && args[0] == "handle":
				route = &caddyRoute{matcher: strings.Join(args[1:], " ")}
			}
		case route != nil && fields[0] == "reverse_proxy":
			route.upstream = strings.Join(fields[1:], " ")
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced braces in the Caddyfile:\n%s", text)
	}
	return sites
}

// routeOf is the upstream a request path reaches: the first handle whose
// path matcher matches (Caddy sorts them most specific first; ours do not
// overlap), else the fallback's.
func routeOf(routes []caddyRoute, path string) string {
	for _, r := range routes {
		if m, ok := strings.CutSuffix(r.matcher, "*"); r.matcher != "" && (path == r.matcher || ok && strings.HasPrefix(path, m)) {
			return r.upstream
		}
	}
	for _, r := range routes {
		if r.matcher == "" {
			return r.upstream
		}
	}
	return ""
}

// composeSecrets gives every secret of f a file of test content (a secret
// absent from contents gets "secret-<name>") and returns env with each
// /run/secrets/<name> it names replaced by that file, as Docker would
// mount it. Each *_FILE variable must name a secret the service lists, and
// each secret must be a file under ./secrets/.
func composeSecrets(t *testing.T, f composeFile, service string, env, contents map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	out := maps.Clone(env)
	for name, sec := range f.Secrets {
		if !strings.HasPrefix(sec.File, "./secrets/") {
			t.Errorf("secret %s is %q, want a file under ./secrets/", name, sec.File)
		}
		v, ok := contents[name]
		if !ok {
			v = "secret-" + name
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(v+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for k, e := range out {
			out[k] = strings.ReplaceAll(e, "/run/secrets/"+name, p)
		}
	}
	for k, v := range env {
		if !strings.HasSuffix(k, "_FILE") {
			continue
		}
		name, ok := strings.CutPrefix(v, "/run/secrets/")
		if _, declared := f.Secrets[name]; !ok || !declared || !slices.Contains(f.Services[service].Secrets, name) {
			t.Errorf("%s's %s=%s is not a secret it lists", service, k, v)
		}
	}
	return out
}

// TestCompose checks docker-compose.yml as an operator with a domain runs
// it, and as one without: Redis persists, evicts nothing, is bounded by
// maxmemory and wants a password, which is on no command line; the token
// and the password are Docker secrets, read through *_FILE and in no
// environment; the bot's log, which holds people's ids, is rotated; the
// bot's environment is a valid configuration, on that Redis with that
// password, with «Стол» at https://DOMAIN/table/ (and
// nothing without a DOMAIN); Caddy listens on 80 and 443 for DOMAIN and
// sends the page's path (and the webhook's) to the bot's public port, and
// nothing else: /metrics and /healthz are not reachable from outside.
// Docker itself is not run (TestComposeRedisStarts runs Redis's part).
func TestCompose(t *testing.T) {
	const domain = "cards.example.org"
	f, err := loadCompose(t, map[string]string{"DOMAIN": domain, "WEBAPP_SHORT_NAME": "table"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"redis", "bot", "caddy"} {
		if _, ok := f.Services[s]; !ok {
			t.Fatalf("no service %s", s)
		}
	}
	for name, s := range f.Services {
		for _, v := range s.Volumes {
			if src, _, _ := strings.Cut(v, ":"); !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "/") {
				if _, ok := f.Volumes[src]; !ok {
					t.Errorf("service %s mounts the undeclared volume %s", name, src)
				}
			}
		}
		for _, sec := range s.Secrets {
			if _, ok := f.Secrets[sec]; !ok {
				t.Errorf("service %s uses the undeclared secret %s", name, sec)
			}
		}
	}

	redis := f.Services["redis"]
	run := strings.Join(append(slices.Clone(redis.Entrypoint), redis.Command...), " ")
	for _, want := range []string{"--appendonly yes", "--maxmemory 256mb", "--maxmemory-policy noeviction", "requirepass", "/run/secrets/redis_password"} {
		if !strings.Contains(run, want) {
			t.Errorf("redis runs %q, without %s", run, want)
		}
	}
	if strings.Contains(run, "--requirepass") || !slices.Contains(redis.Secrets, "redis_password") {
		t.Errorf("redis's password must come from its secret, not the command line (ps shows it): %q, secrets %v", run, redis.Secrets)
	}
	if test, _ := redis.Healthcheck["test"].([]any); len(test) != 2 || !strings.Contains(fmt.Sprint(test[1]), "REDISCLI_AUTH") {
		t.Errorf("the healthcheck does not authenticate: %v", redis.Healthcheck["test"])
	}

	bot := f.Services["bot"]
	for _, plain := range []string{"TELEGRAM_TOKEN", "REDIS_PASSWORD"} {
		if _, ok := bot.Environment[plain]; ok {
			t.Errorf("the bot's %s is in its environment: it must be a secret file (%s_FILE)", plain, plain)
		}
	}
	if bot.Logging.Driver != "json-file" || bot.Logging.Options["max-size"] == "" || bot.Logging.Options["max-file"] == "" {
		t.Errorf("the bot's log is not rotated (it holds people's ids): %+v", bot.Logging)
	}
	const password = "0123456789abcdef"
	env := composeSecrets(t, f, "bot", bot.Environment, map[string]string{"telegram_token": testToken, "redis_password": password})
	cfg, err := parseConfig(nil, envOf(env), io.Discard)
	if err != nil {
		t.Fatalf("the bot's environment %v is refused:\n%v", bot.Environment, err)
	}
	if cfg.Token != testToken {
		t.Errorf("the token read from its secret: %q", cfg.Token)
	}
	if u, err := url.Parse(cfg.RedisURL); err != nil || u.Hostname() != "redis" {
		t.Errorf("REDIS_URL is not the redis service: %v", err)
	} else if pw, _ := u.User.Password(); pw != password {
		t.Errorf("REDIS_URL does not carry the password from its secret")
	}
	if cfg.WebAppURL != "https://"+domain+"/table/" || cfg.WebAppShortName != "table" {
		t.Errorf("WEBAPP_URL %q WEBAPP_SHORT_NAME %q", cfg.WebAppURL, cfg.WebAppShortName)
	}
	_, listenPort, _ := net.SplitHostPort(cfg.ListenAddr)
	opsHost, opsPort, _ := net.SplitHostPort(cfg.OpsAddr)
	if opsHost != "" && opsHost != "0.0.0.0" {
		t.Errorf("OPS_ADDR %q: in a container, loopback is out of reach of probes and Prometheus", cfg.OpsAddr)
	}
	for _, p := range []string{listenPort, opsPort} {
		if !slices.Contains(bot.Expose, p) {
			t.Errorf("the bot does not expose port %s (%v)", p, bot.Expose)
		}
	}
	for _, p := range bot.Ports {
		if !strings.HasPrefix(p, "127.0.0.1:") {
			t.Errorf("the bot publishes %s beyond this machine", p)
		}
	}

	caddy := f.Services["caddy"]
	for _, p := range []string{"80:80", "443:443"} {
		if !slices.Contains(caddy.Ports, p) {
			t.Errorf("caddy does not publish %s (%v)", p, caddy.Ports)
		}
	}
	if len(caddy.Configs) != 1 || caddy.Configs[0].Target != "/etc/caddy/Caddyfile" {
		t.Fatalf("caddy's configs: %+v", caddy.Configs)
	}
	caddyfile := f.Configs[caddy.Configs[0].Source].Content
	sites := readCaddyfile(t, caddyfile)
	routes, ok := sites[domain]
	if !ok || len(sites) != 1 {
		t.Fatalf("the Caddyfile serves %v, want %s alone:\n%s", slices.Collect(maps.Keys(sites)), domain, caddyfile)
	}
	toBot := "bot:" + listenPort
	page, _ := url.Parse(cfg.WebAppURL)
	for _, path := range []string{page.Path, page.Path + "app.js", page.Path + "api/events", "/telegram/hook"} {
		if got := routeOf(routes, path); got != toBot {
			t.Errorf("%s goes to %q, want %s:\n%s", path, got, toBot, caddyfile)
		}
	}
	for _, path := range []string{"/", "/metrics", "/healthz", "/tablex"} {
		if got := routeOf(routes, path); got != "" {
			t.Errorf("%s goes to %q, want nowhere", path, got)
		}
	}

	t.Run("webhook", func(t *testing.T) {
		f, err := loadCompose(t, map[string]string{"DOMAIN": domain,
			"WEBHOOK_URL": "https://" + domain + "/telegram/hook", "WEBHOOK_SECRET": hookSecret})
		if err != nil {
			t.Fatal(err)
		}
		env := composeSecrets(t, f, "bot", f.Services["bot"].Environment, map[string]string{"telegram_token": testToken})
		cfg, err := parseConfig(nil, envOf(env), io.Discard)
		if err != nil || cfg.WebhookURL == "" || cfg.WebhookSecret != hookSecret {
			t.Fatalf("webhook mode refused: %v", err)
		}
	})
	t.Run("no domain", func(t *testing.T) {
		f, err := loadCompose(t, map[string]string{"REDIS_MAXMEMORY": "2gb"})
		if err != nil {
			t.Fatal(err)
		}
		env := composeSecrets(t, f, "bot", f.Services["bot"].Environment, map[string]string{"telegram_token": testToken})
		cfg, err := parseConfig(nil, envOf(env), io.Discard)
		if err != nil || cfg.WebAppURL != "" {
			t.Fatalf("without DOMAIN: WEBAPP_URL %q, %v; want no page and a valid configuration", cfg.WebAppURL, err)
		}
		sites := readCaddyfile(t, f.Configs["caddyfile"].Content)
		if _, ok := sites[":80"]; !ok || len(sites) != 1 {
			t.Errorf("without DOMAIN Caddy serves %v, want plain :80", slices.Collect(maps.Keys(sites)))
		}
		if run := strings.Join(f.Services["redis"].Command, " "); !strings.Contains(run, "--maxmemory 2gb ") {
			t.Errorf("REDIS_MAXMEMORY=2gb: redis runs %q", run)
		}
	})
}

// TestComposeRedisStarts runs the redis service's command as its
// container would — the secret a file, Redis on a port of the test's,
// without what only the image has (its entrypoint script, its redis user)
// — and its healthcheck: Redis starts from the file the command writes,
// wants the password, holds at most maxmemory and evicts nothing, and the
// healthcheck passes with the password and fails without it.
func TestComposeRedisStarts(t *testing.T) {
	t.Parallel()
	f, err := loadCompose(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	redis := f.Services["redis"]
	if len(redis.Entrypoint) != 2 || redis.Entrypoint[0] != "/bin/sh" || redis.Entrypoint[1] != "-c" || len(redis.Command) != 1 {
		t.Fatalf("redis's entrypoint %q and command %q: want /bin/sh -c and one script", redis.Entrypoint, redis.Command)
	}
	dir := t.TempDir()
	const password = "0123456789abcdef0123456789abcdef"
	secret := filepath.Join(dir, "redis_password")
	if err := os.WriteFile(secret, []byte(password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	script := regexp.MustCompile(`chown redis \S+ &&`).ReplaceAllString(redis.Command[0], "")
	script = strings.NewReplacer("/run/secrets/redis_password", secret, "/tmp/redis-auth.conf", filepath.Join(dir, "auth.conf"),
		"docker-entrypoint.sh ", "").Replace(script)
	script += " --port " + port + " --bind 127.0.0.1 --dir " + dir
	if strings.Contains(script, "chown") || strings.Contains(script, "docker-entrypoint") {
		t.Fatalf("the script's Docker parts were not replaced: %s", script)
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	ctx := t.Context()
	var st *store.Redis
	deadline := time.Now().Add(20 * time.Second)
	for st == nil {
		st, err = store.DialRedis(ctx, "redis://:"+password+"@127.0.0.1:"+port+"/0", "tc:", store.Config{})
		if err != nil && time.Now().After(deadline) {
			t.Fatalf("Redis did not start with the password: %v\n%s", err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer st.Close()
	chk, err := st.CheckServer(ctx)
	if err != nil || chk.Policy != "noeviction" || !strings.HasPrefix(chk.Persistence, "aof") {
		t.Errorf("the server: %+v %v, want noeviction and AOF", chk, err)
	}
	if _, err := store.DialRedis(ctx, "redis://127.0.0.1:"+port+"/0", "tc:", store.Config{}); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Errorf("Redis without the password: %v, want NOAUTH", err)
	}
	if ps, err := exec.Command("ps", "-o", "args=", "-p", strconv.Itoa(cmd.Process.Pid)).Output(); err == nil && strings.Contains(string(ps), password) {
		t.Errorf("the password is on Redis's command line: %s", ps)
	}

	test := redis.Healthcheck["test"].([]any)
	if test[0] != "CMD-SHELL" {
		t.Fatalf("the healthcheck %v is not a CMD-SHELL", test)
	}
	health := strings.NewReplacer("/run/secrets/redis_password", secret, "redis-cli", "redis-cli -p "+port).Replace(test[1].(string))
	if err := exec.Command("/bin/sh", "-c", health).Run(); err != nil {
		t.Errorf("the healthcheck fails on a healthy Redis: %v", err)
	}
	if err := os.WriteFile(secret, []byte("wrong"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("/bin/sh", "-c", health).Run(); err == nil {
		t.Error("the healthcheck passes with a wrong password")
	}
}
