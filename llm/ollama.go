package llm

import "context"

// Ollama's POST /api/chat; stream false returns one JSON object.
type ollamaRequest struct {
	Model    string        `json:"model"`
	Messages []message     `json:"messages"`
	Stream   bool          `json:"stream"`
	Options  ollamaOptions `json:"options"`
}

// Temperature 0 and a fixed seed keep the hypothesis for a query stable,
// so recall results are reproducible.
type ollamaOptions struct {
	Temperature float64 `json:"temperature"`
	Seed        int     `json:"seed"`
	NumPredict  int     `json:"num_predict,omitempty"` // answer tokens at most; 0: Ollama's default
}

type ollamaResponse struct {
	Message message `json:"message"`
}

func ollamaChat(ctx context.Context, g *generator, msgs []message, maxTokens int) (string, error) {
	var res ollamaResponse
	req := ollamaRequest{Model: g.cfg.Model, Messages: msgs, Options: ollamaOptions{Temperature: 0, Seed: 42, NumPredict: maxTokens}}
	if err := g.post(ctx, nil, req, &res); err != nil {
		return "", err
	}
	return res.Message.Content, nil
}
