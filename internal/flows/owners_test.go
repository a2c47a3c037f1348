package flows

import (
	"errors"
	"testing"
)

func TestOwnersAndOwn(t *testing.T) {
	s := open(t)
	for _, f := range []struct {
		owner, name string
		shared      bool
	}{{"alice", "a1", false}, {"alice", "a2", true}, {"bob", "b1", false}} {
		if _, err := s.Save(f.owner, Flow{Name: f.name, Shared: f.shared, Steps: []Step{{Tool: "navigate"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Owners(); len(got) != 2 || got[0] != "alice" || got[1] != "bob" {
		t.Errorf("Owners = %q", got)
	}
	// bob's own list leaves out alice's shared flow, which List shows him.
	if own, all := s.Own("bob"), s.List("bob"); len(own) != 1 || len(all) != 2 {
		t.Errorf("Own(bob) = %d flows, List(bob) = %d; want 1 and 2", len(own), len(all))
	}
	for _, tc := range []struct {
		owner, name string
		found       bool
	}{{"alice", "a2", true}, {"bob", "a2", false}, {"bob", "../alice/a1", false}} {
		_, err := s.GetOwn(tc.owner, tc.name)
		if tc.found != (err == nil) {
			t.Errorf("GetOwn(%s, %s): %v", tc.owner, tc.name, err)
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("GetOwn(%s, %s) = %v, want ErrNotFound", tc.owner, tc.name, err)
		}
	}
}
