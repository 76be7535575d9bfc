package service

import (
	"errors"
	"fmt"

	"ringside/storage"
)

// Code says what kind of failure an error is, so that each front end can
// react in its own way: the CLI picks its exit status, the app whether to
// keep a dialog open.
type Code string

// Error codes, after benbjohnson/wtf.
const (
	Invalid  Code = "invalid"   // the request is wrong: a bad name, command or number
	NotFound Code = "not_found" // what it names does not exist
	Conflict Code = "conflict"  // it clashes with what exists: a taken name, a running event
	Failed   Code = "failed"    // it was right, but doing it failed: a build, a disk, the database
)

// Fix names what would put an error right, for the front end to word: the
// CLI prints a command, the app offers a button or says where to click.
type Fix string

// Fixes.
const (
	FixNone       Fix = ""
	FixBuild      Fix = "build"       // build the AI named in Subject
	FixListAIs    Fix = "list-ais"    // look at the registered AIs
	FixRevisions  Fix = "revisions"   // look at the revisions of the AI in Subject
	FixEdit       Fix = "edit"        // change the commands or folder of the AI in Subject
	FixListGames  Fix = "list-games"  // look at the games and their options
	FixFiller     Fix = "filler"      // add a filler bot, such as Subject
	FixListEvents Fix = "list-events" // look at the events
)

// Error is a use case's failure in plain words. Message says what is
// wrong, and never how to fix it in one front end's terms: that is Fix's.
type Error struct {
	Code    Code
	Message string
	Fix     Fix
	Subject string // the AI, event or file Fix applies to
	Err     error  // the cause, if any
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error of code with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// withFix sets what would fix e.
func (e *Error) withFix(fix Fix, subject string) *Error {
	e.Fix, e.Subject = fix, subject
	return e
}

// wrap makes err an *Error of code with context, keeping a code and fix
// err already has.
func wrap(code Code, err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	msg := fmt.Sprintf(format, args...) + ": " + err.Error()
	var e *Error
	if errors.As(err, &e) {
		return &Error{Code: e.Code, Message: msg, Fix: e.Fix, Subject: e.Subject, Err: err}
	}
	return &Error{Code: code, Message: msg, Err: err}
}

// ErrorCode is err's code: an *Error's own, NotFound for storage's missing
// rows, Failed for anything else (and "" for nil).
func ErrorCode(err error) Code {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, storage.ErrNotFound):
		return NotFound
	}
	return Failed
}

// ErrorFix is what would fix err, and what it applies to.
func ErrorFix(err error) (Fix, string) {
	var e *Error
	if errors.As(err, &e) {
		return e.Fix, e.Subject
	}
	return FixNone, ""
}
