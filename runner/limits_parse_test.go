package runner

import (
	"strings"
	"testing"
	"time"

	"ringside/runner/sandbox"
)

func TestParseLimits(t *testing.T) {
	tests := []struct {
		in   string
		want func(l *sandbox.Limits)
		err  string
	}{
		{"", nil, ""},
		{"memory=512M", func(l *sandbox.Limits) { l.Memory = 512 << 20 }, ""},
		{"Memory=2G processes=64 cpu=90s", func(l *sandbox.Limits) { l.Memory, l.Processes, l.CPU = 2<<30, 64, 90*time.Second }, ""},
		{"filesize=16M scratch=32M files=100", func(l *sandbox.Limits) { l.FileSize, l.Scratch, l.OpenFiles = 16<<20, 32<<20, 100 }, ""},
		{"memory", nil, "write KEY=VALUE"},
		{"memory=lots", nil, "want a size"},
		{"memory=0", nil, "want a size"},
		{"cpu=-1s", nil, "above 0"},
		{"threads=4", nil, "no such limit"},
		{"processes=1.5", nil, "whole number"},
	}
	for _, tt := range tests {
		got, err := ParseLimits(tt.in, DefaultLimits)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		want := DefaultLimits
		if tt.want != nil {
			tt.want(&want)
		}
		if err != nil || got != want {
			t.Errorf("%q = %+v, %v; want %+v", tt.in, got, err, want)
		}
		if back, err := ParseLimits(FormatLimits(got, DefaultLimits), DefaultLimits); err != nil || back != got {
			t.Errorf("%q does not survive FormatLimits: %q → %+v, %v", tt.in, FormatLimits(got, DefaultLimits), back, err)
		}
	}
}

func FuzzParseLimits(f *testing.F) {
	for _, s := range []string{"", "memory=512M", "cpu=2m processes=8", "files=x", "scratch=9223372036854775807G"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLimits(s, DefaultLimits)
		if err != nil {
			return
		}
		if l.Memory <= 0 || l.Processes <= 0 || l.CPU <= 0 || l.FileSize <= 0 || l.Scratch <= 0 || l.OpenFiles <= 0 {
			t.Fatalf("%q gives a cap at or below zero: %+v", s, l)
		}
		back, err := ParseLimits(FormatLimits(l, DefaultLimits), DefaultLimits)
		if err != nil || back != l {
			t.Fatalf("%q: round trip %q gives %+v, %v", s, FormatLimits(l, DefaultLimits), back, err)
		}
	})
}
