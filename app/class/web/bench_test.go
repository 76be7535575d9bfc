package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkPages is the load test of the pages on loopback: 100 clients
// at once ask the class page (with a game in play on it), or one frame of
// a student's replay, over real HTTP connections. It reports requests per
// second and the games re-simulated meanwhile (the game in play: once for
// its step, however many requests), and asserts no timing; a request that
// fails fails the benchmark.
//
//	go test -tags ci -run '^$' -bench BenchmarkPages ./app/class/web/
func BenchmarkPages(b *testing.B) {
	p := newPlayed(b)
	_, _, save, _ := LiveCup(b, p.svc, "Grip live")
	save(40)
	site := New(p.svc, Options{})
	pub, me := site.Public(), site.Student()
	// The class server authenticates before the student pages; here the
	// one student is put into every /me request's context, as it does.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/me") {
			me.ServeHTTP(w, r.WithContext(WithStudent(r.Context(), p.alice)))
			return
		}
		pub.ServeHTTP(w, r)
	}))
	defer srv.Close()
	const clients = 100
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}}
	for _, bc := range []struct{ name, path string }{
		{"class", "/"},
		{"frame", fmt.Sprintf("/me/replay/%d/frame/50.png", p.game)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			// RunParallel runs parallelism × GOMAXPROCS goroutines: at
			// least 100 clients at once.
			b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			sims := site.simulated.Load()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := client.Get(srv.URL + bc.path)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("GET %s: %d", bc.path, resp.StatusCode)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			b.ReportMetric(float64(site.simulated.Load()-sims), "simulations")
		})
	}
}
