package mcpserver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

// TestDefaultToolsBudget lists the tools of a server with the default
// configuration through a real client and fails when their definitions
// cost more than DefaultToolsBudget tokens; -v prints each tool's cost.
func TestDefaultToolsBudget(t *testing.T) {
	eng, _ := newEngine(t, true)
	info := testInfo
	info.Tools = nil // the default set
	ct, st := mcp.NewInMemoryTransports()
	if _, err := New(eng, info).Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	total := 0
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		total += Cost(tool)
		t.Logf("%-12s %4d tokens", tool.Name, Cost(tool))
	}
	budget := DefaultToolsBudget
	t.Logf("default set: %d tokens (cl100k_base), budget %d", total, budget)
	slices.Sort(names)
	want := slices.Sorted(slices.Values(DefaultTools))
	if !slices.Equal(names, want) {
		t.Errorf("served %v, want the default set %v", names, want)
	}
	if total > budget {
		t.Errorf("the default tools cost %d tokens, over the budget of %d", total, budget)
	}
}

// TestToolCosts: ToolCosts covers every tool mneme serves, in the order
// of AllTools, with the costs of the definitions a client lists.
func TestToolCosts(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for _, tool := range res.Tools {
		listed[tool.Name] = Cost(tool)
		if tool.OutputSchema != nil {
			t.Errorf("%s has an output schema", tool.Name)
		}
		if toolTypes[tool.Name] == nil {
			t.Errorf("%s has no input type in toolTypes", tool.Name)
		}
	}
	costs, err := ToolCosts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range costs {
		names = append(names, c.Name)
		if c.Tokens != listed[c.Name] || c.Tokens < 20 || c.Default != slices.Contains(DefaultTools, c.Name) {
			t.Errorf("%+v; listed at %d tokens", c, listed[c.Name])
		}
	}
	if !slices.Equal(names, AllTools) || len(listed) != len(AllTools) {
		t.Errorf("costs of %v; listed %d tools; want %v", names, len(listed), AllTools)
	}
}

// TestSelectTools: "all", "default" and names choose tools in the
// listing's order; an empty list or an unknown name is EINVALID naming
// the tools.
func TestSelectTools(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
		err  string
	}{
		{nil, DefaultTools, ""},
		{[]string{"all"}, AllTools, ""},
		{[]string{"summarize", "default"}, append(slices.Clone(DefaultTools), "summarize"), ""},
		{[]string{"recall", "recall", "get"}, []string{"recall", "get"}, ""},
		{[]string{}, nil, "the tool list is empty: name tools (remember, recall"},
		{[]string{"recal"}, nil, `"recal" is not a tool of mneme: use remember, recall, context`},
		{[]string{"All"}, nil, `"All" is not a tool of mneme`},
	} {
		got, err := SelectTools(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || mneme.ErrorCode(err) != mneme.EINVALID {
				t.Errorf("%q: %v, want EINVALID with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}
