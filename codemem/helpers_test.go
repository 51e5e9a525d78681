package codemem

import "github.com/mneme-ai/mneme"

func errCode(err error) string {
	if err == nil {
		return ""
	}
	return mneme.ErrorCode(err)
}
