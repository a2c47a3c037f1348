package browser

import "testing"

func TestSmoke(t *testing.T) {
	s := open(t, "/login")
	out, err := s.Outline(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out)
	h, _ := s.PageHTML()
	t.Logf("outline %d html %d", len(out), len(h))
	for _, p := range []string{"/article", "/admin", "/controls", "/upload", "/download"} {
		s := open(t, p)
		out, err := s.Outline(nil)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := s.PageHTML()
		t.Logf("%s outline %d html %d\n%s", p, len(out), len(h), out)
	}
}
