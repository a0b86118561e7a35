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
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// composeFile is the part of the Compose specification the file uses;
// a key outside it fails the test (a typo Compose would refuse or ignore).
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Configs  map[string]struct {
		Content string `yaml:"content"`
	} `yaml:"configs"`
	Volumes map[string]any `yaml:"volumes"`
}

type composeService struct {
	Image       string            `yaml:"image"`
	Build       string            `yaml:"build"`
	Command     []string          `yaml:"command"`
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

// TestCompose checks docker-compose.yml as an operator with a domain runs
// it, and as one without: Redis persists and evicts nothing; the bot's
// environment is a valid configuration, on Redis, with «Стол» at
// https://DOMAIN/table/ (and nothing without a DOMAIN); Caddy listens on
// 80 and 443 for DOMAIN and sends the page's path (and the webhook's) to
// the bot's public port, and nothing else: /metrics and /healthz are not
// reachable from outside. Docker itself is not run.
func TestCompose(t *testing.T) {
	const domain = "cards.example.org"
	f, err := loadCompose(t, map[string]string{"TELEGRAM_TOKEN": testToken, "DOMAIN": domain, "WEBAPP_SHORT_NAME": "table"})
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
	}

	redis := strings.Join(f.Services["redis"].Command, " ")
	for _, want := range []string{"--appendonly yes", "--maxmemory-policy noeviction"} {
		if !strings.Contains(redis, want) {
			t.Errorf("redis runs %q, without %s", redis, want)
		}
	}

	bot := f.Services["bot"]
	cfg, err := parseConfig(nil, envOf(bot.Environment), io.Discard)
	if err != nil {
		t.Fatalf("the bot's environment %v is refused:\n%v", bot.Environment, err)
	}
	if u, err := url.Parse(cfg.RedisURL); err != nil || u.Hostname() != "redis" {
		t.Errorf("REDIS_URL %q is not the redis service", cfg.RedisURL)
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
		f, err := loadCompose(t, map[string]string{"TELEGRAM_TOKEN": testToken, "DOMAIN": domain,
			"WEBHOOK_URL": "https://" + domain + "/telegram/hook", "WEBHOOK_SECRET": hookSecret})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := parseConfig(nil, envOf(f.Services["bot"].Environment), io.Discard)
		if err != nil || cfg.WebhookURL == "" || cfg.WebhookSecret != hookSecret {
			t.Fatalf("webhook mode refused: %v", err)
		}
	})
	t.Run("no domain", func(t *testing.T) {
		f, err := loadCompose(t, map[string]string{"TELEGRAM_TOKEN": testToken})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := parseConfig(nil, envOf(f.Services["bot"].Environment), io.Discard)
		if err != nil || cfg.WebAppURL != "" {
			t.Fatalf("without DOMAIN: WEBAPP_URL %q, %v; want no page and a valid configuration", cfg.WebAppURL, err)
		}
		sites := readCaddyfile(t, f.Configs["caddyfile"].Content)
		if _, ok := sites[":80"]; !ok || len(sites) != 1 {
			t.Errorf("without DOMAIN Caddy serves %v, want plain :80", slices.Collect(maps.Keys(sites)))
		}
	})
	t.Run("no token", func(t *testing.T) {
		if _, err := loadCompose(t, map[string]string{"DOMAIN": domain}); err == nil || !strings.Contains(err.Error(), "TELEGRAM_TOKEN") {
			t.Errorf("without TELEGRAM_TOKEN: %v, want Compose to refuse naming it", err)
		}
	})
}
