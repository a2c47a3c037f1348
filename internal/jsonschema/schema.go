// Package jsonschema owns JSON Schema validation for the server: a document
// a caller sends (a flow for save_flow, say) is checked against a schema
// the server publishes (flow://schema), and every problem comes back at
// the JSON path of the value at fault, saying what would be valid.
//
// A schema is compiled on its first use, not when it is loaded: a stdio
// client starts the server for every workspace and should not wait for a
// compile the first request may never need.
//
//	s, err := jsonschema.New(doc)    // checks only that doc is JSON
//	err = s.Validate(instance)       // compiles once, then checks
//	var inv *jsonschema.InvalidError // errors.As(err, &inv): inv.Problems
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	lib "github.com/google/jsonschema-go/jsonschema"
)

// Schema is a JSON Schema document (draft 2020-12 or draft-07), compiled
// on first use and kept compiled; safe for concurrent use.
type Schema struct {
	resolve func() (*resolved, error)
}

// resolved is the compiled schema beside the document it came from, which
// the walk for problems reads.
type resolved struct {
	root *lib.Schema
	r    *lib.Resolved
}

// New reads a schema document. It checks only that doc is JSON; decoding
// and compiling wait for the first Validate (or Check): decoding into the
// library's Schema type alone costs a cold process milliseconds.
func New(doc []byte) (*Schema, error) {
	if !json.Valid(doc) {
		return nil, errors.New("jsonschema: the document is not JSON")
	}
	doc = bytes.Clone(doc)
	return &Schema{resolve: sync.OnceValues(func() (*resolved, error) {
		var root lib.Schema
		if err := json.Unmarshal(doc, &root); err != nil {
			return nil, fmt.Errorf("jsonschema: the document is not a JSON Schema object: %w", err)
		}
		r, err := root.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("jsonschema: the document does not compile: %w", err)
		}
		return &resolved{root: &root, r: r}, nil
	})}, nil
}

// Check compiles the schema now, for a caller (a generator, a test) that
// wants a broken schema to fail early.
func (s *Schema) Check() error {
	_, err := s.resolve()
	return err
}

// Validate checks a decoded JSON value (what encoding/json gives for an
// any) against the schema. A value that does not fit gives an
// *InvalidError; a schema that does not compile gives a plain error.
func (s *Schema) Validate(instance any) error {
	r, err := s.resolve()
	if err != nil {
		return err
	}
	verdict := r.r.Validate(instance)
	if verdict == nil {
		return nil
	}
	// The library stops at the first failure and names the schema's
	// path, not the value's; walk the value for every problem at its
	// own path. The library's verdict stays the judge: when the walk
	// finds nothing (a keyword it does not read), its message is kept.
	probs := walk(r.root, instance, "")
	if len(probs) == 0 {
		probs = []Problem{{Path: "/", Message: verdict.Error()}}
	}
	return &InvalidError{Problems: probs}
}

// Problem is one way a value does not fit: where, and what is wrong.
type Problem struct {
	// Path is the JSON pointer of the value at fault, "/" for the whole.
	Path string
	// Message says what is wrong and, where it can, what would be valid.
	Message string
}

// String is the problem as a refusal quotes it: "at /steps/0/tool: ...".
func (p Problem) String() string { return "at " + p.Path + ": " + p.Message }

// InvalidError is a value refused by the schema, with every problem
// found.
type InvalidError struct {
	Problems []Problem
}

// Error lists the problems, each at its path, separated by semicolons.
func (e *InvalidError) Error() string {
	s := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}
