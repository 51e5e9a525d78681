package mneme

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme/internal/secret"
)

// EmbedderHealth is the embedder's last failure, kept in the store
// (PendingStore) until it answers again, so that every process opening the
// home skips a provider known to be down until RetryAt instead of waiting
// on it, and stats and doctor can say why records wait for a vector.
type EmbedderHealth struct {
	Embedder string    `json:"embedder,omitempty"` // provider/model; "" when none could load
	Error    string    `json:"error"`
	At       time.Time `json:"at"`
	RetryAt  time.Time `json:"retry_at,omitzero"` // zero when there is nothing to retry
	Failures int       `json:"failures"`          // in a row: the backoff doubles with each
}

// The notes the Engine keeps in the store.
const (
	healthNote = "embedder.health"
	cursorNote = "embedder.sync_cursor"
)

// A provider that failed is skipped for backoffBase, doubled with each
// failure in a row up to backoffMax.
const (
	backoffBase = 5 * time.Second
	backoffMax  = 5 * time.Minute
)

// DefaultEmbedWait is how long a write waits for one call to the embedder,
// plus a twentieth of it per text: a provider slower than that is treated
// as down, and the write stores its records pending (WithEmbedWait).
const DefaultEmbedWait = 2 * time.Second

func backoff(failures int) time.Duration {
	d := backoffBase
	for i := 1; i < failures && d < backoffMax; i++ {
		d *= 2
	}
	return min(d, backoffMax)
}

// note returns the value kept under key: in the store when it keeps notes,
// else in this Engine's memory.
func (e *Engine) note(ctx context.Context, key string) (string, error) {
	if ps, ok := e.store.(PendingStore); ok {
		return ps.Note(ctx, key)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.notes[key], nil
}

func (e *Engine) setNote(ctx context.Context, key, value string) error {
	if ps, ok := e.store.(PendingStore); ok {
		return ps.SetNote(ctx, key, value)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.notes == nil {
		e.notes = map[string]string{}
	}
	e.notes[key] = value
	return nil
}

// health returns the embedder's recorded failure, or nil.
func (e *Engine) health(ctx context.Context) (*EmbedderHealth, error) {
	v, err := e.note(ctx, healthNote)
	if err != nil || v == "" {
		return nil, err
	}
	var h EmbedderHealth
	if json.Unmarshal([]byte(v), &h) != nil {
		return nil, nil // a note this version cannot read says nothing
	}
	h.Error = secret.RedactURLs(h.Error) // recorded by an older version
	return &h, nil
}

// skips reports whether h makes the embedder id skipped at now.
func (h *EmbedderHealth) skips(id string, now time.Time) bool {
	return h != nil && h.Embedder == id && now.Before(h.RetryAt)
}

// track records how a call to the embedder went, given last, the failure
// recorded before it: an answer forgets last; a failure that says the
// embedder is down or slow is recorded (it is skipped for the backoff) and
// returned; other failures change nothing.
func (e *Engine) track(ctx context.Context, last *EmbedderHealth, err error) (*EmbedderHealth, error) {
	switch {
	case err == nil:
		return nil, e.recovered(ctx, last)
	case !unavailable(ctx, err):
		return nil, nil
	}
	return e.failed(ctx, last, e.embedder.Info().ID(), err)
}

// failed records err as the failure of the embedder id ("": none could
// load) after last, and returns it: id is skipped until the backoff ends.
func (e *Engine) failed(ctx context.Context, last *EmbedderHealth, id string, err error) (*EmbedderHealth, error) {
	msg := secret.RedactURLs(ErrorMessage(err)) // as every reader of stats may see it
	if last != nil && id == "" && last.Embedder == "" && last.Error == msg {
		return last, nil // nothing new: no write
	}
	now := e.now().UTC()
	h := &EmbedderHealth{Embedder: id, Error: msg, At: now, Failures: 1}
	if last != nil && last.Embedder == id {
		h.Failures = last.Failures + 1
	}
	if id != "" {
		h.RetryAt = now.Add(backoff(h.Failures))
	}
	b, _ := json.Marshal(h)
	return h, e.setNote(ctx, healthNote, string(b))
}

// recovered forgets the failure last (if any): the embedder answered.
func (e *Engine) recovered(ctx context.Context, last *EmbedderHealth) error {
	if last == nil {
		return nil
	}
	return e.setNote(ctx, healthNote, "")
}

// unavailable reports whether err says the embedder is down or too slow
// (not that the call was wrong, nor that the caller gave up).
func unavailable(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && (ErrorCode(err) == EUNAVAILABLE || errors.Is(err, context.DeadlineExceeded))
}

// skipped is the error of a call not made because the embedder is down.
func (h *EmbedderHealth) skipped() error {
	return Errorf(EUNAVAILABLE, "%s (the embedder is not asked again before %s)", h.Error, h.RetryAt.Format(time.RFC3339))
}

// callEmbedder embeds one batch. A bounded call (a write's) gives up after
// the embedder's wait for len(texts), as EUNAVAILABLE.
func (e *Engine) callEmbedder(ctx context.Context, texts []string, bounded bool) ([][]float32, error) {
	if !bounded {
		return e.embedder.Embed(ctx, texts)
	}
	wait := e.embedWait + time.Duration(len(texts))*e.embedWait/20
	cctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	vecs, err := e.embedder.Embed(cctx, texts)
	if err != nil && ctx.Err() == nil && cctx.Err() != nil {
		return nil, Errorf(EUNAVAILABLE, "the embedder %s did not answer within %v, which a write does not wait beyond", e.embedder.Info().ID(), wait)
	}
	return vecs, err
}

// pendingReason says why records were stored without a vector.
func pendingReason(h *EmbedderHealth) string {
	if h.Embedder == "" {
		return h.Error
	}
	return fmt.Sprintf("the embedder is unavailable: %s", h.Error)
}
