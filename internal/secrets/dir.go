package secrets

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxValueFile is the largest key file read from FLOW_SECRETS_DIR.
const maxValueFile = 64 << 10

// readDir reads FLOW_SECRETS_DIR: <principal>/<name>/<key> files. Names
// beginning with a dot are skipped (Kubernetes mounts keep ..data and
// timestamped folders there); symbolic links are followed.
func readDir(root string) ([]def, []*LoadError) {
	top := place{kind: dirSource, path: root}
	principals, err := os.ReadDir(root)
	if err != nil {
		return nil, []*LoadError{top.problem("cannot read the folder: %v", err)}
	}
	var defs []def
	var problems []*LoadError
	for _, pe := range principals {
		p := pe.Name()
		if strings.HasPrefix(p, ".") {
			continue
		}
		at := place{kind: dirSource, path: root, rel: p}
		if !isDir(filepath.Join(root, p)) {
			problems = append(problems, at.problem("is not a folder; FLOW_SECRETS_DIR holds a folder per principal, holding a folder per secret"))
			continue
		}
		if !validPrincipal(p) {
			problems = append(problems, at.problem("is not a valid principal: use letters, digits, dot, underscore and dash, at most 64"))
			continue
		}
		secrets, err := os.ReadDir(filepath.Join(root, p))
		if err != nil {
			problems = append(problems, at.problem("cannot read the folder: %v", err))
			continue
		}
		for _, se := range secrets {
			if strings.HasPrefix(se.Name(), ".") {
				continue
			}
			d, ps := readSecretDir(root, p, se.Name())
			defs, problems = append(defs, d...), append(problems, ps...)
		}
	}
	return defs, problems
}

// readSecretDir reads one secret's folder: a file per key, _description and
// _allowed_sites.
func readSecretDir(root, principal, name string) ([]def, []*LoadError) {
	rel := principal + "/" + name
	at := place{kind: dirSource, path: root, rel: rel}
	dir := filepath.Join(root, principal, name)
	if !isDir(dir) {
		return nil, []*LoadError{at.problem("is not a folder; a secret is a folder holding a file per key, and _allowed_sites")}
	}
	if !nameRE.MatchString(name) {
		return nil, []*LoadError{at.problem("is not a valid secret name: use 1 to 64 letters, digits, dots, underscores or dashes")}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, []*LoadError{at.problem("cannot read the folder: %v", err)}
	}
	var problems []*LoadError
	var sites []site
	sitesAt := place{kind: dirSource, path: root, rel: rel + "/" + sitesFile}
	var desc *def
	var values []def
	for _, e := range entries {
		k := e.Name()
		if strings.HasPrefix(k, ".") {
			continue
		}
		kat := place{kind: dirSource, path: root, rel: rel + "/" + k}
		text, err := readSmall(filepath.Join(dir, k))
		if err != "" {
			problems = append(problems, kat.problem("%s", err))
			continue
		}
		switch {
		case k == sitesFile:
			var items []string
			for line := range strings.SplitSeq(text, "\n") {
				if line = strings.TrimSpace(line); line != "" && line[0] != '#' {
					items = append(items, strings.Split(line, ",")...)
				}
			}
			if len(items) == 0 {
				problems = append(problems, kat.problem("lists no site; write one site a line (app.example.com, host:port, *.example.com or *)"))
				continue
			}
			list, i, err := parseSites(items)
			if err != nil {
				problems = append(problems, kat.problem("site %d: %v", i, err))
				continue
			}
			sites = list
		case k == descriptionKey:
			desc = &def{principal: principal, name: name, desc: true, text: strings.TrimSpace(text), at: kat}
		case strings.HasPrefix(k, "_"):
			problems = append(problems, kat.problem("is not a key: names beginning with _ are kept for _description and _allowed_sites"))
		case !keyRE.MatchString(k):
			problems = append(problems, kat.problem("is not a valid key: use 1 to 64 letters, digits, dots, underscores or dashes, beginning with a letter or digit"))
		default:
			v := strings.TrimSuffix(text, "\n")
			v = strings.TrimSuffix(v, "\r")
			if v == "" {
				problems = append(problems, kat.problem("is empty; a key file holds the value"))
				continue
			}
			values = append(values, def{principal: principal, name: name, key: k, text: v, at: kat})
		}
	}
	if len(values) == 0 {
		problems = append(problems, at.problem("has no key file; put the value in a file named for its key (value, or username and password)"))
	}
	if sites == nil && !hasProblemAt(problems, sitesAt) {
		problems = append(problems, sitesAt.problem("is missing; list the sites the secret may be typed on, one a line (app.example.com, host:port, *.example.com or *)"))
	}
	if desc != nil && desc.text != "" && len(values) > 0 {
		values = append(values, *desc)
	}
	for i := range values {
		values[i].sites = sites // nil when the sites are bad: the values are only redacted
	}
	return values, problems
}

func hasProblemAt(ps []*LoadError, at place) bool {
	for _, p := range ps {
		if p.at == at {
			return true
		}
	}
	return false
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// readSmall reads a key or metadata file, following a symbolic link; the
// problem is "" when it could.
func readSmall(path string) (string, string) {
	st, err := os.Stat(path)
	if err != nil {
		return "", "cannot read it: " + err.Error()
	}
	if !st.Mode().IsRegular() {
		return "", "is not a file; a secret's folder holds a file per key"
	}
	f, err := os.Open(path)
	if err != nil {
		return "", "cannot read it: " + err.Error()
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxValueFile+1))
	if err != nil {
		return "", "cannot read it: " + err.Error()
	}
	if len(b) > maxValueFile {
		return "", "is larger than 64 KiB"
	}
	return string(b), ""
}
