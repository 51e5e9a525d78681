package main

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/rank"
)

// sweepProfiles returns the Engine options that name a profile per value
// of `mneme bench --sweep FIELD=V1,V2,...` (each the home's profile, or
// the one --profile names, with FIELD set), keeping the home's named
// profiles beside them.
func (a *app) sweepProfiles(base string, sweep listFlag) ([]mneme.Option, error) {
	if len(sweep) == 0 && base == "" {
		return nil, nil
	}
	c, err := a.config()
	if err != nil {
		return nil, err
	}
	r := c.File.Ranking
	p, ok := rank.Default(), true
	if r.Profile != "" {
		p, ok = r.Profiles[r.Profile]
	}
	if base != "" {
		p, ok = r.Profiles[base]
	}
	if !ok {
		return nil, mneme.Invalid("--profile %q is no ranking profile of config.json: name one of its ranking.profiles, or leave it out", mneme.Clip(base))
	}
	if len(sweep) == 0 {
		return nil, nil
	}
	field, values, err := parseSweep(sweep)
	if err != nil {
		return nil, err
	}
	named := map[string]rank.Profile{}
	for n, q := range r.Profiles {
		named[n] = q
	}
	for _, v := range values {
		q := p
		if err := q.Set(field, v); err != nil {
			return nil, mneme.Invalid("--sweep: %v", err)
		}
		named[field+"="+v] = q
	}
	return []mneme.Option{mneme.WithProfiles(named)}, nil
}

// parseSweep splits FIELD=V1,V2,... (listFlag has split on commas).
func parseSweep(sweep listFlag) (string, []string, error) {
	field, first, ok := strings.Cut(sweep[0], "=")
	if !ok || field == "" || first == "" {
		return "", nil, mneme.Invalid("--sweep %q: give a ranking profile field and its values, like date_boost=0.1,0.2 (fields: %s)",
			mneme.Clip(strings.Join(sweep, ",")), strings.Join(rank.Fields(), ", "))
	}
	values := append([]string{first}, sweep[1:]...)
	for _, v := range values[1:] {
		if strings.Contains(v, "=") {
			return "", nil, mneme.Invalid("--sweep sweeps one field: %q is a second one", mneme.Clip(v))
		}
	}
	return field, values, nil
}

// sweepModes returns the modes to measure: each of ms once per swept
// value (named "MODE FIELD=V"), else ms under the profile --profile names.
func sweepModes(ms []benchMode, base string, sweep listFlag) []benchMode {
	if len(sweep) == 0 {
		for i := range ms {
			ms[i].profile = base
		}
		return ms
	}
	field, values, _ := parseSweep(sweep)
	var out []benchMode
	for _, m := range ms {
		for _, v := range values {
			name := field + "=" + v
			out = append(out, benchMode{name: fmt.Sprintf("%s %s", m.name, name), req: m.req, profile: name})
		}
	}
	return out
}
