package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// noteHandler words what the library logs (a store rebuilding an index
// whose snapshot it could not read) as the command's own warnings: "note:
// …" on standard error, or a JSON warning with --json, never a raw log
// line. Debug and info records are dropped.
type noteHandler struct{ a *app }

func (h noteHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h noteHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(at slog.Attr) bool {
		if at.Key == "err" || at.Key == "error" {
			fmt.Fprintf(&b, ": %v", at.Value)
		} else {
			fmt.Fprintf(&b, " (%s %v)", at.Key, at.Value)
		}
		return true
	})
	h.a.warn(WINDEX, b.String())
	return nil
}

func (h noteHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h noteHandler) WithGroup(string) slog.Handler      { return h }
