package class

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strings"

	"ringside/app/service"
)

// Caps on one hand-in. A student's program is source files: these are
// far above any real one and far below what would hurt the teacher's
// machine.
const (
	MaxHandInBytes = 8 << 20 // the files' bytes, all together
	MaxHandInFiles = 500
	MaxPathLen     = 200
	// maxRequestBytes bounds the request body: the files plus multipart
	// framing, or a zip's own overhead.
	maxRequestBytes = MaxHandInBytes + 2<<20
)

// uploadError is a hand-in refused for its contents: the student's to
// fix, answered 400 with the reason.
type uploadError struct{ msg string }

func (e *uploadError) Error() string { return e.msg }

func refuse(format string, args ...any) error {
	return &uploadError{msg: "hand-in refused: " + fmt.Sprintf(format, args...)}
}

// cleanPath checks a path as a student's folder gives it and returns it
// without the folder picker's top folder removed (the caller does that).
func cleanPath(p string) (string, error) {
	if len(p) > MaxPathLen {
		return "", refuse("a path is longer than %d characters", MaxPathLen)
	}
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) ||
		(len(p) > 1 && p[1] == ':') {
		return "", refuse("%q is not a relative path inside the folder", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", refuse("%q leaves the folder (..)", p)
		}
	}
	c := path.Clean(p)
	if c == "." || strings.HasPrefix(c, "../") {
		return "", refuse("%q is not a file inside the folder", p)
	}
	return c, nil
}

// budget counts the real bytes and files read, whatever a header or a
// zip's directory declares.
type budget struct{ bytes, files int }

func (b *budget) file() error {
	b.files++
	if b.files > MaxHandInFiles {
		return refuse("more than %d files", MaxHandInFiles)
	}
	return nil
}

// read reads r to its end within what is left of the byte budget.
func (b *budget) read(r io.Reader) ([]byte, error) {
	left := MaxHandInBytes - b.bytes
	data, err := io.ReadAll(io.LimitReader(r, int64(left)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > left {
		return nil, refuse("the files hold more than %d MB", MaxHandInBytes>>20)
	}
	b.bytes += len(data)
	return data, nil
}

// readHandIn reads a multipart hand-in: many "file" parts named by their
// path in the folder, or one "zip" part.
func readHandIn(w http.ResponseWriter, r *http.Request) ([]service.HandInFile, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxRequestBytes)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, refuse("send the files as multipart/form-data (%v)", err)
	}
	var files []service.HandInFile
	var b budget
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, tooBig(err)
		}
		switch part.FormName() {
		case "file":
			f, err := readPart(part, &b)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		case "zip":
			data, err := b.read(part)
			var ue *uploadError
			if errors.As(err, &ue) {
				return nil, refuse("the zip is larger than %d MB", MaxHandInBytes>>20)
			}
			if err != nil {
				return nil, tooBig(err)
			}
			b.bytes = 0 // the zip's own bytes are not its files'
			zf, err := readZip(data, &b)
			if err != nil {
				return nil, err
			}
			files = append(files, zf...)
		default:
			// Other fields (a form's token) are read and dropped, within
			// the request's cap.
			if _, err := io.Copy(io.Discard, io.LimitReader(part, 4096)); err != nil {
				return nil, tooBig(err)
			}
		}
	}
	if len(files) == 0 {
		return nil, refuse("no files: choose your program's folder, or a zip of it")
	}
	return stripTop(files)
}

func tooBig(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return refuse("the request is larger than %d MB", maxRequestBytes>>20)
	}
	var ue *uploadError
	if errors.As(err, &ue) {
		return err
	}
	return refuse("the upload was cut off or malformed (%v)", err)
}

func readPart(part *multipart.Part, b *budget) (service.HandInFile, error) {
	if err := b.file(); err != nil {
		return service.HandInFile{}, err
	}
	// FileName() drops the folder picker's directories: the raw header
	// keeps them.
	name := part.FileName()
	if _, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		name = params["filename"]
	}
	p, err := cleanPath(name)
	if err != nil {
		return service.HandInFile{}, err
	}
	data, err := b.read(part)
	if err != nil {
		return service.HandInFile{}, tooBig(err)
	}
	return service.HandInFile{Path: p, Data: data, Exec: part.Header.Get("X-Executable") == "1"}, nil
}

// readZip reads a zip's regular files. Its directory's entry count and
// sizes are only claims: the count is checked before reading anything and
// the bytes are counted as they come out of the decompressor.
func readZip(data []byte, b *budget) ([]service.HandInFile, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, refuse("the zip cannot be read (%v)", err)
	}
	if len(zr.File) > MaxHandInFiles*2 {
		return nil, refuse("the zip holds %d entries, more than %d files", len(zr.File), MaxHandInFiles)
	}
	var out []service.HandInFile
	for _, f := range zr.File {
		mode := f.Mode()
		if mode.IsDir() {
			if _, err := cleanPath(strings.TrimSuffix(f.Name, "/")); err != nil {
				return nil, err
			}
			continue
		}
		if !mode.IsRegular() {
			return nil, refuse("%q is not a plain file (%s): links and devices are refused", f.Name, mode.Type())
		}
		if err := b.file(); err != nil {
			return nil, err
		}
		p, err := cleanPath(f.Name)
		if err != nil {
			return nil, err
		}
		rc, err := f.Open()
		if err != nil {
			return nil, refuse("%q cannot be read from the zip (%v)", f.Name, err)
		}
		content, err := b.read(rc)
		rc.Close()
		if err != nil {
			var ue *uploadError
			if errors.As(err, &ue) {
				return nil, err
			}
			return nil, refuse("%q cannot be read from the zip (%v)", f.Name, err)
		}
		out = append(out, service.HandInFile{Path: p, Data: content, Exec: mode&0o111 != 0})
	}
	return out, nil
}

// stripTop removes the one folder every path starts with (a folder
// picker's or a zip's top folder), so "bot/main.py" is "main.py"; it
// refuses a path given twice.
func stripTop(files []service.HandInFile) ([]service.HandInFile, error) {
	top := ""
	for i, f := range files {
		first, rest, ok := strings.Cut(f.Path, "/")
		if !ok || rest == "" || (i > 0 && first != top) {
			top = ""
			break
		}
		top = first
	}
	seen := map[string]bool{}
	for i := range files {
		if top != "" {
			files[i].Path = strings.TrimPrefix(files[i].Path, top+"/")
		}
		if seen[files[i].Path] {
			return nil, refuse("%q is given twice", files[i].Path)
		}
		seen[files[i].Path] = true
	}
	// A file and a folder of one name cannot both be written.
	for p := range seen {
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if seen[dir] {
				return nil, refuse("%q is both a file and a folder", dir)
			}
		}
	}
	return files, nil
}
