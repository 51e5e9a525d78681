package postgres

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Health checks the server for `mneme doctor` (the mneme.HealthChecker role).
func (s *Store) Health(ctx context.Context) ([]mneme.HealthCheck, error) {
	return nil, nil
}
