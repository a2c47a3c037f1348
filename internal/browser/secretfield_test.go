package browser

import (
	"net/url"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestSecretFieldNeverShown: a secret typed into an ordinary text field
// (nothing about it says password) with maxlength 6 keeps a fragment of
// the secret; the outline says the field is filled and how full, and a
// read of the field says a secret was typed, never the fragment. The same
// text typed with Write shows, as any value does.
func TestSecretFieldNeverShown(t *testing.T) {
	s := shared(t)
	page := `<title>Join</title><label>Invite code <input id=code maxlength=6></label><label>Nickname <input id=nick></label>`
	assert.NilError(t, s.Navigate("data:text/html,"+url.PathEscape(page)))
	const secret = "Zq9rTx42pW"
	assert.NilError(t, s.WriteSecret(Locator{CSS: "#code"}, secret, true))
	assert.NilError(t, s.Write(Locator{CSS: "#nick"}, "ada", true))

	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Check(t, is.Contains(out, `textbox css:#code "Invite code" filled (6 characters)`))
	assert.Check(t, is.Contains(out, `value:"ada"`), "an ordinary value still shows")
	r, err := s.Read(&Locator{CSS: "#code"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(r.Text, "(a secret was typed here: 6 characters, not shown)"))
	for _, text := range []string{out, r.Text} {
		assert.Check(t, !strings.Contains(text, secret[:4]), "a fragment of the secret shows: %s", text)
	}
}
