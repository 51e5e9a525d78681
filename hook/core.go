package hook

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ops"
)

// DefaultBudget is the session-start package's token budget.
const DefaultBudget = contextpack.DefaultBudget

// write is the one call that stores what the hooks capture.
var write = ops.Write

// Core turns neutral events into operational memory and context.
type Core struct {
	Eng     *mneme.Engine
	Home    string // where the per-session state and the log live
	Budget  int    // session-start package, in tokens (0: DefaultBudget)
	Project string // overrides the repository's project name
	// Lexical builds the session-start package from words only (the
	// hooks defer embedding, so the meaning lane would be empty).
	Lexical bool
	// NoContext skips the session-start package (imports print none).
	NoContext bool
	// Abstract, when set, is handed the session's summary request after
	// the extractive summary is written, to write an abstractive one
	// where the host does not wait (a language model may take seconds):
	// it must return at once.
	Abstract func(consolidate.Request)
	// Warm, when set, is called instead of searching when the
	// session-start search would first index more than MaxBacklog changes
	// (an index with no usable snapshot, or far behind): that session
	// starts without a package, and Warm brings the indexes up to date
	// where the host does not wait. It must return at once.
	Warm       func()
	MaxBacklog int // 0: DefaultMaxBacklog
}

// DefaultMaxBacklog is how many changes a session start indexes before it
// searches, rather than leave them to Warm: about half a second's work,
// well within a hook's time.
const DefaultMaxBacklog = 10_000

// Handle acts on ev and returns what to print on the host's stdout.
func (c *Core) Handle(ctx context.Context, a Adapter, ev Event) ([]byte, error) {
	if ev.Kind == Ignore {
		return nil, nil
	}
	if strings.TrimSpace(ev.Session) == "" {
		return nil, errors.New("event has no session id")
	}
	if ev.At.IsZero() {
		ev.At = c.Eng.Now()
	}
	st := loadState(c.Home, ev.Host+"\x00"+ev.Session)
	repo := c.repo(ev, st)
	cap := capture{Core: c, ev: ev, st: st, repo: repo}
	out, err := cap.run(ctx, a)
	if err != nil {
		return nil, err
	}
	return out, st.save()
}

// repo is the session's repository: the one its first event named.
func (c *Core) repo(ev Event, st *state) Repo {
	if st.Project != "" {
		return Repo{Project: st.Project, Hash: st.Repo, Root: rootOf(ev.CWD, c.Project, st.Project)}
	}
	dir := ev.CWD
	if dir == "" {
		dir, _ = os.Getwd()
	}
	r := FindRepo(dir, c.Project)
	st.Project, st.Repo = r.Project, r.Hash
	return r
}

// rootOf is the repository root of dir when it is the session's project.
func rootOf(dir, override, project string) string {
	if dir == "" {
		return ""
	}
	if r := FindRepo(dir, override); r.Project == project {
		return r.Root
	}
	return ""
}

// capture is one event on its way into memory.
type capture struct {
	*Core
	ev      Event
	st      *state
	repo    Repo
	entries []ops.Entry
}

func (p *capture) run(ctx context.Context, a Adapter) ([]byte, error) {
	switch p.ev.Kind {
	case Start:
		if p.NoContext {
			return nil, p.flush(ctx, p.session(nil))
		}
		return p.start(ctx, a)
	case Prompt:
		return a.Ack(p.ev), p.prompt(ctx)
	case Tool:
		return a.Ack(p.ev), p.tool(ctx)
	case End:
		return a.Ack(p.ev), p.end(ctx)
	}
	return nil, nil
}

// session is the session entry: written once when the session is first
// seen (whatever its first event), again when it closes.
func (p *capture) session(ended *time.Time) []ops.Entry {
	if p.st.Written && ended == nil {
		return nil
	}
	if p.st.Started.IsZero() {
		p.st.Started = p.ev.At
	}
	started := p.st.Started
	e := ops.Entry{Kind: "session", Session: p.ev.Session, Host: p.ev.Host, Repo: p.repo.Hash, Started: &started, At: &started}
	if ended != nil {
		e.Ended, e.Summary = ended, p.st.summary()
	}
	return []ops.Entry{e}
}

// flush writes entries (if any) as one batch.
func (p *capture) flush(ctx context.Context, entries []ops.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	if _, err := write(ctx, p.Eng, ops.Batch{Project: p.repo.Project, Entries: entries, Redact: true}); err != nil {
		return err
	}
	p.st.Written = true
	return nil
}

func (p *capture) prompt(ctx context.Context) error {
	text := Clip(Clean(p.ev.Prompt), MaxPrompt)
	if text == "" { // empty, private or mneme's own context
		return p.flush(ctx, p.session(nil))
	}
	p.st.Prompts++
	if p.st.First == "" {
		p.st.First = Clip(text, 160)
	}
	at := p.ev.At
	return p.flush(ctx, append(p.session(nil), ops.Entry{Kind: "prompt", Session: p.ev.Session, At: &at, Text: text}))
}

func (p *capture) tool(ctx context.Context) error {
	if ownTool(p.ev.Tool) { // its output is memory mneme gave: not captured again
		return p.flush(ctx, p.session(nil))
	}
	name := Clip(Clean(p.ev.Tool), 100)
	if name == "" {
		name = "tool"
	}
	in, out := Input(p.ev.Input, p.repo.Root), Outcome(p.ev.Output, p.repo.Root)
	sum := sha256.Sum256([]byte(name + "\x00" + in + "\x00" + out))
	p.st.Calls++
	p.st.Tools[name]++
	if p.ev.Failed {
		p.st.Failed++
	}
	if p.st.seen(hex.EncodeToString(sum[:12])) { // counted, not stored again
		return p.flush(ctx, p.session(nil))
	}
	ok, at := !p.ev.Failed, p.ev.At
	e := ops.Entry{Kind: "tool_call", Session: p.ev.Session, At: &at, Tool: name,
		Input: in, Outcome: out, DurationMS: p.ev.Millis, Success: &ok}
	return p.flush(ctx, append(p.session(nil), e))
}

// end closes the session (its summary from the counts the hooks kept),
// then consolidates its episodes into a summary that cites them:
// extractive, so no language model can hold up the host; with Abstract
// set, an abstractive one is started off the host's path, to supersede it.
func (p *capture) end(ctx context.Context) error {
	ended := p.ev.At
	if err := p.flush(ctx, p.session(&ended)); err != nil {
		return err
	}
	if p.st.Prompts+p.st.Calls == 0 {
		return nil
	}
	req := consolidate.Request{
		Project: p.repo.Project, Since: p.st.Started.Add(-time.Second).UTC().Format(time.RFC3339),
		Until: ended.Add(time.Second).UTC().Format(time.RFC3339), Tags: []string{"ops"},
		Kinds: []string{"turn", "tool_call"}, Session: p.ev.Session, Strategy: consolidate.Extractive}
	_, err := consolidate.Summarize(ctx, p.Eng, req)
	switch {
	case err != nil && mneme.ErrorCode(err) != mneme.ENOTFOUND:
		Log(p.Home, "%s %s: summarize: %v", p.ev.Host, p.ev.Name, err)
	case err == nil && p.Abstract != nil:
		req.Strategy = consolidate.Abstractive
		p.Abstract(req)
	}
	return nil
}

// LeadFacts is how many of the project's newest facts and how-tos lead
// the session-start package, whatever words they share with its query:
// what a person remembered for the project reaches the agent.
const LeadFacts = 20

// start builds the session-start context package for the project, then
// writes the session record, and prints the package marked, so that it is
// recognised if it comes back. The package is read before the write and
// carried over it (contextpack.CarryLed: the bare session record shows in no
// package), so the next start finds it in the result cache unless
// something else was written since.
func (p *capture) start(ctx context.Context, a Adapter) ([]byte, error) {
	if p.cold(ctx) {
		return nil, p.flush(ctx, p.session(nil))
	}
	budget := p.Budget
	if budget == 0 {
		budget = DefaultBudget
	}
	const wrapper = 40 // tokens of the header and markers
	req := contextpack.Request{RecallRequest: mneme.RecallRequest{Project: p.repo.Project,
		Query: p.repo.Project + " decisions conventions how to build test fix errors"}, Budget: contextpack.Budget(max(contextpack.MinBudget, budget-wrapper))}
	if p.Lexical {
		req.Mode = mneme.Lexical
	}
	q, n, err := req.Recall(p.Eng.Now(), mneme.Internal)
	var pkg *contextpack.Package
	if err == nil {
		pkg, err = contextpack.AssembleLed(ctx, p.Eng, q, n, LeadFacts)
	}
	session := p.session(nil)
	if werr := p.flush(ctx, session); werr != nil || err != nil {
		return nil, errors.Join(werr, err)
	}
	if len(session) > 0 {
		contextpack.CarryLed(ctx, p.Eng, q, n, LeadFacts, pkg)
	}
	if len(pkg.Citations) == 0 {
		return nil, nil
	}
	head := fmt.Sprintf("Memory from mneme for project %s (cite as [n]; `mneme get ID` shows a memory):\n", p.repo.Project)
	return a.Inject(p.ev, Mark(head+pkg.Text)), nil
}

// cold reports whether the session-start search would first index more
// than MaxBacklog changes; if so it hands the work to Warm.
func (p *capture) cold(ctx context.Context) bool {
	if p.Warm == nil {
		return false
	}
	n, err := p.Eng.IndexBacklog(ctx)
	if err != nil || n <= int64(cmp.Or(p.MaxBacklog, DefaultMaxBacklog)) {
		return false
	}
	Log(p.Home, "%s %s: the search indexes are %d changes behind: this session starts without memory while they are brought up to date in the background", p.ev.Host, p.ev.Name, n)
	p.Warm()
	return true
}

// ownTool reports whether a tool is mneme's own (its MCP tools, by the
// names hosts give them: mcp__mneme__recall, MCP:recall on mneme, …).
func ownTool(name string) bool {
	return strings.Contains(strings.ToLower(name), "mneme")
}

// summary is the session's closing line: its counts, the tools it used
// most and its first prompt.
func (s *state) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d prompts, %d tool calls", s.Prompts, s.Calls)
	if s.Failed > 0 {
		fmt.Fprintf(&b, " (%d failed)", s.Failed)
	}
	if s.Repeats > 0 {
		fmt.Fprintf(&b, ", %d repeated calls counted once", s.Repeats)
	}
	names := make([]string, 0, len(s.Tools))
	for n := range s.Tools {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if s.Tools[names[i]] != s.Tools[names[j]] {
			return s.Tools[names[i]] > s.Tools[names[j]]
		}
		return names[i] < names[j]
	})
	for i, n := range names[:min(len(names), 5)] {
		sep := ", "
		if i == 0 {
			sep = "; tools: "
		}
		fmt.Fprintf(&b, "%s%s ×%d", sep, n, s.Tools[n])
	}
	if s.First != "" {
		fmt.Fprintf(&b, "; first prompt: %q", s.First)
	}
	return b.String()
}
