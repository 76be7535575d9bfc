package cli

import "testing"

// Advice names a database the way the teacher's shell reads it back: a
// POSIX shell's single quotes, or cmd.exe's double quotes (it has no
// single quotes: 'Z:\class.db' would be a file named with the quotes).
func TestShellQuoteForEachOS(t *testing.T) {
	tests := []struct {
		in, goos, want string
	}{
		{"/home/t/class.db", "linux", "/home/t/class.db"},
		{"/home/t/my class.db", "linux", "'/home/t/my class.db'"},
		{"/home/t/it's.db", "darwin", `'/home/t/it'\''s.db'`},
		{`C:\Users\Teacher\class.db`, "windows", `C:\Users\Teacher\class.db`},
		{`C:\Users\Some Teacher\class.db`, "windows", `"C:\Users\Some Teacher\class.db"`},
		{`Z:\tmp\a&b.db`, "windows", `"Z:\tmp\a&b.db"`},
		{"", "windows", `""`},
		{"", "linux", "''"},
	}
	for _, tt := range tests {
		if got := shellQuoteFor(tt.in, tt.goos); got != tt.want {
			t.Errorf("shellQuoteFor(%q, %s) = %s, want %s", tt.in, tt.goos, got, tt.want)
		}
	}
}
