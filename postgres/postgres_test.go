package postgres_test

import (
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/storetest"
)

func TestContract(t *testing.T) {
	pgtest.DSN(t)
	storetest.Run(t, func(t *testing.T) mneme.Store { return pgtest.Open(t) })
}
