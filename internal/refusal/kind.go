package refusal

import (
	"errors"
	"net/http"
)

// Kind is what sort of mistake a refusal reports. MCP clients see only
// the sentence; the HTTP surface answers with the Kind's Status, so the
// status follows from a typed value and never from matching a sentence.
type Kind int

// The kinds of refusal, each with the HTTP status it answers with.
const (
	// Invalid: the arguments are wrong (400). The zero Kind, so a refusal
	// made with New is the caller's mistake.
	Invalid Kind = iota
	// Unauthorized: no credentials, or unknown ones (401).
	Unauthorized
	// Forbidden: the caller may not do this (403).
	Forbidden
	// NotFound: a named thing (flow, file, resource, tool) does not exist (404).
	NotFound
	// Conflict: the page, session or store is not in the state the call
	// needs (no element matched, a dialog is open, an assertion failed) (409).
	Conflict
	// TooLarge: the request or a value in it is over a limit (413).
	TooLarge
	// Unavailable: no browser endpoint answers (503).
	Unavailable
)

var statuses = [...]int{
	Invalid:      http.StatusBadRequest,
	Unauthorized: http.StatusUnauthorized,
	Forbidden:    http.StatusForbidden,
	NotFound:     http.StatusNotFound,
	Conflict:     http.StatusConflict,
	TooLarge:     http.StatusRequestEntityTooLarge,
	Unavailable:  http.StatusServiceUnavailable,
}

// Status is the HTTP status a refusal of this kind answers with.
func (k Kind) Status() int {
	if k < 0 || int(k) >= len(statuses) {
		return http.StatusBadRequest
	}
	return statuses[k]
}

// Of returns a refusal of a given kind: what was wrong and what to do
// instead.
func Of(kind Kind, what, next string) error { return &Error{What: what, Next: next, Kind: kind} }

// Kinded is an error of another package that says its Kind (a missing
// file, a flow document that does not validate) without being made here.
type Kinded interface {
	error
	RefusalKind() Kind
}

// KindOf is the Kind of the first refusal, or Kinded error, in err's
// chain; ok is false when there is none (a failure that is nobody's
// mistake).
func KindOf(err error) (kind Kind, ok bool) {
	if k, found := errors.AsType[Kinded](err); found {
		return k.RefusalKind(), true
	}
	if e, found := errors.AsType[*Error](err); found {
		return e.Kind, true
	}
	return 0, false
}

// WithKind marks err as a refusal of kind, keeping its sentence and its
// chain (errors.Is still finds what it wraps).
func WithKind(kind Kind, err error) error {
	if err == nil {
		return nil
	}
	return &kinded{err: err, kind: kind}
}

type kinded struct {
	err  error
	kind Kind
}

func (k *kinded) Error() string     { return k.err.Error() }
func (k *kinded) Unwrap() error     { return k.err }
func (k *kinded) RefusalKind() Kind { return k.kind }
