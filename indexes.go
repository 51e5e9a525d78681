package mneme

import "context"

// IndexBacklog is how many changes the store's next search would index
// before it answers (IndexKeeper); 0 for a store that keeps no derived
// indexes.
func (e *Engine) IndexBacklog(ctx context.Context) (int64, error) {
	if k, ok := e.store.(IndexKeeper); ok {
		return k.IndexBacklog(ctx)
	}
	return 0, nil
}

// WarmIndexes brings the store's derived indexes up to date and saves them
// (IndexKeeper), returning how many changes it indexed.
func (e *Engine) WarmIndexes(ctx context.Context) (int64, error) {
	if k, ok := e.store.(IndexKeeper); ok {
		return k.WarmIndexes(ctx)
	}
	return 0, nil
}

// LeaveIndexes makes Close leave the store's index snapshots as they are
// (IndexKeeper): for a process that must end quickly.
func (e *Engine) LeaveIndexes() {
	if k, ok := e.store.(IndexKeeper); ok {
		k.LeaveIndexes()
	}
}
