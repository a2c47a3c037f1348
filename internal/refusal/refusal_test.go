package refusal

import (
	"errors"
	"strings"
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
		{"expected https://shop.example.com/a/b/c?x=/y/z", "expected https://shop.example.com/a/b/c?x=/y/z"},
		// Paths after any punctuation and under any folder go too.
		{"stat:/data/flows/alice/x.json", "stat:[server path]"},
		{"failed [/opt/app/bin/chromedriver], retry", "failed [[server path]], retry"},
		{"a,/nix/store/abc/bin;b", "a,[server path];b"},
		{`{"path":"/Users/ada/flows/x.json"}`, `{"path":"[server path]"}`},
		{"see /login for the form", "see /login for the form"},
		{"at /steps/0/tool: not a page tool", "at /steps/0/tool: not a page tool"}, // a JSON pointer
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

// FuzzScrub: whatever a message holds, no hidden value and no absolute
// server path of two segments or more survives outside a URL.
func FuzzScrub(f *testing.F) {
	for _, seed := range []string{
		"open /srv/data/x: denied",
		"stat:/home/ada/.config/x",
		"dial http://127.0.0.1:9515/session/1 refused",
		"see https://a.example/b/c and /var/lib/y",
		"[/opt/a/b]{/usr/c/d};/e/f,/g/h",
		"/a/b\u0085/c/d",
	} {
		f.Add(seed)
	}
	s := NewScrubber("http://127.0.0.1:9515", "/srv/flow-data")
	f.Fuzz(func(t *testing.T, msg string) {
		out := s.Scrub(msg)
		for _, hidden := range []string{"127.0.0.1:9515", "/srv/flow-data"} {
			if strings.Contains(out, hidden) {
				t.Fatalf("%q survives in %q", hidden, out)
			}
		}
		rest := anyURL.ReplaceAllString(out, " ")
		if m := path.FindString(rest); m != "" {
			t.Fatalf("the path %q survives in %q", m, out)
		}
	})
}
