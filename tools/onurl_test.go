package tools

import "testing"

func TestSameURL(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://127.0.0.1:8000/hover", "http://127.0.0.1:8000/hover", true},
		{"http://127.0.0.1:8000/hover#billing", "http://127.0.0.1:8000/hover", true},
		{"http://127.0.0.1:8000/hover/", "http://127.0.0.1:8000/hover", true},
		{"HTTP://Example.COM/a", "http://example.com/a", true},
		{"http://example.com", "http://example.com/", true},
		{"http://example.com/a?q=1", "http://example.com/a?q=2", false},
		{"http://example.com/a?q=1", "http://example.com/a", false},
		{"http://example.com/A", "http://example.com/a", false},
		{"https://example.com/a", "http://example.com/a", false},
		{"http://example.com:8080/a", "http://example.com/a", false},
		{"about:blank", "http://example.com/", false},
		{"http://exa mple.com/%zz", "http://example.com/", false},
	} {
		if got := sameURL(tc.a, tc.b); got != tc.same {
			t.Errorf("sameURL(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
