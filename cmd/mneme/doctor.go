package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/sqlite"
)

func init() {
	commands["doctor"] = command{usage: "doctor [--deep]", summary: "check the data directory, database, indexes and embedder, and say how to fix problems", run: runDoctor}
}

type check = mneme.HealthCheck

func runDoctor(a *app, args []string) error {
	fs := a.flags()
	deep := fs.Bool("deep", false, "check the database file in full: every index against its table (slower on a large home)")
	strict := fs.Bool("strict", false, "exit 1 when any check fails, not only when a required lane is unavailable")
	a.embedderFlag(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	checks, err := a.diagnose(*deep)
	if err != nil { // no home: said without the machine's paths, as the report is
		return &mneme.Error{Code: mneme.ErrorCode(err), Message: a.relPaths(mneme.ErrorMessage(err))}
	}
	checks = append(checks, a.capabilities()...)
	return a.report(checks, *strict)
}

// diagnose runs the checks of the home: configuration, database, the
// database file and the home's file modes, the store's own health (optional
// roles), embedder and vectors. deep checks the database file in full. A
// place that holds no home is an error, not a check.
func (a *app) diagnose(deep bool) ([]check, error) {
	var checks []check
	add := func(name string, ok bool, detail, fix string) {
		checks = append(checks, check{Name: name, OK: ok, Detail: detail, Fix: fix})
	}
	c, err := a.config()
	if err != nil {
		add("config", false, mneme.ErrorMessage(err), "fix or remove config.json")
		return checks, nil
	}
	eng, err := a.openToRead(config.Records)
	if errors.Is(err, mneme.ErrNoHome) {
		return nil, err
	}
	if err != nil {
		fix := "choose a writable data directory with --home or MNEME_HOME"
		if c.StoreScheme() != "sqlite" || mneme.ErrorCode(err) == mneme.EUNAVAILABLE {
			fix = "" // the message says what to fix: on the server, or a lost or damaged database
		}
		add("database", false, mneme.ErrorMessage(err), fix)
		return append(checks, fileModes(c.Home, a.homeWord(c.Home), c.File, nil)), nil
	}
	defer eng.Close()
	var file []check
	if ic, ok := eng.Store().(mneme.IntegrityChecker); ok {
		fc, err := ic.Integrity(a.ctx, deep)
		if err != nil {
			fc = check{Name: "database file", OK: false, Detail: mneme.ErrorMessage(err)}
		}
		file = append(file, fc)
	}
	st, err := eng.Stats(a.ctx)
	if err != nil {
		add("database", false, mneme.ErrorMessage(err), "")
		return append(checks, append(file, fileModes(c.Home, a.homeWord(c.Home), c.File, nil))...), nil
	}
	file = append(file, fileModes(c.Home, a.homeWord(c.Home), c.File, &st))
	add("database", true, fmt.Sprintf("%s (%s): %s in %s", c.Home, c.Describe(eng.Store()), mneme.Plural(st.Total, "memory", "memories"), mneme.Plural(len(st.Projects), "project", "projects")), "")
	checks = append(checks, file...)
	if hc, ok := eng.Store().(mneme.HealthChecker); ok {
		states, err := hc.Health(a.ctx)
		if err != nil {
			add("indexes", false, mneme.ErrorMessage(err), "")
		}
		checks = append(checks, states...)
	}
	checks = append(checks, cache.Check(a.ctx, eng))
	if a.checkEmbedder(c, eng, add) {
		checks[len(checks)-1].Absent = true
	}
	if deep {
		checks = append(checks, a.checkCredentials(eng))
	}
	return checks, nil
}

// checkCredentials warns of stored records that show a credential to
// every reader: written before every field was checked, or imported.
func (a *app) checkCredentials(eng *mneme.Engine) check {
	found, err := eng.AuditCredentials(a.ctx)
	if err != nil {
		return check{Name: "credentials", Detail: mneme.ErrorMessage(err)}
	}
	if len(found) == 0 {
		return check{Name: "credentials", OK: true, Detail: "no memory shows a credential to readers without clearance"}
	}
	var list []string
	for _, f := range found[:min(5, len(found))] {
		list = append(list, fmt.Sprintf("%s (%s: %s)", f.ID, f.Field, f.Found))
	}
	if len(found) > 5 {
		list = append(list, fmt.Sprintf("and %d more", len(found)-5))
	}
	return check{Name: "credentials", OK: true, Warn: true,
		Detail: fmt.Sprintf("%d memories that are not secret hold a credential: %s", len(found), strings.Join(list, ", ")),
		Fix:    "mark each secret (mneme update ID --sensitivity secret) or forget it (mneme forget ID)"}
}

// fileModes checks that mneme's own files in the home are their owner's
// alone, and says what others could read: the memories (st, when known),
// and what config.json holds that is secret. Other files are not mneme's.
// word names home in the fixes (see homeWord).
func fileModes(home, word string, f config.File, st *mneme.Stats) check {
	c := check{Name: "file modes", OK: true, Detail: "the data directory and mneme's files in it are private to their owner"}
	info, err := os.Stat(home)
	if err != nil {
		c.OK, c.Detail = false, fmt.Sprintf("cannot read the data directory %s: %v", home, err)
		return c
	}
	var open, fixes, risks []string
	if info.Mode().Perm()&0o077 != 0 { // a warning: others see the names, not the contents
		open = append(open, fmt.Sprintf("%s (%04o)", home, info.Mode().Perm()))
		fixes = append(fixes, "chmod 700 "+word)
		c.Warn = true
	}
	entries, _ := os.ReadDir(home)
	exposed := map[string]bool{}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o077 != 0 && atRisk(e.Name(), f) {
			exposed[e.Name()] = true
		}
	}
	var files []string
	memories, secrets := false, false
	for _, e := range entries { // in name order
		name := e.Name()
		if !exposed[name] {
			continue
		}
		info, _ := e.Info()
		open = append(open, fmt.Sprintf("%s (%04o)", name, info.Mode().Perm()))
		memories = memories || sqlite.HoldsMemories(name)
		secrets = secrets || name == config.FileName
		// A database's WAL and shared-memory files take its mode and are
		// gone once no process has it open: chmod the database.
		if db, ok := cutAny(name, "-wal", "-shm", "-journal"); ok && exposed[db] {
			continue
		}
		files = append(files, word+"/"+shellQuote(name))
	}
	switch {
	case memories && st == nil:
		risks = append(risks, "others can read the memories in them")
	case memories && st.Secret > 0:
		risks = append(risks, fmt.Sprintf("others can read the %s in them, %d secret, in clear", mneme.Plural(st.Total, "memory", "memories"), st.Secret))
	case memories:
		risks = append(risks, fmt.Sprintf("others can read the %s in them (none of them secret)", mneme.Plural(st.Total, "memory", "memories")))
	}
	if secrets {
		risks = append(risks, fmt.Sprintf("%s holds %s", config.FileName, strings.Join(f.Secrets(), " and ")))
	}
	if len(files) > 0 { // a failure: others can read what is named
		fixes = append(fixes, "chmod 600 "+strings.Join(files, " "))
		c.OK, c.Warn = false, false
	}
	if len(open) > 0 {
		c.Detail = "open to other users: " + strings.Join(open, ", ")
		if len(risks) > 0 {
			c.Detail += ": " + strings.Join(risks, "; ")
		}
		c.Fix = strings.Join(fixes, " && ")
	}
	return c
}

// atRisk reports whether others must not read the home's file name: one
// that holds memories, or config.json when it holds secrets.
func atRisk(name string, f config.File) bool {
	return sqlite.HoldsMemories(name) || name == config.FileName && len(f.Secrets()) > 0
}

// cutAny returns s without the first of suffixes it ends with.
func cutAny(s string, suffixes ...string) (string, bool) {
	for _, x := range suffixes {
		if rest, ok := strings.CutSuffix(s, x); ok {
			return rest, true
		}
	}
	return s, false
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// homeWord is the data directory as a shell word that names it without
// its absolute path (doctor's output goes into bug reports), so a fix runs
// as shown: "$MNEME_HOME" when that names it, ~/… under the user's home,
// else <home>, for the reader to replace.
func (a *app) homeWord(home string) string {
	if env := a.getenv("MNEME_HOME"); env != "" && a.home == "" && slices.Contains(samePlace(env), home) {
		return `"$MNEME_HOME"`
	}
	if u := a.getenv("HOME"); u != "" && u != "/" {
		for _, h := range samePlace(u) {
			if rel, ok := strings.CutPrefix(home, h+string(filepath.Separator)); ok {
				return "~/" + shellQuote(filepath.ToSlash(rel))
			}
		}
	}
	return "<home>"
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkEmbedder reports the configured embedder, whether it answers, and
// whether the stored vectors are its own.
// It reports whether no embedder is configured.
func (a *app) checkEmbedder(c *config.Config, eng *mneme.Engine, add func(string, bool, string, string)) (none bool) {
	em, err := c.NewEmbedder(a.ctx, eng.Store())
	if err != nil {
		fix := "" // an unavailable provider's message says what to do
		if mneme.ErrorCode(err) == mneme.EINVALID {
			fix = "fix the embedder settings (--embedder, MNEME_EMBEDDER, config.json)"
		}
		add("embedder", false, mneme.ErrorMessage(err), fix)
		a.checkPending(eng, add)
		return false
	}
	home, hasHome, _ := eng.Store().HomeEmbedder(a.ctx)
	if em == nil {
		detail := "none configured: memories are stored without vectors"
		if hasHome {
			detail += fmt.Sprintf(" (the stored vectors come from %s)", home.ID())
		}
		add("embedder", true, detail, "")
		return true
	}
	info := em.Info()
	if _, err := em.Embed(a.ctx, []string{"mneme doctor"}); err != nil {
		add("embedder", false, fmt.Sprintf("%s: %s", info.ID(), mneme.ErrorMessage(err)), "")
		a.checkPending(eng, add)
		return false
	}
	add("embedder", true, fmt.Sprintf("%s version %s, %d dimensions: answers", info.ID(), info.Version, info.Dim), "")
	if hasHome && (home.ID() != info.ID() || home.Version != info.Version || home.Dim != info.Dim) {
		add("vectors", false, fmt.Sprintf("stored vectors come from %s (%d dimensions), not the configured %s (%d dimensions)", home.ID(), home.Dim, info.ID(), info.Dim), "mneme reindex")
		return false
	}
	a.checkPending(eng, add)
	return false
}

// checkPending reports the memories waiting for a vector, and why.
func (a *app) checkPending(eng *mneme.Engine, add func(string, bool, string, string)) {
	st, err := eng.Stats(a.ctx)
	switch {
	case err != nil:
		add("vectors", false, mneme.ErrorMessage(err), "")
	case st.PendingEmbeddings > 0:
		add("vectors", false, pendingDetail(st), "mneme sync")
	default:
		add("vectors", true, "every memory that may be embedded has a vector", "")
	}
	if err == nil && len(st.Embedders) > 0 {
		var lines []string
		fix := ""
		for _, vs := range st.Embedders {
			lines = append(lines, coverageLine(vs))
			if !vs.Home && vs.Vectors < vs.Embeddable {
				fix = fmt.Sprintf("a reindex to %s stopped before it switched: run `mneme reindex --embedder %s` again to finish it", vs.Embedder.ID(), vs.Embedder.Provider)
			}
		}
		add("embedders", true, strings.Join(lines, "; "), fix)
	}
}

// pendingDetail says how many memories wait for a vector, and the
// embedder's last failure.
func pendingDetail(st mneme.Stats) string {
	s := mneme.Plural(st.PendingEmbeddings, "memory waits", "memories wait") + " for a vector (pending embedding)"
	if h := st.EmbedderError; h != nil {
		s += fmt.Sprintf("; the embedder's last failure, at %s: %s", h.At.Format(time.RFC3339), h.Error)
	}
	return s
}
