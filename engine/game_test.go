package engine_test

import (
	"testing"

	"ringside/engine"
)

func TestInfoValue(t *testing.T) {
	info := engine.Info{ID: "g", Options: []engine.Option{
		{Key: "turn_ms", Default: "100"},
		{Key: "start", Default: ""},
	}}
	tests := []struct {
		name string
		opts engine.Options
		key  string
		want string
	}{
		{"set", engine.Options{"turn_ms": "250"}, "turn_ms", "250"},
		{"set empty", engine.Options{"turn_ms": ""}, "turn_ms", ""},
		{"default", engine.Options{"start": "x"}, "turn_ms", "100"},
		{"nil options", nil, "turn_ms", "100"},
		{"empty default", nil, "start", ""},
		{"unknown key unset", nil, "rounds", ""},
		{"unknown key set", engine.Options{"rounds": "7"}, "rounds", "7"},
	}
	for _, tt := range tests {
		if got := info.Value(tt.opts, tt.key); got != tt.want {
			t.Errorf("%s: Value(%v, %q) = %q, want %q", tt.name, tt.opts, tt.key, got, tt.want)
		}
	}
}
