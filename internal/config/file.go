package config

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// fileEntry is one key of the YAML file with its value as text.
type fileEntry struct {
	key, value string
}

// readFile reads a YAML settings file: a mapping of declared keys to
// scalars (or, for a setting with Join, lists). Every error names the
// file and, for its content, the line, and says what would be accepted.
func readFile(path string) ([]fileEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("the configuration file %s (--config or FLOW_CONFIG) does not exist; name an existing YAML file", path)
		}
		return nil, fmt.Errorf("the configuration file %s cannot be read: %w", path, err)
	}
	return parseFile(path, data)
}

// parseFile is readFile on the file's bytes.
func parseFile(path string, data []byte) ([]fileEntry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not YAML: %w", path, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: the file must be a mapping of settings (key: value), e.g. \"idle_timeout: 15m\"", path, root.Line)
	}
	var out []fileEntry
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		s, ok := lookup(k.Value)
		switch {
		case !ok:
			if near := nearKey(k.Value); near != "" {
				return nil, fmt.Errorf("%s:%d: unknown key %q; did you mean %s? (keys use underscores: run selenium-flow config --help)", path, k.Line, k.Value, near)
			}
			return nil, fmt.Errorf("%s:%d: unknown key %q; the keys are %s (run selenium-flow config --help)", path, k.Line, k.Value, strings.Join(Keys(), ", "))
		case s.Key == "config":
			return nil, fmt.Errorf("%s:%d: config names the file itself; give it with --config or FLOW_CONFIG, not inside a file", path, k.Line)
		case seen[s.Key] != 0:
			return nil, fmt.Errorf("%s:%d: %s is set twice (first on line %d); keep one", path, k.Line, s.Key, seen[s.Key])
		}
		seen[s.Key] = k.Line
		val, err := scalar(s, v)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", path, v.Line, s.Key, err)
		}
		if s.Bool {
			if _, err := parseBool(val); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %w", path, v.Line, s.Key, err)
			}
		}
		out = append(out, fileEntry{key: s.Key, value: val})
	}
	return out, nil
}

// scalar is a value node as the text the environment variable would hold.
func scalar(s Setting, v *yaml.Node) (string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return "", nil
		}
		return v.Value, nil
	case yaml.SequenceNode:
		if s.Join == "" {
			return "", fmt.Errorf("takes one value, not a list")
		}
		parts := make([]string, 0, len(v.Content))
		for _, item := range v.Content {
			if item.Kind != yaml.ScalarNode {
				return "", fmt.Errorf("a list item on line %d is not a plain value", item.Line)
			}
			parts = append(parts, item.Value)
		}
		return strings.Join(parts, s.Join), nil
	}
	return "", fmt.Errorf("takes a plain value (text, a number or yes/no), not a mapping")
}

// nearKey is the declared key a mistyped one stands for when it is the
// flag's or the variable's spelling (idle-timeout, FLOW_IDLE_TIMEOUT).
func nearKey(k string) string {
	k = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(k), "-", "_"))
	for _, s := range table {
		if k == s.Key || k == strings.ToLower(s.EnvName()) {
			return s.Key
		}
	}
	return ""
}
