package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

func init() {
	commands["recall"] = command{
		usage:   "recall QUERY [flags] | recall --request FILE.json | recall --batch FILE.jsonl",
		summary: "find the memories that best match a query",
		run:     runRecall,
	}
}

func runRecall(a *app, args []string) error {
	fs := a.flags()
	var qf queryFlags
	qf.register(fs, "number of hits", "add a content-free quality report (stage times, lane counts, score spread, reason codes)",
		"read one JSON request per line from FILE; print one result per line")
	a.embedderFlag(fs)
	explain := fs.Bool("explain", false, "say why each hit matched")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	clearance, err := mneme.ParseSensitivity(qf.ff.clearance)
	if err != nil {
		return err
	}
	reqs, err := requests(a, &qf, pos, "no query given: mneme recall \"how do we release\"", func(query string) (mneme.RecallRequest, error) {
		r := qf.recallRequest(query)
		r.Explain = *explain
		return r, nil
	})
	if err != nil {
		return err
	}
	queries := make([]mneme.Query, len(reqs))
	for i := range reqs {
		reqs[i].Report = reqs[i].Report || qf.report
		if queries[i], err = reqs[i].ToQuery(now, clearance); err != nil {
			return atLine(err, qf.batch != "", i)
		}
	}
	eng, err := a.openToRead(needFor(queries))
	if err != nil {
		return err
	}
	defer eng.Close()
	for i, q := range queries {
		res, err := eng.Recall(a.ctx, q)
		if err != nil {
			return atLine(err, qf.batch != "", i)
		}
		if err := a.printResult(reqs[i].ID, res); err != nil {
			return err
		}
	}
	return nil
}

func (a *app) printResult(id string, res *mneme.Result) error {
	if res.Hits == nil {
		res.Hits = []mneme.Hit{}
	}
	if res.Degraded {
		a.warn(WDEGRADED, res.DegradedReason)
	}
	if a.json {
		return a.printJSON(mneme.RecallResponse{ID: id, Result: res})
	}
	held := ""
	if res.HeldBack > 0 {
		held = fmt.Sprintf("(%d held back without evidence: --include-unmatched shows them)", res.HeldBack)
	}
	if len(res.Hits) == 0 {
		fmt.Fprintln(a.stdout, strings.TrimSpace("no memories match "+held))
	}
	if res.Weak != "" {
		fmt.Fprintf(a.stdout, "(weak: %s)\n", res.Weak)
	}
	for i, h := range res.Hits {
		r := h.Record
		fmt.Fprintf(a.stdout, "%d. [%.2f] %s\n   %s%s · %s · %s · %s\n", i+1, h.Score, headline(r), sourceRef(r), r.ID, oneLine(r.Project), oneLine(string(r.Type)), r.EventTime().Format(time.DateOnly))
		if r.Title != "" {
			fmt.Fprintf(a.stdout, "   %s\n", snippet(r.Text))
		}
		if e := h.Explain; e != nil {
			fmt.Fprintf(a.stdout, "   %s\n", explainLine(e))
		}
	}
	if len(res.Hits) > 0 && held != "" {
		fmt.Fprintln(a.stdout, held)
	}
	if len(res.Feedback) > 0 && len(res.Hits) > 0 && res.Hits[0].Explain != nil {
		fmt.Fprintf(a.stdout, "(searched again with the best hits' words %s: --no-feedback searches once)\n", oneLine(strings.Join(res.Feedback, ", ")))
	}
	if res.VectorQuery != "" && len(res.Hits) > 0 && res.Hits[0].Explain != nil {
		fmt.Fprintf(a.stdout, "(the vector lane searched for %q: the question as the speaker it names would ask it; ranking profile field first_person)\n", oneLine(res.VectorQuery))
	}
	if res.Report != nil {
		fmt.Fprintln(a.stdout, res.Report.Line())
	}
	return nil
}

// sourceRef is where a document's or code record's text is, as
// "path:12-30 · " (the path as stored: repo-relative), or "".
func sourceRef(r *mneme.Record) string {
	if r.Source == nil || r.Source.URI == "" {
		return ""
	}
	ref := oneLine(r.Source.URI)
	switch s := r.Source; {
	case s.LineStart > 0 && s.LineEnd > s.LineStart:
		ref += fmt.Sprintf(":%d-%d", s.LineStart, s.LineEnd)
	case s.LineStart > 0:
		ref += fmt.Sprintf(":%d", s.LineStart)
	}
	return ref + " · "
}

// snippet is the start of a text on one line, for a hit whose headline is
// its title.
func snippet(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	if len([]rune(s)) > 160 {
		s = string([]rune(s)[:159]) + "…"
	}
	return oneLine(s)
}

// headline is a record's title, else the start of its text, on one line.
func headline(r *mneme.Record) string {
	s := r.Title
	if s == "" {
		s = r.Text
	}
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > 100 {
		s = string([]rune(s)[:99]) + "…"
	}
	return oneLine(s)
}

// explainLine is the one-line text form of a hit's explanation.
func explainLine(e *mneme.Explain) string {
	if e.Retrieval == "expand" {
		if e.Direction != "" { // the record links to its hit
			return fmt.Sprintf("expanded: %s (%s) %s", oneLine(e.Relation), e.Direction, e.ExpandedFrom)
		}
		return fmt.Sprintf("expanded: %s %s", oneLine(e.Relation), e.ExpandedFrom)
	}
	parts := []string{fmt.Sprintf("%s: fused %.3f", e.Retrieval, e.FusedScore)}
	if e.LexicalRank > 0 {
		parts = append(parts, fmt.Sprintf("words #%d (bm25 %.3f, matched %s)", e.LexicalRank, e.BM25, oneLine(strings.Join(e.MatchedTerms, ", "))))
	}
	if len(e.FeedbackTerms) > 0 {
		parts = append(parts, "feedback words "+oneLine(strings.Join(e.FeedbackTerms, ", ")))
	}
	if e.VectorRank > 0 {
		parts = append(parts, fmt.Sprintf("meaning #%d (cosine %.3f)", e.VectorRank, e.VectorScore))
	}
	for _, b := range []struct {
		name string
		v    float64
	}{{"speaker", e.SpeakerBoost}, {"session", e.SessionBoost}, {"date", e.DateBoost}, {"when", e.WhenBoost}, {"recent", e.RecentBoost}} {
		if b.v != 0 {
			parts = append(parts, fmt.Sprintf("%s +%.3f", b.name, b.v))
		}
	}
	if e.MatchFloor != 0 {
		parts = append(parts, fmt.Sprintf("weak: below the match floor %g", e.MatchFloor))
	}
	if e.ShortTurn != 0 {
		parts = append(parts, fmt.Sprintf("short turn -%.3f", e.ShortTurn))
	}
	if e.Recency != nil {
		parts = append(parts, fmt.Sprintf("recency ×%.3f", *e.Recency))
	}
	if r := e.Rerank; r != nil {
		parts = append(parts, fmt.Sprintf("rerank +%.3f", r.Boost))
	}
	if e.MMRSimilarity != nil {
		parts = append(parts, fmt.Sprintf("similarity to earlier hits %.2f", *e.MMRSimilarity))
	}
	return strings.Join(parts, "; ")
}
