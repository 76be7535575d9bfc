package cli

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ringside/app/class"
	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/runner"
	"ringside/runner/runnertest"
)

// classServer is a "ringside class serve" process of the real binary.
type classServer struct {
	url, fingerprint string
	cmd              *exec.Cmd
	out              *bufio.Reader
}

// startClass runs "ringside class serve" on loopback (a free port) and
// waits for its "serving" line.
func startClass(t *testing.T, exe, db string, args ...string) *classServer {
	t.Helper()
	if on, _, _ := service.SandboxState(); !on {
		// The tests that build hand-ins skip here; the others are refused
		// before anything builds.
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(exe, append([]string{"class", "serve", "--db", db, "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8")
	var errs bytes.Buffer
	cmd.Stderr = &errs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) < 4 || f[0] != "serving" {
		t.Fatalf("class serve did not start: %q %v; stderr %s", line, err, errs.String())
	}
	return &classServer{url: f[1], fingerprint: f[3], cmd: cmd, out: r}
}

// addStudents makes n students and returns their tokens by name.
func addStudents(t *testing.T, exe, db string, n int) map[string]string {
	t.Helper()
	args := []string{"class", "add", "--db", db, "--game", "grip"}
	for i := 1; i <= n; i++ {
		args = append(args, fmt.Sprintf("student%02d", i))
	}
	code, out, errs := ringsideAs(t, exe, nil, args...)
	if code != 0 {
		t.Fatalf("class add: exit %d %s", code, errs)
	}
	toks := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(l)
		if len(f) != 5 || f[1] != "token" {
			t.Fatalf("class add printed %q", l)
		}
		toks[f[0]] = f[2]
	}
	if len(toks) != n {
		t.Fatalf("class add printed %d tokens, want %d", len(toks), n)
	}
	return toks
}

// pinned is an HTTPS client that trusts only fp, dialling from the
// loopback address src (each student is a machine of its own).
func pinned(fp, src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	return &http.Client{Timeout: 3 * time.Minute, Transport: &http.Transport{DialContext: d.DialContext,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if class.Fingerprint(raw[0]) != fp {
				return fmt.Errorf("wrong certificate")
			}
			return nil
		}}}}
}

// filesBody is a multipart hand-in of files (path → content).
func filesBody(t *testing.T, files map[string]string) (io.Reader, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for p, c := range files {
		w, err := mw.CreateFormFile("file", p)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, c)
	}
	mw.Close()
	return &b, mw.FormDataContentType()
}

// zipBody is a multipart hand-in of one zip made by fill.
func zipBody(t *testing.T, fill func(zw *zip.Writer)) (io.Reader, string) {
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	fill(zw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	w, _ := mw.CreateFormFile("zip", "bot.zip")
	w.Write(z.Bytes())
	mw.Close()
	return &b, mw.FormDataContentType()
}

func post(t *testing.T, c *http.Client, url, token string, body io.Reader, ctype string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/api/submit", body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("hand-in: %v", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func handInsOf(t *testing.T, c *http.Client, url, token string) []class.HandInJSON {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"/api/handins", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("hand-ins: %v", err)
	}
	defer resp.Body.Close()
	var hs []class.HandInJSON
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&hs) != nil {
		t.Fatalf("hand-ins: %s", resp.Status)
	}
	return hs
}

const goodBot = "#!/usr/bin/env python3\nimport sys\nprint('READY', flush=True)\nfor line in sys.stdin:\n    if line.strip() == 'EOD':\n        print('N', flush=True)\n"

// Thirty students hand in at once in the last seconds before the
// deadline: good, non-compiling and hostile folders (a Makefile that
// reads the database and another student's folder). Every hand-in has a
// receipt and ends built or failed with its log; the hostile builds
// carry nothing they tried to take; the 31st, after the deadline, is
// refused with the time; the server still answers.
func TestClassHandInRush(t *testing.T) {
	t.Parallel()
	if on, why, _ := service.SandboxState(); !on {
		t.Skip("no full sandbox here: " + why)
	}
	exe, _ := runner.Executable()
	dir, err := runnertest.OutsideTmp(t, ".class-")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "class.db")
	toks := addStudents(t, exe, db, 30)
	// The server's start may take a busy machine many seconds: the
	// deadline leaves it 30, and the hand-ins wait for its last 10.
	deadline := time.Now().Add(40 * time.Second).Truncate(time.Second)
	srv := startClass(t, exe, db, "--deadline", deadline.Format(time.RFC3339), "--late", "refuse")
	victim := filepath.Join(dir, "class-data", "class", "student01")
	hostile := fmt.Sprintf("bot: bot.py\n\t-cat %s > stolen-db\n\t-cp -r %s stolen-src\n\tcp bot.py bot\n\tchmod +x bot\n", db, victim)
	kind := func(i int) string {
		switch {
		case i%6 == 5:
			return "bad"
		case i%6 == 4:
			return "hostile"
		}
		return "good"
	}
	time.Sleep(time.Until(deadline.Add(-10 * time.Second))) // the last 10 seconds, not timing anything
	var wg sync.WaitGroup
	receipts := make([]string, 31)
	for i := 1; i <= 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files := map[string]string{"bot/bot.py": goodBot}
			switch kind(i) {
			case "bad":
				files["bot/bot.py"] = "def broken(:\n"
			case "hostile":
				files["bot/Makefile"] = hostile
			}
			body, ctype := filesBody(t, files)
			code, text := post(t, pinned(srv.fingerprint, fmt.Sprintf("127.0.0.%d", 10+i)), srv.url, toks[fmt.Sprintf("student%02d", i)], body, ctype)
			if code != http.StatusOK {
				t.Errorf("student%02d: %d %s", i, code, text)
			}
			receipts[i] = text
		}()
	}
	wg.Wait()
	for i := 1; i <= 30; i++ {
		var rc service.Receipt
		if json.Unmarshal([]byte(receipts[i]), &rc) != nil || rc.ID == 0 || len(rc.Hash) != 64 || rc.Late {
			t.Errorf("student%02d's receipt: %q", i, receipts[i])
		}
	}
	time.Sleep(time.Until(deadline.Add(time.Second))) // waiting for the deadline, not timing anything
	body, ctype := filesBody(t, map[string]string{"bot.py": goodBot})
	code, text := post(t, pinned(srv.fingerprint, "127.0.0.9"), srv.url, toks["student01"], body, ctype)
	if code != http.StatusForbidden || !strings.Contains(text, "the deadline was "+deadline.UTC().Format(time.RFC3339)) {
		t.Errorf("the 31st hand-in, after the deadline: %d %s", code, text)
	}
	c := pinned(srv.fingerprint, "127.0.0.8")
	for i := 1; i <= 30; i++ {
		tok := toks[fmt.Sprintf("student%02d", i)]
		var h class.HandInJSON
		for {
			hs := handInsOf(t, c, srv.url, tok)
			if len(hs) == 0 {
				t.Fatalf("student%02d: no hand-in listed", i)
			}
			// The newest may be the refused late one (student01).
			h = hs[len(hs)-1]
			if h.State != service.HandInQueued && h.State != service.HandInBuilding {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		switch kind(i) {
		case "bad":
			if h.State != service.HandInFailed || !strings.Contains(h.BuildLog, "SyntaxError") {
				t.Errorf("student%02d (does not compile): %s, log %q", i, h.State, h.BuildLog)
			}
		default:
			// A check may fail a good bot only where it says the machine
			// was busy (a bot that sleeps past its window shows that too):
			// thirty builds at once beside the rest of the suite leave
			// some answer late now and then.
			checked := strings.Contains(h.Check, "Check passed") || strings.Contains(h.Check, "the machine was busy then")
			if h.State != service.HandInBuilt || h.Revision != 1 || !checked {
				t.Errorf("student%02d (%s): %s revision %d, log %q check %q", i, kind(i), h.State, h.Revision, h.BuildLog, h.Check)
			}
		}
	}
	resp, err := c.Get(srv.url + "/")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the server no longer answers: %v", err)
	}
	resp.Body.Close()
	srv.cmd.Process.Signal(syscall.SIGTERM)
	srv.cmd.Wait()
	svc, err := service.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for i := 4; i <= 30; i += 6 {
		st, err := svc.AI(fmt.Sprintf("student%02d", i))
		if err != nil || st.Current == nil {
			t.Fatalf("student%02d: no revision (%v)", i, err)
		}
		stolen, _ := os.ReadFile(filepath.Join(st.Current.ArtifactDir, "stolen-db"))
		if len(stolen) > 0 {
			t.Errorf("student%02d's build read the database: %d bytes", i, len(stolen))
		}
		if _, err := os.Stat(filepath.Join(st.Current.ArtifactDir, "stolen-src", "bot.py")); err == nil {
			t.Errorf("student%02d's build copied another student's folder", i)
		}
	}
}

// Attacks on the class server, each refused with nothing stored: tokens
// that open nothing, zips that leave the folder, links and devices,
// declared sizes that lie, too many files; then slow and many
// connections, after which a good client is still answered. Run as root
// and, by TestClassAttacksUnprivileged, as an ordinary user.
func TestClassAttacks(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	dir, err := runnertest.OutsideTmp(t, ".class-")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "class.db")
	toks := addStudents(t, exe, db, 5)
	srv := startClass(t, exe, db)
	if code, _, errs := ringsideAs(t, exe, nil, "class", "revoke", "--db", db, "student02"); code != 0 {
		t.Fatalf("class revoke: %s", errs)
	}
	good, revoked := toks["student01"], toks["student02"]
	// A student may hand in 6 times a minute: the attacks come from
	// several students' tokens, then one student goes over.
	others := []string{toks["student03"], toks["student04"], toks["student05"]}
	bigZip := func(zw *zip.Writer) {
		var z bytes.Buffer
		fw, _ := flateWriter(&z)
		fw.Write(make([]byte, 20<<20))
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "big.py", Method: zip.Deflate, CompressedSize64: uint64(z.Len()), UncompressedSize64: 10 << 30})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(z.Bytes())
	}
	entry := func(name string, mode os.FileMode) func(zw *zip.Writer) {
		return func(zw *zip.Writer) {
			h := &zip.FileHeader{Name: name, Method: zip.Store}
			h.SetMode(mode)
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, goodBot)
		}
	}
	many := func(zw *zip.Writer) {
		for i := 0; i < 100000; i++ {
			zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("f%d", i), Method: zip.Store})
		}
	}
	manyParts := map[string]string{}
	for i := 0; i < class.MaxHandInFiles+1; i++ {
		manyParts[fmt.Sprintf("bot/f%d.py", i)] = "x"
	}
	attacks := []struct {
		name, token string
		body        func() (io.Reader, string)
		code        int
		want        string
	}{
		{"wrong token", "AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH", func() (io.Reader, string) { return filesBody(t, map[string]string{"bot.py": goodBot}) }, 401, "opens nothing"},
		{"no token", "", func() (io.Reader, string) { return filesBody(t, map[string]string{"bot.py": goodBot}) }, 401, "log in"},
		{"revoked token", revoked, func() (io.Reader, string) { return filesBody(t, map[string]string{"bot.py": goodBot}) }, 401, "opens nothing"},
		{"zip with ../", good, func() (io.Reader, string) { return zipBody(t, entry("../evil.py", 0o644)) }, 400, "leaves the folder"},
		{"zip with an absolute path", good, func() (io.Reader, string) { return zipBody(t, entry("/tmp/evil.py", 0o644)) }, 400, "not a relative path"},
		{"zip with a symlink", good, func() (io.Reader, string) { return zipBody(t, entry("link", os.ModeSymlink|0o777)) }, 400, "links and devices"},
		{"zip with a device", good, func() (io.Reader, string) { return zipBody(t, entry("dev", os.ModeDevice|0o644)) }, 400, "links and devices"},
		{"zip declaring 10 GB", good, func() (io.Reader, string) { return zipBody(t, bigZip) }, 400, "more than 8 MB"},
		{"zip of 100,000 files", good, func() (io.Reader, string) { return zipBody(t, many) }, 400, "the zip is larger than 8 MB"},
		{"too many files", good, func() (io.Reader, string) { return filesBody(t, manyParts) }, 400, "more than 500 files"},
		{"a path too long", good, func() (io.Reader, string) {
			return filesBody(t, map[string]string{strings.Repeat("a", class.MaxPathLen+1): "x"})
		}, 400, "longer than"},
		{"a file that is also a folder", good, func() (io.Reader, string) {
			return filesBody(t, map[string]string{"bot/a": "x", "bot/a/b.py": "y"})
		}, 400, "both a file and a folder"},
		{"files of ../", good, func() (io.Reader, string) { return filesBody(t, map[string]string{"../../x.py": "x"}) }, 400, "leaves the folder"},
	}
	c := pinned(srv.fingerprint, "127.0.0.1")
	for i, a := range attacks {
		body, ctype := a.body()
		tok := a.token
		if tok == good && i >= 6 {
			tok = others[i%len(others)]
		}
		code, text := post(t, c, srv.url, tok, body, ctype)
		if code != a.code || !strings.Contains(text, a.want) {
			t.Errorf("%s: %d %q; want %d and %q", a.name, code, text, a.code, a.want)
		}
	}
	// The seventh hand-in of a minute is refused before it is read.
	for i := 0; i < 6; i++ {
		body, ctype := zipBody(t, entry("../evil.py", 0o644))
		if code, _ := post(t, c, srv.url, good, body, ctype); code == http.StatusTooManyRequests {
			break
		}
	}
	body, ctype := filesBody(t, map[string]string{"bot.py": goodBot})
	if code, text := post(t, c, srv.url, good, body, ctype); code != http.StatusTooManyRequests {
		t.Errorf("a seventh hand-in in a minute: %d %q", code, text)
	}
	for _, n := range []string{"student01", "student03", "student04", "student05"} {
		if hs := handInsOf(t, c, srv.url, toks[n]); len(hs) != 0 {
			t.Errorf("attacks stored %d hand-ins of %s", len(hs), n)
		}
		if ents, _ := os.ReadDir(filepath.Join(dir, "class-data", "class", n)); len(ents) != 0 {
			t.Errorf("attacks left files in %s's folder: %v", n, ents)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "class-data", "class", "incoming")); len(ents) != 0 {
		t.Errorf("attacks left hand-ins waiting: %v", ents)
	}

	// Slowloris: connections that never finish their handshake; then a
	// thousand connections from one machine.
	var conns []net.Conn
	defer func() {
		for _, cn := range conns {
			cn.Close()
		}
	}()
	addr := strings.TrimPrefix(srv.url, "https://")
	for i := 0; i < 1000; i++ {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.3")}}
		cn, err := d.Dial("tcp", addr)
		if err != nil {
			break // the backlog is full: the flood is refused
		}
		if i%10 == 0 {
			cn.Write([]byte{0x16, 0x03, 0x01}) // a TLS record begun, never ended
		}
		conns = append(conns, cn)
	}
	resp, err := pinned(srv.fingerprint, "127.0.0.4").Get(srv.url + "/")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("a good client during the flood: %v", err)
	}
	resp.Body.Close()
	if hs := handInsOf(t, pinned(srv.fingerprint, "127.0.0.5"), srv.url, good); len(hs) != 0 {
		t.Errorf("hand-ins after the flood: %d", len(hs))
	}
}

func TestClassAttacksUnprivileged(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	runnertest.AsNobody(t, runnertest.Nobody{
		Tests: []string{"TestClassAttacks"},
		Files: map[string]string{exe: "ringside"},
		Env: func(dir, _ string) []string {
			return []string{fixture.ExeEnv + "=" + filepath.Join(dir, "ringside")}
		},
	})
}

func flateWriter(w io.Writer) (*flate.Writer, error) {
	return flate.NewWriter(w, flate.BestCompression)
}

// ringside submit trusts one certificate: the fingerprint given, or the
// first one seen at the address; a server with another is refused and
// nothing is handed in.
func TestSubmitPinsCertificate(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	dir, err := runnertest.OutsideTmp(t, ".class-")
	if err != nil {
		t.Fatal(err)
	}
	dbA, dbB := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	tokA := addStudents(t, exe, dbA, 1)["student01"]
	tokB := addStudents(t, exe, dbB, 1)["student01"]
	a, b := startClass(t, exe, dbA), startClass(t, exe, dbB)
	if a.fingerprint == b.fingerprint {
		t.Fatal("two databases share a certificate")
	}
	bot := filepath.Join(dir, "bot")
	os.Mkdir(bot, 0o755)
	os.WriteFile(filepath.Join(bot, "bot.py"), []byte(goodBot), 0o644)
	home := t.TempDir()
	submit := func(args ...string) (int, string, string) {
		cmd := exec.Command(exe, append([]string{"submit"}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "LANG=C.UTF-8")
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errs.String()
	}
	cases := []struct {
		name      string
		args      []string
		code      int
		want      string
		handedInB int
	}{
		{"the slip's fingerprint, another server", []string{"--server", b.url, "--token", tokB, "--fingerprint", a.fingerprint, bot}, 1, "shows certificate " + b.fingerprint, 0},
		{"the fingerprint typed in lower case without colons", []string{"--server", b.url, "--token", tokB, "--fingerprint", strings.ToLower(strings.ReplaceAll(b.fingerprint, ":", "")), bot}, 0, "receipt 1", 1},
	}
	for _, c := range cases {
		code, out, errs := submit(c.args...)
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("%s: exit %d, %q %q; want %d and %q", c.name, code, out, errs, c.code, c.want)
		}
		cl := pinned(b.fingerprint, "127.0.0.1")
		if hs := handInsOf(t, cl, b.url, tokB); len(hs) != c.handedInB {
			t.Errorf("%s: server B holds %d hand-ins, want %d", c.name, len(hs), c.handedInB)
		}
	}
	// Trust on first use: A's address is remembered with A's certificate;
	// B's certificate at that address is refused.
	if code, out, errs := submit("--server", a.url, "--token", tokA, bot); code != 0 || !strings.Contains(out, "receipt 1") {
		t.Fatalf("first hand-in to A: exit %d %q %q", code, out, errs)
	}
	addrA := strings.TrimPrefix(a.url, "https://")
	a.cmd.Process.Signal(syscall.SIGTERM)
	a.cmd.Wait()
	c := startClass(t, exe, dbB, "--addr", addrA)
	code, out, errs := submit("--server", c.url, "--token", tokB, bot)
	if code != 1 || !strings.Contains(errs, "says "+a.fingerprint) {
		t.Errorf("B at A's address: exit %d %q %q; want the remembered certificate refused", code, out, errs)
	}
}

// A browser logs in with its token (an HttpOnly, Secure, SameSite=Strict
// session cookie), sees its page, and loses it when it logs out or when
// the teacher revokes the token.
func TestClassLogin(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	dir, err := runnertest.OutsideTmp(t, ".class-")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "class.db")
	toks := addStudents(t, exe, db, 2)
	srv := startClass(t, exe, db)
	login := func(tok string) (*http.Client, *http.Response) {
		jar := &cookieJar{}
		c := pinned(srv.fingerprint, "127.0.0.1")
		c.Jar = jar
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, err := c.PostForm(srv.url+"/login", map[string][]string{"token": {tok}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return c, resp
	}
	get := func(c *http.Client, path string) int {
		resp, err := c.Get(srv.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if _, resp := login("WRONG-TOKEN"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token logs in: %s", resp.Status)
	}
	c, resp := login(strings.ToLower(toks["student01"]))
	cookie := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "Secure") || !strings.Contains(cookie, "SameSite=Strict") {
		t.Fatalf("log-in: %s, cookie %q", resp.Status, cookie)
	}
	if code := get(c, "/me"); code != http.StatusOK {
		t.Errorf("own page after log-in: %d", code)
	}
	resp, err = c.Post(srv.url+"/logout", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code := get(c, "/me"); code != http.StatusUnauthorized {
		t.Errorf("own page after log-out: %d", code)
	}
	c2, _ := login(toks["student02"])
	if code := get(c2, "/me"); code != http.StatusOK {
		t.Fatalf("student02's page: %d", code)
	}
	if code, _, errs := ringsideAs(t, exe, nil, "class", "revoke", "--db", db, "student02"); code != 0 {
		t.Fatal(errs)
	}
	if code := get(c2, "/me"); code != http.StatusUnauthorized {
		t.Errorf("a session of a revoked token: %d", code)
	}
}

// cookieJar keeps the cookies of one server, Secure ones included.
type cookieJar struct {
	mu      sync.Mutex
	cookies map[string]*http.Cookie
}

func (j *cookieJar) SetCookies(_ *neturl.URL, cs []*http.Cookie) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.cookies == nil {
		j.cookies = map[string]*http.Cookie{}
	}
	for _, c := range cs {
		if c.MaxAge < 0 {
			delete(j.cookies, c.Name)
			continue
		}
		j.cookies[c.Name] = c
	}
}

func (j *cookieJar) Cookies(*neturl.URL) []*http.Cookie {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []*http.Cookie
	for _, c := range j.cookies {
		out = append(out, c)
	}
	return out
}
