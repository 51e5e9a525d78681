package manifest

import (
	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/evidence"
	"github.com/mneme-ai/mneme/jobs"
	"github.com/mneme-ai/mneme/lanes"
	"github.com/mneme-ai/mneme/vault"
)

// Published are the Go types whose JSON Schemas are published under
// schemas/v1, by schema name; each has a golden example under examples/v1.
// The test regenerates every schema from its type and validates every
// example against it.
var Published = map[string]any{
	"ErrorEnvelope":     mneme.ErrorEnvelope{},
	"Record":            mneme.Record{},
	"RememberRequest":   mneme.RememberRequest{},
	"WriteResult":       mneme.WriteResult{},
	"RecallRequest":     mneme.RecallRequest{},
	"RecallResponse":    mneme.RecallResponse{},
	"ContextRequest":    contextpack.Request{},
	"ContextResponse":   contextpack.Response{},
	"EvidenceRequest":   evidence.Request{},
	"Evidence":          evidence.Export{},
	"ForgetResult":      mneme.ForgetResult{},
	"Stats":             jobs.Stats{},
	"DoctorReport":      lanes.Report{},
	"VaultExportResult": vault.ExportResult{},
	"VaultImportResult": vault.ImportResult{},
	"VaultManifest":     vault.Manifest{},
	"ServiceManifest":   Manifest{},
}
