package class

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"ringside/app/service"
)

// TestWriteSlips: a class of two gets a page with a slip each, with the
// address, a token that is new (the old one is reissued) and the
// certificate's fingerprint. The page's template is parsed at its first
// use, so this is also what checks that it parses.
func TestWriteSlips(t *testing.T) {
	t.Parallel()
	svc, toks := openClass(t, "grip", "ann", "bob")
	var b bytes.Buffer
	n, err := WriteSlips(svc, "https://10.0.0.5:8443", &b)
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n != 2 || strings.Count(page, `<div class="slip">`) != 2 {
		t.Fatalf("WriteSlips wrote %d slips, the page has %d; want 2 each:\n%s", n, strings.Count(page, `<div class="slip">`), page)
	}
	_, fp, err := Certificate(svc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">ann<", ">bob<", "Address: https://10.0.0.5:8443", fp, "data:image/png;base64,"} {
		if !strings.Contains(page, want) {
			t.Errorf("the slips page lacks %q:\n%s", want, page)
		}
	}
	for _, tok := range toks {
		if strings.Contains(page, tok.Token) {
			t.Errorf("the slip of %s repeats the token ClassAdd gave: printing slips reissues them", tok.Student.Name)
		}
	}
}

// openClass opens a new database with a class of names playing game, and
// returns its service and the students' first tokens.
func openClass(t *testing.T, game string, names ...string) (*service.Service, []service.IssuedToken) {
	t.Helper()
	svc, err := service.Open(filepath.Join(t.TempDir(), "class.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	toks, err := svc.ClassAdd(game, names)
	if err != nil {
		t.Fatal(err)
	}
	return svc, toks
}
