package httpapi

import (
	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/evidence"
	"github.com/mneme-ai/mneme/ground"
)

// Internals the external tests check openapi.json against.

// Patterns are the mux patterns of the API routes, and MCPPatterns those
// Config.MCP is mounted at.
func Patterns() []string {
	out := make([]string, len(routes))
	for i, rt := range routes {
		out[i] = rt.pattern
	}
	return out
}

var MCPPatterns = mcpPatterns

var ListParams = listParams

// BodyTypes are the request and response types that live in this package,
// by their OpenAPI schema name.
var BodyTypes = map[string]any{
	"Health": healthReply{}, "Error": errorBody{}, "ErrorDetail": errorDetail{},
	"RecallResults": recallResults{}, "ContextResults": contextResults{},
	"ForgetRequest": forgetRequest{}, "LinkBody": linkBody{}, "LinkResult": mneme.LinkResult{}, "OpsPruneRequest": opsPruneRequest{},
	"ContextRequest": contextpack.Request{}, "ContextPackage": contextpack.Package{}, "ContextResponse": contextpack.Response{},
	"ContextGroup": contextpack.Group{}, "ContextItem": contextpack.Item{}, "ContextSpan": contextpack.Span{},
	"GroundRequest": ground.Request{}, "GroundResult": ground.Result{}, "GroundSentence": ground.Sentence{}, "GroundSupport": ground.Support{},
	"Scope": scopeReply{}, "Tags": tagsReply{}, "Doctor": doctorReply{}, "RecentError": recentError{},
	"Related": mneme.Related{}, "TagCount": mneme.TagCount{}, "HealthCheck": mneme.HealthCheck{},
	"Citation": contextpack.Citation{}, "Dropped": contextpack.Dropped{}, "Stage": contextpack.Stage{},
	"EvidenceRequest": evidence.Request{}, "EvidenceThresholds": evidence.Thresholds{}, "Evidence": evidence.Export{},
	"EvidenceItem": evidence.Item{}, "EvidenceCounts": evidence.Counts{},
}
