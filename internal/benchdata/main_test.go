package benchdata

import (
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// TestMain prints the tests skipped here, and what enables them, without -v.
func TestMain(m *testing.M) { skips.Main(m) }
