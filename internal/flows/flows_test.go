package flows

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func schema(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("../../resources/schemas/flow.schema.json")
	assert.NilError(t, err)
	return b
}

func open(t testing.TB) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), schema(t))
	assert.NilError(t, err)
	return s
}

const login = `{
  "name": "login",
  "description": "Sign in.",
  "parameters": [{"name": "email", "required": true}, {"name": "wait", "type": "number", "default": 5}],
  "steps": [
    {"tool": "navigate", "args": {"url": "{{base}}/login"}, "id": "open"},
    {"tool": "write", "args": {"locator": {"label": "Email"}, "text": "{{email}}"}},
    {"tool": "wait_for", "args": {"text": "Welcome", "timeout": "{{wait}}"}}
  ]
}`

func TestParseRefusals(t *testing.T) {
	s := open(t)
	cases := []struct{ name, doc, want string }{
		{"not json", `{`, "it is not JSON"},
		{"unknown tool", `{"name":"x","steps":[{"tool":"tap"}]}`, "at /steps/0/tool: value must be one of 'navigate'"},
		{"no steps", `{"name":"x","steps":[]}`, "at /steps: minItems"},
		{"secret default", `{"name":"x","parameters":[{"name":"pw","type":"secret","default":"pw"}],"steps":[{"tool":"outline"}]}`, "at /parameters/0/default: a parameter of type secret takes no default"},
		{"default of another type", `{"name":"x","parameters":[{"name":"n","type":"number","default":"abc"}],"steps":[{"tool":"outline"}]}`, `at /parameters/0/default: the default does not fit: "n" must be a number`},
		{"bad name", `{"name":"Has Space","steps":[{"tool":"outline"}]}`, "at /name: "},
		{"extra field", `{"name":"x","steps":[{"tool":"outline"}],"colour":"red"}`, "colour"},
		{"undeclared placeholder", login, "{{base}} is not a declared parameter (declared: email, wait)"},
		{"duplicate id", `{"name":"x","steps":[{"tool":"outline","id":"a"},{"tool":"outline","id":"a"}]}`, `at /steps/1/id: "a" is used by an earlier step`},
		{"bad onError", `{"name":"x","steps":[{"tool":"outline","onError":"ignore"}]}`, "at /steps/0/onError: value must be one of 'stop', 'continue'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Parse([]byte(tc.doc))
			assert.Assert(t, err != nil)
			assert.Check(t, is.Contains(err.Error(), tc.want))
			assert.Check(t, is.Contains(err.Error(), "flow://schema"))
		})
	}
}

func valid(t *testing.T, s *Store) Flow {
	t.Helper()
	doc := strings.Replace(login, `"parameters": [`, `"parameters": [{"name": "base", "default": "http://127.0.0.1"}, `, 1)
	f, err := s.Parse([]byte(doc))
	assert.NilError(t, err)
	return f
}

func TestStoreIsolationAndSharing(t *testing.T) {
	s := open(t)
	f := valid(t, s)
	created, err := s.Save("alice", f)
	assert.NilError(t, err)
	assert.Check(t, created)
	created, err = s.Save("alice", f)
	assert.NilError(t, err)
	assert.Check(t, !created, "a second save is an update")

	_, _, err = s.Get("bob", "login")
	assert.Check(t, is.ErrorContains(err, `no flow named "login"`))
	assert.Check(t, is.Len(s.List("bob"), 0))
	assert.Check(t, is.ErrorContains(s.Delete("bob", "login"), "no flow named"))

	f.Shared = true
	_, err = s.Save("alice", f)
	assert.NilError(t, err)
	got, owner, err := s.Get("bob", "login")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(owner, "alice"))
	assert.Check(t, is.Equal(got.Description, "Sign in."))
	assert.Check(t, is.DeepEqual(s.Names("bob"), []string{"login"}))
	assert.Check(t, is.ErrorContains(s.Delete("bob", "login"), "shared by alice; only its owner can delete"))

	st, err := os.Stat(filepath.Join(s.root, "alice", "login.json"))
	assert.NilError(t, err)
	assert.Check(t, is.Equal(st.Mode().Perm(), os.FileMode(0o600)))
	assert.NilError(t, s.Delete("alice", "login"))
	assert.Check(t, is.Len(s.List("alice"), 0))
}

func TestBindAndSubstitute(t *testing.T) {
	s := open(t)
	f := valid(t, s)
	_, err := Bind(f, map[string]any{})
	assert.Check(t, is.ErrorContains(err, `"email" is required`))
	assert.Check(t, is.ErrorContains(err, "email (string, required)"))
	_, err = Bind(f, map[string]any{"email": "a@b.c", "colour": "red"})
	assert.Check(t, is.ErrorContains(err, `"colour" is not a parameter of login`))
	_, err = Bind(f, map[string]any{"email": "a@b.c", "wait": "soon"})
	assert.Check(t, is.ErrorContains(err, `"wait" must be a number`))

	vals, err := Bind(f, map[string]any{"email": "a@b.c"})
	assert.NilError(t, err)
	args := Substitute(f.Steps[2].Args, vals)
	assert.Check(t, is.Equal(args["timeout"], 5.0), "a whole placeholder keeps the number type")
	args = Substitute(f.Steps[0].Args, vals)
	assert.Check(t, is.Equal(args["url"], "http://127.0.0.1/login"))
	args = Substitute(f.Steps[1].Args, vals)
	assert.Check(t, is.DeepEqual(args["locator"], map[string]any{"label": "Email"}))
}

func TestRunStopsOrContinues(t *testing.T) {
	s := open(t)
	f := valid(t, s)
	var called []string
	call := func(_ context.Context, tool string, args map[string]any) (Outcome, error) {
		called = append(called, tool)
		if tool == "write" {
			return Outcome{OK: false, Text: "no element matches label \"Email\""}, nil
		}
		return Outcome{OK: true, Text: "done"}, nil
	}
	var prog []string
	rep, err := Run(context.Background(), f, map[string]any{"email": "a@b.c"}, call, func(d, n int, m string) { prog = append(prog, fmt.Sprintf("%d/%d %s", d, n, m)) })
	assert.NilError(t, err)
	assert.Check(t, !rep.OK)
	assert.Check(t, is.DeepEqual(called, []string{"navigate", "write"}))
	assert.Check(t, is.Equal(rep.Steps[2].Status, "skipped"))
	assert.Check(t, is.Contains(rep.Failed, "step 2 (write) failed: no element matches"))
	assert.Check(t, is.Len(prog, 2))
	assert.Check(t, is.Contains(prog[0], "1/3 step 1 (open) ok"))

	f.Steps[1].OnError = "continue"
	called = nil
	rep, err = Run(context.Background(), f, map[string]any{"email": "a@b.c"}, call, nil)
	assert.NilError(t, err)
	assert.Check(t, rep.OK)
	assert.Check(t, is.Equal(rep.Continued, 1))
	assert.Check(t, is.DeepEqual(called, []string{"navigate", "write", "wait_for"}))
	assert.Check(t, is.Equal(rep.Steps[1].Status, "failed-continued"))
}

// TestKillDuringSave kills a process that saves a flow over and over with
// SIGKILL at arbitrary moments; the stored flow must always parse and be one
// of the versions written, never a torn or empty file.
func TestKillDuringSave(t *testing.T) {
	if os.Getenv("FLOWS_SAVE_LOOP") != "" {
		saveLoop()
		return
	}
	root := t.TempDir()
	for round := range 12 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringSave$")
		cmd.Env = append(os.Environ(), "FLOWS_SAVE_LOOP="+root, "FLOWS_SCHEMA=../../resources/schemas/flow.schema.json")
		assert.NilError(t, cmd.Start())
		time.Sleep(time.Duration(40+round*17) * time.Millisecond)
		assert.NilError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		b, err := os.ReadFile(filepath.Join(root, "alice", "big.json"))
		if os.IsNotExist(err) {
			continue // killed before the first save landed
		}
		assert.NilError(t, err)
		var f Flow
		assert.NilError(t, json.Unmarshal(b, &f), "round %d: the stored flow is torn", round)
		assert.Check(t, strings.HasPrefix(f.Description, "version "), "round %d", round)
		assert.Check(t, is.Len(f.Steps, 150))
	}
}

func saveLoop() {
	sch, _ := os.ReadFile(os.Getenv("FLOWS_SCHEMA"))
	s, err := Open(os.Getenv("FLOWS_SAVE_LOOP"), sch)
	if err != nil {
		panic(err)
	}
	for i := 0; ; i++ {
		f := Flow{Name: "big", Description: fmt.Sprintf("version %d %s", i, strings.Repeat("x", 4000))}
		for j := range 150 {
			f.Steps = append(f.Steps, Step{Tool: "click", Args: map[string]any{"locator": map[string]any{"css": fmt.Sprintf("#b%d-%d", i, j)}}})
		}
		if _, err := s.Save("alice", f); err != nil {
			panic(err)
		}
	}
}
