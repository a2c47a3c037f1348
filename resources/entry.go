// Package resources owns the server's resource table and the two surfaces
// derived from it: native MCP resources (resources/list, resources/read,
// resources/templates/list, completion/complete) and the list_resources /
// read_resource mirror tools for clients whose model cannot read resources.
//
// The table is written by go generate (the program in gen/) from the skill
// Markdown, knowledge/server-scope.json, the flow schema and runtime.json.
// Nothing else describes a resource: both surfaces read the same entries.
//
// A server builds its table once, complete, with New: every runtime
// entry's reader, every completer, the content filter and the excluded
// tools are given up front, and the table is read-only from then on.
//
//	table, err := resources.New(resources.Config{
//		Readers: map[resources.Reader]resources.ReadFunc{
//			resources.ReaderSessionCurrent: readCurrent,
//			// … one per runtime entry; New refuses a table with one missing
//		},
//	})
package resources

//go:generate go run ../gen -root .. -out table_gen.go

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
)

// Kind says where an entry's bytes come from.
type Kind int

const (
	// Embedded entries carry their bytes in the binary.
	Embedded Kind = iota
	// Runtime entries are read by a function bound at start-up.
	Runtime
)

// Entry is one row of the resource table: a concrete resource or a template.
type Entry struct {
	// URI is the resource's URI, or an RFC 6570 template when Template is set.
	URI string
	// Name is unique across the table; pagination cursors rely on it.
	Name        string
	Title       string
	Description string
	MIMEType    string
	// Priority is the annotations.priority a client uses to order resources.
	Priority float64
	// Size is the number of bytes a read returns; 0 when not known in advance.
	Size int64
	// Digest is "sha256:" and the lowercase hex SHA-256 of Body, for every
	// embedded entry: gen computes it with Size when it writes the table,
	// and the Skills extension's manifests carry both.
	Digest   string
	Template bool
	Kind     Kind
	// Body holds an embedded entry's published bytes, exactly as written.
	Body string
	// Reader names the function that reads a runtime entry (Config.Readers).
	Reader Reader
	// Completer names the function that completes a template's variables
	// (Config.Completers).
	Completer Completer
	// Values are a template's completion values per variable, known at
	// generate time (document ids, skill ids, reference file names).
	Values map[string][]string
	// Hidden entries are served natively to app hosts but never listed in the
	// mirror nor readable through it (the ui:// app shell).
	Hidden bool
	// Unlisted entries are read by URI like any other, but are not listed
	// one by one in resources/list or list_resources: a skill's references,
	// which its SKILL.md links, its template names, and the Skills
	// extension's manifest and directory read enumerate.
	Unlisted bool
	// Frontmatter is a SKILL.md's YAML front matter, every field its author
	// wrote, rendered as a JSON object; empty for every other entry.
	Frontmatter string
	// Tools are the tools the entry's own title, description and (for
	// flow://schema) body name. The server composed that text, so a table
	// built with one of them excluded does not serve the entry: nothing an
	// agent is given names a tool it cannot call. Published pages
	// (documents, skills) name no tools here; the index says which tools
	// are excluded.
	Tools []string
	// NoneYet says, for a runtime template, how a value comes to exist
	// while the caller has none ("save one with save_flow first"); a
	// refusal offers it where it would give an example.
	NoneYet string
}

// Content is what a read returns: text, or bytes with a type.
type Content struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
	// Link is where a person can fetch a binary, when one exists.
	Link string
}

// JSON is indented JSON text content, the shape every runtime JSON
// resource reads as.
func JSON(v any) (Content, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return Content{MIMEType: "application/json", Text: string(b)}, err
}

// Digest is the Skills extension's digest of b: "sha256:" and 64 lowercase
// hex digits. gen writes the same into Entry.Digest.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// IsText reports whether the content is text.
func (c Content) IsText() bool { return c.Blob == nil }

// Reader is the key of a runtime entry's read function. go generate
// writes one constant per reader resources/runtime.json names, so a
// misspelt key does not compile.
type Reader string

// Completer is the key of a template's completion function, written by go
// generate like Reader.
type Completer string

// ReadFunc reads a runtime entry. vars holds the template's variables when
// the entry is a template; uri is the concrete URI asked for.
type ReadFunc func(ctx context.Context, uri string, vars map[string]string) (Content, error)

// CompleteFunc lists completion values for one template variable.
type CompleteFunc func(ctx context.Context, variable, prefix string) ([]string, error)

// ErrNotFound marks a read of a URI the table does not answer.
var ErrNotFound = errors.New("resource not found")

// Missing marks a runtime reader's error as a resource not found (a kept
// file or a flow that does not exist), keeping its sentence: IsNotFound
// reports true for it.
func Missing(err error) error {
	if err == nil {
		return nil
	}
	return missing{err}
}

type missing struct{ error }

func (m missing) Unwrap() error { return m.error }

func (m missing) Is(target error) bool { return target == ErrNotFound }
