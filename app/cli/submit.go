package cli

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ringside/app/class"
	"ringside/runner/build"
)

func init() {
	register(&command{
		name: "submit", usage: "--server URL --token T [--fingerprint F] [--wait] DIR",
		summary: "hand in a program's folder to the class server",
		help: func() string {
			return `Sends the files of DIR to the teacher's class server ("ringside class serve")
and prints the receipt: the hand-in's number and the SHA-256 of its files. The
build and its check follow on the teacher's machine; --wait waits for them and
prints the build log and the check's result.

The server's certificate is pinned: with --fingerprint (from your slip) a
server showing another certificate is refused. Without it, the first server
seen at an address is remembered in your Ringside folder and a later one with
another certificate is refused.

` + optionsHelp(2, 21, submitOptions(new(submitFlags)))
		},
		run: runSubmit,
	})
}

type submitFlags struct {
	server, token, fingerprint string
	wait                       bool
}

func submitOptions(f *submitFlags) []option {
	return []option{
		stringOption(&f.server, "server", "URL", "", "the class server's address", required),
		stringOption(&f.token, "token", "T", "", "your token, from your slip", required),
		stringOption(&f.fingerprint, "fingerprint", "F", "", "the server's certificate fingerprint, from your slip", "the one remembered for the address"),
		boolOption(&f.wait, "wait", "wait for the build and check and print them"),
	}
}

func runSubmit(c *cli, args []string) error {
	fset := c.flags("submit")
	f := new(submitFlags)
	declare(fset, submitOptions(f))
	rest, err := parseInterleaved(fset, args)
	if err != nil {
		return err
	}
	if f.server == "" || f.token == "" || len(rest) != 1 {
		return usagef("submit: give --server URL, --token T and one folder")
	}
	u, err := url.Parse(strings.TrimRight(f.server, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return usagef("submit: --server %q: give the address from your slip, like https://192.168.1.10:8443", f.server)
	}
	client, err := pinnedClient(u, f.fingerprint)
	if err != nil {
		return err
	}
	body, ctype, n, err := handInBody(rest[0])
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, u.String()+"/api/submit", body)
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(f.token))
	var rc struct {
		ID   int64  `json:"id"`
		Hash string `json:"hash"`
		Late bool   `json:"late"`
	}
	if err := callJSON(client, req, &rc); err != nil {
		return err
	}
	late := ""
	if rc.Late {
		late = " (late)"
	}
	fmt.Fprintf(c.stdout, "handed in %d files: receipt %d, sources %s%s\n", n, rc.ID, rc.Hash, late)
	if !f.wait {
		return nil
	}
	return waitHandIn(c, client, u.String(), strings.TrimSpace(f.token), rc.ID)
}

// callJSON sends req and decodes a JSON answer into v; a refusal is an
// error with the server's words.
func callJSON(client *http.Client, req *http.Request, v any) error {
	resp, err := client.Do(req)
	if err != nil {
		var pe *pinError
		if errors.As(err, &pe) {
			return pe
		}
		return fmt.Errorf("submit: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("submit: read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e class.ErrorJSON
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			return fmt.Errorf("submit: the server refused: %s", e.Error)
		}
		return fmt.Errorf("submit: the server answered %s", resp.Status)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("submit: the server's answer is not what Ringside sends: %w", err)
	}
	return nil
}

func waitHandIn(c *cli, client *http.Client, base, token string, id int64) error {
	for {
		req, err := http.NewRequest(http.MethodGet, base+"/api/handins", nil)
		if err != nil {
			return fmt.Errorf("submit: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		var hs []class.HandInJSON
		if err := callJSON(client, req, &hs); err != nil {
			return err
		}
		for _, h := range hs {
			if h.ID != id || h.State == "queued" || h.State == "building" {
				continue
			}
			fmt.Fprintf(c.stdout, "hand-in %d: %s", id, h.State)
			if h.Revision > 0 {
				fmt.Fprintf(c.stdout, " (revision %d)", h.Revision)
			}
			fmt.Fprintf(c.stdout, "\n%s\n%s", strings.TrimRight(h.BuildLog, "\n"), h.Check)
			if h.State != "built" {
				return exitStatus(1)
			}
			return nil
		}
		time.Sleep(time.Second)
	}
}

// pinError is a server whose certificate is not the pinned one.
type pinError struct{ host, want, got string }

func (e *pinError) Error() string {
	return fmt.Sprintf("submit: refused: the server at %s shows certificate %s, but your slip (or your first hand-in there) says %s: this may not be your teacher's server; ask your teacher before handing in", e.host, e.got, e.want)
}

// pinnedClient trusts exactly one certificate: the fingerprint given, or
// the one remembered for the host (trust on first use, remembered then).
func pinnedClient(u *url.URL, fingerprint string) (*http.Client, error) {
	tr := &http.Transport{TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: 2 * time.Minute}
	if u.Scheme == "https" {
		want := class.NormalFingerprint(fingerprint)
		pins, pinFile := readPins()
		if want == "" {
			want = pins[u.Host]
		}
		tr.TLSClientConfig = &tls.Config{
			// The certificate is self-signed: no chain to check, the pin
			// is the check.
			InsecureSkipVerify: true,
			VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
				if len(raw) == 0 {
					return &pinError{host: u.Host, want: want, got: "none"}
				}
				got := class.Fingerprint(raw[0])
				if want == "" {
					want = got
					return savePin(pinFile, u.Host, got)
				}
				if got != want {
					return &pinError{host: u.Host, want: want, got: got}
				}
				return nil
			},
		}
	}
	return &http.Client{Transport: tr, Timeout: 5 * time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, nil
}

func pinPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "ringside", "class-pins")
}

// readPins reads the remembered fingerprints: "host fingerprint" lines.
func readPins() (map[string]string, string) {
	p := pinPath()
	pins := map[string]string{}
	f, err := os.Open(p)
	if err != nil {
		return pins, p
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if host, fp, ok := strings.Cut(sc.Text(), " "); ok {
			pins[host] = fp
		}
	}
	return pins, p
}

func savePin(p, host, fp string) error {
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("remember the server's certificate: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("remember the server's certificate: %w", err)
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%s %s\n", host, fp)
	return err
}

// handInBody is DIR's files as a multipart body, one "file" part each,
// named by its path; version control, caches and editor files are left
// out as the watcher leaves them out, and links are not followed.
func handInBody(dir string) (io.Reader, string, int, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	n := 0
	top := filepath.Base(filepath.Clean(dir))
	if abs, err := filepath.Abs(dir); err == nil {
		top = filepath.Base(abs)
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if build.Ignored(rel, d.IsDir(), false) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h := textproto.MIMEHeader{}
		// Named as a browser's folder picker names them, the folder's
		// own name first: the server takes that top folder off.
		h.Set("Content-Disposition", multipart.FileContentDisposition("file", top+"/"+rel))
		h.Set("Content-Type", "application/octet-stream")
		if info.Mode()&0o111 != 0 {
			h.Set("X-Executable", "1")
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		n++
		_, err = io.Copy(w, f)
		return err
	})
	if err != nil {
		return nil, "", 0, fmt.Errorf("submit: read %s: %w", dir, err)
	}
	if err := mw.Close(); err != nil {
		return nil, "", 0, fmt.Errorf("submit: %w", err)
	}
	if n == 0 {
		return nil, "", 0, fmt.Errorf("submit: %s holds no files to hand in", dir)
	}
	return &buf, mw.FormDataContentType(), n, nil
}
