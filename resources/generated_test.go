package resources_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/resources"
)

// TestGeneratedDigests: every embedded entry gen wrote carries the size
// and SHA-256 of its bytes, computed when the table was generated.
func TestGeneratedDigests(t *testing.T) {
	n := 0
	for _, e := range resources.Generated() {
		if e.Kind != resources.Embedded || e.Template {
			assert.Check(t, e.Digest == "", "%s is not embedded but has a digest", e.URI)
			continue
		}
		sum := sha256.Sum256([]byte(e.Body))
		assert.Check(t, e.Digest == "sha256:"+hex.EncodeToString(sum[:]), "%s: digest %s does not match its bytes", e.URI, e.Digest)
		assert.Check(t, e.Size == int64(len(e.Body)), "%s: size %d, body %d bytes", e.URI, e.Size, len(e.Body))
		n++
	}
	assert.Assert(t, n > 10, "only %d embedded entries", n)
}

// TestReferencesUnlisted: a skill's references are served and carry their
// digests, but are not listed one by one; every SKILL.md carries its
// front matter as JSON, with name and description.
func TestReferencesUnlisted(t *testing.T) {
	refs, skills := 0, 0
	for _, e := range resources.Generated() {
		isRef := strings.HasPrefix(e.URI, "skill://") && strings.Contains(e.URI, "/references/") && !e.Template
		assert.Check(t, e.Unlisted == isRef, "%s: unlisted=%v", e.URI, e.Unlisted)
		if isRef {
			refs++
		}
		if strings.HasPrefix(e.URI, "skill://") && strings.HasSuffix(e.URI, "/SKILL.md") && !e.Template {
			skills++
			var fm map[string]any
			assert.NilError(t, json.Unmarshal([]byte(e.Frontmatter), &fm), e.URI)
			assert.Check(t, fm["name"] == e.Name, "%s: name %v, resource name %s", e.URI, fm["name"], e.Name)
			assert.Check(t, fm["description"] == e.Description, e.URI)
		} else {
			assert.Check(t, e.Frontmatter == "", "%s has front matter", e.URI)
		}
	}
	assert.Check(t, refs > 0 && skills > 0, "%d references, %d skills", refs, skills)
}
