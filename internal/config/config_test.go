package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// load parses args as serve would and loads with environ.
func load(t *testing.T, args []string, environ ...string) (*Config, error) {
	t.Helper()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags := NewFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	return Load(flags, environ)
}

func writeFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "flow.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrecedence(t *testing.T) {
	file := writeFile(t, "idle_timeout: 5m\nresources: off\nexclude_tools: [hover, drag]\nno_scripts: yes\nlog_level: debug\n")
	tests := []struct {
		name    string
		args    []string
		env     []string
		key     string
		want    string
		wantSrc Source
	}{
		{"default", nil, nil, "idle_timeout", "15m", FromDefault},
		{"file beats default", []string{"--config", file}, nil, "idle_timeout", "5m", FromFile},
		{"file named by FLOW_CONFIG", nil, []string{"FLOW_CONFIG=" + file}, "resources", "off", FromFile},
		{"environment beats file", []string{"--config", file}, []string{"FLOW_IDLE_TIMEOUT=1h"}, "idle_timeout", "1h", FromEnv},
		{"flag beats environment and file", []string{"--config", file, "--idle-timeout", "2h"}, []string{"FLOW_IDLE_TIMEOUT=1h"}, "idle_timeout", "2h", FromFlag},
		{"an empty variable sets nothing", []string{"--config", file}, []string{"FLOW_RESOURCES="}, "resources", "off", FromFile},
		{"a file list is joined as the variable would be", []string{"--config", file}, nil, "exclude_tools", "hover,drag", FromFile},
		{"a bool flag stands alone", []string{"--metrics-public"}, nil, "metrics_public", "true", FromFlag},
		{"variable with another prefix", nil, []string{"SELENIUM_URL=http://127.0.0.1:4444"}, "selenium_url", "http://127.0.0.1:4444", FromEnv},
		{"flag of the config file itself", []string{"--config", file}, []string{"FLOW_CONFIG=/elsewhere.yaml"}, "config", file, FromFlag},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := load(t, tt.args, tt.env...)
			if err != nil {
				t.Fatal(err)
			}
			if got, src := c.Get(tt.key), c.Source(tt.key); got != tt.want || src != tt.wantSrc {
				t.Errorf("%s = %q from %s, want %q from %s", tt.key, got, src, tt.want, tt.wantSrc)
			}
		})
	}
}

func TestFileRefusals(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // every one is in the error
	}{
		{"unknown key", "idle_timeout: 5m\n\nidle_timout: 5m\n", []string{":3: unknown key \"idle_timout\"", "idle_timeout", "selenium-flow config --help"}},
		{"a flag's spelling", "idle-timeout: 5m\n", []string{":1: unknown key \"idle-timeout\"; did you mean idle_timeout?"}},
		{"a variable's spelling", "FLOW_DATA_DIR: /x\n", []string{"did you mean data_dir?"}},
		{"the file names a file", "config: other.yaml\n", []string{":1: config names the file itself", "--config or FLOW_CONFIG"}},
		{"a key twice", "http: a\nhttp: b\n", []string{":2: http is set twice (first on line 1)"}},
		{"not a mapping", "- a\n- b\n", []string{":1: the file must be a mapping"}},
		{"a list where one value goes", "idle_timeout: [1m, 2m]\n", []string{":1: idle_timeout: takes one value, not a list"}},
		{"a mapping value", "data_dir:\n  a: b\n", []string{":2: data_dir: takes a plain value"}},
		{"a bool that is none", "no_scripts: maybe\n", []string{":1: no_scripts:", "use 1 or 0"}},
		{"not YAML", "a: [b\n", []string{"not YAML"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, tt.text)
			_, err := load(t, []string{"--config", file})
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range append(tt.want, file) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := load(t, []string{"--config", filepath.Join(t.TempDir(), "none.yaml")})
		if err == nil || !strings.Contains(err.Error(), "does not exist; name an existing YAML file") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("empty file", func(t *testing.T) {
		if _, err := load(t, []string{"--config", writeFile(t, "")}); err != nil {
			t.Error(err)
		}
	})
}

func TestPrintProvenance(t *testing.T) {
	const token = "tok-3c1e-do-not-print"
	file := writeFile(t, "idle_timeout: 5m\ntoken: "+token+"\n")
	c, err := load(t, []string{"--config", file, "--http", "127.0.0.1:0"},
		"FLOW_LOG_LEVEL=debug", "SELENIUM_URL=http://grid-user:grid-pass@127.0.0.1:4444/wd/hub")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	for _, want := range [][]string{
		{"idle_timeout", "5m", "file", file, "FLOW_IDLE_TIMEOUT", "--idle-timeout"},
		{"token", "********", "file", file, "FLOW_TOKEN", "--token"},
		{"http", "127.0.0.1:0", "flag", "FLOW_HTTP", "--http"},
		{"log_level", "debug", "environment", "FLOW_LOG_LEVEL", "--log-level"},
		{"selenium_url", "http://********@127.0.0.1:4444/wd/hub", "environment", "SELENIUM_URL", "--selenium-url"},
		{"resources", "auto", "default", "FLOW_RESOURCES", "--resources"},
		{"data_dir", "-", "default", "FLOW_DATA_DIR", "--data-dir"},
	} {
		if got := rows[want[0]]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("printed %v, want %v:\n%s", got, want, out)
		}
	}
	for _, leak := range []string{token, "grid-pass", "grid-user"} {
		if strings.Contains(out, leak) {
			t.Errorf("printed configuration shows %q:\n%s", leak, out)
		}
	}
	for _, s := range c.Settings() {
		if strings.Contains(s.Value, token) || strings.Contains(s.Value, "grid-pass") {
			t.Errorf("Settings shows %s = %q", s.Key, s.Value)
		}
	}
}

func TestTableIsOneToOne(t *testing.T) {
	keys, envs, flags := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range Table() {
		if keys[s.Key] || envs[s.EnvName()] || flags[s.FlagName()] {
			t.Errorf("%s is declared twice", s.Key)
		}
		keys[s.Key], envs[s.EnvName()], flags[s.FlagName()] = true, true, true
		if s.Key != strings.ToLower(s.Key) || strings.ContainsAny(s.Key, "- ") {
			t.Errorf("key %q is not lower case with underscores", s.Key)
		}
		if s.Help == "" {
			t.Errorf("%s has no help", s.Key)
		}
	}
}

// TestREADMETable keeps the README's settings table the one the table
// makes: run go test ./internal/config -run TestREADMETable -update after
// adding a setting.
func TestREADMETable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- settings:begin (generated by internal/config: go test ./internal/config -run TestREADMETable -update) -->\n", "<!-- settings:end -->"
	text := string(readme)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no settings table between %q and %q", begin, end)
	}
	want := text[:i+len(begin)] + MarkdownTable() + text[j:]
	if want == text {
		return
	}
	if *update {
		if err := os.WriteFile("../../README.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's settings table differs from internal/config's; run go test ./internal/config -run TestREADMETable -update")
}
