package browser

import (
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestResize: the viewport takes the size asked for, at any time; the
// shared session gets its size back.
func TestResize(t *testing.T) {
	s := open(t, "/long")
	opened := s.Window()
	t.Cleanup(func() { assert.Check(t, s.Resize(opened)) })
	for _, w := range []Window{{390, 844}, {1024, 700}} {
		assert.NilError(t, s.Resize(w))
		assert.Check(t, is.Equal(s.Window(), w), "session://current shows the size now")
		v, err := s.ExecuteScript("return [innerWidth, innerHeight];", nil)
		assert.NilError(t, err)
		assert.Check(t, is.Equal(string(v), fmt.Sprintf("[%d,%d]", w.Width, w.Height)))
	}
	assert.ErrorContains(t, s.Resize(Window{50, 800}), "from 100 to 8192")
	assert.Check(t, is.Equal(s.Window(), Window{1024, 700}), "a refused size changes nothing")
}
