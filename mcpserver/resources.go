package mcpserver

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/jobs"
)

const tagsTemplate = "mneme://projects/{project}/tags"

func (s *server) addResources(srv *mcp.Server) {
	for _, r := range []struct {
		uri, desc string
		read      func(context.Context, *mcp.ReadResourceRequest) (any, error)
	}{
		{"mneme://memory-types", "The three memory types and what each is for.", s.memoryTypes},
		{"mneme://projects", "The projects you may read, with their memory counts by type.", s.projects},
		{"mneme://health", "The store, the embedder, the memory counts and the version.", s.health},
		{"mneme://settings", "The effective configuration, secrets removed.", s.settings},
		{"mneme://cache", "Cached results by kind: entries, TTL, hits and misses.", s.cacheStats},
		{"mneme://jobs", "The latest runs of sync, reindex, summarize, ingest and code indexing, newest first: status, counts, cursor, error.", s.jobList},
	} {
		name := strings.TrimPrefix(r.uri, "mneme://")
		srv.AddResource(&mcp.Resource{URI: r.uri, Name: name, Description: r.desc, MIMEType: "application/json"}, jsonResource(r.read))
	}
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tagsTemplate, Name: "project-tags",
		Description: "The tags used in a project, most used first.", MIMEType: "application/json"}, jsonResource(s.tags))
}

// jsonResource serves what read returns as one JSON document.
func jsonResource(read func(context.Context, *mcp.ReadResourceRequest) (any, error)) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		v, err := read(ctx, req)
		if err != nil {
			return nil, resourceError(err)
		}
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return nil, fail(mneme.InternalError(err, "encode "+req.Params.URI))
		}
		// Private: what a read shows depends on the caller's token.
		return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{CacheScope: "private"}, Contents: []*mcp.ResourceContents{
			{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}}, nil
	}
}

// resourceError is err as a JSON-RPC error with a code that says what went
// wrong (the SDK would send code 0): bad or unknown input is invalid
// params (what MCP uses for a resource not found), anything else an
// internal error; the message keeps mneme's code first, as tools do.
func resourceError(err error) error {
	code := jsonrpc.CodeInternalError
	switch mneme.ErrorCode(err) {
	case mneme.EINVALID, mneme.ENOTFOUND, EFORBIDDEN:
		code = jsonrpc.CodeInvalidParams
	}
	data, _ := json.Marshal(map[string]string{"code": mneme.ErrorCode(err)})
	return &jsonrpc.Error{Code: int64(code), Message: fail(err).Error(), Data: data}
}

type memoryType struct {
	Type    mneme.Type `json:"type"`
	Meaning string     `json:"meaning"`
}

func (s *server) memoryTypes(context.Context, *mcp.ReadResourceRequest) (any, error) {
	return []memoryType{
		{mneme.Semantic, "a fact: about the project, the user, the world (the default)"},
		{mneme.Episodic, "an event: what happened and when, like the outcome of a task"},
		{mneme.Procedural, "a how-to: steps that worked"},
	}, nil
}

func (s *server) projects(ctx context.Context, req *mcp.ReadResourceRequest) (any, error) {
	st, err := s.eng.Stats(ctx)
	if st.Projects == nil {
		st.Projects = []mneme.ProjectStats{}
	}
	return map[string]any{"projects": st.Projects}, err
}

func (s *server) tags(ctx context.Context, req *mcp.ReadResourceRequest) (any, error) {
	rest, _ := strings.CutPrefix(req.Params.URI, "mneme://projects/")
	project, _ := strings.CutSuffix(rest, "/tags")
	project, err := url.PathUnescape(project)
	if err != nil {
		return nil, mneme.Invalid("%s is not a tags resource: read %s", mneme.Clip(req.Params.URI), tagsTemplate)
	}
	out, err := s.eng.Tags(ctx, project)
	return map[string]any{"project": project, "tags": out}, err
}

func (s *server) health(ctx context.Context, req *mcp.ReadResourceRequest) (any, error) {
	st, err := jobs.StatsOf(ctx, s.eng)
	if err != nil {
		return nil, err
	}
	embedder := map[string]any{"description": s.info.Embedder}
	if em := s.eng.Embedder(); em != nil {
		i := em.Info()
		embedder["id"], embedder["version"], embedder["dimension"] = i.ID(), i.Version, i.Dim
	}
	records := map[string]int{"total": st.Total, "pending_embeddings": st.PendingEmbeddings}
	if len(scopeOf(req).Projects) == 0 { // the store-wide counters would tell about other projects
		records["superseded"], records["expired"], records["secret"], records["documents"] = st.Superseded, st.Expired, st.Secret, st.Documents
	}
	status := "ok"
	if st.EmbedderError != nil {
		status, embedder["last_error"] = "degraded", st.EmbedderError
	}
	return map[string]any{"status": status, "version": s.info.Version, "store": s.info.Store,
		"embedder": embedder, "records": records, "last_jobs": st.LastJobs}, nil
}

func (s *server) settings(_ context.Context, req *mcp.ReadResourceRequest) (any, error) {
	if sc := scopeOf(req); len(sc.Projects) > 0 {
		// The settings name every token's projects.
		return nil, mneme.Errorf(EFORBIDDEN, "token %q covers only some projects and the settings describe all of them: read them with a token that covers every project", sc.Name)
	}
	if s.info.Settings == nil {
		return map[string]any{}, nil
	}
	return s.info.Settings, nil
}

func (s *server) cacheStats(ctx context.Context, _ *mcp.ReadResourceRequest) (any, error) {
	return cache.StatsOf(ctx, s.eng)
}
