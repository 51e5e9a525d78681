package mneme

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
)

// An export (`mneme export`) is one JSON object per line: records, and
// besides them what a move to another machine needs so nothing is redone:
//
//	{"mneme_document": Document}                 the ingest registry
//	{"mneme_embedder": EmbedderInfo}             before the vectors (--vectors)
//	{"mneme_vector": {"id": ID, "f32": BASE64}}  a record's vector: float32s, little-endian
//
// DecodeLines (the HTTP import) takes records only; DecodeExport, the
// owner's import, takes them all.

// ExportLine is one line of an export that is not a record.
type ExportLine struct {
	Document *Document     `json:"mneme_document,omitempty"`
	Embedder *EmbedderInfo `json:"mneme_embedder,omitempty"`
	Vector   *VectorLine   `json:"mneme_vector,omitempty"`
}

// VectorLine is a record's vector in an export.
type VectorLine struct {
	ID  string `json:"id"`
	F32 string `json:"f32"`
}

// CarriedVectors are the vectors an import brings and the embedder they
// come from: used, instead of embedding again, when the importing home's
// embedder is the same one (provider, model, version, dimension).
type CarriedVectors struct {
	Embedder EmbedderInfo
	ByID     map[string][]float32
}

// ExportExtras are an export's lines that are not records.
type ExportExtras struct {
	Documents []Document
	Vectors   *CarriedVectors
}

// EncodeVectorLine is v as an export line's f32 field.
func EncodeVectorLine(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DecodeExport reads an export: records (as DecodeLines), documents and
// vectors. An error names its line.
func DecodeExport(data []byte) (recs []*Record, lines []int, extras ExportExtras, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 2*MaxTextBytes+MaxMetaBytes+64<<10)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		switch {
		case len(line) == 0:
			continue
		case bytes.HasPrefix(line, []byte(`{"mneme_`)):
			if err := extras.add(line); err != nil {
				return nil, nil, extras, Invalid("line %d: %s", n, rawMessage(err))
			}
			continue
		}
		r := new(Record)
		if err := DecodeStrict(line, r); err != nil {
			return nil, nil, extras, Invalid("line %d: %s", n, rawMessage(err))
		}
		recs, lines = append(recs, r), append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, extras, Invalid("line %d: %v (a line holds at most one record of up to 1 MiB of text)", n+1, err)
	}
	if len(recs) == 0 {
		return nil, nil, extras, Invalid("no records: write one JSON record per line, as export writes them")
	}
	if v := extras.Vectors; v != nil && v.Embedder.Dim == 0 {
		return nil, nil, extras, Invalid("vectors without a mneme_embedder line before them: export again with --vectors")
	}
	return recs, lines, extras, nil
}

func (x *ExportExtras) add(line []byte) error {
	var l ExportLine
	if err := DecodeStrict(line, &l); err != nil {
		return err
	}
	switch {
	case l.Document != nil && l.Embedder == nil && l.Vector == nil:
		return x.addDocument(*l.Document)
	case l.Embedder != nil && l.Document == nil && l.Vector == nil:
		if x.Vectors != nil || l.Embedder.Dim <= 0 || l.Embedder.Dim > 65536 || l.Embedder.Provider == "" {
			return Invalid("one mneme_embedder line, with a provider and a dimension, comes before the vectors")
		}
		x.Vectors = &CarriedVectors{Embedder: *l.Embedder, ByID: map[string][]float32{}}
	case l.Vector != nil && l.Document == nil && l.Embedder == nil:
		return x.addVector(*l.Vector)
	default:
		return Invalid("a line holds a record, or one of mneme_document, mneme_embedder, mneme_vector")
	}
	return nil
}

func (x *ExportExtras) addDocument(d Document) error {
	switch {
	case !ValidID(d.ID):
		return Invalid("mneme_document id %q is not a record id", Clip(d.ID))
	case ValidateProject(d.Project) != nil:
		return ValidateProject(d.Project)
	case d.URI == "" || len(d.URI) > MaxFieldBytes:
		return Invalid("mneme_document uri must be 1 to %d bytes", MaxFieldBytes)
	case d.Hash != "" && !isHexSHA256(d.Hash):
		return Invalid("mneme_document hash must be a hex sha256")
	case d.Chunks < 0:
		return Invalid("mneme_document chunks must not be negative")
	}
	x.Documents = append(x.Documents, d)
	return nil
}

func (x *ExportExtras) addVector(l VectorLine) error {
	if x.Vectors == nil {
		return Invalid("a mneme_vector line before the mneme_embedder line")
	}
	b, err := base64.StdEncoding.DecodeString(l.F32)
	dim := x.Vectors.Embedder.Dim
	switch {
	case !ValidID(l.ID):
		return Invalid("mneme_vector id %q is not a record id", Clip(l.ID))
	case err != nil || len(b) != 4*dim:
		return Invalid("mneme_vector f32 must be %d float32s, little-endian, in base64", dim)
	}
	v := make([]float32, dim)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
			return Invalid("mneme_vector of %s holds a value that is not a finite number", l.ID)
		}
	}
	x.Vectors.ByID[l.ID] = v
	return nil
}

func isHexSHA256(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}

// attachVectors gives the records of an import the vectors it carries,
// when they come from this engine's embedder: those records are not
// embedded again. It returns how many it attached.
func (e *Engine) attachVectors(ctx context.Context, recs []*Record, cv *CarriedVectors) (int, error) {
	if cv == nil || e.embedder == nil || e.embedder.Info() != cv.Embedder {
		return 0, nil
	}
	n := 0
	for _, r := range recs {
		if v, ok := cv.ByID[r.ID]; ok && r.Sensitivity != Secret {
			r.Vector, r.VectorOf = v, SetKey(cv.Embedder)
			n++
		}
	}
	if n > 0 {
		return n, e.bindEmbedder(ctx)
	}
	return 0, nil
}

// ImportDocuments writes an export's ingest registry (documents with their
// file hashes, so the next ingest of an unchanged file skips it). Only the
// owner's import does (see registerDocuments); a store without the Copier
// role keeps no registry.
func (e *Engine) ImportDocuments(ctx context.Context, docs []Document) error {
	cp, ok := e.store.(Copier)
	if !ok || len(docs) == 0 {
		return nil
	}
	if !ScopeFrom(ctx).local {
		return &Error{Code: EFORBIDDEN, Message: "only the owner's import writes the document registry"}
	}
	var put []Document
	for _, d := range docs {
		switch old, err := e.store.Document(ctx, d.Project, d.URI); {
		case err == nil && old.ID != d.ID: // registered under another id: left as it is
		case err == nil || ErrorCode(err) == ENOTFOUND:
			put = append(put, d)
		default:
			return err
		}
	}
	if len(put) == 0 {
		return nil
	}
	return cp.PutDocuments(ctx, put)
}

// MarshalExportLine is l as one line of JSON (no trailing newline).
func MarshalExportLine(l ExportLine) ([]byte, error) { return json.Marshal(l) }
