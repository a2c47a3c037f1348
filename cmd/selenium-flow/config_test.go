package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/config"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestConfigCommand runs `selenium-flow config` as a user would: the value
// of each setting with its source, the token masked, and a file with an
// unknown key refused with its file and line.
func TestConfigCommand(t *testing.T) {
	const token = "config-cmd-token-0123456789abcdef"
	// The settings come from this test alone, not from the shell or the
	// Makefile (which exports FLOW_DATA_DIR for make run).
	for _, set := range config.Table() {
		t.Setenv(set.EnvName(), "")
		os.Unsetenv(set.EnvName())
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "flow.yaml")
	if err := os.WriteFile(file, []byte("# a team's server\nidle_timeout: 30m\nresources: off\ntoken: "+token+"\nexclude_tools:\n  - hover\n  - drag\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FLOW_CONFIG", file)
	t.Setenv("FLOW_RESOURCES", "on")
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"config", "--log-level", "warn"}, &out, &errs); err != nil {
		t.Fatalf("config: %v\n%s", err, errs.String())
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 {
			rows[f[0]] = strings.Join(f[1:len(f)-2], " ")
		}
	}
	for key, want := range map[string]string{
		"config":        file + " environment",
		"idle_timeout":  "30m file " + file,
		"resources":     "on environment",
		"token":         "******** file " + file,
		"exclude_tools": "hover,drag file " + file,
		"log_level":     "warn flag",
		"data_dir":      "- default",
	} {
		if rows[key] != want {
			t.Errorf("%s: %q, want %q\n%s", key, rows[key], want, out.String())
		}
	}
	if strings.Contains(out.String(), token) {
		t.Errorf("config printed the token:\n%s", out.String())
	}

	if err := os.WriteFile(file, []byte("idle_timeout: 30m\nidle_timeut: 1h\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"config", "serve"} {
		err := run(context.Background(), []string{cmd}, &out, &errs)
		if err == nil || !strings.Contains(err.Error(), file+`:2: unknown key "idle_timeut"`) {
			t.Errorf("%s with an unknown key: %v", cmd, err)
		}
	}
}
