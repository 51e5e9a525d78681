package contextpack

import "github.com/mneme-ai/mneme/internal/cl100k"

// Tokenizer names how tokens are counted: OpenAI's cl100k_base BPE (the
// tokenizer of GPT-4 and GPT-3.5), with the ranks of
// github.com/tiktoken-go/tokenizer compiled into the binary (no download;
// internal/cl100k reads them in place, so counting starts at once). Counts
// are exact for that tokenizer; other models' tokenizers differ by a few
// percent on English text.
const Tokenizer = "cl100k_base"

// Tokens counts the cl100k_base tokens of s, about a microsecond a token.
func Tokens(s string) int {
	if s == "" {
		return 0
	}
	n, err := cl100k.Count(s)
	if err != nil { // the splitter refuses nothing it can split; estimate if it ever does
		return (len(s) + 3) / 4
	}
	return n
}
