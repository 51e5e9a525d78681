package sqlite_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/storetest"
	"github.com/mneme-ai/mneme/sqlite"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) mneme.Store {
		s, err := sqlite.Open(context.Background(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
