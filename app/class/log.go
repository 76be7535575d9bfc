package class

import (
	"fmt"
	"net/http"
	"time"
)

// reqNote carries what the handlers learnt about a request (the student,
// the refusal) back to the log line.
type reqNote struct {
	status  int
	student string
	err     string
}

type noteKey struct{}

type recorder struct {
	http.ResponseWriter
	note *reqNote
}

func (r *recorder) WriteHeader(code int) {
	if r.note.status == 0 {
		r.note.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.note.status == 0 {
		r.note.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func noteOf(r *http.Request) *reqNote {
	n, _ := r.Context().Value(noteKey{}).(*reqNote)
	return n
}

func noteStudent(r *http.Request, name string) {
	if n := noteOf(r); n != nil {
		n.student = name
	}
}

func noteError(r *http.Request, msg string) {
	if n := noteOf(r); n != nil {
		n.err = msg
	}
}

// logged writes one log line per request: time, source address, method,
// path, status, the student and why a request was refused.
func (s *Server) logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := &reqNote{}
		r = r.WithContext(contextWith(r, n))
		h.ServeHTTP(&recorder{ResponseWriter: w, note: n}, r)
		line := fmt.Sprintf("%s %s %s %d", r.RemoteAddr, r.Method, r.URL.Path, n.status)
		if n.student != "" {
			line += " student=" + n.student
		}
		if n.err != "" {
			line += fmt.Sprintf(" refused=%q", n.err)
		}
		s.logLine(line)
	})
}

// logLine appends a line to the log file and passes it to OnLog.
func (s *Server) logLine(line string) {
	line = time.Now().UTC().Format(time.RFC3339) + " " + line
	s.logMu.Lock()
	defer s.logMu.Unlock()
	if s.logf != nil {
		fmt.Fprintln(s.logf, line)
	}
	if s.opt.OnLog != nil {
		s.opt.OnLog(line)
	}
}
