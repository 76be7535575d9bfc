package runner

import "testing"

// TestShowPaths: the copy's folder becomes the source folder wherever it
// is a whole path prefix; a longer name that only begins like it stays.
func TestShowPaths(t *testing.T) {
	const dir, src = "/data/revisions/alice/0123abcd", "/home/alice/bot"
	for _, tc := range []struct{ text, want string }{
		{`  File "/data/revisions/alice/0123abcd/bot.py", line 5, in think`, `  File "/home/alice/bot/bot.py", line 5, in think`},
		{"/data/revisions/alice/0123abcd/a.c:3:1: error\n/data/revisions/alice/0123abcd/b.c:1:1: note", "/home/alice/bot/a.c:3:1: error\n/home/alice/bot/b.c:1:1: note"},
		{"cwd /data/revisions/alice/0123abcd", "cwd /home/alice/bot"},
		{"/data/revisions/alice/0123abcd2/bot.py", "/data/revisions/alice/0123abcd2/bot.py"},
		{"/data/revisions/alice/0123abcd.old/x", "/data/revisions/alice/0123abcd.old/x"},
		{"nothing here", "nothing here"},
	} {
		if got := ShowPaths(tc.text, dir+"/", src); got != tc.want {
			t.Errorf("ShowPaths(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	if got := ShowPaths(dir+"/x", dir, ""); got != dir+"/x" {
		t.Errorf("no shown folder: %q changed to %q", dir+"/x", got)
	}
}
