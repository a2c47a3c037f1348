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
		name    string
		wantErr error
	}{
		{"a.png", nil},
		{"a.png", ErrNotFound},
		{"../a.png", nil}, // refused by CheckName, not ErrNotFound
	} {
		err := b.Remove(tc.name)
		switch {
		case tc.wantErr == nil && tc.name == "a.png" && err != nil:
			t.Errorf("Remove(%q): %v", tc.name, err)
		case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
			t.Errorf("Remove(%q) = %v, want %v", tc.name, err, tc.wantErr)
		case tc.name == "../a.png" && err == nil:
			t.Errorf("Remove(%q) accepted a path", tc.name)
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
