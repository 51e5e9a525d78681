package mneme

import (
	"context"
	"sync"
	"sync/atomic"
)

// FollowHome returns an embedder that starts as em and follows the home:
// when the Engine finds the home's vectors come from another embedder
// (another process switched it with `mneme reindex`), it loads that one
// with load and embeds with it from then on. A process that did not choose
// an embedder (it took the home's) uses it, so a long-running server goes
// on writing and recalling across a switch instead of failing with
// ECONFLICT until it restarts.
func FollowHome(em Embedder, load func(EmbedderInfo) (Embedder, error)) Embedder {
	f := &homeFollower{load: load}
	f.cur.Store(&em)
	return f
}

type homeFollower struct {
	cur  atomic.Pointer[Embedder]
	load func(EmbedderInfo) (Embedder, error)
	mu   sync.Mutex // one load at a time
}

func (f *homeFollower) Info() EmbedderInfo { return (*f.cur.Load()).Info() }

func (f *homeFollower) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return (*f.cur.Load()).Embed(ctx, texts)
}

// follow makes home's embedder the current one; false when it cannot
// load.
func (f *homeFollower) follow(home EmbedderInfo) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if sameSet(f.Info(), home) {
		return true
	}
	em, err := f.load(home)
	if err != nil || em == nil || !sameSet(em.Info(), home) {
		return false
	}
	f.cur.Store(&em)
	return true
}

// followHome makes the Engine's embedder the home's, when it follows the
// home and home differs from it; it reports whether they now agree.
func (e *Engine) followHome(home EmbedderInfo) bool {
	f, ok := e.embedder.(*homeFollower)
	return ok && f.follow(home)
}
