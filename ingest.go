package mneme

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/mneme-ai/mneme/internal/chunk"
	"github.com/mneme-ai/mneme/internal/secret"
)

// SourceFile is one file to ingest: its URI (a path) and its bytes.
type SourceFile struct {
	URI  string
	Data []byte
}

// IngestOptions apply to every chunk of an ingest.
type IngestOptions struct {
	Project     string
	Tags        []string
	Sensitivity Sensitivity
	Redact      bool
	// RequireEmbedding fails the ingest when the embedder is down or slow,
	// instead of storing the chunks pending (see WriteOptions).
	RequireEmbedding bool
	// Force chunks and stores every file again, even one the registry
	// says is stored unchanged (after new chunk settings, say).
	Force         bool
	MaxTokens     int // target chunk size; 0 means 400
	OverlapTokens int // tokens repeated between chunks; 0 means 50, negative none
}

// IngestResult counts what an ingest did.
type IngestResult struct {
	Files     int `json:"files"`
	Unchanged int `json:"unchanged"`
	Removed   int `json:"removed_documents"`
	WriteResult
}

type plannedDoc struct {
	doc    *Document
	chunks []*Record
}

// Ingest chunks files and stores each as a document. Every file is chunked
// and checked before anything is written, so a credential in one file stops
// the whole ingest with nothing written. Unchanged files are left alone; a
// changed file's chunks are replaced, and so are those of a file whose
// chunks were forgotten since (or every file's, with Force).
func (e *Engine) Ingest(ctx context.Context, files []SourceFile, o IngestOptions) (IngestResult, error) {
	var res IngestResult
	sc := ScopeFrom(ctx)
	if err := sc.mustWrite("ingest"); err != nil {
		return res, err
	}
	var err error
	if o.Project, err = sc.Resolve(o.Project); err != nil {
		return res, err
	}
	if err := o.check(); err != nil {
		return res, err
	}
	var plan []plannedDoc
	var problems []string
	for _, f := range files {
		p, err := e.planFile(ctx, f, o)
		switch {
		case err != nil && ErrorCode(err) != EINVALID:
			return res, stopped(ctx, err, 0, 0)
		case err != nil:
			uri, _ := secret.Redact(f.URI) // the error may be logged: a credential in a path stays out
			problems = append(problems, uri+": "+rawMessage(err))
		case p == nil:
			res.Unchanged++
		default:
			plan = append(plan, *p)
		}
	}
	res.Files = len(files)
	if len(problems) > 0 {
		more := ""
		if len(problems) > 3 {
			more = fmt.Sprintf(" (and %d more files)", len(problems)-3)
			problems = problems[:3]
		}
		return res, Invalid("%s%s; nothing was ingested", strings.Join(problems, "; "), more)
	}
	// Embed across documents, so small files still fill whole batches.
	var chunks []*Record
	for _, p := range plan {
		chunks = append(chunks, p.chunks...)
	}
	kept := 0
	p, err := e.embedForWrite(ctx, chunks, &kept, o.RequireEmbedding)
	if err != nil {
		return res, stopped(ctx, err, kept, 0)
	}
	now := e.now().UTC()
	for i, p := range plan {
		w, err := e.store.PutDocument(ctx, p.doc, p.chunks, now)
		if err != nil {
			return res, stopped(ctx, err, kept, res.Inserted+res.Updated)
		}
		res.Add(w)
		e.progress("ingest", i+1, len(plan))
	}
	e.leftPending(&res.WriteResult, p)
	return res, nil
}

func (o *IngestOptions) check() error {
	if o.Project == "" {
		o.Project = DefaultProject
	}
	if err := ValidateProject(o.Project); err != nil {
		return err
	}
	if o.MaxTokens == 0 {
		o.MaxTokens = 400
	}
	switch {
	case o.OverlapTokens == 0:
		o.OverlapTokens = min(50, o.MaxTokens/8)
	case o.OverlapTokens < 0:
		o.OverlapTokens = 0
	}
	if o.MaxTokens < 16 || o.MaxTokens > 8192 || o.OverlapTokens >= o.MaxTokens {
		return Invalid("chunk size %d with overlap %d is out of range: use a size from 16 to 8192 tokens and an overlap below the size", o.MaxTokens, o.OverlapTokens)
	}
	// The tags are checked here, once, before NormalizeTags lowers them:
	// every chunk carries them, and a lowered token may no longer look like one.
	if o.Sensitivity != Secret {
		opts := Record{Tags: o.Tags}
		if err := checkCredentials(&opts, o.Redact); err != nil {
			return err
		}
		o.Tags = opts.Tags
	}
	tags, err := NormalizeTags(o.Tags)
	o.Tags = tags
	return err
}

// planFile chunks one file, or returns nil when it is stored unchanged.
func (e *Engine) planFile(ctx context.Context, f SourceFile, o IngestOptions) (*plannedDoc, error) {
	sum := sha256.Sum256(f.Data)
	hash := hex.EncodeToString(sum[:])
	doc, err := e.store.Document(ctx, o.Project, f.URI)
	switch {
	case err == nil && !o.Force && doc.Hash == hash && doc.Intact && (doc.Chunks > 0 || strings.TrimSpace(string(f.Data)) == ""):
		return nil, nil // a document of no chunks of its own (each one a duplicate) is checked again: the records it matched may be gone
	case err == nil:
		doc.Hash = hash
	case ErrorCode(err) == ENOTFOUND:
		doc = &Document{ID: NewID(e.now()), Project: o.Project, URI: f.URI, Hash: hash}
	default:
		return nil, err
	}
	format := chunk.FormatOf(f.URI)
	kind := "document"
	if format == chunk.Code {
		kind = "code"
	}
	text := strings.ToValidUTF8(string(f.Data), "\uFFFD")
	parts := chunk.Split(text, format, chunk.Options{MaxTokens: o.MaxTokens, OverlapTokens: o.OverlapTokens})
	p := &plannedDoc{doc: doc, chunks: make([]*Record, len(parts))}
	for i, c := range parts {
		title := path.Base(f.URI)
		if c.Heading != "" {
			title += " › " + c.Heading
		}
		r := &Record{Project: o.Project, Type: Semantic, Kind: kind, Title: title, Text: c.Text,
			Tags: o.Tags, Sensitivity: o.Sensitivity,
			Source: &Source{URI: f.URI, LineStart: c.LineStart, LineEnd: c.LineEnd, Parent: doc.ID, Chunk: c.Index}}
		if err := prepare(r, WriteOptions{Redact: o.Redact}); err != nil {
			return nil, chunkError(err, c)
		}
		p.chunks[i] = r
	}
	return p, nil
}

// Sync forgets the documents of project under each prefix whose URI is not
// in seen: the files that were removed since they were ingested.
func (e *Engine) Sync(ctx context.Context, project string, prefixes []string, seen map[string]bool) (docs, chunks int, err error) {
	if project == "" {
		project = DefaultProject
	}
	for _, prefix := range prefixes {
		list, err := e.store.Documents(ctx, project, prefix)
		if err != nil {
			return docs, chunks, err
		}
		for _, d := range list {
			if seen[d.URI] {
				continue
			}
			n, err := e.store.DeleteDocument(ctx, d.ID)
			if err != nil {
				return docs, chunks, err
			}
			docs, chunks = docs+1, chunks+n
		}
	}
	return docs, chunks, nil
}

// chunkError words a chunk's refusal for an ingest: a credential in its
// text by the file's lines, with --redact first (secret would hide every
// chunk of every file); anything else with the chunk's lines.
func chunkError(err error, c chunk.Chunk) error {
	var found *CredentialFound
	if !errors.As(err, &found) || found.Field != "text" {
		return Invalid("lines %d-%d: %s", c.LineStart, c.LineEnd, rawMessage(err))
	}
	fs := secret.Scan(c.Text)
	for i := range fs {
		fs[i].Line += c.LineStart - 1
	}
	return Invalid("the text contains a credential (%s): mask the values and ingest the rest ({{redact=true}}), or, if the files are secret, store every chunk as secret ({{sensitivity=secret}}; readers without clearance then see none of them)", secret.Describe(fs))
}
