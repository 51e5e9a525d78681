package ops

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// recordKind is the record kind an entry kind is stored as.
func recordKind(kind string) string {
	if kind == KindPrompt {
		return "turn"
	}
	return kind
}

// toRecord is e as an episodic record of project at now. Sessions and
// runs carry a key, so each update supersedes the last (history kept).
func toRecord(e *Entry, project string, now time.Time) *mneme.Record {
	at := now
	switch {
	case e.At != nil:
		at = *e.At
	case e.Kind == KindSession && e.Started != nil:
		at = *e.Started
	}
	at = at.UTC()
	r := &mneme.Record{Project: project, Type: mneme.Episodic, Kind: recordKind(e.Kind), Text: text(e),
		Tags: []string{Tag}, OccurredAt: &at, SessionID: e.Session, RunID: e.Run, Meta: meta(e)}
	switch e.Kind {
	case KindSession:
		r.Key, r.Title = "ops:session:"+e.Session, "Session "+e.Session
		if e.Host != "" {
			r.Tags = append(r.Tags, e.Host)
		}
	case KindRun:
		r.Key, r.Title = "ops:run:"+e.Run, "Run "+e.Run
	case KindPrompt:
		r.Speaker = "user"
	}
	return r
}

// meta is e's typed fields as the record's meta, under "ops": the kind.
func meta(e *Entry) json.RawMessage {
	typed := *e
	typed.Kind, typed.Session, typed.Run, typed.At, typed.Text = "", "", "", nil, ""
	b, _ := json.Marshal(typed) // strings, numbers and times: always encodes
	// Kind is Entry's first field and never omitted: "ops" takes its place.
	return json.RawMessage(fmt.Sprintf(`{"ops":%q`, e.Kind) + strings.TrimPrefix(string(b), `{"kind":""`))
}

// text is what recall searches for e. Every entry but a session's names
// its session (and run), so the same tool call in two sessions is two
// records, and repeated in one session is one.
func text(e *Entry) string {
	var s string
	switch e.Kind {
	case KindSession:
		s = fmt.Sprintf("Session %s (%s)", e.Session, e.Host)
		if e.Repo != "" {
			s += " in " + e.Repo
		}
		if e.Ended != nil {
			s += ", ended"
		}
		if e.Summary != "" {
			s += ": " + e.Summary
		}
		return s
	case KindRun:
		s = "Run"
		if e.Goal != "" {
			s += " " + e.Goal
		}
		if e.Status != "" {
			s += ": " + e.Status
		}
	case KindToolCall:
		s = e.Tool
		if e.Input != "" {
			s += ": " + e.Input
		}
		if e.Outcome != "" {
			s += " -> " + e.Outcome
		}
	case KindArtifact:
		s = "Artifact " + e.Path
		if e.ArtifactKind != "" {
			s += " (" + e.ArtifactKind + ")"
		}
	case KindValidation:
		s = fmt.Sprintf("Validation %s: %s", e.Check, e.Status)
	case KindRoute:
		s = fmt.Sprintf("Route %s: %s", e.RouteKind, e.Choice)
		if e.Reason != "" {
			s += " (" + e.Reason + ")"
		}
	case KindPrompt:
		s = e.Text
	}
	return s + suffix(e.Session, e.Run)
}

// suffix names an entry's session and run at the end of its text.
func suffix(session, run string) string {
	if run != "" {
		return fmt.Sprintf("\n[session %s, run %s]", session, run)
	}
	return fmt.Sprintf("\n[session %s]", session)
}

// fromRecord is the entry r stores, with its id.
func fromRecord(r *mneme.Record) (Item, bool) {
	var it Item
	var at time.Time
	row := mneme.RowOf(r, textKinds)
	return it, fromRow(&row, &it, &at, nil)
}

// textKinds are the record kinds whose text an entry keeps: a prompt's.
var textKinds = []string{recordKind(KindPrompt)}

// fromRow fills it with the entry a timeline row stores, with its id;
// false when the row is not an entry (a record of an entry's kind written
// otherwise). The entry's time is kept in *at and its success flag points
// into bools (see decodeMeta), so a read allocates them once.
// it must be zero; it is decoded in place (see decodeMeta).
func fromRow(r *mneme.TimelineRow, it *Item, at *time.Time, bools *[2]bool) bool {
	var kind string
	e := &it.Entry
	if decodeMeta(r.Meta, &kind, e, bools) != nil || kind == "" || recordKind(kind) != r.Kind {
		*it = Item{}
		return false
	}
	e.Kind, e.Session, e.Run = kind, r.SessionID, r.RunID
	*at = r.At
	e.At = at
	if e.Kind == KindPrompt {
		e.Text = strings.TrimSuffix(r.Text, suffix(r.SessionID, r.RunID))
	}
	it.ID, it.Project, it.Superseded = r.ID, r.Project, r.Superseded
	return true
}
