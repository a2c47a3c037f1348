package secrets

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// maxFile is the largest FLOW_SECRETS file read: a larger one is not a
// secrets file.
const maxFile = 4 << 20

const lineFormat = "want \"principal name[/key] site[,site...] value\", fields separated by spaces or tabs"

// readFile reads the FLOW_SECRETS file at path.
func readFile(path string) ([]def, []*LoadError) {
	at := place{kind: fileSource, path: path}
	f, err := os.Open(path)
	if err != nil {
		return nil, []*LoadError{at.problem("cannot open it: %v", err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, []*LoadError{at.problem("cannot read it: %v", err)}
	}
	if len(data) > maxFile {
		return nil, []*LoadError{at.problem("it is larger than %d MiB; it is not a secrets file", maxFile>>20)}
	}
	return parseFile(path, data)
}

// parseFile reads FLOW_SECRETS lines. Problems name the line and the field,
// never a field's text.
func parseFile(path string, data []byte) ([]def, []*LoadError) {
	var defs []def
	var problems []*LoadError
	text := strings.TrimPrefix(string(data), "\ufeff")
	for n, line := range strings.Split(text, "\n") {
		at := place{kind: fileSource, path: path, line: n + 1}
		line = strings.Trim(line, " \t\r")
		if line == "" || line[0] == '#' {
			continue
		}
		var f [3]string
		rest := line
		for i := range f {
			rest = strings.TrimLeft(rest, " \t")
			j := strings.IndexAny(rest, " \t")
			if j < 0 {
				f[i], rest = rest, ""
				break
			}
			f[i], rest = rest[:j], rest[j:]
		}
		value := strings.Trim(rest, " \t\r")
		if value == "" {
			fields := 0
			for _, s := range f {
				if s != "" {
					fields++
				}
			}
			problems = append(problems, at.problem("the line has %d of its 4 fields; %s", fields, lineFormat))
			continue
		}
		d, err := parseFields(f[0], f[1], f[2], value)
		if err != "" {
			problems = append(problems, at.problem("%s", err))
		}
		if d != nil {
			d.at = at
			defs = append(defs, *d)
		}
	}
	return defs, problems
}

// parseFields checks a line's fields. It returns the definition, if the
// line defines one, and the problem, if any: a line whose only fault is its
// sites still gives its value for redaction.
func parseFields(principal, nameKey, sites, value string) (*def, string) {
	if !validPrincipal(principal) {
		return nil, "the principal (field 1) is not valid: use letters, digits, dot, underscore and dash, at most 64"
	}
	name, key, hasKey := strings.Cut(nameKey, "/")
	if !nameRE.MatchString(name) {
		return nil, "the secret name (field 2) must be 1 to 64 letters, digits, dots, underscores or dashes, optionally followed by /key"
	}
	d := &def{principal: principal, name: name, key: DefaultKey, text: value}
	if hasKey {
		switch {
		case key == descriptionKey:
			d.desc, d.key = true, ""
		case strings.HasPrefix(key, "_"):
			return nil, "the key (field 2, after /) begins with _, which is kept for _description"
		case !keyRE.MatchString(key):
			return nil, "the key (field 2, after /) must be 1 to 64 letters, digits, dots, underscores or dashes, beginning with a letter or digit"
		default:
			d.key = key
		}
	}
	list, i, err := parseSites(strings.Split(sites, ","))
	if err != nil {
		if d.desc {
			d = nil
		}
		return d, fmt.Sprintf("site %d of field 3: %v", i, err)
	}
	d.sites = list
	return d, ""
}
