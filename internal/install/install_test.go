package install_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
	"github.com/selenium-flow/selenium-flow/internal/install"
	"github.com/selenium-flow/selenium-flow/resources"
)

var sample = []resources.Entry{
	{URI: "knowledge://documents/a", Body: "not a skill"},
	{URI: "skill://{id}/SKILL.md", Template: true},
	{URI: "skill://demo/SKILL.md", Body: "---\nname: demo\n---\nRead [base](references/base.md).\n"},
	{URI: "skill://demo/references/base.md", Body: "# Ground rules\n"},
	{URI: "skill://demo/references/NOTES.md", Body: "# Notes\n"},
}

func sampleFiles(t *testing.T) []install.File {
	t.Helper()
	files, err := install.Files(sample)
	assert.NilError(t, err)
	return files
}

func actions(rs []install.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Action.String()
	}
	return out
}

func TestFiles(t *testing.T) {
	files := sampleFiles(t)
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path+" <- "+f.URI)
	}
	assert.DeepEqual(t, paths, []string{
		"demo/SKILL.md <- skill://demo/SKILL.md",
		"demo/references/NOTES.md <- skill://demo/references/NOTES.md",
		"demo/references/base.md <- skill://demo/references/base.md",
	})

	for _, tc := range []struct {
		name    string
		entries []resources.Entry
		want    string
	}{
		{"no skills", sample[:2], "publishes no skill"},
		{"escapes its skill", []resources.Entry{{URI: "skill://demo/../../etc/passwd"}}, "does not name a file inside its skill"},
		{"no file", []resources.Entry{{URI: "skill://demo"}}, "does not name a file inside its skill"},
		{"runtime", []resources.Entry{{URI: "skill://demo/SKILL.md", Kind: resources.Runtime}}, "read at run time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := install.Files(tc.entries)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func TestInstall(t *testing.T) {
	files := sampleFiles(t)
	skill := func(dir string) string { return filepath.Join(dir, "demo", "SKILL.md") }
	for _, tc := range []struct {
		name string
		// before prepares the directory; nil leaves it empty.
		before  func(t *testing.T, dir string)
		opts    []install.Option
		want    []string
		wantErr string
		// after checks SKILL.md's bytes on disk; "" means absent.
		after string
	}{
		{
			name:  "fresh",
			want:  []string{"written", "written", "written"},
			after: sample[2].Body,
		},
		{
			name:   "again",
			before: func(t *testing.T, dir string) { mustInstall(t, dir, files) },
			want:   []string{"unchanged", "unchanged", "unchanged"},
			after:  sample[2].Body,
		},
		{
			name:  "dry run writes nothing",
			opts:  []install.Option{install.WithDryRun(true)},
			want:  []string{"would write", "would write", "would write"},
			after: "",
		},
		{
			name: "changed file is refused and nothing is written",
			before: func(t *testing.T, dir string) {
				writeFile(t, skill(dir), "my edits\n")
			},
			want:    []string{"changed", "would write", "would write"},
			wantErr: "run again with --force",
			after:   "my edits\n",
		},
		{
			name: "dry run still refuses a changed file",
			before: func(t *testing.T, dir string) {
				writeFile(t, skill(dir), "my edits\n")
			},
			opts:    []install.Option{install.WithDryRun(true)},
			want:    []string{"changed", "would write", "would write"},
			wantErr: "--force",
			after:   "my edits\n",
		},
		{
			name: "force overwrites",
			before: func(t *testing.T, dir string) {
				mustInstall(t, dir, files)
				writeFile(t, skill(dir), "my edits\n")
			},
			opts:  []install.Option{install.WithForce(true)},
			want:  []string{"written", "unchanged", "unchanged"},
			after: sample[2].Body,
		},
		{
			name: "force with dry run writes nothing",
			before: func(t *testing.T, dir string) {
				writeFile(t, skill(dir), "my edits\n")
			},
			opts:  []install.Option{install.WithForce(true), install.WithDryRun(true)},
			want:  []string{"would write", "would write", "would write"},
			after: "my edits\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.before != nil {
				tc.before(t, dir)
			}
			res, err := install.Install(dir, files, tc.opts...)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				var ce *install.ChangedError
				assert.Assert(t, errors.As(err, &ce))
				assert.DeepEqual(t, ce.Paths, []string{skill(dir)})
			} else {
				assert.NilError(t, err)
			}
			assert.DeepEqual(t, actions(res), tc.want)
			have, err := os.ReadFile(skill(dir))
			if tc.after == "" {
				assert.Assert(t, errors.Is(err, os.ErrNotExist), "SKILL.md was written")
				if tc.before == nil {
					entries, _ := os.ReadDir(dir)
					assert.Check(t, is.Len(entries, 0), "a dry run left files behind")
				}
				return
			}
			assert.NilError(t, err)
			assert.Equal(t, string(have), tc.after)
			leftovers, _ := filepath.Glob(filepath.Join(dir, "demo", atomicfile.TempPrefix+"*"))
			assert.Check(t, is.Len(leftovers, 0), "temporary files left behind")
		})
	}
}

func mustInstall(t *testing.T, dir string, files []install.File) {
	t.Helper()
	_, err := install.Install(dir, files)
	assert.NilError(t, err)
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	assert.NilError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	assert.NilError(t, os.WriteFile(p, []byte(body), 0o644))
}

func TestClients(t *testing.T) {
	for _, c := range install.Clients {
		t.Run(c.Name, func(t *testing.T) {
			assert.Check(t, c.User != "" && c.Project != "", "a preset needs both directories")
			assert.Check(t, strings.HasPrefix(c.Source, "https://"), "a preset cites its documentation")
			got, err := install.Lookup(strings.ToUpper(c.Name))
			assert.NilError(t, err)
			assert.Equal(t, got.Name, c.Name)
			assert.Equal(t, c.Dir("/h", "/p", false), filepath.Join("/h", c.User))
			assert.Equal(t, c.Dir("/h", "/p", true), filepath.Join("/p", c.Project))
		})
	}
	_, err := install.Lookup("emacs")
	assert.ErrorContains(t, err, "--dir")
}

func TestSnippets(t *testing.T) {
	for _, c := range install.Clients {
		t.Run(c.Name, func(t *testing.T) {
			snips, err := install.Snippets(c.Name)
			assert.NilError(t, err)
			var stdio, http bool
			for _, s := range snips {
				if s.Lang == "json" {
					var v map[string]any
					assert.NilError(t, json.Unmarshal([]byte(s.Text), &v), "%s", s.Title)
				}
				stdio = stdio || strings.Contains(s.Text, "serve")
				http = http || strings.Contains(s.Text, install.Endpoint)
				if strings.Contains(s.Text, install.Endpoint) && c.Name != "codex" {
					assert.Check(t, is.Contains(s.Text, "Bearer "+install.TokenPlaceholder), "%s", s.Title)
				}
			}
			assert.Check(t, stdio, "no stdio snippet")
			assert.Check(t, http, "no HTTP snippet")
		})
	}
}
