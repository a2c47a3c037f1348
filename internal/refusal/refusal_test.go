package refusal

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestScrub(t *testing.T) {
	s := NewScrubber("http://127.0.0.1:9515", "/srv/flow-data")
	cases := []struct{ in, want string }{
		{"dial tcp http://127.0.0.1:9515/session/abc: refused", "dial tcp [internal address]/session/abc: refused"},
		{"connect 127.0.0.1:9515 failed", "connect [internal address] failed"},
		{"cannot write /srv/flow-data/files/alice/x.png", "cannot write [server path]/files/alice/x.png"},
		{"open /tmp/selenium-flow-123/profile: denied", "open [server path]: denied"},
		{"devtools at ws://127.0.0.1:4000/devtools/browser/1", "devtools at [internal address]"},
		// The caller's own pages stay readable, loopback ones too.
		{"the URL is http://127.0.0.1:3000/login, not /dashboard", "the URL is http://127.0.0.1:3000/login, not /dashboard"},
		{"expected https://shop.example.com/cart", "expected https://shop.example.com/cart"},
	}
	for _, tc := range cases {
		assert.Check(t, is.Equal(s.Scrub(tc.in), tc.want))
	}
	// Two servers in one process do not share what they hide.
	other := NewScrubber()
	assert.Check(t, is.Equal(other.Scrub("connect 127.0.0.1:9515 failed"), "connect 127.0.0.1:9515 failed"))
	var none *Scrubber
	assert.Check(t, is.Equal(none.Scrub("open /tmp/x: denied"), "open [server path]: denied"))
}

func TestResult(t *testing.T) {
	r := NewScrubber().Result(New("No browser session is open for you.", "Call open_session first."))
	assert.Check(t, r.IsError)
	assert.Check(t, is.Len(r.Content, 1))
	assert.Check(t, Is(New("a", "b")))
	assert.Check(t, !Is(errors.New("plain")))
}
