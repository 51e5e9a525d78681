package mneme

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Promotion is one entry of a record's promotion history: who made it
// reusable (or more so), when, and what it was before. Entries are kept in
// the record (Record.Promotions), so they travel and are deleted with it.
type Promotion struct {
	At       time.Time `json:"at"`
	By       string    `json:"by"` // the caller's scope name: a token's name, or the local user for the CLI
	ToType   Type      `json:"to_type"`
	ToStatus Status    `json:"to_status"`
	// From is what was promoted, as it was: the record itself when it was
	// upgraded in place, else the records it was built from (its
	// derived_from links).
	From []PromotedFrom `json:"from"`
	// ImportedBy names the caller (a token) whose import brought this
	// entry: a server's caller cannot write promotion history in another's
	// name, only carry it in under its own. Set by mneme, never taken as
	// given from such an import.
	ImportedBy string `json:"imported_by,omitempty"`
}

// PromotedFrom is a record a promotion started from, as it was then.
type PromotedFrom struct {
	ID     string `json:"id"`
	Type   Type   `json:"type"`
	Status Status `json:"status"`
}

// Bounds on promotions: how many records one promotion may combine, and
// how long a record's promotion history may grow.
const (
	MaxPromoteIDs = 100
	MaxPromotions = 100
)

// reusable are the statuses a promotion gives, in rising order; statusRank
// orders every status a promotion may start from.
var reusable = []Status{Validated, Published}

func statusRank(s Status) int {
	return slices.Index([]Status{Draft, Active, Validated, Published}, s)
}

// validatePromotions checks a record's promotion history as an import
// brings it: the shapes Promote writes, within bounds.
func validatePromotions(ps []Promotion) error {
	if len(ps) > MaxPromotions {
		return Invalid("%d promotions is more than the limit of %d for one record", len(ps), MaxPromotions)
	}
	for i, p := range ps {
		name := "promotions[" + strconv.Itoa(i) + "]"
		switch {
		case p.At.IsZero() || p.At.Before(MinTime) || p.At.After(MaxTime):
			return Invalid("%s.at is missing or outside the times mneme can store", name)
		case p.By == "":
			return Invalid("%s.by is empty: name who promoted the record", name)
		case len(p.From) == 0 || len(p.From) > MaxPromoteIDs:
			return Invalid("%s.from must name 1 to %d records", name, MaxPromoteIDs)
		}
		if err := checkField(name+".by", p.By, MaxFieldBytes); err != nil {
			return err
		}
		if _, err := ParseType(string(p.ToType)); err != nil {
			return Prefix(name+".to_type", err)
		}
		if _, err := ParseStatus(string(p.ToStatus)); err != nil {
			return Prefix(name+".to_status", err)
		}
		for _, f := range p.From {
			if err := checkPromotedFrom(name, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkPromotedFrom(name string, f PromotedFrom) error {
	if !ValidID(f.ID) {
		return Invalid("%s.from: %q is not a record id", name, Clip(f.ID))
	}
	if _, err := ParseType(string(f.Type)); err != nil {
		return Prefix(name+".from", err)
	}
	if _, err := ParseStatus(string(f.Status)); err != nil {
		return Prefix(name+".from", err)
	}
	return nil
}

// MarshalPromotions is how stores keep a promotion history: a JSON array,
// [] for none.
func MarshalPromotions(ps []Promotion) string {
	if len(ps) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ps) // plain fields: always encodes
	return string(b)
}

// UnmarshalPromotions reads what MarshalPromotions wrote; none is nil.
func UnmarshalPromotions(s string, ps *[]Promotion) error {
	*ps = nil
	if s == "[]" || s == "" {
		return nil
	}
	return json.Unmarshal([]byte(s), ps)
}

// String describes p for people: "validated semantic by ada at
// 2026-05-01T12:00:00Z, from episodic active 0192…".
func (p Promotion) String() string {
	from := make([]string, len(p.From))
	for i, f := range p.From {
		from[i] = fmt.Sprintf("%s %s %s", f.Type, f.Status, f.ID)
	}
	imported := ""
	if p.ImportedBy != "" {
		imported = " (imported by " + p.ImportedBy + ")"
	}
	return fmt.Sprintf("%s %s by %s%s at %s, from %s", p.ToStatus, p.ToType, p.By, imported, p.At.Format(time.RFC3339), strings.Join(from, ", "))
}

// stampImported marks each promotion rec brings that old (the stored
// record with its id, or nil) does not already hold as imported by name.
func stampImported(rec, old *Record, name string) {
	var held []string
	if old != nil {
		for _, p := range old.Promotions {
			held = append(held, MarshalPromotions([]Promotion{p}))
		}
	}
	for i := range rec.Promotions {
		p := &rec.Promotions[i]
		if !slices.Contains(held, MarshalPromotions([]Promotion{*p})) {
			p.ImportedBy = name
		}
	}
}
