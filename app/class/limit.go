package class

import (
	"context"
	"net/http"
	"time"
)

func contextWith(r *http.Request, n *reqNote) context.Context {
	return context.WithValue(r.Context(), noteKey{}, n)
}

// bucket is a token bucket: n requests per period, refilled evenly.
type bucket struct {
	tokens float64
	last   time.Time
}

// allow takes one request from key's bucket of n per period, refusing
// when it is empty. Buckets of keys idle for a period are dropped now and
// then, so the map stays as small as the class.
func (s *Server) allow(key string, n int, period time.Duration) bool {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.limits) > 10000 {
		for k, b := range s.limits {
			if now.Sub(b.last) > period {
				delete(s.limits, k)
			}
		}
	}
	b, ok := s.limits[key]
	if !ok {
		b = &bucket{tokens: float64(n), last: now}
		s.limits[key] = b
	}
	b.tokens += now.Sub(b.last).Seconds() / period.Seconds() * float64(n)
	if b.tokens > float64(n) {
		b.tokens = float64(n)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
