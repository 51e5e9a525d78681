package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Turn is one utterance of a LoCoMo conversation.
type Turn struct {
	DiaID   string // "D<session>:<turn>"
	Speaker string
	Text    string // "<speaker>: <text>", with " [shares: <caption>]" for images
	Session int
	Date    time.Time
}

// Question is one LoCoMo question with its evidence turns.
type Question struct {
	Text     string
	Evidence []string
	Category int // 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
}

// Conversation is one LoCoMo sample.
type Conversation struct {
	ID        string
	Turns     []Turn
	Questions []Question
}

type rawSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string   `json:"question"`
		Evidence []string `json:"evidence"`
		Category int      `json:"category"`
	} `json:"qa"`
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// LoadLoCoMo reads a LoCoMo JSON file (an array of samples).
func LoadLoCoMo(path string) ([]Conversation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw []rawSample
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: not LoCoMo JSON: %w", path, err)
	}
	out := make([]Conversation, len(raw))
	for i, s := range raw {
		c := Conversation{ID: s.SampleID}
		var sessions []int
		for key := range s.Conversation {
			if m := sessionKey.FindStringSubmatch(key); m != nil {
				n, _ := strconv.Atoi(m[1])
				sessions = append(sessions, n)
			}
		}
		sort.Ints(sessions)
		for _, n := range sessions {
			turns, err := sessionTurns(s.Conversation, n)
			if err != nil {
				return nil, fmt.Errorf("%s %s session %d: %w", path, s.SampleID, n, err)
			}
			c.Turns = append(c.Turns, turns...)
		}
		for _, q := range s.QA {
			c.Questions = append(c.Questions, Question{Text: q.Question, Evidence: NormalizeEvidence(q.Evidence), Category: q.Category})
		}
		out[i] = c
	}
	return out, nil
}

func sessionTurns(conv map[string]json.RawMessage, n int) ([]Turn, error) {
	var when string
	if raw, ok := conv[fmt.Sprintf("session_%d_date_time", n)]; ok {
		json.Unmarshal(raw, &when)
	}
	date, err := ParseLoCoMoDate(when)
	if err != nil {
		return nil, err
	}
	var raw []struct {
		Speaker string `json:"speaker"`
		DiaID   string `json:"dia_id"`
		Text    string `json:"text"`
		Caption string `json:"blip_caption"`
	}
	if err := json.Unmarshal(conv[fmt.Sprintf("session_%d", n)], &raw); err != nil {
		return nil, err
	}
	turns := make([]Turn, len(raw))
	for i, t := range raw {
		text := t.Speaker + ": " + t.Text
		if t.Caption != "" {
			text += " [shares: " + t.Caption + "]"
		}
		turns[i] = Turn{DiaID: normalizeID(t.DiaID), Speaker: t.Speaker, Text: text, Session: n, Date: date}
	}
	return turns, nil
}

// ParseLoCoMoDate reads dates like "1:56 pm on 8 May, 2023".
func ParseLoCoMoDate(s string) (time.Time, error) {
	t, err := time.Parse("3:04 pm on 2 January, 2006", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("session date %q: %w", s, err)
	}
	return t, nil
}

var diaID = regexp.MustCompile(`D0*(\d+):0*(\d+)`)

// NormalizeEvidence splits malformed evidence entries ("D8:6; D9:17",
// space-joined lists) and strips leading zeros ("D30:05" is "D30:5").
func NormalizeEvidence(ev []string) []string {
	var out []string
	for _, e := range ev {
		for _, m := range diaID.FindAllStringSubmatch(e, -1) {
			out = append(out, "D"+m[1]+":"+m[2])
		}
	}
	return out
}

func normalizeID(id string) string {
	if m := diaID.FindStringSubmatch(id); m != nil {
		return "D" + m[1] + ":" + m[2]
	}
	return id
}
