package mneme

import (
	"fmt"
	"strings"
)

// FormatSize words a size for a message: "8 MiB", "1.5 MiB", "300 KiB",
// or bytes where MiB would round a size over a limit to the limit itself
// ("1,048,577 bytes").
func FormatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		if s := fmt.Sprintf("%.1f", float64(n)/(1<<20)); !strings.HasSuffix(s, ".0") {
			return s + " MiB"
		}
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return groupDigits(n) + " bytes"
}

// groupDigits writes n with a comma between groups of three digits.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
