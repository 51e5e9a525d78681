package minilm

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// tokenizer is BERT's uncased WordPiece as configured in tokenizer.json
// (BertNormalizer + BertPreTokenizer + WordPiece), minus its 128-token
// truncation/padding which the model does not need.
type tokenizer struct {
	first         map[string]int32 // pieces that can start a word
	cont          map[string]int32 // "##" pieces, keyed without the prefix
	maxPiece      int              // longest piece in bytes: bounds the greedy search
	maxChars      int              // longer words become [UNK]
	size          int              // vocabulary size
	vocab         []string         // pieces by id, for the load cache
	unk, cls, sep int32
}

func loadTokenizer(path, name string) (*tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", name, err)
	}
	return parseTokenizer(data, name)
}

func parseTokenizer(data []byte, name string) (*tokenizer, error) {
	var tj struct {
		Model struct {
			Type     string           `json:"type"`
			Unk      string           `json:"unk_token"`
			Prefix   string           `json:"continuing_subword_prefix"`
			MaxChars int              `json:"max_input_chars_per_word"`
			Vocab    map[string]int32 `json:"vocab"`
		} `json:"model"`
	}
	if err := json.Unmarshal(data, &tj); err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", name, err)
	}
	m := tj.Model
	if m.Type != "WordPiece" || m.Prefix != "##" || m.Unk != "[UNK]" || m.MaxChars <= 0 {
		return nil, fmt.Errorf("minilm: %s: unsupported model (type %q, prefix %q, unk %q)", name, m.Type, m.Prefix, m.Unk)
	}
	vocab := make([]string, len(m.Vocab))
	for piece, id := range m.Vocab {
		if id < 0 || int(id) >= len(m.Vocab) || vocab[id] != "" {
			return nil, fmt.Errorf("minilm: %s: token %q has id %d outside the vocabulary or taken twice", name, piece, id)
		}
		vocab[id] = piece
	}
	return newTokenizer(vocab, m.MaxChars, name)
}

// newTokenizer builds the tokenizer from the vocabulary in id order.
func newTokenizer(vocab []string, maxChars int, name string) (*tokenizer, error) {
	t := &tokenizer{
		first:    make(map[string]int32, len(vocab)),
		cont:     make(map[string]int32, len(vocab)/5),
		maxChars: maxChars,
		size:     len(vocab),
		vocab:    vocab,
	}
	for id, piece := range vocab {
		t.first[piece] = int32(id)
		if rest, ok := strings.CutPrefix(piece, "##"); ok && rest != "" {
			t.cont[rest] = int32(id)
		}
		t.maxPiece = max(t.maxPiece, len(piece))
	}
	for _, sp := range []struct {
		tok string
		id  *int32
	}{{"[UNK]", &t.unk}, {"[CLS]", &t.cls}, {"[SEP]", &t.sep}} {
		id, ok := t.first[sp.tok]
		if !ok {
			return nil, fmt.Errorf("minilm: %s: vocabulary lacks %s", name, sp.tok)
		}
		*sp.id = id
	}
	return t, nil
}

// encode returns [CLS] pieces… [SEP], at most maxLen ids. It stops reading
// the text once the budget is full, so huge inputs cost little.
func (t *tokenizer) encode(text string, maxLen int) []int32 {
	e := encoder{t: t, ids: make([]int32, 1, min(maxLen, len(text)/3+8)), limit: maxLen - 1}
	e.ids[0] = t.cls
	// NFD first: stripping accents means dropping the combining marks (Mn)
	// that canonical decomposition separates out.
	var it norm.Iter
	it.InitString(norm.NFD, text)
	for !it.Done() && len(e.ids) < e.limit {
		seg := it.Next()
		for len(seg) > 0 {
			r, n := utf8.DecodeRune(seg)
			seg = seg[n:]
			e.add(r)
		}
	}
	e.flush()
	if len(e.ids) > e.limit {
		e.ids = e.ids[:e.limit]
	}
	return append(e.ids, t.sep)
}

type encoder struct {
	t     *tokenizer
	ids   []int32
	limit int    // ids before [SEP]
	word  []byte // normalised bytes of the word being built
	runes int
}

// add feeds one NFD rune through the normaliser and pre-tokeniser.
func (e *encoder) add(r rune) {
	if r < utf8.RuneSelf {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			e.flush()
		case r < 0x20 || r == 0x7f: // control characters are dropped
		case isASCIIPunct(r):
			e.single(r)
		default:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			e.appendRune(r)
		}
		return
	}
	switch {
	case r == utf8.RuneError || isControl(r):
	case unicode.Is(unicode.White_Space, r):
		e.flush()
	case unicode.Is(unicode.Mn, r): // accents
	default:
		r = unicode.ToLower(r)
		if isCJK(r) || unicode.IsPunct(r) {
			e.single(r)
			return
		}
		e.appendRune(r)
	}
}

// appendRune extends the pending word; past maxChars only the count
// matters (the word will be [UNK]), which bounds memory on huge words.
func (e *encoder) appendRune(r rune) {
	if e.runes < e.t.maxChars+1 {
		e.word = utf8.AppendRune(e.word, r)
	}
	e.runes++
}

// single emits r as a word of its own (punctuation, CJK ideographs).
func (e *encoder) single(r rune) {
	e.flush()
	e.word = utf8.AppendRune(e.word, r)
	e.runes = 1
	e.flush()
}

// flush WordPiece-encodes the pending word: greedy longest match first,
// the whole word becoming [UNK] if some part matches nothing.
func (e *encoder) flush() {
	w, t, runes := e.word, e.t, e.runes
	e.word, e.runes = w[:0], 0
	if runes == 0 {
		return
	}
	if runes > t.maxChars {
		e.ids = append(e.ids, t.unk)
		return
	}
	n0 := len(e.ids)
	for start := 0; start < len(w); {
		m := t.first
		if start > 0 {
			m = t.cont
		}
		end := min(len(w), start+t.maxPiece)
		for end < len(w) && !utf8.RuneStart(w[end]) {
			end--
		}
		id, ok := int32(0), false
		for end > start {
			if id, ok = m[string(w[start:end])]; ok {
				break
			}
			for end--; end > start && !utf8.RuneStart(w[end]); end-- {
			}
		}
		if !ok {
			e.ids = append(e.ids[:n0], t.unk)
			return
		}
		e.ids = append(e.ids, id)
		start = end
	}
}

// isASCIIPunct matches Rust's is_ascii_punctuation, which BERT applies
// on top of Unicode P*: it adds symbols such as $ + < = > ^ ` | ~.
func isASCIIPunct(r rune) bool {
	return 33 <= r && r <= 47 || 58 <= r && r <= 64 || 91 <= r && r <= 96 || 123 <= r && r <= 126
}

// isControl is Unicode category C (Cc, Cf, Co, Cs, and unassigned Cn),
// which BERT's clean-up drops; tab, newline and CR are whitespace instead.
func isControl(r rune) bool {
	return unicode.Is(unicode.C, r) ||
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

// isCJK reports the CJK ideograph blocks BERT splits into single tokens.
func isCJK(r rune) bool {
	return 0x4E00 <= r && r <= 0x9FFF || 0x3400 <= r && r <= 0x4DBF ||
		0x20000 <= r && r <= 0x2A6DF || 0x2A700 <= r && r <= 0x2B73F ||
		0x2B740 <= r && r <= 0x2B81F || 0x2B820 <= r && r <= 0x2CEAF ||
		0xF900 <= r && r <= 0xFAFF || 0x2F800 <= r && r <= 0x2FA1F
}
