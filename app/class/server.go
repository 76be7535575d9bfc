// Package class is the class server: students hand in their programs from
// their own laptops over the classroom's network and follow their results
// in a browser. It owns authentication (a token per student, a session
// cookie), TLS with the database's own certificate, rate limits, upload
// caps and the request log; the pages are package web's, mounted here.
package class

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"ringside/app/class/web"
	"ringside/app/service"
)

// Options configure a class server.
type Options struct {
	Addr string // host:port to listen on; "" is 127.0.0.1:8443
	// Insecure serves plain HTTP: tokens then cross the network in clear,
	// and every page says so.
	Insecure bool
	// NoSandbox serves although this machine cannot sandbox builds fully
	// (a teacher's explicit choice, warned about).
	NoSandbox bool
	// MaxConns caps connections at once (0: DefaultMaxConns).
	MaxConns int
	// LogPath is the request log (""': the database's path + ".class.log").
	LogPath string
	// Public and Student are the pages: Public needs no token, Student is
	// reached only after authentication, with the student in the
	// request's context through WithStudent. Both nil: package web's.
	Public, Student http.Handler
	// WithStudent puts the authenticated student into a request's
	// context for Student (web.WithStudent).
	WithStudent func(ctx context.Context, aiID int64, name string) context.Context
	// OnLog is called with each line of the request log (the app's view).
	OnLog func(string)
}

// DefaultMaxConns is how many connections the server holds at once: a
// class of thirty with a few tabs each, far from the descriptors a flood
// would take.
const DefaultMaxConns = 256

// PerAddressConns is how many connections one source address holds at
// once: a student's browser opens a handful; a flood from one machine
// leaves the others their places.
const PerAddressConns = 32

// DefaultAddr is where the server listens when not told: loopback only,
// so nothing is open to the network until the teacher picks an address.
const DefaultAddr = "127.0.0.1:8443"

// Server is a running class server.
type Server struct {
	svc         *service.Service
	opt         Options
	fingerprint string
	cert        tls.Certificate
	ln          net.Listener
	srv         *http.Server
	logf        *os.File
	logMu       sync.Mutex
	// site is package web's pages when the server mounts them; pages
	// ends the comparisons they start, when Serve stops.
	site  *web.Site
	pages context.CancelFunc

	mu       sync.Mutex
	sessions map[string]string // session ID → token
	limits   map[string]*bucket
}

// New prepares a class server: it refuses when builds cannot be
// sandboxed (unless opt.NoSandbox), loads or makes the certificate and
// opens the log. Serve starts it.
func New(svc *service.Service, opt Options) (*Server, error) {
	if on, summary, _ := service.SandboxState(); !on && !opt.NoSandbox {
		return nil, fmt.Errorf("the class server builds students' programs only in the sandbox, and this machine cannot sandbox fully (%s); pass --no-sandbox to serve anyway, knowing that a hand-in's build then runs with fewer walls", summary)
	}
	if opt.Addr == "" {
		opt.Addr = DefaultAddr
	}
	if opt.MaxConns <= 0 {
		opt.MaxConns = DefaultMaxConns
	}
	if opt.LogPath == "" {
		opt.LogPath = svc.Path() + ".class.log"
	}
	s := &Server{svc: svc, sessions: map[string]string{}, limits: map[string]*bucket{}}
	if opt.Public == nil && opt.Student == nil {
		// A comparison a student started plays on the teacher's machine:
		// it must stop with the server, not outlive it unseen.
		var pctx context.Context
		pctx, s.pages = context.WithCancel(context.Background())
		s.site = web.New(svc, web.Options{Insecure: opt.Insecure, Context: pctx})
		opt.Public, opt.Student = s.site.Public(), s.site.Student()
		opt.WithStudent = func(ctx context.Context, aiID int64, name string) context.Context {
			return web.WithStudent(ctx, web.Student{AIID: aiID, Name: name})
		}
	}
	s.opt = opt
	var err error
	if s.cert, s.fingerprint, err = Certificate(svc); err != nil {
		return nil, err
	}
	if s.logf, err = os.OpenFile(opt.LogPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err != nil {
		return nil, fmt.Errorf("open the class log: %w", err)
	}
	if err := svc.FailStaleHandIns(); err != nil {
		s.logf.Close()
		return nil, err
	}
	return s, nil
}

// Fingerprint is the SHA-256 fingerprint of the server's certificate.
func (s *Server) Fingerprint() string { return s.fingerprint }

// Listen opens the listening socket; Addr then says where it is.
func (s *Server) Listen() error {
	ln, err := net.Listen("tcp", s.opt.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.opt.Addr, err)
	}
	s.ln = newLimitListener(ln, s.opt.MaxConns, PerAddressConns)
	return nil
}

// Addr is the address the server listens on (after Listen).
func (s *Server) Addr() string {
	if s.ln == nil {
		return s.opt.Addr
	}
	return s.ln.Addr().String()
}

// URL is the address students type.
func (s *Server) URL() string {
	scheme := "https"
	if s.opt.Insecure {
		scheme = "http"
	}
	return scheme + "://" + s.Addr()
}

// Serve serves until ctx ends, then stops the server and the hand-in
// builds. It listens first if Listen was not called.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	s.srv = &http.Server{
		Handler: s.Handler(),
		// A slow client holds a connection only this long: slowloris
		// gets its headers cut off after 10 s.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	ln := s.ln
	if !s.opt.Insecure {
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{s.cert}, MinVersion: tls.VersionTLS12})
	}
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(ln) }()
	s.logLine("serving " + s.URL() + " fingerprint " + s.fingerprint)
	var err error
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = s.srv.Shutdown(sctx)
		cancel()
	case err = <-errc:
	}
	s.stopPages()
	s.svc.StopClass()
	s.logLine("stopped")
	s.logf.Close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// stopPages ends the comparisons the pages started and waits for them:
// their events are left paused, as a stopped event is.
func (s *Server) stopPages() {
	if s.pages == nil {
		return
	}
	s.pages()
	s.site.Wait()
}

// Handler is the server's routes with logging.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("POST /me/handin", s.authed(s.handIn))
	mux.HandleFunc("POST /api/submit", s.authed(s.handIn))
	mux.HandleFunc("GET /api/handins", s.authed(s.handInList))
	if s.opt.Student != nil {
		mux.Handle("/me/", s.authed(s.student))
		mux.Handle("/me", s.authed(s.student))
	}
	if s.opt.Public != nil {
		mux.Handle("/", s.opt.Public)
	} else {
		mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "Ringside class server.%s\nHand in with: ringside submit --server %s --token YOUR-TOKEN DIR\n", s.banner(), s.URL())
		})
	}
	return s.logged(mux)
}

// banner is the warning every page carries when tokens travel in clear.
func (s *Server) banner() string {
	if s.opt.Insecure {
		return "\nWARNING: this server runs without encryption (plain HTTP): anyone on this network can read tokens and programs."
	}
	return ""
}

// Insecure reports whether the server runs plain HTTP (pages show a
// warning banner).
func (s *Server) Insecure() bool { return s.opt.Insecure }

type ctxKey struct{}

type who struct {
	st service.ClassStudent
}

// authed lets a request through only with a valid token (a bearer token
// or the session cookie), checked again on every request so a revoked
// token's sessions end at once.
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := ""
		if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
			tok = strings.TrimPrefix(a, "Bearer ")
		} else if c, err := r.Cookie(sessionCookie); err == nil {
			s.mu.Lock()
			tok = s.sessions[c.Value]
			s.mu.Unlock()
		}
		if !s.allow("ip:"+clientIP(r), 600, time.Minute) {
			s.fail(w, r, http.StatusTooManyRequests, "too many requests from this address: wait a minute")
			return
		}
		if tok == "" {
			s.fail(w, r, http.StatusUnauthorized, "log in with the token on your slip")
			return
		}
		st, err := s.svc.StudentByToken(tok)
		if err != nil {
			s.fail(w, r, http.StatusUnauthorized, err.Error())
			return
		}
		noteStudent(r, st.Name)
		ctx := context.WithValue(r.Context(), ctxKey{}, who{st: st})
		if s.opt.WithStudent != nil {
			ctx = s.opt.WithStudent(ctx, st.AIID, st.Name)
		}
		h(w, r.WithContext(ctx))
	}
}

func studentOf(r *http.Request) service.ClassStudent {
	return r.Context().Value(ctxKey{}).(who).st
}

func (s *Server) student(w http.ResponseWriter, r *http.Request) { s.opt.Student.ServeHTTP(w, r) }

const sessionCookie = "ringside_session"

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if !s.allow("login:"+clientIP(r), 20, time.Minute) {
		s.fail(w, r, http.StatusTooManyRequests, "too many log-in attempts from this address: wait a minute")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	tok := r.PostFormValue("token")
	st, err := s.svc.StudentByToken(tok)
	if err != nil {
		s.fail(w, r, http.StatusUnauthorized, err.Error())
		return
	}
	noteStudent(r, st.Name)
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		s.fail(w, r, http.StatusInternalServerError, "could not make a session")
		return
	}
	id := hex.EncodeToString(b)
	s.mu.Lock()
	s.sessions[id] = tok
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true,
		Secure: !s.opt.Insecure, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/me", http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		s.mu.Lock()
		delete(s.sessions, c.Value)
		s.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: !s.opt.Insecure, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// handIn takes a hand-in: at most 6 a minute per student, within the
// upload caps; the receipt comes at once, the build follows.
func (s *Server) handIn(w http.ResponseWriter, r *http.Request) {
	st := studentOf(r)
	if !s.allow(fmt.Sprintf("handin:%d", st.AIID), 6, time.Minute) {
		s.fail(w, r, http.StatusTooManyRequests, "more than 6 hand-ins a minute: wait a minute; only your newest hand-in is built anyway")
		return
	}
	files, err := readHandIn(w, r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	rc, err := s.svc.HandIn(st.AIID, files, clientIP(r))
	var late *service.LateError
	if errors.As(err, &late) {
		s.fail(w, r, http.StatusForbidden, err.Error())
		return
	}
	var se *service.Error
	if errors.As(err, &se) && se.Code == service.Invalid {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	s.logLine(fmt.Sprintf("hand-in %d of %s from %s: %d files, %s%s", rc.ID, st.Name, clientIP(r), len(files), rc.Hash, map[bool]string{true: ", late"}[rc.Late]))
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, rc)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/me#handin-%d", rc.ID), http.StatusSeeOther)
}

// HandInJSON is one hand-in as GET /api/handins answers it.
type HandInJSON struct {
	ID       int64     `json:"id"`
	Time     time.Time `json:"time"`
	Hash     string    `json:"hash"`
	Late     bool      `json:"late"`
	State    string    `json:"state"`
	Revision int       `json:"revision"`
	BuildLog string    `json:"build_log"`
	Check    string    `json:"check"`
}

func (s *Server) handInList(w http.ResponseWriter, r *http.Request) {
	hs, err := s.svc.HandIns(studentOf(r).AIID)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	out := make([]HandInJSON, len(hs))
	for i, h := range hs {
		out[i] = HandInJSON{ID: h.ID, Time: h.Time, Hash: h.Hash, Late: h.Late, State: h.State, Revision: h.Number, BuildLog: h.BuildLog, Check: h.Check}
	}
	writeJSON(w, http.StatusOK, out)
}

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json") || strings.HasPrefix(r.URL.Path, "/api/")
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// ErrorJSON is the body of a refused API request.
type ErrorJSON struct {
	Error string `json:"error"`
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	noteError(r, msg)
	if wantsJSON(r) {
		writeJSON(w, code, ErrorJSON{Error: msg})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintln(w, msg+s.banner())
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
