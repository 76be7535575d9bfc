package storage

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"ringside/engine"
)

// A replay blob is gzip over a columnar encoding of engine.Log. JSON+gzip
// of a 1000-turn Grip game is about 4.4 KB; the columnar form is about
// 3.0 KB and ten times cheaper to compress, because gzip no longer has to
// find the JSON keys around every reply, and the reply times (the bulk of
// the information) are stored as varints rather than decimal text.
//
// Layout before gzip, all integers unsigned varints unless noted:
//
//	"RSR" codecVersion(byte)
//	len(meta) meta                 JSON: game, options, seed, players, result, aborted
//	nSteps                         then per step its number of replies
//	statuses                       one byte per reply, all steps in order
//	lines                          per reply: len, bytes
//	micros                         per reply: uint64(Micros)
//	nStderr                        then per non-empty stderr: reply index delta, len, bytes
//	nNoise                         then per noise line: step index delta, uint64(seat), len, bytes
//	nNotes                         then per non-empty note: reply index delta, len, bytes
//
// Version 1 had no notes column: a replay stored by it reads with no
// notes. The notes are the runner's remarks on a reply (a cap that ended
// the bot, a cut, a refused login, a seat run outside the sandbox), which
// an event's replay must keep as a played game's does.
//
// Columns put alike bytes together (all the statuses, all the one-letter
// moves), which is what gzip compresses best.
const (
	codecMagic   = "RSR"
	codecVersion = 2
)

// logMeta is the part of a Log that is not per step.
type logMeta struct {
	Game    string         `json:"game"`
	Options engine.Options `json:"options,omitempty"`
	Seed    int64          `json:"seed"`
	Players []string       `json:"players"`
	Result  engine.Result  `json:"result"`
	Aborted string         `json:"aborted,omitempty"`
	// Deterministic is kept in the metadata: absent (as before it was
	// recorded) when the runner was not told.
	Deterministic []bool `json:"deterministic,omitempty"`
}

// gzip writers keep about 1 MB of tables; reusing them is most of what
// makes saving a replay cheap.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return w
}}

var gzipReaders sync.Pool

// encodeLog returns the gzip'd blob of log and the length of the encoding
// before compression.
func encodeLog(log *engine.Log) (blob []byte, size int, err error) {
	raw, err := marshalLog(log)
	if err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	buf.Grow(len(raw)/2 + 64)
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(raw); err != nil {
		return nil, 0, fmt.Errorf("compress replay: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, 0, fmt.Errorf("compress replay: %w", err)
	}
	return buf.Bytes(), len(raw), nil
}

// decodeLog is the inverse of encodeLog. size, the length before
// compression, is only a hint for the buffer.
func decodeLog(blob []byte, size int) (*engine.Log, error) {
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(blob))
	} else {
		err = zr.Reset(bytes.NewReader(blob))
	}
	if err != nil {
		return nil, fmt.Errorf("decompress replay: %w", err)
	}
	if size < 0 || size > 64<<20 {
		size = 0
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err = buf.ReadFrom(zr)
	gzipReaders.Put(zr)
	if err != nil {
		return nil, fmt.Errorf("decompress replay: %w", err)
	}
	return unmarshalLog(buf.Bytes())
}

// marshalLog writes the uncompressed columnar encoding.
func marshalLog(log *engine.Log) ([]byte, error) {
	meta, err := json.Marshal(logMeta{Game: log.Game, Options: log.Options, Seed: log.Seed,
		Players: log.Players, Result: log.Result, Aborted: log.Aborted, Deterministic: log.Deterministic})
	if err != nil {
		return nil, fmt.Errorf("encode replay: %w", err)
	}
	n := 0
	for _, s := range log.Steps {
		n += len(s.Replies)
	}
	b := make([]byte, 0, len(meta)+len(log.Steps)+n*6+32)
	b = append(b, codecMagic...)
	b = append(b, codecVersion)
	b = binary.AppendUvarint(b, uint64(len(meta)))
	b = append(b, meta...)
	b = binary.AppendUvarint(b, uint64(len(log.Steps)))
	for _, s := range log.Steps {
		b = binary.AppendUvarint(b, uint64(len(s.Replies)))
	}
	for _, s := range log.Steps {
		for _, r := range s.Replies {
			b = append(b, byte(r.Status))
		}
	}
	for _, s := range log.Steps {
		for _, r := range s.Replies {
			b = appendString(b, r.Line)
		}
	}
	for _, s := range log.Steps {
		for _, r := range s.Replies {
			b = binary.AppendUvarint(b, uint64(r.Micros))
		}
	}
	b = appendSparse(b, log, func(r engine.LogReply) string { return r.Stderr })
	nNoise := 0
	for _, s := range log.Steps {
		nNoise += len(s.Noise)
	}
	b = binary.AppendUvarint(b, uint64(nNoise))
	last := 0
	for si, s := range log.Steps {
		for _, nz := range s.Noise {
			b = binary.AppendUvarint(b, uint64(si-last))
			b = binary.AppendUvarint(b, uint64(nz.Seat))
			b = appendString(b, nz.Line)
			last = si
		}
	}
	b = appendSparse(b, log, func(r engine.LogReply) string { return r.Note })
	return b, nil
}

// appendSparse appends a column of strings that most replies leave
// empty: the count of non-empty ones, then each as the distance from the
// last one's reply index, and the string.
func appendSparse(b []byte, log *engine.Log, field func(engine.LogReply) string) []byte {
	n := 0
	for _, s := range log.Steps {
		for _, r := range s.Replies {
			if field(r) != "" {
				n++
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(n))
	i, last := 0, 0
	for _, s := range log.Steps {
		for _, r := range s.Replies {
			if v := field(r); v != "" {
				b = binary.AppendUvarint(b, uint64(i-last))
				b = appendString(b, v)
				last = i
			}
			i++
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errReplayFormat is wrapped by every decoding error.
var errReplayFormat = errors.New("replay data is damaged or of an unknown format")

// reader decodes the columnar encoding; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: bad %s", errReplayFormat, what)
	}
}

func (r *reader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a number of items each taking at least one more byte, so a
// damaged count cannot make us allocate more than the data could hold.
func (r *reader) count(what string) int {
	v := r.uvarint(what)
	if v > uint64(len(r.b)) {
		r.fail(what)
		return 0
	}
	return int(v)
}

func (r *reader) bytes(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail(what)
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

// next reads the next of a list of ascending indexes below n, each stored
// as its distance from the one before (prev; 0 before the first). With
// strict the distance may not be 0: no index comes twice.
// sparse reads a column written by appendSparse over total replies,
// calling set for each string; count and what name its parts in errors.
func (r *reader) sparse(count, what string, total int, set func(at int, v string)) {
	n := r.count(count)
	at := 0
	for k := range n {
		var ok bool
		if at, ok = r.next(at, total, k > 0, what+" position"); !ok {
			return
		}
		v := r.string(what)
		if v == "" {
			r.fail(what)
		}
		set(at, v)
	}
}

func (r *reader) next(prev, n int, strict bool, what string) (int, bool) {
	d := r.uvarint(what)
	if d > uint64(n) || (strict && d == 0) {
		r.fail(what)
		return 0, false
	}
	i := prev + int(d)
	if i >= n {
		r.fail(what)
		return 0, false
	}
	return i, true
}

// string reads a length and that many bytes.
func (r *reader) string(what string) string {
	return string(r.bytes(r.count(what), what))
}

// unmarshalLog reads the uncompressed columnar encoding.
func unmarshalLog(raw []byte) (*engine.Log, error) {
	if len(raw) < 4 || string(raw[:3]) != codecMagic {
		return nil, fmt.Errorf("%w: no replay header", errReplayFormat)
	}
	version := raw[3]
	if version < 1 || version > codecVersion {
		return nil, fmt.Errorf("%w: codec version %d (this build reads 1 and %d); upgrade Ringside", errReplayFormat, version, codecVersion)
	}
	r := &reader{b: raw[4:]}
	metaJSON := r.bytes(r.count("metadata length"), "metadata")
	if r.err != nil {
		return nil, r.err
	}
	var meta logMeta
	if err := json.Unmarshal(metaJSON, &meta); err != nil {
		return nil, fmt.Errorf("%w: metadata: %v", errReplayFormat, err)
	}
	log := &engine.Log{Game: meta.Game, Options: meta.Options, Seed: meta.Seed,
		Players: meta.Players, Result: meta.Result, Aborted: meta.Aborted, Deterministic: meta.Deterministic}
	nSteps := r.count("step count")
	log.Steps = make([]engine.LogStep, nSteps)
	counts := make([]int, nSteps)
	total := 0
	for i := range counts {
		counts[i] = r.count("reply count")
		total += counts[i]
	}
	if r.err != nil {
		return nil, r.err
	}
	if total > len(r.b) {
		return nil, fmt.Errorf("%w: %d replies in %d bytes", errReplayFormat, total, len(r.b))
	}
	// One backing array for all replies: a 1000-step game is one
	// allocation, not a thousand.
	replies := make([]engine.LogReply, total)
	off := 0
	for i, c := range counts {
		if c > 0 {
			log.Steps[i].Replies = replies[off : off+c : off+c]
		}
		off += c
	}
	for i, st := range r.bytes(total, "statuses") {
		replies[i].Status = engine.Status(st)
	}
	for i := range replies {
		replies[i].Line = r.string("reply line")
	}
	for i := range replies {
		replies[i].Micros = int64(r.uvarint("reply time"))
	}
	r.sparse("stderr count", "stderr", total, func(at int, v string) { replies[at].Stderr = v })
	nNoise := r.count("noise count")
	step := 0
	for range nNoise {
		var ok bool
		if step, ok = r.next(step, nSteps, false, "noise step"); !ok {
			break
		}
		seat := int(r.uvarint("noise seat"))
		line := r.string("noise line")
		log.Steps[step].Noise = append(log.Steps[step].Noise, engine.Noise{Seat: seat, Line: line})
	}
	if version >= 2 {
		r.sparse("notes count", "note", total, func(at int, v string) { replies[at].Note = v })
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d stray bytes at the end", errReplayFormat, len(r.b))
	}
	return log, nil
}
