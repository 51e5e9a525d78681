package httpapi

import (
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
)

// The gate is what every request passes before routing, on every route and
// with or without tokens, so that a web page the user happens to visit
// cannot drive the API from the browser:
//
//   - Host must be a loopback name or a configured host: a page on a name
//     its owner re-points at 127.0.0.1 (DNS rebinding) sends its own name.
//   - Origin, when present, must be the server's own or a configured one:
//     browsers send it on every cross-site request but simple GETs.
//   - A body must be JSON: text/plain, form and multipart bodies (and
//     bodies without a type) are what a page may send cross-site without a
//     CORS preflight.
//   - CORS headers only for configured origins; none at all without.

// Config fields' names in config.json, for the messages that say how to
// allow a refused host or origin.
const (
	hostsField   = "server.allowed_hosts"
	originsField = "server.allowed_origins"
)

// corsMethods and corsHeaders are what a preflight from a configured origin
// is told it may send.
const (
	corsMethods = "GET, POST, PATCH, DELETE"
	corsHeaders = "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID"
	corsExpose  = "Mcp-Session-Id, WWW-Authenticate"
)

// importPattern is the one route that also takes JSON Lines.
const importPattern = "POST /v1/import"

type gate struct {
	names   map[string]bool // host names allowed on any port ("mneme.lan", "[2001:db8::1]")
	hosts   map[string]bool // host:port allowed ("mneme.lan:7077")
	origins map[string]bool // origins allowed, as keyOf writes them
}

// newGate builds the gate from checked lists (see CheckHosts and
// CheckOrigins); an entry that does not parse allows nothing.
func newGate(hosts, origins []string) *gate {
	g := &gate{names: map[string]bool{}, hosts: map[string]bool{}, origins: map[string]bool{}}
	for _, h := range hosts {
		a, err := parseHost(h, true)
		switch {
		case err != nil:
		case a.port == "":
			g.names[a.name] = true
		default:
			g.hosts[a.name+":"+a.port] = true
		}
	}
	for _, o := range origins {
		if a, err := parseOrigin(o); err == nil {
			g.origins[a.key()] = true
		}
	}
	return g
}

// admit lets r through, or answers it (a refusal, or a preflight from a
// configured origin) and returns false. pattern is r's route, if any.
func (g *gate) admit(w http.ResponseWriter, r *http.Request, pattern string) bool {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host, err := parseHost(r.Host, false)
	if err == nil {
		host.scheme = scheme
	}
	if err != nil || !g.allowsHost(host) {
		fail(w, r, hostRefused(r.Host))
		return false
	}
	if len(g.origins) > 0 {
		w.Header().Add("Vary", "Origin")
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		o, err := parseOrigin(origin)
		same := err == nil && o.scheme == scheme && o.name == host.name && o.defaulted() == host.defaulted()
		configured := err == nil && !same && len(g.origins) > 0 && g.origins[o.key()]
		if !same && !configured {
			fail(w, r, originRefused(origin))
			return false
		}
		if configured {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", corsMethods)
				h.Set("Access-Control-Allow-Headers", corsHeaders)
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return false
			}
			h.Set("Access-Control-Expose-Headers", corsExpose)
		}
	}
	if r.ContentLength != 0 { // a body (-1: of unknown length)
		if msg, ok := jsonBody(r.Header.Get("Content-Type"), pattern == importPattern); !ok {
			if info := infoFrom(r.Context()); info != nil {
				info.code = mneme.EINVALID
			}
			writeError(w, http.StatusUnsupportedMediaType, mneme.EINVALID, msg)
			return false
		}
	}
	return true
}

func (g *gate) allowsHost(h addr) bool {
	return h.loopback() || g.names[h.name] || g.hosts[h.name+":"+h.defaulted()]
}

func hostRefused(host string) error {
	if host == "" {
		return forbidden("the request has no Host header: send the server's address as Host, like 127.0.0.1:7077")
	}
	name := host
	if a, err := parseHost(host, false); err == nil {
		name = a.name
	}
	return forbidden("Host %q is not allowed: the server answers loopback names (localhost, 127.0.0.1, [::1]) and the hosts listed in %s of config.json; "+
		"if you reach it by that name, add %q there (a web page can point a name of its own at this server, so other names are refused)", host, hostsField, name)
}

func originRefused(origin string) error {
	if origin == "null" {
		return forbidden("Origin \"null\" (a sandboxed page or a local file) is not allowed: serve the page from an origin listed in %s of config.json", originsField)
	}
	return forbidden("Origin %q is not allowed: web pages from other sites may not call this server; to let that site call it, add %q to %s in config.json",
		origin, origin, originsField)
}

// jsonBody checks a request body's Content-Type: application/json
// (parameters such as charset allowed), or for import also
// application/x-ndjson. Otherwise it says what to send.
func jsonBody(ct string, lines bool) (string, bool) {
	base, _, _ := strings.Cut(ct, ";")
	base = strings.TrimSpace(base)
	if strings.EqualFold(base, "application/json") || (lines && strings.EqualFold(base, "application/x-ndjson")) {
		return "", true
	}
	want := "Content-Type: application/json"
	if lines {
		want += " (or application/x-ndjson for JSON Lines)"
	}
	if ct == "" {
		return "the request has a body but no Content-Type: send " + want, false
	}
	return fmt.Sprintf("Content-Type %q is not accepted: send %s", ct, want), false
}

// addr is a parsed Host or origin: name lowercased (an IPv6 address in
// brackets), port as written or empty.
type addr struct {
	scheme, name, port string
}

// defaulted is the port, or the scheme's default when none is written.
func (a addr) defaulted() string {
	switch {
	case a.port != "":
		return a.port
	case a.scheme == "https":
		return "443"
	}
	return "80"
}

func (a addr) key() string { return a.scheme + "://" + a.name + ":" + a.defaulted() }

func (a addr) loopback() bool {
	if a.name == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(a.name, "[]"))
	return err == nil && ip.IsLoopback()
}

// parseHost parses host[:port] as the Host header carries it. bare allows
// an IPv6 address without brackets (a configured host).
func parseHost(s string, bare bool) (addr, error) {
	var a addr
	if s == "" {
		return a, fmt.Errorf("it is empty")
	}
	name, port := s, ""
	switch i := strings.LastIndexByte(s, ']'); {
	case strings.HasPrefix(s, "["):
		if i < 0 {
			return a, fmt.Errorf("%q has no closing ]", s)
		}
		name, port = s[:i+1], s[i+1:]
		if port != "" {
			if port[0] != ':' {
				return a, fmt.Errorf("%q has something after ] that is not :port", s)
			}
			port = port[1:]
		}
		ip, err := netip.ParseAddr(name[1 : len(name)-1])
		if err != nil || !ip.Is6() {
			return a, fmt.Errorf("%q is not an IPv6 address in brackets", name)
		}
		name = "[" + ip.String() + "]"
	case strings.Count(s, ":") > 1:
		ip, err := netip.ParseAddr(s)
		if !bare || err != nil || !ip.Is6() {
			return a, fmt.Errorf("%q is not a host name or address: write an IPv6 address in brackets, like [::1]:7077", s)
		}
		name = "[" + ip.String() + "]"
	default:
		name, port, _ = strings.Cut(s, ":")
		if !validName(name) {
			return a, fmt.Errorf("%q is not a host name or IP address", name)
		}
		if ip, err := netip.ParseAddr(name); err == nil {
			name = ip.String()
		}
	}
	if port != "" || strings.HasSuffix(s, ":") {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port[0] == '0' || port[0] == '+' {
			return a, fmt.Errorf("port %q is not a number from 1 to 65535", port)
		}
	}
	a.name, a.port = strings.ToLower(name), port
	return a, nil
}

// validName: a DNS name or IPv4 address (letters, digits, '-', '_', dots
// between labels).
func validName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// parseOrigin parses scheme://host[:port], as browsers send Origin.
func parseOrigin(s string) (addr, error) {
	scheme, rest, ok := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") {
		return addr{}, fmt.Errorf("it is not scheme://host[:port] with scheme http or https")
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return addr{}, fmt.Errorf("it has a path, query or fragment (%q)", rest[i:])
	}
	if strings.Contains(rest, "@") {
		return addr{}, fmt.Errorf("it has user information (@)")
	}
	a, err := parseHost(rest, false)
	if err != nil {
		return addr{}, err
	}
	a.scheme = scheme
	return a, nil
}

// CheckHosts validates the hosts a server answers besides loopback names
// (Config.AllowedHosts; server.allowed_hosts in config.json): each a bare
// name or address, allowed on any port, or host:port.
func CheckHosts(hosts []string) error {
	for i, h := range hosts {
		if strings.Contains(h, "/") {
			return mneme.Invalid("%s[%d] %q is not a host: write a name or address, optionally with :port, like mneme.example.com or 192.168.1.20:7077 (not a URL)", hostsField, i, h)
		}
		if _, err := parseHost(h, true); err != nil {
			return mneme.Invalid("%s[%d] %q is not a host: %v; write a name or address, optionally with :port, like mneme.example.com or 192.168.1.20:7077", hostsField, i, h, err)
		}
	}
	return nil
}

// CheckOrigins validates the origins allowed to call the server from a
// browser (Config.AllowedOrigins; server.allowed_origins in config.json):
// each scheme://host[:port], with scheme http or https and no path.
func CheckOrigins(origins []string) error {
	for i, o := range origins {
		if o == "*" || o == "null" {
			return mneme.Invalid("%s[%d] %q is not allowed: list each origin, like https://app.example.com", originsField, i, o)
		}
		if _, err := parseOrigin(o); err != nil {
			like := "https://app.example.com or http://localhost:5173"
			if scheme, rest, ok := strings.Cut(o, "://"); ok {
				if j := strings.IndexAny(rest, "/?#"); j >= 0 {
					if _, err := parseOrigin(scheme + "://" + rest[:j]); err == nil {
						like = scheme + "://" + rest[:j]
					}
				}
			}
			return mneme.Invalid("%s[%d] %q is not an origin: %v; write scheme://host[:port] only, like %s", originsField, i, o, err, like)
		}
	}
	return nil
}
