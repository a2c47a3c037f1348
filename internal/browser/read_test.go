package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestReadPages: the long article is read whole by paging with offset,
// each part at most max characters; an element's text, a field's value
// (never a password's) and HTML are read too.
func TestReadPages(t *testing.T) {
	s := open(t, "/long")
	first, err := s.Read(nil, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, first.Total > 20000, "the article is %d characters", first.Total)
	assert.Check(t, is.Equal(utf8.RuneCountInString(first.Text), DefaultRead))
	assert.Check(t, is.Equal(first.Remaining(), first.Total-DefaultRead))

	var whole strings.Builder
	whole.WriteString(first.Text)
	for off := first.End; off < first.Total; {
		r, err := s.Read(nil, ReadOptions{Offset: off, Max: MaxRead})
		assert.NilError(t, err)
		assert.Check(t, is.Equal(r.Offset, off))
		whole.WriteString(r.Text)
		off = r.End
	}
	assert.Check(t, is.Contains(whole.String(), "A long article"))
	assert.Check(t, strings.HasSuffix(strings.TrimSpace(whole.String()), "You typed:"), "ends %q", whole.String()[whole.Len()-40:])

	_, err = s.Read(nil, ReadOptions{Offset: first.Total + 5})
	assert.ErrorContains(t, err, "past the end")
	_, err = s.Read(nil, ReadOptions{Max: MaxRead + 1})
	assert.ErrorContains(t, err, "max is from 1 to 50000")

	// The 2.9 KB JSON body is read whole and parses.
	body, err := s.Read(&Locator{CSS: "#json"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(body.Remaining(), 0))
	var v struct{ Orders []struct{ ID int } }
	assert.NilError(t, json.Unmarshal([]byte(body.Text), &v))
	assert.Check(t, is.Len(v.Orders, 18))

	html, err := s.Read(&Locator{CSS: "#last"}, ReadOptions{HTML: true})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(html.Text, `<p id="last">The last paragraph ends here.</p>`))
	part, err := s.Read(&Locator{CSS: "#last"}, ReadOptions{HTML: true, Offset: 3, Max: 4})
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(part, Reading{Text: `id="`, Offset: 3, End: 7, Total: utf8.RuneCountInString(html.Text)}))
	page, err := s.Read(nil, ReadOptions{HTML: true, Max: 15})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(page.Text, `<html lang="en"`))

	assert.NilError(t, s.Write(Locator{Label: "Echo"}, "héllo wörld", true))
	field, err := s.Read(&Locator{Label: "Echo"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(field.Text, "héllo wörld"))
	assert.Check(t, is.Equal(field.Total, 11), "characters, not bytes")

	s = open(t, "/login")
	assert.NilError(t, s.Write(Locator{Label: "Password"}, "hunter2", true))
	pw, err := s.Read(&Locator{Label: "Password"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(pw.Text, ""), "a password field's value is never read")
}
