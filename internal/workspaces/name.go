package workspaces

import (
	"context"
	"fmt"
	"regexp"
)

// Default is the workspace of a caller who names none, and the one
// workspace of the stdio transport.
const Default = "default"

// MaxNameLen is the longest workspace name, in bytes; refusals quote it.
const MaxNameLen = 64

var validName = regexp.MustCompile(fmt.Sprintf(`^[A-Za-z0-9][A-Za-z0-9._-]{0,%d}$`, MaxNameLen-1))

// ValidName reports whether name can name a workspace: letters, digits,
// . _ and -, starting with a letter or digit, at most MaxNameLen bytes. It
// names a file of the embedded store and part of a Redis key, so nothing
// else is allowed.
func ValidName(name string) bool { return validName.MatchString(name) }

// NameRule is the sentence a refusal of an invalid name ends with.
var NameRule = fmt.Sprintf("A workspace name is 1 to %d letters, digits, '.', '_' or '-', starting with a letter or digit, e.g. ?workspace=checkout.", MaxNameLen)

// How says how a request's workspace was named.
type How string

// The ways a workspace is named.
const (
	ByDefault How = "default" // the request named none
	ByQuery   How = "query"   // ?workspace=NAME
	ByHeader  How = "header"  // X-Workspace: NAME
	ByStdio   How = "stdio"   // the stdio transport's one workspace
)

// Named is the workspace a request works in and how it was named.
type Named struct {
	Name string `json:"name"`
	How  How    `json:"named_by"`
}

type workspaceKey struct{}

// WithWorkspace records the workspace a request works in, beside its
// principal (auth.WithPrincipal).
func WithWorkspace(ctx context.Context, n Named) context.Context {
	return context.WithValue(ctx, workspaceKey{}, n)
}

// Workspace is the workspace a request works in: Default, named by
// default, when none was recorded.
func Workspace(ctx context.Context) Named {
	if n, ok := ctx.Value(workspaceKey{}).(Named); ok && n.Name != "" {
		return n
	}
	return Named{Name: Default, How: ByDefault}
}
