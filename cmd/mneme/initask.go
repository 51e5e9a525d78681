package main

import (
	"bufio"
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

// asker asks init's questions on a terminal: an answer it cannot take is
// said so and asked again; only the end of the input gives up.
type asker struct {
	a  *app
	in *bufio.Reader
}

// ask asks question with the default def until check (nil: any) takes the
// answer.
func (q asker) ask(question, def string, check func(string) error) (string, error) {
	for {
		fmt.Fprintf(q.a.stdout, "%s [%s]: ", question, def)
		line, err := q.in.ReadString('\n')
		if err != nil && line == "" {
			return "", mneme.Invalid("no answer on standard input: run `mneme init --yes` to take the defaults")
		}
		answer := cmp.Or(strings.TrimSpace(line), def)
		if check == nil {
			return answer, nil
		}
		cerr := check(answer)
		if cerr == nil {
			return answer, nil
		}
		fmt.Fprintf(q.a.stdout, "  %s\n", mneme.ErrorMessage(cerr))
	}
}

// askInit asks on a terminal what the flags left open: the data directory
// and store (a.home, a.store), the embedder and the language model with
// what each needs (returned as config.json would hold them).
func (a *app) askInit(given map[string]bool) (config.File, error) {
	q := asker{a: a, in: bufio.NewReader(a.stdin)}
	var f config.File
	var err error
	if !given["home"] {
		c, cerr := a.config()
		if cerr != nil {
			return f, cerr
		}
		if a.home, err = q.ask("Data directory", c.Home, nil); err != nil {
			return f, err
		}
		a.cfg = nil
	}
	if !given["store"] {
		if a.store, err = q.ask("Store (sqlite, or postgres with $"+config.DefaultPostgresDSNEnv+" set)", "sqlite", a.checkStore); err != nil {
			return f, err
		}
		a.cfg = nil
	}
	if !given["embedder"] {
		if f.Embedder, err = q.askEmbedder(); err != nil {
			return f, err
		}
	}
	f.LLM, err = q.askLLM()
	return f, err
}

// checkStore takes a store answer that names a known store, and postgres
// only with its connection string in the environment.
func (a *app) checkStore(s string) error {
	if err := (config.File{Store: s}).Check(); err != nil {
		return err
	}
	env := config.DefaultPostgresDSNEnv
	if c, err := a.config(); err == nil {
		env = c.PostgresDSNEnv()
	}
	if strings.HasPrefix(s, "postgres") && a.getenv(env) == "" {
		return mneme.Invalid("the postgres store needs its connection string in $%s, which is not set: answer sqlite, or end init (Ctrl-D), export %s=postgres://USER:PASSWORD@HOST:PORT/DATABASE and run it again", env, env)
	}
	return nil
}

// askEmbedder asks for the embedder, then what it needs.
func (q asker) askEmbedder() (config.Embedder, error) {
	var e config.Embedder
	var err error
	e.Provider, err = q.ask("Embedder (minilm, minilm-int8, hash, none, ollama, openai)", "minilm", func(s string) error {
		return config.File{Embedder: config.Embedder{Provider: s}}.Check()
	})
	if err != nil {
		return e, err
	}
	switch e.Provider {
	case "ollama":
		return e, q.askRemote(&e.URL, &e.Model, &e.Dim, nil, "http://127.0.0.1:11434", "nomic-embed-text", "768")
	case "openai":
		return e, q.askRemote(&e.URL, &e.Model, &e.Dim, &e.APIKeyEnv, "https://api.openai.com/v1", "text-embedding-3-small", "1536")
	}
	return e, nil
}

// askLLM asks for the language model (summaries, HyDE), then what it
// needs; "none" leaves it unset.
func (q asker) askLLM() (config.LLM, error) {
	var l config.LLM
	p, err := q.ask("Language model for summaries and HyDE (none, ollama, openai)", "none", func(s string) error {
		if s != "none" && s != "ollama" && s != "openai" {
			return mneme.Invalid("language model %q is not known: answer none, ollama or openai", mneme.Clip(s))
		}
		return nil
	})
	switch {
	case err != nil || p == "none":
		return l, err
	case p == "ollama":
		l.Provider = p
		return l, q.askRemote(&l.URL, &l.Model, nil, nil, "http://127.0.0.1:11434", "llama3.2", "")
	}
	l.Provider = p
	return l, q.askRemote(&l.URL, &l.Model, nil, &l.APIKeyEnv, "https://api.openai.com/v1", "gpt-4o-mini", "")
}

// askRemote asks for a remote model's URL and name, and its dimension and
// API key variable when dim and keyEnv are wanted (not nil).
func (q asker) askRemote(url, model *string, dim *int, keyEnv *string, defURL, defModel, defDim string) error {
	var err error
	if *url, err = q.ask("  URL", defURL, checkURL); err != nil {
		return err
	}
	if *model, err = q.ask("  Model", defModel, nil); err != nil {
		return err
	}
	if dim != nil {
		d, err := q.ask("  Its dimension (values per vector)", defDim, func(s string) error {
			if n, err := strconv.Atoi(s); err != nil || n <= 0 {
				return mneme.Invalid("%q is not a dimension: answer a whole number, like %s", mneme.Clip(s), defDim)
			}
			return nil
		})
		if err != nil {
			return err
		}
		*dim, _ = strconv.Atoi(d)
	}
	if keyEnv != nil {
		if *keyEnv, err = q.ask("  Environment variable holding the API key", "OPENAI_API_KEY", nil); err != nil {
			return err
		}
	}
	return nil
}

// checkURL takes an http or https URL.
func checkURL(s string) error {
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return mneme.Invalid("%q is not a URL: answer one starting with http:// or https://", mneme.Clip(s))
	}
	return nil
}
