package admin_test

import (
	"strings"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/admin"
	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// FuzzParseWorkspaceID: an id the API accepts names a valid principal and
// is exactly name@owner; nothing with a path separator gets through.
func FuzzParseWorkspaceID(f *testing.F) {
	for _, s := range []string{"default@alice", "default@", "@alice", "a@b@c", "default@..", "../x@alice", "default@al/ice", "default@alice\x00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		owner, name, ok := admin.ParseWorkspaceID(id)
		if !ok {
			if owner != "" || name != "" {
				t.Fatalf("refused %q but returned %q, %q", id, owner, name)
			}
			return
		}
		if name+"@"+owner != id {
			t.Fatalf("%q read as %q@%q", id, name, owner)
		}
		if !auth.ValidPrincipal(owner) || strings.ContainsAny(owner+name, "/\\\x00") || owner == ".." || name == ".." {
			t.Fatalf("%q accepted with owner %q, name %q", id, owner, name)
		}
	})
}
