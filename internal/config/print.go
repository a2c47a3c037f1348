package config

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// PrintEnv writes the environment variables of every setting with their
// help, for --help.
func PrintEnv(w io.Writer) {
	fmt.Fprintln(w, "\nEnvironment (each also a flag of serve and a key of the --config file):")
	for _, s := range table {
		fmt.Fprintf(w, "  %-22s %s\n", s.EnvName(), s.Help)
	}
	fmt.Fprintf(w, "  %-22s %s\n", SecretEnvPattern, SecretEnvHelp)
}

// Print writes the effective configuration, one setting a line with its
// value (secrets masked) and where it came from, for `selenium-flow config`.
func (c *Config) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE\tENVIRONMENT\tFLAG")
	for _, v := range c.Values() {
		shown := v.Shown()
		if shown == "" {
			shown = "-"
		}
		src := string(v.Source)
		if v.Source == FromFile {
			src += " " + c.file
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t--%s\n", v.Key, shown, src, v.EnvName(), v.FlagName())
	}
	return tw.Flush()
}

// MarkdownTable is the settings table of the README and the operator
// manual: variable, flag and YAML key, meaning, default.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| variable | flag | file key | meaning | default |\n| --- | --- | --- | --- | --- |\n")
	for _, s := range table {
		def := "none"
		if s.Default != "" {
			def = "`" + s.Default + "`"
		}
		if s.Secret {
			def += " (secret: masked when shown)"
		}
		doc := s.Doc
		if doc == "" {
			doc = s.Help
		}
		fmt.Fprintf(&b, "| `%s` | `--%s` | `%s` | %s | %s |\n", s.EnvName(), s.FlagName(), s.Key, strings.ReplaceAll(doc, "|", "\\|"), def)
	}
	fmt.Fprintf(&b, "| `%s` | — | — | %s | none |\n", SecretEnvPattern, SecretEnvHelp)
	return b.String()
}
