package main

import (
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/mcpserver"
)

// toolsCostReport is `mneme mcp --tools-cost --json`.
type toolsCostReport struct {
	Tokenizer string     `json:"tokenizer"`
	Tools     []toolCost `json:"tools"`
	Served    int        `json:"served_tokens"` // of the tools mcp.tools serves
	Default   int        `json:"default_tokens"`
	Budget    int        `json:"default_budget"`
	All       int        `json:"all_tokens"`
}

type toolCost struct {
	mcpserver.ToolCost
	Served bool `json:"served"`
}

// toolsCost prints what each tool's definition costs an agent on every
// turn, and which tools this home's configuration serves.
func (a *app) toolsCost() error {
	c, err := a.config()
	if err != nil {
		return err
	}
	served, err := c.MCPTools()
	if err != nil {
		return err
	}
	costs, err := mcpserver.ToolCosts(a.ctx)
	if err != nil {
		return err
	}
	r := toolsCostReport{Tokenizer: contextpack.Tokenizer, Budget: mcpserver.DefaultToolsBudget}
	for _, tc := range costs {
		on := slices.Contains(served, tc.Name)
		r.Tools = append(r.Tools, toolCost{tc, on})
		r.All += tc.Tokens
		if on {
			r.Served += tc.Tokens
		}
		if tc.Default {
			r.Default += tc.Tokens
		}
	}
	if a.json {
		return a.printJSON(r)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "tool\ttokens\tdefault\tserved\t")
	for _, t := range r.Tools {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\n", t.Name, t.Tokens, yes(t.Default), yes(t.Served))
	}
	tw.Flush()
	fmt.Fprintf(a.stdout, "served %d tokens (%s); default set %d of a budget of %d; all tools %d\n",
		r.Served, r.Tokenizer, r.Default, r.Budget, r.All)
	return nil
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}
