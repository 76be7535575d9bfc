// Package web is the class server's pages: the class page anyone on the
// classroom's network may read (published events' standings, the
// bracket, the games in play) and each student's own page (hand-ins,
// revisions with build logs, their games and a replay viewer whose frames
// the desktop viewer's boards draw). Package class mounts them behind its
// authentication; every student handler takes the student from the
// request's context, never from the URL.
package web

import (
	"context"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"sync"
	"sync/atomic"

	"ringside/app/service"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure the pages.
type Options struct {
	// Insecure says the server runs plain HTTP: every page then carries a
	// warning that tokens and programs cross the network in clear.
	Insecure bool
	// Context ends the comparisons the pages started ("did my change
	// help?"); nil: they play to their end.
	Context context.Context
}

// Student is the authenticated student a request is for.
type Student struct {
	AIID int64
	Name string
}

type studentKey struct{}

// WithStudent puts the authenticated student into ctx (the class server
// calls it after checking the token).
func WithStudent(ctx context.Context, st Student) context.Context {
	return context.WithValue(ctx, studentKey{}, st)
}

// StudentFrom is the student WithStudent put into ctx.
func StudentFrom(ctx context.Context) (Student, bool) {
	st, ok := ctx.Value(studentKey{}).(Student)
	return st, ok
}

// Site is the class server's pages over one service.
type Site struct {
	svc  *service.Service
	opt  Options
	tmpl *template.Template

	mu     sync.Mutex
	frames map[int64]prepared  // prepared replays by game
	pngs   map[frameKey][]byte // drawn frames
	prep   sync.Mutex          // held while a replay is prepared
	// simulated counts the replays prepared (each a re-simulation of the
	// game): what the frame cache saves.
	simulated atomic.Int64
	// comparing marks the students whose comparison is playing.
	comparing map[int64]bool
	games     sync.WaitGroup // the comparisons playing
}

// frameKey is a drawn frame: a board names the step among the steps
// known ("turn 9 of 58"), so a game in play's step is drawn anew as the
// game grows.
type frameKey struct {
	game     int64
	step, of int
}

// maxCachedFrames bounds the frame cache: a class scrubbing a few games
// keeps its frames, a crawler does not fill the teacher's memory.
const maxCachedFrames = 4096

// New makes the pages.
func New(svc *service.Service, opt Options) *Site {
	t := template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))
	return &Site{svc: svc, opt: opt, tmpl: t, frames: map[int64]prepared{}, pngs: map[frameKey][]byte{}}
}

// Wait waits for the comparisons the pages started to stop (they stop
// when Options.Context ends).
func (s *Site) Wait() { s.games.Wait() }

// Public is the pages that need no token: the class page, a published
// event's page, the log-in form and the static files.
func (s *Site) Public() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.classPage)
	mux.HandleFunc("GET /event/{id}", s.eventPage)
	mux.HandleFunc("GET /login", s.loginPage)
	mux.HandleFunc("GET /game/{id}/frame/{step}", s.publicFrame)
	sub, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.FS(sub))))
	return secured(mux)
}

// Student is the pages of the student in the request's context
// (WithStudent); without one it answers 401.
func (s *Site) Student() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /me", s.mePage)
	mux.HandleFunc("GET /me/{$}", s.mePage)
	mux.HandleFunc("GET /me/game/{id}", s.gamePage)
	mux.HandleFunc("GET /me/game/{id}/seat.json", s.seatJSON)
	mux.HandleFunc("GET /me/game/{id}/steps.json", s.stepsJSON)
	mux.HandleFunc("GET /me/replay/{id}/frame/{step}", s.framePNG)
	mux.HandleFunc("POST /me/compare", s.compare)
	mux.HandleFunc("GET /me/compare/{id}", s.comparePage)
	return secured(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := StudentFrom(r.Context()); !ok {
			http.Error(w, "log in with the token on your slip", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
}

// secured adds the headers that keep the pages to themselves: no
// framing, no sniffing, no resource from anywhere but this server (the
// classroom has no internet, and a page must not reach out).
func secured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}
