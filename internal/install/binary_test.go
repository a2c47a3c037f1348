package install_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/install"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/skillsclient"
)

// served reads every file of every skill the way a client does, through
// mcp-go's client, from the server in process (the binary's transports are
// internal/server's TestSmoke): skills/list (the Skills extension) for the
// manifest, resources/read for each file, which must match the manifest's
// digest and size.
func served(t *testing.T) map[string]string {
	t.Helper()
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{})
	ctx := servertest.Context(t)
	skills, _, err := skillsclient.Conn{Client: c.Client}.List(ctx)
	assert.NilError(t, err)
	out := map[string]string{}
	for _, s := range skills {
		for _, f := range s.Resources {
			req := mcp.ReadResourceRequest{}
			req.Params.URI = f.URI
			res, err := c.ReadResource(ctx, req)
			assert.NilError(t, err, "reading %s", f.URI)
			assert.Assert(t, is.Len(res.Contents, 1))
			text, ok := res.Contents[0].(mcp.TextResourceContents)
			assert.Assert(t, ok, "%s is not text", f.URI)
			sum := sha256.Sum256([]byte(text.Text))
			assert.Check(t, is.Equal(f.Digest, "sha256:"+hex.EncodeToString(sum[:])), f.URI)
			assert.Check(t, is.Equal(f.Size, int64(len(text.Text))), f.URI)
			out[f.URI] = text.Text
		}
	}
	assert.Assert(t, len(out) > 1, "the server serves no skill files")
	assert.Check(t, is.Contains(keys(out), "skill://selenium-flow/references/base.md"), "the shared base page is not a reference")
	return out
}

// TestMain: no binary or goroutine outlives the tests, and the binary's
// build folder is removed (see servertest.Main).
func TestMain(m *testing.M) { servertest.Main(m) }

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// runInstall runs `selenium-flow install args…` with HOME set and in dir.
func runInstall(t *testing.T, home, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := servertest.Command(t, []string{"HOME=" + home}, append([]string{"install"}, args...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestInstalledBytesAreServedBytes installs for each client preset, in the
// personal and the project directory, and for --dir, and compares every
// installed file with what the Skills extension lists and skill://…
// serves: the same files, byte for byte.
func TestInstalledBytesAreServedBytes(t *testing.T) {
	want := served(t)
	type target struct {
		name string
		args []string
		// dir is the skills directory the install should fill.
		dir func(home, project string) string
	}
	var targets []target
	for _, c := range install.Clients {
		targets = append(targets,
			target{c.Name, []string{"--client", c.Name}, func(home, _ string) string { return filepath.Join(home, c.User) }},
			target{c.Name + " project", []string{"--client", c.Name, "--project"}, func(_, project string) string { return filepath.Join(project, c.Project) }},
		)
	}
	custom := filepath.Join(t.TempDir(), "my skills")
	targets = append(targets, target{"dir", []string{"--dir", custom}, func(string, string) string { return custom }})

	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			home, project := t.TempDir(), t.TempDir()
			out, err := runInstall(t, home, project, tg.args...)
			assert.NilError(t, err, out)
			dir := tg.dir(home, project)
			assert.Equal(t, strings.Count(out, "written "), len(want), out)
			for uri, body := range want {
				rel := strings.TrimPrefix(uri, "skill://")
				p := filepath.Join(dir, filepath.FromSlash(rel))
				have, err := os.ReadFile(p)
				assert.NilError(t, err, "%s was not installed", uri)
				assert.Check(t, string(have) == body, "%s differs from %s", p, uri)
				assert.Check(t, is.Contains(out, "written     "+p))
			}

			again, err := runInstall(t, home, project, tg.args...)
			assert.NilError(t, err, again)
			assert.Equal(t, strings.Count(again, "unchanged "), len(want), again)
		})
	}
}

// TestInstallCommandRefusals: a changed file stops the install with a
// sentence naming --force; --force replaces it; --dry-run writes nothing.
func TestInstallCommandRefusals(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "skills")

	out, err := runInstall(t, home, home, "--dir", dir, "--dry-run")
	assert.NilError(t, err, out)
	assert.Check(t, is.Contains(out, "would write "))
	_, statErr := os.Stat(dir)
	assert.Check(t, os.IsNotExist(statErr), "--dry-run created %s", dir)

	out, err = runInstall(t, home, home, "--dir", dir)
	assert.NilError(t, err, out)
	skill := filepath.Join(dir, "selenium-flow", "SKILL.md")
	orig, err := os.ReadFile(skill)
	assert.NilError(t, err)
	assert.NilError(t, os.WriteFile(skill, []byte("edited by hand\n"), 0o644))

	out, err = runInstall(t, home, home, "--dir", dir)
	assert.Check(t, err != nil, "a changed file was overwritten without --force")
	assert.Check(t, is.Contains(out, "--force"))
	assert.Check(t, is.Contains(out, "changed     "+skill))
	have, _ := os.ReadFile(skill)
	assert.Equal(t, string(have), "edited by hand\n")

	out, err = runInstall(t, home, home, "--dir", dir, "--force")
	assert.NilError(t, err, out)
	assert.Check(t, is.Contains(out, "written     "+skill))
	have, _ = os.ReadFile(skill)
	assert.Equal(t, string(have), string(orig))

	out, err = runInstall(t, home, home)
	assert.Check(t, err != nil)
	assert.Check(t, is.Contains(out, "--client"))

	out, err = runInstall(t, home, home, "--print-config", "cursor")
	assert.NilError(t, err, out)
	assert.Check(t, is.Contains(out, ".cursor/mcp.json"))
	assert.Check(t, is.Contains(out, "Authorization"))
}
