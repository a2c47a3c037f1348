package secrets

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// LoadError is one problem with a source of secrets: the source, where in it
// (a line, a path under the folder, a variable) and what is wrong. It never
// quotes a value, nor any field of a FLOW_SECRETS line, which could be a
// value written in the wrong column.
type LoadError struct {
	// Source is "FLOW_SECRETS file <path>", "FLOW_SECRETS_DIR <path>" or
	// "environment".
	Source string
	// Where is "line 3", a path under the folder ("alice/login/password")
	// or a variable's name; "" for the source as a whole.
	Where string
	// Problem says what is wrong and how to put it right.
	Problem string

	at place
}

// Error is the source, the place and the problem: "FLOW_SECRETS file
// /etc/flow/secrets, line 3: site 1 of field 3: a site is blank".
func (e *LoadError) Error() string {
	if e.Where == "" {
		return e.Source + ": " + e.Problem
	}
	return e.Source + ", " + e.Where + ": " + e.Problem
}

type sourceKind int

const (
	fileSource sourceKind = iota + 1
	dirSource
	envSource
)

// A place is where a source defines something.
type place struct {
	kind sourceKind
	path string // the file or folder
	line int    // in the file
	rel  string // the path under the folder, or the variable's name
}

func (p place) source() string {
	switch p.kind {
	case fileSource:
		return "FLOW_SECRETS file " + p.path
	case dirSource:
		return "FLOW_SECRETS_DIR " + p.path
	}
	return "environment"
}

func (p place) where() string {
	if p.kind == fileSource {
		if p.line == 0 {
			return ""
		}
		return "line " + strconv.Itoa(p.line)
	}
	return p.rel
}

// ref names p from a problem at from: "line 2" within the same file,
// the source and place otherwise.
func (p place) ref(from place) string {
	if p.kind == fileSource && from.kind == fileSource {
		return p.where()
	}
	switch p.kind {
	case fileSource:
		return "FLOW_SECRETS " + p.where()
	case dirSource:
		return "FLOW_SECRETS_DIR " + p.rel
	}
	return "the variable " + p.rel
}

// forCaller is where the first problem is, for a caller who may not see
// the operator's paths, nor other principals' names.
func (p place) forCaller() string {
	switch p.kind {
	case fileSource:
		if p.line > 0 {
			return "in the FLOW_SECRETS file at line " + strconv.Itoa(p.line)
		}
		return "with the FLOW_SECRETS file"
	case dirSource:
		return "in the FLOW_SECRETS_DIR folder"
	}
	return "in a FLOW_SECRET_ environment variable"
}

// compare orders places as an operator reads the sources: the file by
// line, then the folder and the variables by path and name.
func (p place) compare(q place) int {
	if c := cmp.Compare(p.kind, q.kind); c != 0 {
		return c
	}
	if c := cmp.Compare(p.line, q.line); c != 0 {
		return c
	}
	return strings.Compare(p.rel, q.rel)
}

func (p place) problem(format string, args ...any) *LoadError {
	return &LoadError{Source: p.source(), Where: p.where(), Problem: fmt.Sprintf(format, args...), at: p}
}
