package runner

import "testing"

// TestUncontainedRemark: a bot run outside the sandbox with caps (where
// the OS has no sandbox: Windows' Job Object holds them) is noted in its
// replay and its outcome with what this OS holds ("partial" on Windows,
// "off" elsewhere), not as trusted by choice; a bot the teacher trusted
// keeps the trusted note.
func TestUncontainedRemark(t *testing.T) {
	tests := []struct {
		name    string
		bot     Bot
		want    string
		level   string
		missing string
	}{
		{name: "trusted by choice", bot: Bot{Trusted: true}, want: "trusted: ran without the sandbox", level: "trusted"},
		{name: "no sandbox on this OS", bot: Bot{caps: DefaultLimits}, want: uncontainedRemark, level: uncontainedLevel, missing: uncontainedRemark},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startSeat(0, []string{fakebot, "-mode", "noready"}, tt.bot, nil)
			defer c.stop()
			if c.proc == nil {
				t.Fatalf("fakebot did not start: %s", c.note)
			}
			p := &match{conns: []*seatConn{c},
				out: &Outcome{Notes: make([]string, 1), Sandbox: make([]string, 1), SandboxMissing: make([]string, 1)}}
			p.containment()
			if p.out.Sandbox[0] != tt.level || c.remark != tt.want || p.out.SandboxMissing[0] != tt.missing {
				t.Errorf("sandbox %q, remark %q, missing %q; want %q, %q, %q",
					p.out.Sandbox[0], c.remark, p.out.SandboxMissing[0], tt.level, tt.want, tt.missing)
			}
		})
	}
}
