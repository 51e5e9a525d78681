package mneme

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

var (
	idMu   sync.Mutex
	lastMS int64
	seq    uint16 // 12-bit counter within lastMS
)

// NewID returns a UUIDv7: time-ordered, so ids sort by creation. Within one
// millisecond a counter in the rand_a bits keeps this process's ids
// increasing; it starts at a random value below 2048 and, when it runs out,
// borrows the next millisecond.
func NewID(now time.Time) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	ms := now.UnixMilli()
	idMu.Lock()
	switch {
	case ms > lastMS:
		lastMS, seq = ms, (uint16(b[6])<<8|uint16(b[7]))&0x07ff
	case seq >= 0x0fff:
		lastMS, seq = lastMS+1, 0
	default:
		seq++
	}
	ms, s := lastMS, seq
	idMu.Unlock()
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = 0x70 | byte(s>>8)
	b[7] = byte(s)
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// ValidID reports whether s has the form of a record id (any UUID,
// lowercase): 8-4-4-4-12 hex digits. Checked by hand, not by a regular
// expression: a vault re-export checks every file's id (10,000 of them).
func ValidID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return true
}
