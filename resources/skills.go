package resources

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The Skills extension (SEP-2640, io.modelcontextprotocol/skills): a
// skill is a directory of resources under skill://<id>/, its SKILL.md the
// entry point. The table answers the extension's three methods from its
// own entries — skills/list and skills/get with a manifest of every file
// and its digest and size as gen computed them, and
// resources/directory/read for the directories the published skills and
// the knowledge documents make. The server puts them on the wire
// (internal/server).

// SkillsExtension is the extension's identifier in capabilities.extensions.
const SkillsExtension = "io.modelcontextprotocol/skills"

// DirectoryMIMEType is the type of a directory resource.
const DirectoryMIMEType = "inode/directory"

// DocumentsDirectory is the directory of the knowledge documents.
const DocumentsDirectory = "knowledge://documents"

// DefaultPageSize is how many skills or directory children one page holds
// unless Config.PageSize says otherwise.
const DefaultPageSize = 50

// Skill is one skill's entry, as skills/list and skills/get give it.
type Skill struct {
	// URI is the skill's SKILL.md.
	URI string `json:"uri"`
	// Frontmatter is SKILL.md's front matter, every field, as JSON.
	Frontmatter json.RawMessage `json:"frontmatter"`
	// Resources are every file of the skill, SKILL.md first.
	Resources []SkillFile `json:"resources"`
}

// SkillFile is one file of a skill with the digest and size of its bytes.
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// ErrInvalid marks a request the extension refuses as invalid params: a
// URI that is no skill or no directory, a cursor it did not give.
var ErrInvalid = errors.New("invalid params")

// InvalidError is a refusal of an extension request, with the sentence
// that says what works instead.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return e.Msg }

func (e *InvalidError) Unwrap() error { return ErrInvalid }

func invalid(format string, args ...any) error {
	return &InvalidError{Msg: fmt.Sprintf(format, args...)}
}

// isSkillPage reports whether an entry is a served skill's SKILL.md.
func isSkillPage(e Entry) bool {
	return !e.Template && e.Kind == Embedded && e.Frontmatter != "" &&
		strings.HasPrefix(e.URI, "skill://") && strings.HasSuffix(e.URI, "/SKILL.md")
}

// skillRoot is a skill's directory: its SKILL.md URI without /SKILL.md.
func skillRoot(uri string) string { return strings.TrimSuffix(uri, "/SKILL.md") }

// buildSkills finds the skills and the directory tree once every entry is
// known. New calls it.
func (t *Table) buildSkills() {
	t.dirs = map[string][]string{}
	add := func(root string, files []Entry) {
		t.dirs[root] = t.dirs[root] // a root with no files is still a directory
		for _, f := range files {
			child := f.URI
			for dir := parentOf(child); ; dir = parentOf(dir) {
				if !slices.Contains(t.dirs[dir], child) {
					t.dirs[dir] = append(t.dirs[dir], child)
				}
				if dir == root || dir == "" {
					break
				}
				child = dir
			}
		}
	}
	for _, e := range t.entries {
		if !isSkillPage(e) {
			continue
		}
		t.skills = append(t.skills, e.URI)
		add(skillRoot(e.URI), t.filesUnder(skillRoot(e.URI)))
	}
	slices.Sort(t.skills)
	if docs := t.filesUnder(DocumentsDirectory); len(docs) > 0 {
		add(DocumentsDirectory, docs)
	}
	for dir := range t.dirs {
		slices.Sort(t.dirs[dir])
	}
}

// parentOf is the directory a URI is in: skill://a/b/c → skill://a/b. A
// URI with no path left (skill://a) has none.
func parentOf(uri string) string {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || !strings.Contains(rest, "/") {
		return ""
	}
	return scheme + "://" + path.Dir(rest)
}

// filesUnder lists the embedded files under a directory, at any depth.
func (t *Table) filesUnder(dir string) []Entry {
	var out []Entry
	for _, e := range t.entries {
		if !e.Template && e.Kind == Embedded && strings.HasPrefix(e.URI, dir+"/") {
			out = append(out, e)
		}
	}
	return out
}

// HasSkills reports whether the table serves any skill; a server declares
// the Skills extension only then.
func (t *Table) HasSkills() bool { return len(t.skills) > 0 }

// SkillURIs lists the SKILL.md of every skill the table serves.
func (t *Table) SkillURIs() []string { return slices.Clone(t.skills) }

// Skill returns the entry of the skill whose SKILL.md is uri, whether or
// not a listing shows it.
func (t *Table) Skill(uri string) (Skill, error) {
	if !slices.Contains(t.skills, uri) {
		return Skill{}, t.noSkill(uri)
	}
	e, _ := t.Lookup(uri)
	s := Skill{URI: uri, Frontmatter: json.RawMessage(e.Frontmatter)}
	files := t.filesUnder(skillRoot(uri))
	slices.SortFunc(files, func(a, b Entry) int {
		// SKILL.md first, then by URI.
		return cmp.Or(-cmp.Compare(boolInt(a.URI == uri), boolInt(b.URI == uri)), cmp.Compare(a.URI, b.URI))
	})
	for _, f := range files {
		s.Resources = append(s.Resources, SkillFile{URI: f.URI, Digest: f.Digest, Size: f.Size})
	}
	return s, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (t *Table) noSkill(uri string) error {
	served := "this server serves no skill"
	if len(t.skills) > 0 {
		served = "the skills served are " + strings.Join(t.skills, ", ")
	}
	what := "is not a skill this server serves"
	if !strings.HasSuffix(uri, "/SKILL.md") {
		what = "is not the URI of a skill's SKILL.md"
	}
	return invalid("%s %s; %s. Call skills/list for every skill with its files, or skills/get with one of those URIs.", uri, what, served)
}

// Skills returns one page of skills/list: the cursor is "" for the first
// page, else the next cursor an earlier page gave.
func (t *Table) Skills(cursor string) ([]Skill, string, error) {
	start, err := t.decodePageCursor(cursor, t.skills, "skills/list")
	if err != nil {
		return nil, "", err
	}
	end := min(start+t.pageSize, len(t.skills))
	out := []Skill{}
	for _, uri := range t.skills[start:end] {
		s, _ := t.Skill(uri)
		out = append(out, s)
	}
	next := ""
	if end < len(t.skills) {
		next = encodeCursor(end, t.skills[end])
	}
	return out, next, nil
}

// Directories lists every directory the table answers
// resources/directory/read for: each skill's root and the folders in it,
// and the knowledge documents.
func (t *Table) Directories() []string {
	out := make([]string, 0, len(t.dirs))
	for d := range t.dirs {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// Directory returns one page of a directory's children, one level deep:
// files with the metadata resources/list gives them, folders as directory
// resources.
func (t *Table) Directory(uri, cursor string) ([]mcp.Resource, string, error) {
	children, ok := t.dirs[uri]
	if !ok {
		return nil, "", t.noDirectory(uri)
	}
	start, err := t.decodePageCursor(cursor, children, "resources/directory/read")
	if err != nil {
		return nil, "", err
	}
	end := min(start+t.pageSize, len(children))
	out := []mcp.Resource{}
	for _, c := range children[start:end] {
		if _, dir := t.dirs[c]; dir {
			out = append(out, t.directoryResource(c))
			continue
		}
		e, _ := t.Lookup(c)
		r := t.nativeResource(e)
		out = append(out, r)
	}
	next := ""
	if end < len(children) {
		next = encodeCursor(end, children[end])
	}
	return out, next, nil
}

// directoryResource is a folder as a directory read lists it.
func (t *Table) directoryResource(uri string) mcp.Resource {
	name := uri[strings.LastIndex(uri, "/")+1:]
	title := headlineWords(name)
	if slices.Contains(t.skills, uri+"/SKILL.md") {
		e, _ := t.Lookup(uri + "/SKILL.md")
		title = e.Title
	} else if p := parentOf(uri); slices.Contains(t.skills, p+"/SKILL.md") {
		e, _ := t.Lookup(p + "/SKILL.md")
		title = e.Title + " " + headlineWords(name)
	}
	return mcp.NewResource(uri, name,
		mcp.WithResourceTitle(title),
		mcp.WithResourceDescription(fmt.Sprintf("A directory of %d entries; list them with resources/directory/read.", len(t.dirs[uri]))),
		mcp.WithMIMEType(DirectoryMIMEType))
}

// headlineWords capitalises each word: "references" → "References".
func headlineWords(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

func (t *Table) noDirectory(uri string) error {
	dirs := strings.Join(t.Directories(), ", ")
	if dirs == "" {
		dirs = "none"
	}
	if e, _, ok := t.Match(uri); ok && !e.Hidden {
		return invalid("%s is not a directory resource: read it with resources/read. The directories are: %s.", uri, dirs)
	}
	return invalid("no directory at %s. The directories are: %s; call resources/directory/read with one of them.", uri, dirs)
}

// decodePageCursor checks a cursor against the list it pages and returns
// the offset it names.
func (t *Table) decodePageCursor(cursor string, all []string, method string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	bad := invalid("cursor %q is not one %s gave; call %s without a cursor to start from the first page", cursor, method, method)
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, bad
	}
	off, key, ok := strings.Cut(string(raw), ":")
	n, err := strconv.Atoi(off)
	if !ok || err != nil || n < 0 || n >= len(all) || all[n] != key {
		return 0, bad
	}
	return n, nil
}

// directoryHint is the refusal's advice when a read names a directory.
func (t *Table) directoryHint(uri string) (string, bool) {
	children, ok := t.dirs[uri]
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s is a directory, not a file: list it with resources/directory/read, or read one of its entries: %s.", uri, strings.Join(children, ", ")), true
}
