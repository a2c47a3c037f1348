package files

import (
	"errors"
	"testing"
)

func TestRemoveAndClear(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if s.Has("bob") {
		t.Fatal("Has reports a box before any was made")
	}
	b, err := s.For("bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct{ folder, name string }{{Screenshots, "a.png"}, {Screenshots, "b.png"}, {Downloads, "c.pdf"}} {
		if _, err := b.Keep(k.folder, k.name, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Has("bob") || s.Has("../bob") {
		t.Error("Has: want bob only")
	}
	if got := s.Principals(); len(got) != 1 || got[0] != "bob" {
		t.Errorf("Principals = %q", got)
	}
	for _, tc := range []struct {
		name string
		want string // "" removed, "not found", or "refused" (no kept file's name)
	}{
		{"a.png", ""},
		{"a.png", "not found"},
		{"../a.png", "refused"},
	} {
		err := b.Remove(tc.name)
		var got string
		switch {
		case err == nil:
		case errors.Is(err, ErrNotFound):
			got = "not found"
		default:
			got = "refused"
		}
		if got != tc.want {
			t.Errorf("Remove(%q) = %v, want %s", tc.name, err, tc.want)
		}
	}
	if n, err := b.Clear(Screenshots); err != nil || n != 1 {
		t.Errorf("Clear(screenshots) = %d, %v; want 1", n, err)
	}
	if _, err := b.Clear("etc"); err == nil {
		t.Error("Clear accepted an unknown folder")
	}
	all, _ := b.List()
	if len(all) != 1 || all[0].Name != "c.pdf" {
		t.Errorf("left: %+v, want c.pdf only", all)
	}
}
