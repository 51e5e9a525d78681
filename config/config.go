// Package config is mneme's configuration: the schema of config.json in
// the data directory, the precedence of its sources (flag > environment >
// file > the home's own > default), and the factories that turn it into a
// store, an embedder and a language model. Load reads it once per process;
// Config.Open opens a home for any command or server.
package config

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/internal/secret"
	"github.com/mneme-ai/mneme/mcpserver"
	"github.com/mneme-ai/mneme/rank"
)

// FileName is the configuration file inside the data directory.
const FileName = "config.json"

// File is the content of config.json. Unknown fields are errors.
type File struct {
	Store    string   `json:"store,omitempty"` // the store's DSN: sqlite (the default), sqlite:DIR, postgres or postgres:SCHEMA
	Postgres Postgres `json:"postgres,omitzero"`
	Embedder Embedder `json:"embedder"`
	ModelDir string   `json:"model_dir"`
	LLM      LLM      `json:"llm"`
	Server   Server   `json:"server"`
	Code     Code     `json:"code,omitzero"`
	Cache    Cache    `json:"cache,omitzero"`
	MCP      MCP      `json:"mcp,omitzero"`
	Hooks    Hooks    `json:"hooks,omitzero"`
	// Recall holds the deployment's defaults for the recall options a
	// request leaves out (mode, min_score, mmr, expand, half_life): every
	// surface's recalls and context packages. Fusion and alpha are the
	// ranking profile's (Ranking).
	Recall  mneme.RecallDefaults `json:"recall,omitzero"`
	Ranking Ranking              `json:"ranking,omitzero"`
}

// Ranking sets the home's ranking profile (package rank): Profile names
// the one recall uses unless a query names another; Profiles are the
// named ones, each given as the fields it changes from the defaults, like
//
//	"ranking": {"profile": "conversations", "profiles": {
//	  "documents": {"alpha": 0.4}, "conversations": {"session_boost": 0.3}}}
//
// Without a section, recall ranks by rank.Default().
type Ranking struct {
	Profile  string                  `json:"profile,omitempty"`
	Profiles map[string]rank.Profile `json:"profiles,omitempty"`
}

// Options returns the Engine options of the ranking section, or an error
// when Profile names no profile of Profiles.
func (r Ranking) Options() ([]mneme.Option, error) {
	if r.Profile == "" && len(r.Profiles) == 0 {
		return nil, nil
	}
	opts := []mneme.Option{mneme.WithProfiles(r.Profiles)}
	if r.Profile == "" {
		return opts, nil
	}
	p, ok := r.Profiles[r.Profile]
	if !ok {
		return nil, mneme.Invalid("config.json: ranking.profile %q names no profile of ranking.profiles: add it there, or name one of those", mneme.Clip(r.Profile))
	}
	return append(opts, mneme.WithProfile(p)), nil
}

// Hooks configures `mneme hook`, the capture from agent hosts: Disabled
// turns every hook into a no-op; Budget is the session-start package's
// token budget (default 1500); Project names the project instead of the
// repository's directory name.
type Hooks struct {
	Disabled bool   `json:"disabled,omitempty"`
	Budget   int    `json:"budget,omitempty"`
	Project  string `json:"project,omitempty"`
}

// Code configures code memory (package codemem) on the servers: the
// directories under which `mneme serve` and `mneme mcp` explore
// repositories. Without roots they explore none (403 EFORBIDDEN); the
// CLI's own `mneme code` commands explore any directory.
type Code struct {
	Roots []string `json:"roots,omitempty"`
}

// Embedder configures the embedding provider.
type Embedder struct {
	Provider  string `json:"provider"`    // minilm (default), minilm-int8, hash, ollama, openai, none
	URL       string `json:"url"`         // ollama, openai
	Model     string `json:"model"`       // ollama, openai
	Dim       int    `json:"dim"`         // hash, ollama, openai
	APIKeyEnv string `json:"api_key_env"` // openai: the variable holding the key
}

// Postgres configures the shared store. The connection string itself is
// never in config.json: it stays in the environment variable DSNEnv names.
type Postgres struct {
	DSNEnv string `json:"dsn_env,omitempty"` // default MNEME_PG_DSN
	Schema string `json:"schema,omitempty"`  // default: the connection's search_path (usually public)
}

// LLM names the language model that writes HyDE hypotheses; without one,
// recall uses the deterministic generator.
type LLM struct {
	Provider  string `json:"provider"` // ollama or openai (any OpenAI-compatible chat API)
	URL       string `json:"url"`
	Model     string `json:"model"`
	APIKeyEnv string `json:"api_key_env"`
	// Models are other models of the provider a summarize call may
	// choose (its model field); model is the default.
	Models []string `json:"models,omitempty"`
}

// Server is `mneme serve`'s: bearer tokens scoped to projects and read or
// write (without tokens the server only binds to loopback), the request
// body limit, the names it answers besides loopback (allowed_hosts) and the
// web origins that may call it (allowed_origins), and the bounds of MCP
// sessions over HTTP.
type Server struct {
	Tokens         []access.Token `json:"tokens"`
	MaxBodyBytes   int64          `json:"max_body_bytes"`
	AllowedHosts   []string       `json:"allowed_hosts"`
	AllowedOrigins []string       `json:"allowed_origins"`
	// MCPSessionTimeout closes an MCP session idle this long, like "30m"
	// (default mcpserver.DefaultSessionTimeout).
	MCPSessionTimeout string `json:"mcp_session_timeout,omitempty"`
	// MCPMaxSessions is the most MCP sessions open at once (default
	// mcpserver.DefaultMaxSessions).
	MCPMaxSessions int `json:"mcp_max_sessions,omitempty"`
}

// Serving is the server section checked, with the tokens' secrets read
// and the defaults filled: what `mneme serve` runs with.
type Serving struct {
	Tokens         []access.Token // checked (access.Check)
	MaxBodyBytes   int64          // 0: the HTTP API's default
	AllowedHosts   []string       // checked (httpapi.CheckHosts)
	AllowedOrigins []string       // checked (httpapi.CheckOrigins)
	MCP            mcpserver.HTTPOptions
}

// Serving checks the server section: a mistake in it is an error at
// start, never a silently different server.
func (c *Config) Serving() (Serving, error) {
	s := c.File.Server
	tokens, err := access.Check(s.Tokens, c.getenv)
	if err != nil {
		return Serving{}, mneme.Invalid("%s: %v", FileName, err)
	}
	if err := httpapi.CheckHosts(s.AllowedHosts); err != nil {
		return Serving{}, mneme.Prefix(FileName, err)
	}
	if err := httpapi.CheckOrigins(s.AllowedOrigins); err != nil {
		return Serving{}, mneme.Prefix(FileName, err)
	}
	out := Serving{Tokens: tokens, MaxBodyBytes: s.MaxBodyBytes, AllowedHosts: s.AllowedHosts, AllowedOrigins: s.AllowedOrigins,
		MCP: mcpserver.HTTPOptions{SessionTimeout: mcpserver.DefaultSessionTimeout, MaxSessions: mcpserver.DefaultMaxSessions}}
	if s.MCPSessionTimeout != "" {
		d, err := mneme.ParseDuration(s.MCPSessionTimeout)
		if err != nil || d <= 0 {
			return Serving{}, mneme.Invalid("%s: server.mcp_session_timeout %q is not a positive duration: use forms like 30m, 2h or 1d", FileName, mneme.Clip(s.MCPSessionTimeout))
		}
		out.MCP.SessionTimeout = d
	}
	switch {
	case s.MCPMaxSessions < 0:
		return Serving{}, mneme.Invalid("%s: server.mcp_max_sessions %d is negative: give the most MCP sessions open at once (default %d)", FileName, s.MCPMaxSessions, mcpserver.DefaultMaxSessions)
	case s.MCPMaxSessions > 0:
		out.MCP.MaxSessions = s.MCPMaxSessions
	}
	return out, nil
}

// Options are what the command line sets; nil Getenv reads nothing.
type Options struct {
	Home     string // --home
	Store    string // --store
	Embedder string // --embedder
	Getenv   func(string) string
}

// Config is one process's configuration, resolved once.
type Config struct {
	Home string
	File File // as written in config.json (zero if there is none)
	// Store is the effective store DSN.
	Store string
	// Embedder is the effective embedder; Provider is "" when nothing
	// chose one, so that a home's recorded embedder, else minilm, applies.
	Embedder Embedder
	// LLM is the effective language model: config.json's, under the
	// environment's (fromEnv).
	LLM      LLM
	ModelDir string
	// Migrate lets opening the store apply pending schema migrations (the
	// shared store applies them only on `mneme migrate`, or to an empty
	// database).
	Migrate bool
	// DeferMigration makes opening a sqlite home whose schema is behind
	// fail (sqlite.ErrMigrationDeferred) instead of migrating it: a hook,
	// on its host's clock, leaves that to `mneme migrate`.
	DeferMigration bool
	// ReadOnly is for commands that only read: opening a sqlite home then
	// creates nothing (a directory that holds no home is an error) and
	// writes nothing, so reads work on a full disk.
	ReadOnly bool
	// CachePolicy is the cache section checked.
	CachePolicy cache.Policy
	getenv      func(string) string
}

// Load resolves the data directory and reads its config.json, once.
func Load(o Options) (*Config, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	home, err := homeDir(o.Home, getenv)
	if err != nil {
		return nil, err
	}
	f, err := ReadFile(home)
	if err != nil {
		return nil, err
	}
	c := &Config{Home: home, File: f, getenv: getenv, Embedder: f.Embedder}
	if c.CachePolicy, err = f.Cache.Policy(); err != nil {
		return nil, err
	}
	if c.Store, err = effectiveStore(o.Store, getenv("MNEME_STORE"), f, home); err != nil {
		return nil, err
	}
	c.Embedder.Provider = cmp.Or(o.Embedder, getenv("MNEME_EMBEDDER"), f.Embedder.Provider)
	if err := c.fromEnv(); err != nil {
		return nil, err
	}
	if err := c.File.Recall.Check(); err != nil { // and parse its half-life
		return nil, mneme.Prefix("recall in "+FileName, err)
	}
	c.ModelDir = cmp.Or(getenv("MNEME_MODEL_DIR"), f.ModelDir, minilm.DefaultDir(getenv))
	return c, nil
}

// homeDir resolves the data directory: --home, MNEME_HOME, then the user's
// data directory.
func homeDir(flag string, getenv func(string) string) (string, error) {
	if h := cmp.Or(flag, getenv("MNEME_HOME")); h != "" {
		return h, nil
	}
	if x := getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "mneme"), nil
	}
	h := getenv("HOME")
	if h == "" {
		var err error
		if h, err = os.UserHomeDir(); err != nil {
			return "", mneme.Invalid("cannot find a data directory: set --home DIR or MNEME_HOME")
		}
	}
	return filepath.Join(h, ".local", "share", "mneme"), nil
}

// Secrets names what in f others must not read: the server's tokens
// written in the file, and passwords in provider URLs (nil: nothing).
func (f File) Secrets() []string {
	var out []string
	for _, t := range f.Server.Tokens {
		if t.Token != "" {
			out = append(out, "server tokens")
			break
		}
	}
	for name, raw := range map[string]string{"embedder.url": f.Embedder.URL, "llm.url": f.LLM.URL} {
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			out = append(out, "the password in "+name)
		}
	}
	sort.Strings(out)
	return out
}

// ReadFile reads config.json from home strictly; a home without one has
// the zero File.
func ReadFile(home string) (File, error) {
	var f File
	path := filepath.Join(home, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return f, nil // no config; opening the store reports a bad home
	}
	if err != nil {
		return f, mneme.Invalid("cannot read %s: %v", path, err)
	}
	if err := mneme.DecodeStrict(data, &f); err != nil {
		return f, mneme.Prefix(path, err)
	}
	return f, nil
}

// WriteFile writes f as home's config.json (owner-only: it may name token
// secrets), atomically.
func WriteFile(home string, f File) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return mneme.InternalError(err, "encode "+FileName)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return mneme.Invalid("cannot create the data directory %s: %v", home, errors.Unwrap(err))
	}
	tmp, err := os.CreateTemp(home, FileName+".*")
	if err != nil {
		return mneme.InternalError(err, "write "+FileName)
	}
	defer os.Remove(tmp.Name())
	if _, err = tmp.Write(append(data, '\n')); err == nil {
		err = tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(home, FileName))
	}
	if err != nil {
		return mneme.InternalError(err, "write "+FileName)
	}
	return nil
}

// Check validates the choices f makes: a known store scheme and
// embedder, and MCP tools mneme serves.
func (f File) Check() error {
	if _, err := f.Cache.Policy(); err != nil {
		return err
	}
	if err := checkStore(f.Store, fileStore, f.Postgres); err != nil {
		return err
	}
	if _, err := f.mcpTools(); err != nil {
		return err
	}
	if f.Store != "" {
		storesMu.RLock()
		_, ok := stores[storeScheme(f.Store)]
		storesMu.RUnlock()
		if !ok {
			return mneme.Invalid("store %q is not known: use sqlite or postgres", mneme.Clip(f.Store))
		}
	}
	if err := f.Hooks.Check(); err != nil {
		return err
	}
	if err := f.Recall.Check(); err != nil {
		return mneme.Prefix("recall in "+FileName, err)
	}
	if _, err := f.Ranking.Options(); err != nil {
		return err
	}
	switch f.Embedder.Provider {
	case "", "minilm", "minilm-int8", "hash", "ollama", "openai", "none":
		return nil
	}
	return mneme.Invalid("embedder %q is not known: use minilm, minilm-int8, hash, ollama, openai or none", mneme.Clip(f.Embedder.Provider))
}

// Check refuses a hooks budget out of the context package's range and a
// project name that is not one.
func (h Hooks) Check() error {
	if h.Budget != 0 && (h.Budget < 50 || h.Budget > 100_000) {
		return mneme.Invalid("hooks.budget %d in %s is out of range: use 50 to 100000 tokens (default 1500)", h.Budget, FileName)
	}
	if h.Project != "" {
		if err := mneme.ValidateProject(h.Project); err != nil {
			return mneme.Prefix("hooks.project in "+FileName, err)
		}
	}
	return nil
}

// Getenv reads the process environment as Load was given it.
func (c *Config) Getenv(key string) string { return c.getenv(key) }

// Settings is the effective configuration without secrets, for the MCP
// settings resource.
func (c *Config) Settings() map[string]any {
	tokens := make([]map[string]any, len(c.File.Server.Tokens))
	for i, t := range c.File.Server.Tokens {
		tokens[i] = map[string]any{"name": t.Name, "projects": t.Projects, "access": t.Access, "clearance": t.Clearance}
	}
	em, llm := c.Embedder, c.LLM
	if em.Provider == "" {
		em.Provider = "minilm"
	}
	em.URL, llm.URL = secret.RedactURLs(em.URL), secret.RedactURLs(llm.URL) // a password for basic authentication
	server := map[string]any{"tokens": tokens, "max_body_bytes": c.File.Server.MaxBodyBytes,
		"allowed_hosts": orEmpty(c.File.Server.AllowedHosts), "allowed_origins": orEmpty(c.File.Server.AllowedOrigins)}
	if s, err := c.Serving(); err == nil { // else mneme serve refused to start
		server["mcp_session_timeout"], server["mcp_max_sessions"] = s.MCP.SessionTimeout.String(), s.MCP.MaxSessions
	}
	mcp := map[string]any{}
	if tools, err := c.MCPTools(); err == nil { // else the MCP servers refused to start
		mcp["tools"] = tools
	}
	return map[string]any{"mcp": mcp, "home": c.Home, "store": storeScheme(c.Store), "postgres": map[string]any{"dsn_env": c.PostgresDSNEnv(), "schema": c.File.Postgres.Schema}, "embedder": em, "model_dir": c.ModelDir,
		"llm": llm, "server": server, "recall": c.File.Recall}
}

// orEmpty shows a missing list as [] rather than null.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
