package runner

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ringside/runner/sandbox"
)

// limitKeys are the caps ParseLimits knows, as a person writes them.
var limitKeys = "memory, processes, cpu, filesize, scratch, files"

// ParseLimits reads caps written as "memory=512M processes=64 cpu=2m
// filesize=16M scratch=64M files=128" (any of them, in any order; sizes in
// bytes with K, M or G, CPU time as a Go duration) on top of base. An
// empty text is base itself.
func ParseLimits(text string, base sandbox.Limits) (sandbox.Limits, error) {
	l := base
	for _, word := range strings.Fields(text) {
		key, value, ok := strings.Cut(word, "=")
		if !ok || value == "" {
			return base, fmt.Errorf("limit %q: write KEY=VALUE, e.g. memory=512M (keys: %s)", word, limitKeys)
		}
		var err error
		switch strings.ToLower(key) {
		case "memory":
			l.Memory, err = parseSize(value)
		case "filesize":
			l.FileSize, err = parseSize(value)
		case "scratch":
			l.Scratch, err = parseSize(value)
		case "processes":
			l.Processes, err = parseCount(value)
		case "files":
			l.OpenFiles, err = parseCount(value)
		case "cpu":
			l.CPU, err = time.ParseDuration(value)
			if err == nil && l.CPU <= 0 {
				err = fmt.Errorf("must be above 0")
			}
		default:
			return base, fmt.Errorf("limit %q: no such limit (keys: %s)", key, limitKeys)
		}
		if err != nil {
			return base, fmt.Errorf("limit %s=%s: %v", key, value, err)
		}
	}
	return l, nil
}

// FormatLimits writes the caps of l that differ from base as ParseLimits
// reads them.
func FormatLimits(l, base sandbox.Limits) string {
	var out []string
	size := func(key string, v, b int64) {
		if v != b {
			out = append(out, key+"="+sizeText(v))
		}
	}
	size("memory", l.Memory, base.Memory)
	if l.Processes != base.Processes {
		out = append(out, "processes="+strconv.Itoa(l.Processes))
	}
	if l.CPU != base.CPU {
		out = append(out, "cpu="+durationText(l.CPU))
	}
	size("filesize", l.FileSize, base.FileSize)
	size("scratch", l.Scratch, base.Scratch)
	if l.OpenFiles != base.OpenFiles {
		out = append(out, "files="+strconv.Itoa(l.OpenFiles))
	}
	return strings.Join(out, " ")
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("want a size above 0 such as 512M or 2G")
	}
	return n * mult, nil
}

func parseCount(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a whole number above 0")
	}
	return n, nil
}

func sizeText(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "G"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "M"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "K"
	}
	return strconv.FormatInt(n, 10)
}

// durationText writes d as time.Duration does, without the zero units it
// ends with ("5m", not "5m0s").
func durationText(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}
