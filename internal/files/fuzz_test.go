package files

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// nameSeeds are file names near the edges of CheckName.
var nameSeeds = []string{
	"report.pdf", "a", "Makefile", ".", "..", ".hidden", "a/b", `a\b`, "a\x00b", "a\x7fb", "a\u0085b",
	"a\u00a0b", "a\u2028b", "Downloads", "uploads.txt", "x (1).png", "…", "\xff\xfe", "a.", " ",
	strings.Repeat("é", MaxNameLen/2), strings.Repeat("a", MaxNameLen-4) + ".pdf",
	"ab." + strings.Repeat("x", MaxNameLen-5),
}

// FuzzCheckName checks any name a caller can give a kept file: nothing
// panics, an accepted name is a plain file name — no '/', '\\', NUL or
// other control character, not "." or "..", not starting with '.', at
// most MaxNameLen bytes, no folder's name — and every numbered variant
// Keep may store it under ("name (2).ext") is accepted too, so a kept
// file is always listed and readable by the name Keep returned.
func FuzzCheckName(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s, 1)
	}
	f.Add("a.b.c", 9999)
	f.Fuzz(func(t *testing.T, name string, i int) {
		if err := CheckName(name); err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("the refusal of a %d-byte name is %d bytes long", len(name), len(err.Error()))
			}
			return
		}
		if why := notPlain(name); why != "" {
			t.Fatalf("CheckName accepts %q, which %s", name, why)
		}
		i = 1 + abs(i%10000) // Keep tries 1 to 9999
		n := numbered(name, i)
		if err := CheckName(n); err != nil {
			t.Fatalf("%q is accepted but Keep would store its copy %d as %q, which is not: %v", name, i, n, err)
		}
	})
}

// FuzzKeep keeps any data under any name twice in a fresh box: each copy
// is stored under its own name, readable by that name with the same
// bytes, and listed; a refusal never shows where the store is.
func FuzzKeep(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s, []byte("data"))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if CheckName(name) != nil {
			return
		}
		root := t.TempDir()
		st, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		box, err := st.For("alice")
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, folder := range []string{Uploads, Downloads} {
			file, err := box.Keep(folder, name, data)
			if err != nil {
				t.Fatalf("Keep(%q) refuses a name CheckName accepts: %v", name, err)
			}
			if slices.Contains(kept, file.Name) {
				t.Fatalf("Keep(%q) stored two files as %q", name, file.Name)
			}
			kept = append(kept, file.Name)
			got, _, err := box.Read(file.Name)
			if err != nil {
				t.Fatalf("Keep(%q) stored %q, which Read refuses: %v", name, file.Name, err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("Keep(%q) stored %q, which reads back other bytes", name, file.Name)
			}
		}
		all, err := box.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range kept {
			if !slices.ContainsFunc(all, func(f File) bool { return f.Name == n }) {
				t.Fatalf("Keep(%q) stored %q, which List leaves out", name, n)
			}
		}
		for _, other := range []string{name + "/../" + kept[0], kept[0] + " (0)", "x" + kept[0]} {
			if _, _, err := box.Read(other); err != nil && strings.Contains(err.Error(), root) {
				t.Fatalf("the refusal of %q shows the store's folder: %v", other, err)
			}
		}
	})
}

// notPlain says why name is not a plain file name, or "".
func notPlain(name string) string {
	switch {
	case name == "" || name == "." || name == "..":
		return "is empty or a relative folder"
	case strings.HasPrefix(name, "."):
		return "starts with a dot"
	case len(name) > MaxNameLen:
		return "is too long"
	case strings.ContainsAny(name, "/\\\x00"):
		return "holds a path separator or NUL"
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "holds a control character"
	case slices.ContainsFunc(Folders, func(f string) bool { return strings.EqualFold(f, name) }):
		return "is a folder's name"
	}
	return ""
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
