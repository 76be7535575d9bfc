package engine_test

import (
	"reflect"
	"strings"
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

func TestResolvePerSeat(t *testing.T) {
	info := engine.Info{ID: "g", MinSeats: 2, MaxSeats: 4, Options: []engine.Option{
		{Key: "coords", Default: "rc", Choices: []string{"rc", "xy"}, PerSeat: true},
		{Key: "turn_ms", Default: "100"},
	}}
	tests := []struct {
		opts    engine.Options
		want    engine.Options
		wantErr string
	}{
		{engine.Options{"coords@1": "xy"}, engine.Options{"coords": "rc", "turn_ms": "100", "coords@1": "xy"}, ""},
		{engine.Options{"coords@3": "rc", "coords": "xy"}, engine.Options{"coords": "xy", "turn_ms": "100", "coords@3": "rc"}, ""},
		{engine.Options{"coords@4": "xy"}, nil, "not a seat of g (0 to 3)"},
		{engine.Options{"coords@-1": "xy"}, nil, "not a seat"},
		{engine.Options{"coords@01": "xy"}, nil, "not a seat"},
		{engine.Options{"coords@x": "xy"}, nil, "not a seat"},
		{engine.Options{"coords@1": "yx"}, nil, "want one of rc, xy"},
		{engine.Options{"turn_ms@1": "5"}, nil, "only coords may be set per seat"},
		{engine.Options{"nope@1": "5"}, nil, `no option "nope"`},
	}
	for _, tt := range tests {
		got, err := info.Resolve(tt.opts)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Resolve(%v) error %v, want one with %q", tt.opts, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Resolve(%v) = %v, %v; want %v", tt.opts, got, err, tt.want)
		}
	}
	opts := engine.Options{"coords": "xy", "coords@2": "rc"}
	for seat, want := range []string{"xy", "xy", "rc", "xy"} {
		if got := info.SeatValue(opts, "coords", seat); got != want {
			t.Errorf("SeatValue seat %d = %q, want %q", seat, got, want)
		}
	}
}
