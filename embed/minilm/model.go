// Package minilm is the built-in sentence embedding model:
// sentence-transformers/all-MiniLM-L6-v2 (BERT, 6 layers, 384 dims) in pure
// Go, with mean pooling and L2 normalisation.
package minilm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Architecture of all-MiniLM-L6-v2; Load checks config.json against it.
const (
	hidden    = 384
	nHeads    = 12
	headDim   = hidden / nHeads
	inter     = 1536
	nLayers   = 6
	vocabSize = 30522
	maxPos    = 512
	maxTokens = 256 // sentence-transformers' max_seq_length for this model
	lnEps     = 1e-12

	// batchRows caps the tokens packed into one forward pass: enough rows
	// for the matrix products to run at full speed, small enough that a
	// workspace stays around 16 MB.
	batchRows = 1024
)

// File names inside the model directory.
const (
	weightsFile   = "model.fp16.safetensors"
	tokenizerFile = "tokenizer.json"
	configFile    = "config.json"
)

// Model is a loaded all-MiniLM-L6-v2. It is safe for concurrent use.
type Model struct {
	tok     *tokenizer
	wordEmb []byte    // fp16 [vocab×hidden]: kept half-size, rows converted on lookup
	posEmb  []float32 // [maxPos×hidden]
	typEmb  []float32 // [2×hidden] token types; inputs are all type 0
	lnG     []float32 // embedding LayerNorm
	lnB     []float32
	layers  [nLayers]layer
	work    sync.Pool // *workspace
	packed  sync.Once // packs the linear weights (fp32 models) on first use
	parent  *Model    // the fp32 model an int8 one shares memory with (maybe the load cache's mapping, released with it)
}

type layer struct {
	qkvW []float32 // [3·hidden×hidden]: query, key, value fused into one product
	qkvB []float32
	outW []float32 // attention output projection [hidden×hidden]
	outB []float32
	ln1G []float32
	ln1B []float32
	ffnW []float32 // [inter×hidden]
	ffnB []float32
	prjW []float32 // [hidden×inter]
	prjB []float32
	ln2G []float32
	ln2B []float32
	q    *quantised // int8 weights (Model.Int8), else nil
	p    *packedW   // fp32 weights packed for the kernel (see pack), else nil
}

// Load reads model.fp16.safetensors, tokenizer.json and config.json from dir
// (through the load cache beside them when it is current; see cache.go).
func Load(dir string) (*Model, error) {
	if err := checkConfig(filepath.Join(dir, configFile)); err != nil {
		return nil, err
	}
	if m, err := loadCache(dir); err == nil {
		return m, nil
	}
	m, err := loadFiles(dir)
	if err == nil {
		_ = writeCache(dir, m) // best effort
	}
	return m, err
}

// loadFiles reads and converts the model files.
func loadFiles(dir string) (*Model, error) {
	// The tokenizer JSON decodes while the weights are read and converted.
	var tok *tokenizer
	var tokErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		tok, tokErr = loadTokenizer(filepath.Join(dir, tokenizerFile), tokenizerFile)
	}()
	m, err := loadWeights(filepath.Join(dir, weightsFile))
	<-done
	if err != nil {
		return nil, err
	}
	if tokErr != nil {
		return nil, tokErr
	}
	if tok.size != vocabSize {
		return nil, fmt.Errorf("minilm: %s: %d tokens, want %d", tokenizerFile, tok.size, vocabSize)
	}
	m.tok = tok
	return m, nil
}

func checkConfig(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("minilm: %s: %w", configFile, err)
	}
	return parseConfig(data)
}

func parseConfig(data []byte) error {
	var c struct {
		Hidden     int     `json:"hidden_size"`
		Heads      int     `json:"num_attention_heads"`
		Inter      int     `json:"intermediate_size"`
		Layers     int     `json:"num_hidden_layers"`
		Vocab      int     `json:"vocab_size"`
		MaxPos     int     `json:"max_position_embeddings"`
		Act        string  `json:"hidden_act"`
		Eps        float64 `json:"layer_norm_eps"`
		PosEmbType string  `json:"position_embedding_type"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("minilm: %s: %w", configFile, err)
	}
	if c.Hidden != hidden || c.Heads != nHeads || c.Inter != inter || c.Layers != nLayers ||
		c.Vocab != vocabSize || c.MaxPos != maxPos || c.Act != "gelu" || c.Eps != lnEps ||
		(c.PosEmbType != "" && c.PosEmbType != "absolute") {
		return fmt.Errorf("minilm: %s: not the all-MiniLM-L6-v2 architecture: %+v", configFile, c)
	}
	return nil
}

func loadWeights(path string) (*Model, error) {
	st, err := openSafetensors(path, weightsFile)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return readWeights(st)
}

// readWeights reads the tensors of st into a new Model (no tokenizer).
func readWeights(st *stFile) (*Model, error) {
	var err error
	m := &Model{}
	if m.wordEmb, err = st.raw("embeddings.word_embeddings.weight", true, vocabSize, hidden); err != nil {
		return nil, err
	}
	if m.posEmb, err = st.f32("embeddings.position_embeddings.weight", maxPos, hidden); err != nil {
		return nil, err
	}
	if m.typEmb, err = st.f32("embeddings.token_type_embeddings.weight", 2, hidden); err != nil {
		return nil, err
	}
	if m.lnG, err = st.f32("embeddings.LayerNorm.weight", hidden); err != nil {
		return nil, err
	}
	if m.lnB, err = st.f32("embeddings.LayerNorm.bias", hidden); err != nil {
		return nil, err
	}
	for i := range m.layers {
		if err := loadLayer(st, &m.layers[i], fmt.Sprintf("encoder.layer.%d.", i)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func loadLayer(st *stFile, l *layer, p string) error {
	const hh = hidden * hidden
	l.qkvW = make([]float32, 3*hh)
	l.qkvB = make([]float32, 3*hidden)
	for i, name := range []string{"query", "key", "value"} {
		if err := st.f32Into(l.qkvW[i*hh:(i+1)*hh], p+"attention.self."+name+".weight", hidden, hidden); err != nil {
			return err
		}
		if err := st.f32Into(l.qkvB[i*hidden:(i+1)*hidden], p+"attention.self."+name+".bias", hidden); err != nil {
			return err
		}
	}
	var err error
	for _, t := range []struct {
		dst   *[]float32
		name  string
		shape []int
	}{
		{&l.outW, "attention.output.dense.weight", []int{hidden, hidden}},
		{&l.outB, "attention.output.dense.bias", []int{hidden}},
		{&l.ln1G, "attention.output.LayerNorm.weight", []int{hidden}},
		{&l.ln1B, "attention.output.LayerNorm.bias", []int{hidden}},
		{&l.ffnW, "intermediate.dense.weight", []int{inter, hidden}},
		{&l.ffnB, "intermediate.dense.bias", []int{inter}},
		{&l.prjW, "output.dense.weight", []int{hidden, inter}},
		{&l.prjB, "output.dense.bias", []int{hidden}},
		{&l.ln2G, "output.LayerNorm.weight", []int{hidden}},
		{&l.ln2B, "output.LayerNorm.bias", []int{hidden}},
	} {
		if *t.dst, err = st.f32(p+t.name, t.shape...); err != nil {
			return err
		}
	}
	return nil
}

// Dim is the embedding size.
func (m *Model) Dim() int { return hidden }

// MaxTokens is the longest input in tokens, [CLS] and [SEP] included;
// longer texts are truncated.
func (m *Model) MaxTokens() int { return maxTokens }

// Tokenize returns the token ids fed to the model for text: [CLS], the
// WordPiece ids (truncated), [SEP].
func (m *Model) Tokenize(text string) []int32 { return m.tok.encode(text, maxTokens) }

// Embed returns one L2-normalised vector per text, in order.
func (m *Model) Embed(texts []string) [][]float32 {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out
	}
	seqs := make([][]int32, len(texts))
	for i, t := range texts {
		seqs[i] = m.tok.encode(t, maxTokens)
	}
	// Batches pack rows without padding, so lengths need not match; sorting
	// longest first still helps: attention hands (sequence, head) pairs to
	// the cores in batch order, and longest-first balances them.
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(seqs[b]) - len(seqs[a]) })
	backing := make([]float32, len(texts)*hidden)
	for i := range out {
		out[i] = backing[i*hidden : (i+1)*hidden : (i+1)*hidden]
	}
	w, _ := m.work.Get().(*workspace)
	if w == nil {
		w = new(workspace)
	}
	defer m.work.Put(w)
	var batch [][]int32
	var dst [][]float32
	rows := 0
	for _, i := range order {
		if rows+len(seqs[i]) > batchRows && len(batch) > 0 {
			m.forward(w, batch, dst)
			batch, dst, rows = batch[:0], dst[:0], 0
		}
		batch = append(batch, seqs[i])
		dst = append(dst, out[i])
		rows += len(seqs[i])
	}
	m.forward(w, batch, dst)
	return out
}

// LoadBytes loads the model from its three files' contents held in memory
// (the model embedded in the binary). The word embeddings alias weights,
// which must stay unchanged; the other tensors are converted to float32 as
// from disk.
func LoadBytes(config, tokenizerJSON, weights []byte) (*Model, error) {
	if err := parseConfig(config); err != nil {
		return nil, err
	}
	var tok *tokenizer
	var tokErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		tok, tokErr = parseTokenizer(tokenizerJSON, tokenizerFile)
	}()
	st, err := memSafetensors(weights, weightsFile)
	var m *Model
	if err == nil {
		m, err = readWeights(st)
	}
	<-done
	switch {
	case err != nil:
		return nil, err
	case tokErr != nil:
		return nil, tokErr
	case tok.size != vocabSize:
		return nil, fmt.Errorf("minilm: %s: %d tokens, want %d", tokenizerFile, tok.size, vocabSize)
	}
	m.tok = tok
	return m, nil
}
