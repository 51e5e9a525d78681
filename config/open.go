package config

import (
	"cmp"
	"context"
	"fmt"
	"github.com/mneme-ai/mneme/cache"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/postgres"
	"github.com/mneme-ai/mneme/sqlite"
)

// StoreOpener opens a store from the part of a DSN after "scheme:" (""
// when the DSN is the bare scheme); c is the process's configuration (the
// data directory, config.json, the environment).
type StoreOpener func(ctx context.Context, rest string, c *Config) (mneme.Store, error)

var (
	storesMu sync.RWMutex
	stores   = map[string]StoreOpener{"sqlite": openSQLite, "postgres": openPostgres}
)

// RegisterStore makes the stores of a DSN scheme openable.
func RegisterStore(scheme string, open StoreOpener) {
	storesMu.Lock()
	defer storesMu.Unlock()
	stores[scheme] = open
}

func openSQLite(ctx context.Context, dir string, c *Config) (mneme.Store, error) {
	if c.ReadOnly {
		return sqlite.OpenForReading(ctx, cmp.Or(dir, c.Home))
	}
	return sqlite.OpenWith(ctx, cmp.Or(dir, c.Home), sqlite.Options{DeferMigration: c.DeferMigration})
}

// DefaultPostgresDSNEnv is the variable holding the PostgreSQL connection
// string unless config.json names another (postgres.dsn_env).
const DefaultPostgresDSNEnv = "MNEME_PG_DSN"

// PostgresDSNEnv names the variable holding the PostgreSQL connection string.
func (c *Config) PostgresDSNEnv() string {
	return cmp.Or(c.File.Postgres.DSNEnv, DefaultPostgresDSNEnv)
}

// openPostgres opens the shared store: the connection string comes from
// the environment (never from config.json, never shown), the schema from
// "postgres:SCHEMA", else config.json.
func openPostgres(ctx context.Context, schema string, c *Config) (mneme.Store, error) {
	env := c.PostgresDSNEnv()
	dsn := c.getenv(env)
	if dsn == "" {
		return nil, mneme.Invalid("the postgres store needs a connection string in $%s: export %s=postgres://USER:PASSWORD@HOST:PORT/DATABASE (config.json's postgres.dsn_env names another variable)", env, env)
	}
	return postgres.Open(ctx, dsn, postgres.Options{Schema: cmp.Or(schema, c.File.Postgres.Schema), DSNEnv: env, Migrate: c.Migrate})
}

// fileStore names config.json's store setting in messages.
const fileStore = "store in " + FileName

// effectiveStore is the store setting that applies: --store, else
// MNEME_STORE, else config.json's, else sqlite; each checked. A relative
// sqlite:DIR in config.json is the home's DIR, wherever mneme runs.
func effectiveStore(flag, env string, f File, home string) (string, error) {
	if schema := f.Postgres.Schema; strings.Contains(schema, "://") || strings.Contains(schema, "=") {
		return "", mneme.Invalid("postgres.schema in %s is a connection string, not a schema name: the PostgreSQL connection string belongs in $%s", FileName, cmp.Or(f.Postgres.DSNEnv, DefaultPostgresDSNEnv))
	}
	for _, s := range [...]struct{ value, where string }{{flag, "--store"}, {env, "MNEME_STORE"}, {f.Store, fileStore}} {
		if s.value == "" {
			continue
		}
		if err := checkStore(s.value, s.where, f.Postgres); err != nil {
			return "", err
		}
		if dir, ok := strings.CutPrefix(s.value, "sqlite:"); ok && s.where == fileStore && dir != "" && !filepath.IsAbs(dir) {
			return "sqlite:" + filepath.Join(home, dir), nil
		}
		return s.value, nil
	}
	return "sqlite", nil
}

// AbsStore makes a relative sqlite:DIR absolute, so that a store given on
// the command line (relative to the working directory) keeps its meaning
// once written to config.json (where it would be relative to the home).
func AbsStore(store string) string {
	if dir, ok := strings.CutPrefix(store, "sqlite:"); ok && dir != "" && !filepath.IsAbs(dir) {
		if abs, err := filepath.Abs(dir); err == nil {
			return "sqlite:" + abs
		}
	}
	return store
}

// checkStore refuses a store setting that is a connection string (a URL,
// or the key=value form) rather than a store's name: after "postgres:" it
// would become a schema name in $MNEME_PG_DSN's database, which every user
// of that database can list, and it is shown wherever the store is. The
// message does not repeat it: it may hold a password. where names the
// setting.
func checkStore(store, where string, pg Postgres) error {
	scheme, _, _ := strings.Cut(store, ":")
	if !strings.Contains(store, "://") && (scheme == "sqlite" || !strings.Contains(store, "=")) {
		return nil // a sqlite:DIR path may hold an '='
	}
	env := cmp.Or(pg.DSNEnv, DefaultPostgresDSNEnv)
	return mneme.Invalid("%s is a connection string, not a store: the PostgreSQL connection string belongs in $%s, and the store is sqlite, sqlite:DIR, postgres or postgres:SCHEMA", where, env)
}

// StoreScheme is the effective store's kind: sqlite, postgres, ….
func (c *Config) StoreScheme() string { return storeScheme(c.Store) }

func storeScheme(dsn string) string {
	scheme, _, _ := strings.Cut(dsn, ":")
	return scheme
}

// OpenStore opens the store the configuration names.
func (c *Config) OpenStore(ctx context.Context) (mneme.Store, error) {
	return c.OpenStoreDSN(ctx, c.Store)
}

// OpenStoreDSN opens the store a DSN names, like "sqlite:DIR" or
// "postgres", with this configuration.
func (c *Config) OpenStoreDSN(ctx context.Context, dsn string) (mneme.Store, error) {
	if err := checkStore(dsn, "the store", c.File.Postgres); err != nil {
		return nil, err
	}
	scheme, rest, _ := strings.Cut(dsn, ":")
	storesMu.RLock()
	open, ok := stores[scheme]
	known := make([]string, 0, len(stores))
	for s := range stores {
		known = append(known, s)
	}
	storesMu.RUnlock()
	if !ok {
		sort.Strings(known)
		return nil, mneme.Invalid("store %q is not known: use one of %s (--store, MNEME_STORE or store in config.json)", mneme.Clip(scheme), strings.Join(known, ", "))
	}
	return open(ctx, rest, c)
}

// Need says what a command needs of its home besides the records.
type Need int

const (
	// Records: no embedder (list, get, forget, stats, export).
	Records Need = iota
	// Embedding: the embedder must load (reindex, embed, sync, bench).
	Embedding
	// Writes: the embedder if it loads, else what is written waits for it,
	// pending (remember, ingest, import, update).
	Writes
	// Recall: the embedder if it loads (else recall falls back to words and
	// says why).
	Recall
	// Serve: as Recall, and the language model for HyDE when one is
	// configured (servers, and recalls that ask for a hypothesis).
	Serve
)

// Open opens the home as need requires: the store, then the embedder
// (the configured one, else the one the home's vectors come from, else
// minilm) and the language model. extra options come last.
func (c *Config) Open(ctx context.Context, need Need, extra ...mneme.Option) (*mneme.Engine, error) {
	s, err := c.OpenStore(ctx)
	if err != nil {
		return nil, err
	}
	opts, err := c.engineOptions(ctx, s, need)
	if err == nil {
		var ranking []mneme.Option
		ranking, err = c.File.Ranking.Options()
		opts = append(opts, ranking...)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	var eng *mneme.Engine
	if rc := cache.For(s, c.CachePolicy, func() time.Time { return eng.Now() }); rc != nil {
		opts = append(opts, mneme.WithCache(rc)) // its clock is the Engine's, set below
	}
	if c.File.Recall != (mneme.RecallDefaults{}) {
		opts = append(opts, mneme.WithRecallDefaults(c.File.Recall))
	}
	eng = mneme.NewEngine(s, append(opts, extra...)...)
	return eng, nil
}

func (c *Config) engineOptions(ctx context.Context, s mneme.Store, need Need) ([]mneme.Option, error) {
	if need == Records {
		return nil, nil
	}
	if lazy, err := c.lazyEmbedder(ctx, s, need); lazy != nil || err != nil {
		return []mneme.Option{lazy}, err
	}
	em, err := c.NewEmbedder(ctx, s)
	var opts []mneme.Option
	switch {
	case err == nil && em != nil && c.Embedder.Provider == "":
		// Not chosen: the home's, which a reindex in another process may switch.
		opts = append(opts, mneme.WithEmbedder(mneme.FollowHome(em, c.homeEmbedder)))
	case err == nil:
		opts = append(opts, mneme.WithEmbedder(em))
	case need >= Writes && mneme.ErrorCode(err) == mneme.EUNAVAILABLE:
		opts = append(opts, mneme.WithEmbedderError(err))
	default:
		return nil, err
	}
	if need == Serve && c.LLM.Provider != "" {
		g, err := c.NewGenerator()
		if err != nil {
			return nil, err
		}
		opts = append(opts, mneme.WithHypothesisGenerator(g))
	}
	return opts, nil
}

// Describe says which store a home uses, without secrets, like
// "sqlite /home/me/.local/share/mneme/mneme.db".
func (c *Config) Describe(s mneme.Store) string {
	if d, ok := s.(interface{ Describe() string }); ok {
		return d.Describe()
	}
	return fmt.Sprintf("%s store", storeScheme(c.Store))
}

// Repair copies what can still be read of the home's store into the new
// data directory to (see sqlite.Salvage), and the home's config.json with
// it (its store setting dropped: the new home keeps its own database). The
// home itself is only read.
func (c *Config) Repair(ctx context.Context, to string) (mneme.SalvageResult, error) {
	scheme, dir, _ := strings.Cut(c.Store, ":")
	if scheme != "sqlite" {
		return mneme.SalvageResult{}, mneme.Invalid("repair works on sqlite stores, and this home's store is %q", mneme.Clip(scheme))
	}
	res, err := sqlite.Salvage(ctx, cmp.Or(dir, c.Home), to)
	if err != nil {
		return res, err
	}
	if _, err := os.Stat(filepath.Join(c.Home, FileName)); err == nil {
		f := c.File
		f.Store = ""
		if err := WriteFile(to, f); err != nil {
			return res, err
		}
	}
	return res, nil
}

// builtin reports whether provider is the built-in model (fp32 or int8).
func builtin(provider string) bool { return provider == "minilm" || provider == "minilm-int8" }

// lazyEmbedder is, for a recall, the built-in model the home records,
// loaded on first use: a recall the cache answers never loads it. nil for
// any other need or embedder.
func (c *Config) lazyEmbedder(ctx context.Context, s mneme.Store, need Need) (mneme.Option, error) {
	if need != Recall || (c.Embedder.Provider != "" && !builtin(c.Embedder.Provider)) {
		return nil, nil
	}
	info, ok, err := s.HomeEmbedder(ctx)
	if err != nil || !ok || !builtin(info.Provider) || (c.Embedder.Provider != "" && c.Embedder.Provider != info.Provider) {
		return nil, err
	}
	return mneme.WithLazyEmbedder(info, func() (mneme.Embedder, error) { return c.NewEmbedder(ctx, s) }), nil
}
