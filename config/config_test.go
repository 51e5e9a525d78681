package config_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/embed/hash"
)

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

func TestPrecedence(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, config.FileName), []byte(`{"store":"sqlite","embedder":{"provider":"ollama","model":"m","dim":8},"model_dir":"/from/file"}`), 0o600)
	for _, c := range []struct {
		name          string
		flag          string
		vars          map[string]string
		embedder, dir string
	}{
		{"file", "", nil, "ollama", "/from/file"},
		{"environment over file", "", map[string]string{"MNEME_EMBEDDER": "hash", "MNEME_MODEL_DIR": "/from/env"}, "hash", "/from/env"},
		{"flag over environment", "none", map[string]string{"MNEME_EMBEDDER": "hash"}, "none", "/from/file"},
	} {
		vars := map[string]string{"MNEME_HOME": home}
		for k, v := range c.vars {
			vars[k] = v
		}
		cfg, err := config.Load(config.Options{Embedder: c.flag, Getenv: env(vars)})
		if err != nil || cfg.Home != home || cfg.Embedder.Provider != c.embedder || cfg.ModelDir != c.dir || cfg.Store != "sqlite" {
			t.Errorf("%s: %+v, %v", c.name, cfg, err)
		}
	}
	// Without a choice, the home's own embedder, else minilm.
	cfg, err := config.Load(config.Options{Home: t.TempDir()})
	if err != nil || cfg.Embedder.Provider != "" {
		t.Fatalf("nothing chosen: %+v, %v", cfg, err)
	}
	eng, err := cfg.Open(context.Background(), config.Records)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	em, _ := hash.New(48)
	if err := eng.Store().SetHomeEmbedder(context.Background(), em.Info()); err != nil {
		t.Fatal(err)
	}
	got, err := cfg.NewEmbedder(context.Background(), eng.Store())
	if err != nil || got.Info() != em.Info() {
		t.Fatalf("the home's embedder: %v, %v", got, err)
	}
}

// TestEnvironment: the environment sets the embedder's URL, model and
// dimension and the language model's provider, URL and model over
// config.json; a flag still wins over both.
func TestEnvironment(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, config.FileName), []byte(`{"embedder":{"provider":"ollama","url":"http://file:1","model":"fm","dim":8},
		"llm":{"provider":"ollama","url":"http://file:2","model":"fl"}}`), 0o600)
	for _, c := range []struct {
		name string
		vars map[string]string
		em   config.Embedder
		llm  config.LLM
	}{
		{"file", nil, config.Embedder{Provider: "ollama", URL: "http://file:1", Model: "fm", Dim: 8}, config.LLM{Provider: "ollama", URL: "http://file:2", Model: "fl"}},
		{"environment over file", map[string]string{"MNEME_EMBEDDER_URL": "http://env:1", "MNEME_EMBEDDER_MODEL": "em", "MNEME_EMBEDDER_DIM": " 768 ",
			"MNEME_LLM_PROVIDER": "openai", "MNEME_LLM_URL": "http://env:2", "MNEME_LLM_MODEL": "el"},
			config.Embedder{Provider: "ollama", URL: "http://env:1", Model: "em", Dim: 768}, config.LLM{Provider: "openai", URL: "http://env:2", Model: "el"}},
		{"empty variables leave the file's", map[string]string{"MNEME_EMBEDDER_URL": "", "MNEME_LLM_MODEL": ""},
			config.Embedder{Provider: "ollama", URL: "http://file:1", Model: "fm", Dim: 8}, config.LLM{Provider: "ollama", URL: "http://file:2", Model: "fl"}},
	} {
		vars := map[string]string{"MNEME_HOME": home}
		for k, v := range c.vars {
			vars[k] = v
		}
		cfg, err := config.Load(config.Options{Getenv: env(vars)})
		if err != nil || cfg.Embedder != c.em || !reflect.DeepEqual(cfg.LLM, c.llm) {
			t.Errorf("%s: embedder %+v, llm %+v, %v", c.name, cfg.Embedder, cfg.LLM, err)
		}
		if cfg != nil && cfg.File.Embedder.URL != "http://file:1" {
			t.Errorf("%s: the file as written changed: %+v", c.name, cfg.File.Embedder)
		}
	}
}

// TestRecallDefaults: config.json's recall section sets the options a
// recall leaves out; a request's own value wins.
func TestRecallDefaults(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, config.FileName), []byte(`{"embedder":{"provider":"hash"},"recall":{"mode":"lexical","mmr":0.7,"half_life":"30d"},"ranking":{"profile":"mine","profiles":{"mine":{"alpha":0.8}}}}`), 0o600)
	cfg, err := config.Load(config.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := cfg.Open(context.Background(), config.Writes)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "we release on tuesdays"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    mneme.Query
		want mneme.Mode
	}{
		{mneme.Query{Text: "release", K: 3}, mneme.Lexical},
		{mneme.Query{Text: "release", K: 3, Mode: mneme.Hybrid}, mneme.Hybrid},
	} {
		res, err := eng.Recall(context.Background(), c.q)
		if err != nil || res.Mode != c.want || len(res.Hits) != 1 {
			t.Errorf("%+v: %+v, %v", c.q, res, err)
		}
	}
	q := mneme.Query{Text: "release", K: 3}
	if err := eng.CheckQuery(context.Background(), &q); err != nil || q.MMR != 0.7 || q.HalfLife != 30*24*time.Hour {
		t.Errorf("defaults filled: %+v, %v", q, err)
	}
}

func TestBadConfig(t *testing.T) {
	for _, c := range []struct {
		name, file string
		opts       config.Options
		want       string
	}{
		{"unknown field", `{"embedder":{"provider":"hash"},"colour":1}`, config.Options{}, `unknown field "colour"`},
		{"wrong type", `{"model_dir":3}`, config.Options{}, `"model_dir" must be a string`},
		{"not JSON", `{`, config.Options{}, "invalid JSON"},
		{"unknown store", ``, config.Options{Store: "mongo:x"}, `store "mongo" is not known: use one of`},
		{"unknown embedder", ``, config.Options{Embedder: "word2vec"}, `embedder "word2vec" is not known`},
		// A connection string as the store would become a schema name.
		{"store url flag", ``, config.Options{Store: "postgres://app:pw@db/prod"}, "--store is a connection string, not a store: the PostgreSQL connection string belongs in $MNEME_PG_DSN"},
		{"store url env", ``, config.Options{Getenv: env(map[string]string{"MNEME_STORE": "postgresql://app:pw@db/prod"})}, "MNEME_STORE is a connection string"},
		{"store url file", `{"store":"postgres://app:pw@db/prod"}`, config.Options{}, "store in config.json is a connection string"},
		{"store url file, other variable", `{"store":"postgres://app:pw@db/prod","postgres":{"dsn_env":"PG_PROD"}}`, config.Options{}, "belongs in $PG_PROD"},
		{"schema url file", `{"store":"postgres","postgres":{"schema":"postgres://app:pw@db/prod"}}`, config.Options{}, "postgres.schema in config.json is a connection string"},
		{"store key=value", ``, config.Options{Store: "postgres:host=db user=app password=pw"}, "--store is a connection string"},
		{"store bare key=value", ``, config.Options{Store: "host=db password=pw"}, "--store is a connection string"},
		{"ranking profile unknown", `{"embedder":{"provider":"hash"},"ranking":{"profile":"docs","profiles":{"chat":{}}}}`, config.Options{}, `ranking.profile "docs" names no profile of ranking.profiles`},
		{"ranking field unknown", `{"ranking":{"profiles":{"chat":{"alpah":0.4}}}}`, config.Options{}, `alpah`},
		{"ranking value out of range", `{"ranking":{"profiles":{"chat":{"alpha":4}}}}`, config.Options{}, `alpha 4 is out of range`},
		// PostgreSQL cuts longer names to 63 bytes: two homes would share one.
		{"schema over 63 bytes", ``, config.Options{Store: "postgres:" + strings.Repeat("s", 64),
			Getenv: env(map[string]string{"MNEME_PG_DSN": "postgres://mneme@127.0.0.1:1/mneme?connect_timeout=1"})},
			"schema name is 64 bytes, over PostgreSQL's limit of 63"},
		{"dimension not a number", ``, config.Options{Getenv: env(map[string]string{"MNEME_EMBEDDER_DIM": "384d"})}, `MNEME_EMBEDDER_DIM="384d" is not a dimension`},
		{"dimension zero", ``, config.Options{Getenv: env(map[string]string{"MNEME_EMBEDDER_DIM": "0"})}, `MNEME_EMBEDDER_DIM="0" is not a dimension`},
		{"unknown llm provider", ``, config.Options{Getenv: env(map[string]string{"MNEME_LLM_PROVIDER": "claude"})}, `MNEME_LLM_PROVIDER="claude" is not a language model provider`},
		{"recall mmr out of range", `{"recall":{"mmr":2}}`, config.Options{}, "recall in config.json: mmr 2 is out of range"},
		{"recall alpha is the ranking profile's", `{"recall":{"alpha":0.5}}`, config.Options{}, `unknown field "alpha"`},
		{"recall mode", `{"recall":{"mode":"semantic"}}`, config.Options{}, `recall in config.json: mode "semantic" is not one of`},
		{"recall half-life", `{"recall":{"half_life":"soon"}}`, config.Options{}, `recall in config.json: half_life "soon" is not a positive duration`},
		{"recall unknown field", `{"recall":{"k":5}}`, config.Options{}, `unknown field "k"`},
	} {
		home := t.TempDir()
		if c.file != "" {
			os.WriteFile(filepath.Join(home, config.FileName), []byte(c.file), 0o600)
		}
		c.opts.Home = home
		cfg, err := config.Load(c.opts)
		if err == nil {
			var eng *mneme.Engine
			eng, err = cfg.Open(context.Background(), config.Writes)
			if err == nil {
				eng.Close()
			}
		}
		if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), c.want) {
			t.Errorf("%s: %v, want EINVALID with %q", c.name, err, c.want)
		}
		if strings.Contains(mneme.ErrorMessage(err), "pw") {
			t.Errorf("%s: the message repeats the password: %v", c.name, err)
		}
	}
	// init checks the file it writes the same way.
	if err := (config.File{Store: "postgres://app:pw@db/prod"}).Check(); err == nil || !strings.Contains(err.Error(), "store in config.json is a connection string") {
		t.Errorf("File.Check: %v", err)
	}
}

// TestSettingsHideURLUserInfo: the settings resource shows the providers'
// URLs without the user name and password they may carry.
func TestSettingsHideURLUserInfo(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, config.FileName), []byte(`{"embedder":{"provider":"ollama","url":"http://emb:EmbPw1@h:1","model":"m","dim":8},
		"llm":{"provider":"openai","url":"https://tok3nUser@llm.example/v1","model":"m"}}`), 0o600)
	cfg, err := config.Load(config.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cfg.Settings())
	if s := string(b); strings.Contains(s, "EmbPw1") || strings.Contains(s, "tok3nUser") ||
		!strings.Contains(s, "http://REDACTED@h:1") || !strings.Contains(s, "https://REDACTED@llm.example/v1") {
		t.Fatalf("settings: %s", s)
	}
}

// TestRelativeSQLiteDir: a relative sqlite:DIR in config.json is inside the
// home wherever mneme runs; on the command line or in MNEME_STORE it is
// the shell's, relative to the working directory.
func TestRelativeSQLiteDir(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, config.FileName), []byte(`{"store":"sqlite:data"}`), 0o600)
	elsewhere := t.TempDir()
	t.Chdir(elsewhere)
	cfg, err := config.Load(config.Options{Home: home})
	if err != nil || cfg.Store != "sqlite:"+filepath.Join(home, "data") {
		t.Fatalf("store %q, %v; want the home's data directory", cfg.Store, err)
	}
	eng, err := cfg.Open(context.Background(), config.Records)
	if err != nil {
		t.Fatal(err)
	}
	eng.Close()
	if _, err := os.Stat(filepath.Join(home, "data", "mneme.db")); err != nil {
		t.Fatalf("the database is not in the home: %v", err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "data")); err == nil {
		t.Fatal("the database went to the working directory")
	}
	for _, o := range []config.Options{{Home: home, Store: "sqlite:data"}, {Home: home, Getenv: env(map[string]string{"MNEME_STORE": "sqlite:data"})}} {
		if cfg, err := config.Load(o); err != nil || cfg.Store != "sqlite:data" {
			t.Errorf("%+v: store %q, %v; want it as given", o, cfg.Store, err)
		}
	}
	// init writes a --store sqlite:DIR to config.json as the directory it meant.
	if got := config.AbsStore("sqlite:data"); got != "sqlite:"+filepath.Join(elsewhere, "data") {
		t.Errorf("AbsStore = %q", got)
	}
}

func TestWriteFileRoundTrip(t *testing.T) {
	home := filepath.Join(t.TempDir(), "new")
	f := config.File{Embedder: config.Embedder{Provider: "hash", Dim: 32}}
	if err := config.WriteFile(home, f); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(home, config.FileName))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config.json: %v, %v", st, err)
	}
	got, err := config.ReadFile(home)
	if err != nil || got.Embedder != f.Embedder {
		t.Fatalf("read back %+v, %v", got, err)
	}
}
