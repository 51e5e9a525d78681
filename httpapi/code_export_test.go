package httpapi

import "github.com/mneme-ai/mneme/codemem"

func init() {
	for name, v := range map[string]any{
		"CodeRequest": codemem.Request{}, "CodeEnvelope": codemem.Envelope{}, "CodeStats": codemem.Stats{},
		"CodeDelta": codemem.Delta{}, "CodeChange": codemem.Change{}, "CodeSlice": codemem.Slice{},
		"CodeEntryPoint": codemem.EntryPoint{}, "CodeHotPaths": codemem.HotPaths{}, "CodeCount": codemem.Count{},
		"CodeGraph": codemem.Graph{}, "CodeDir": codemem.Dir{},
	} {
		BodyTypes[name] = v
	}
}
