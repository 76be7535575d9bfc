package storage

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"ringside/engine"
)

// replayCases are logs the codec must reproduce exactly.
func replayCases() []struct {
	name string
	log  *engine.Log
} {
	odd := &engine.Log{
		Game: "cloud", Options: engine.Options{"transport": "tcp"}, Seed: -5, Players: []string{"é", "b"},
		Steps: []engine.LogStep{
			{}, // a step that asked nobody
			{Replies: []engine.LogReply{
				{Status: engine.Answered, Line: "MOVE 3 4 ünïcode", Micros: 0, Stderr: "debug: thinking\nline 2"},
				{Status: engine.TimedOut, Micros: 1_000_000, Note: "no reply within the time limit"},
			}, Noise: []engine.Noise{{Seat: 1, Line: "late reply"}, {Seat: 0, Line: ""}}},
			{Replies: []engine.LogReply{
				{Status: engine.Closed, Micros: 12, Stderr: "panic: oops", Note: "memory limit 1 GiB; exit status 2"},
				{Status: engine.Gone},
			}},
			{Replies: []engine.LogReply{{Status: engine.Answered, Line: " spaces kept ", Micros: -1}},
				Noise: []engine.Noise{{Seat: 7, Line: "x"}}},
		},
		Result: engine.Result{Ranks: []int{1, 1}, Reason: "turn_limit", Turns: 3},
	}
	aborted := gripLog(9)
	aborted.Steps = aborted.Steps[:10]
	aborted.Result = engine.Result{}
	aborted.Aborted = "cancelled by the user"
	marked := gripLog(4)
	marked.Deterministic = []bool{true, false, true, true}[:len(marked.Players)]
	return []struct {
		name string
		log  *engine.Log
	}{
		{"grip 1000 turns", gripLog(1)},
		{"deterministic seats", marked},
		{"odd statuses, stderr and noise", odd},
		{"aborted", aborted},
	}
}

func TestReplayRoundTrip(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	cases := replayCases()
	_, ids := eventWithGames(t, db, len(cases))
	for i, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			blob, size, err := encodeLog(tt.log)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeLog(blob, size)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.log) {
				t.Fatalf("codec round trip differs:\n got %+v\nwant %+v", got, tt.log)
			}
			if err := db.FinishMatch(ids[i], engine.Result{Ranks: []int{1, 2}}, tt.log, time.Second); err != nil {
				t.Fatal(err)
			}
			got, err = db.Replay(ids[i])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.log) {
				t.Errorf("stored replay differs from the log")
			}
		})
	}
}

// A replay stored by a Ringside whose codec had no notes (version 1)
// still reads, with no notes.
func TestReplayVersion1Reads(t *testing.T) {
	t.Parallel()
	want := gripLog(1)
	raw, err := marshalLog(want)
	if err != nil {
		t.Fatal(err)
	}
	// Version 1 is version 2 without the notes column (here: its count, 0).
	if raw[len(raw)-1] != 0 {
		t.Fatalf("the encoding does not end in an empty notes column")
	}
	v1 := append([]byte{}, raw[:len(raw)-1]...)
	v1[3] = 1
	got, err := unmarshalLog(v1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("version 1 replay read differently")
	}
	if _, err := unmarshalLog([]byte("RSR\x01\x02{}\x00\x00\x00")); err != nil {
		t.Errorf("empty version 1 replay: %v", err)
	}
}

// TestReplaySize pins the size goal: a finished 1000-turn Grip game fits
// in 8 KB.
func TestReplaySize(t *testing.T) {
	t.Parallel()
	blob, raw, err := encodeLog(gripLog(1))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(gripLog(1))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(js)
	zw.Close()
	t.Logf("replay: %d bytes stored, %d before gzip; JSON would be %d, %d gzip'd", len(blob), raw, len(js), gz.Len())
	if len(blob) > 8<<10 {
		t.Errorf("a 1000-turn Grip replay takes %d bytes, over the 8 KB goal", len(blob))
	}
}

func TestReplayDecodeErrors(t *testing.T) {
	t.Parallel()
	good, err := marshalLog(gripLog(1))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		raw  []byte
		want string
	}{
		{"empty", nil, "no replay header"},
		{"wrong magic", []byte("JSON{}"), "no replay header"},
		{"newer codec", []byte("RSR\x09"), "codec version 9 (this build reads 1 and 2)"},
		{"truncated", good[:len(good)/2], "bad"},
		{"trailing", append(append([]byte{}, good...), 0), "1 stray bytes"},
		{"huge step count", append([]byte("RSR\x01\x02{}"), 0xff, 0xff, 0xff, 0xff, 0x0f), "bad step count"},
		{"notes count past the end", []byte("RSR\x02\x02{}\x00\x00\x00\x05"), "bad notes count"},
		{"empty note", []byte("RSR\x02\x02{}\x01\x01\x00\x00\x00\x00\x00\x01\x00\x00"), "bad note"},
		{"bad metadata", []byte("RSR\x01\x02{x"), "metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := unmarshalLog(tt.raw)
			if !errors.Is(err, errReplayFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a format error saying %q", err, tt.want)
			}
		})
	}
	if _, err := decodeLog([]byte("not gzip"), 0); err == nil || !strings.Contains(err.Error(), "decompress replay") {
		t.Errorf("decodeLog(not gzip) = %v", err)
	}
}

func FuzzReplayCodec(f *testing.F) {
	for _, c := range replayCases() {
		raw, err := marshalLog(c.log)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("RSR\x01\x02{}\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		log, err := unmarshalLog(raw)
		if err != nil {
			return
		}
		again, err := marshalLog(log)
		if err != nil {
			t.Fatalf("decoded log does not encode: %v", err)
		}
		back, err := unmarshalLog(again)
		if err != nil {
			t.Fatalf("re-encoded log does not decode: %v", err)
		}
		if !reflect.DeepEqual(back, log) {
			t.Errorf("round trip differs:\n%+v\n%+v", back, log)
		}
	})
}
