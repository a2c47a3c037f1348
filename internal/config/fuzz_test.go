package config

import (
	"strings"
	"testing"
)

// FuzzParseFile: any bytes give entries of declared keys or an error that
// names the file; never a panic.
func FuzzParseFile(f *testing.F) {
	for _, seed := range []string{
		"", "idle_timeout: 5m\n", "exclude_tools: [a, b]\n", "no_scripts: yes\n", "bogus: 1\n",
		"- a\n", "data_dir:\n  a: b\n", "http: a\nhttp: b\n", "a: [b\n", "? [a]\n: b\n", "token: &x abc\nsecrets: *x\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseFile("flow.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "flow.yaml") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		for _, e := range entries {
			if _, ok := lookup(e.key); !ok || e.key == "config" {
				t.Fatalf("entry of key %q", e.key)
			}
		}
	})
}
