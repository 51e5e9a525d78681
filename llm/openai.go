package llm

import "context"

// The OpenAI chat completions API, also served by vLLM, llama.cpp,
// LM Studio and others at POST /v1/chat/completions.
type openaiRequest struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature float64   `json:"temperature"` // 0 and a fixed seed: stable hypotheses
	Seed        int       `json:"seed"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
}

type openaiResponse struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

func openaiChat(ctx context.Context, g *generator, msgs []message, maxTokens int) (string, error) {
	var headers map[string]string
	if g.cfg.APIKey != "" {
		headers = map[string]string{"Authorization": "Bearer " + g.cfg.APIKey}
	}
	var res openaiResponse
	req := openaiRequest{Model: g.cfg.Model, Messages: msgs, Temperature: 0, Seed: 42, MaxTokens: maxTokens}
	if err := g.post(ctx, headers, req, &res); err != nil {
		return "", err
	}
	if len(res.Choices) == 0 {
		return "", nil // reported as "no text" by the caller
	}
	return res.Choices[0].Message.Content, nil
}
