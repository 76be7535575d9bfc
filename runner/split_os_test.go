package runner

import (
	"slices"
	"testing"
)

// TestSplitForEachOS: each system's rules, chosen by a parameter so Linux
// runs Windows's table too, and every command quoted back reads as the
// same words.
func TestSplitForEachOS(t *testing.T) {
	tests := []struct {
		goos, line string
		want       []string
		wantErr    bool
	}{
		{"windows", `C:\Users\Some" "Teacher\bots\alice\bot.exe --x`, []string{`C:\Users\Some Teacher\bots\alice\bot.exe`, "--x"}, false},
		{"windows", `"C:\Users\Some Teacher\bots\alice\bot.exe" --level 3`, []string{`C:\Users\Some Teacher\bots\alice\bot.exe`, "--level", "3"}, false},
		{"windows", `.\bot.exe`, []string{`.\bot.exe`}, false},
		{"windows", `py -3 "my bot.py"`, []string{"py", "-3", "my bot.py"}, false},
		{"windows", `bot.exe "say ""hi"""`, []string{"bot.exe", `say "hi"`}, false},
		{"windows", `bot.exe 'it'`, []string{"bot.exe", "'it'"}, false},
		{"windows", `bot.exe ""`, []string{"bot.exe", ""}, false},
		{"windows", `"unclosed`, nil, true},
		{"windows", "  ", nil, true},
		{"linux", `./bot 'a b' "c\"d" e\ f`, []string{"./bot", "a b", `c"d`, "e f"}, false},
		{"linux", `C:\Users\bot.exe`, []string{`C:Usersbot.exe`}, false},
		{"darwin", `python3 '/Users/Some Teacher/bot.py'`, []string{"python3", "/Users/Some Teacher/bot.py"}, false},
		{"linux", `'unclosed`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.goos+" "+tt.line, func(t *testing.T) {
			got, err := SplitFor(tt.line, tt.goos)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("SplitFor = %q, want an error", got)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("SplitFor = %q, %v; want %q", got, err, tt.want)
			}
			back := JoinCommandFor(got, tt.goos)
			again, err := SplitFor(back, tt.goos)
			if err != nil || !slices.Equal(again, got) {
				t.Errorf("quoted back as %q, which reads as %q, %v", back, again, err)
			}
		})
	}
}
