// Package flows stores saved, parameterised browser flows per caller and
// replays them. A flow is the sequence of page-tool calls an agent worked
// out once; the server runs it again on its own, step by step, through the
// same tool handlers a client would call.
package flows

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
	"github.com/selenium-flow/selenium-flow/internal/jsonschema"
)

// Flow is a flow document, in the shape of flow://schema.
type Flow struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Shared      bool   `json:"shared,omitempty"`
	// TimeLimit is the seconds a run may take; DefaultTimeLimit when 0.
	TimeLimit  float64 `json:"timeLimit,omitempty"`
	Parameters []Param `json:"parameters,omitempty"`
	Steps      []Step  `json:"steps"`
}

// Param is one parameter a caller passes to run_flow.
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	Default     any    `json:"default,omitempty"`
	Required    bool   `json:"required,omitempty"`
	// Values are an enum parameter's allowed values.
	Values []string `json:"values,omitempty"`
}

// Step is one page-tool call.
type Step struct {
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args,omitempty"`
	ID      string         `json:"id,omitempty"`
	Note    string         `json:"note,omitempty"`
	OnError string         `json:"onError,omitempty"`
	// Return puts the step's result into the run report's values: true
	// under the step's id (or step-N), a string under that key.
	Return any `json:"return,omitempty"`
}

// ReturnKey is the key a step's result is returned under, or "" when the
// step returns nothing.
func (f Flow) ReturnKey(i int) string {
	switch r := f.Steps[i].Return.(type) {
	case bool:
		if !r {
			return ""
		}
		if id := f.Steps[i].ID; id != "" {
			return id
		}
		return fmt.Sprintf("step-%d", i+1)
	case string:
		return r
	}
	return ""
}

// Label names a step in reports: "step 3 (login)".
func (f Flow) Label(i int) string {
	if id := f.Steps[i].ID; id != "" {
		return fmt.Sprintf("step %d (%s)", i+1, id)
	}
	return fmt.Sprintf("step %d (%s)", i+1, f.Steps[i].Tool)
}

// Summary is a flow as flow://flows lists it.
type Summary struct {
	Name        string       `json:"name"`
	URI         string       `json:"uri"`
	Description string       `json:"description,omitempty"`
	Parameters  []ParamBrief `json:"parameters"`
	Steps       int          `json:"steps"`
	Shared      bool         `json:"shared"`
	// Library marks a flow of the read-only library (library.go).
	Library bool   `json:"library"`
	Owner   string `json:"owner"`
}

// ParamBrief is a parameter as the flow list shows it.
type ParamBrief struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required,omitempty"`
	// Values are an enum's allowed values.
	Values []string `json:"values,omitempty"`
}

// URI is a flow's resource URI.
func URI(name string) string { return "flow://flows/" + name }

// Store keeps flows under root, one folder per principal, one JSON file
// per flow, each written atomically.
type Store struct {
	root string
	// schema is flow://schema, compiled on first use (internal/jsonschema).
	schema  *jsonschema.Schema
	library string // the read-only shelf's folder (library.go); "" for none
	mu      sync.RWMutex
}

// Open returns the store rooted at root; schemaDoc is the flow://schema
// document, compiled on the first Parse.
func Open(root string, schemaDoc []byte, opts ...Option) (*Store, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("flows: the data folder cannot hold flows: %w", errors.Unwrap(err))
	}
	sch, err := jsonschema.New(schemaDoc)
	if err != nil {
		return nil, fmt.Errorf("flows: the flow schema: %w", err)
	}
	s := &Store{root: root, schema: sch}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// InvalidError is a flow document refused by the schema or by the checks
// the schema cannot express, each problem at its JSON path.
type InvalidError struct {
	Problems []string
}

func (e *InvalidError) Error() string {
	return "The flow document is not valid: " + strings.Join(e.Problems, "; ") + ". Fix those and call save_flow again; flow://schema is the full shape."
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// Parse validates a document against the schema and the rules it cannot
// say: parameter names unique, every {{placeholder}} a declared parameter,
// step ids unique.
func (s *Store) Parse(doc []byte) (Flow, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return Flow{}, &InvalidError{Problems: []string{"it is not JSON (" + err.Error() + ")"}}
	}
	if err := s.schema.Validate(v); err != nil {
		var inv *jsonschema.InvalidError
		if !errors.As(err, &inv) {
			return Flow{}, fmt.Errorf("flows: %w", err)
		}
		return Flow{}, &InvalidError{Problems: problems(inv)}
	}
	var f Flow
	if err := json.Unmarshal(doc, &f); err != nil {
		return Flow{}, &InvalidError{Problems: []string{err.Error()}}
	}
	var probs []string
	declared := map[string]bool{}
	for i, p := range f.Parameters {
		if declared[p.Name] {
			probs = append(probs, fmt.Sprintf("at /parameters/%d/name: %q is declared twice", i, p.Name))
		}
		declared[p.Name] = true
	}
	probs = append(probs, checkParams(f)...)
	returns := map[string]bool{}
	for i := range f.Steps {
		if k := f.ReturnKey(i); k != "" {
			if returns[k] {
				probs = append(probs, fmt.Sprintf("at /steps/%d/return: another step returns its value as %q already; give this one another name, e.g. \"return\": \"%s_2\"", i, k, k))
			}
			returns[k] = true
		}
	}
	ids := map[string]bool{}
	for i, st := range f.Steps {
		if st.ID != "" {
			if ids[st.ID] {
				probs = append(probs, fmt.Sprintf("at /steps/%d/id: %q is used by an earlier step; ids must be unique", i, st.ID))
			}
			ids[st.ID] = true
		}
		walkStrings(st.Args, func(str string) {
			for _, m := range placeholder.FindAllStringSubmatch(str, -1) {
				if !declared[m[1]] {
					probs = append(probs, fmt.Sprintf("at /steps/%d/args: {{%s}} is not a declared parameter (declared: %s)", i, m[1], orNone(slices.Sorted(maps.Keys(declared)))))
				}
			}
		})
	}
	if len(probs) > 0 {
		return Flow{}, &InvalidError{Problems: probs}
	}
	return f, nil
}

// problems quotes the schema's problems as the refusal lists them.
func problems(inv *jsonschema.InvalidError) []string {
	out := make([]string, len(inv.Problems))
	for i, p := range inv.Problems {
		out[i] = p.String()
	}
	return out
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// walkStrings calls f on every string inside v.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case map[string]any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

func (s *Store) dir(principal string) string { return filepath.Join(s.root, principal) }

func (s *Store) file(principal, name string) string {
	return filepath.Join(s.dir(principal), name+".json")
}

// Save stores a valid flow as the principal's, replacing one of the same
// name. It reports whether the flow is new.
func (s *Store) Save(principal string, f Flow) (created bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return writeFlow(s.dir(principal), f)
}

// writeFlow writes f into dir as name.json, atomically, and reports
// whether it is new. The caller holds the write lock. The errors name no
// path: the caller must not learn where the server keeps its data.
func writeFlow(dir string, f Flow) (created bool, err error) {
	body, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("cannot store flows: %w", errors.Unwrap(err))
	}
	file := filepath.Join(dir, f.Name+".json")
	_, statErr := os.Stat(file)
	if err := atomicfile.Write(file, append(body, '\n'), 0o600); err != nil {
		return false, fmt.Errorf("cannot write the flow: %w", errors.Unwrap(err))
	}
	return os.IsNotExist(statErr), nil
}

// ErrNotFound marks a flow that is neither the caller's nor shared.
var ErrNotFound = errors.New("flow not found")

// NotFoundError names the flows the caller can use instead.
type NotFoundError struct {
	Name      string
	Available []string
}

func (e *NotFoundError) Error() string {
	if len(e.Available) == 0 {
		return fmt.Sprintf("You have no flow named %q, and no flows at all yet. Save one with save_flow (shape: flow://schema).", e.Name)
	}
	return fmt.Sprintf("You have no flow named %q. Your flows: %s (flow://flows lists them).", e.Name, strings.Join(e.Available, ", "))
}

func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// Get returns the principal's flow, or another caller's shared flow of
// that name, with its owner.
func (s *Store) Get(principal, name string) (Flow, string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if f, err := s.read(principal, name); err == nil {
		return f, principal, nil
	}
	if f, err := s.readLibrary(name); err == nil {
		return f, LibraryOwner, nil
	} else if !errors.Is(err, ErrNotFound) {
		return Flow{}, "", err
	}
	for _, owner := range s.owners() {
		if owner == principal {
			continue
		}
		if f, err := s.read(owner, name); err == nil && f.Shared {
			return f, owner, nil
		}
	}
	return Flow{}, "", &NotFoundError{Name: name, Available: s.namesLocked(principal)}
}

func (s *Store) read(principal, name string) (Flow, error) {
	if !validName(name) {
		return Flow{}, ErrNotFound
	}
	b, err := os.ReadFile(s.file(principal, name))
	if err != nil {
		return Flow{}, ErrNotFound
	}
	var f Flow
	if err := json.Unmarshal(b, &f); err != nil {
		return Flow{}, fmt.Errorf("the stored flow %q is damaged: %v", name, err)
	}
	return f, nil
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

func validName(n string) bool { return nameRE.MatchString(n) && !strings.Contains(n, "..") }

func (s *Store) owners() []string {
	ents, _ := os.ReadDir(s.root)
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func (s *Store) own(principal string) []Flow {
	var out []Flow
	for _, name := range flowFiles(s.dir(principal)) {
		if f, err := s.read(principal, name); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// flowFiles are the names of the flow documents in dir: its .json files,
// but the temporary ones an atomic write leaves for a moment.
func flowFiles(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, name)
		}
	}
	return out
}

// List returns the principal's flows and other callers' shared ones,
// the caller's own first; a name the caller owns hides a shared one.
func (s *Store) List(principal string) []Summary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Summary
	seen := map[string]bool{}
	for _, f := range s.own(principal) {
		out = append(out, summarize(f, principal))
		seen[f.Name] = true
	}
	for _, f := range s.libraryFlows() {
		if !seen[f.Name] {
			sm := summarize(f, LibraryOwner)
			sm.Library = true
			out = append(out, sm)
			seen[f.Name] = true
		}
	}
	for _, owner := range s.owners() {
		if owner == principal {
			continue
		}
		for _, f := range s.own(owner) {
			if f.Shared && !seen[f.Name] {
				out = append(out, summarize(f, owner))
				seen[f.Name] = true
			}
		}
	}
	return out
}

// Names lists the flow names the principal can run.
func (s *Store) Names(principal string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.namesLocked(principal)
}

func (s *Store) namesLocked(principal string) []string {
	var out []string
	for _, f := range s.own(principal) {
		out = append(out, f.Name)
	}
	for _, f := range s.libraryFlows() {
		if !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	for _, owner := range s.owners() {
		if owner == principal {
			continue
		}
		for _, f := range s.own(owner) {
			if f.Shared && !slices.Contains(out, f.Name) {
				out = append(out, f.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}

func summarize(f Flow, owner string) Summary {
	sm := Summary{Name: f.Name, URI: URI(f.Name), Description: f.Description, Steps: len(f.Steps), Shared: f.Shared, Owner: owner, Parameters: []ParamBrief{}}
	for _, p := range f.Parameters {
		t := p.Type
		if t == "" {
			t = "string"
		}
		sm.Parameters = append(sm.Parameters, ParamBrief{Name: p.Name, Type: t, Required: p.Required, Values: p.Values})
	}
	return sm
}

// Delete removes the principal's own flow. Another caller's shared flow is
// refused: only its owner may delete it.
func (s *Store) Delete(principal, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.read(principal, name); err == nil {
		if err := os.Remove(s.file(principal, name)); err != nil {
			return fmt.Errorf("cannot delete the flow: %w", errors.Unwrap(err))
		}
		return nil
	}
	if _, err := s.readLibrary(name); err == nil {
		return &LibraryError{Name: name}
	}
	for _, owner := range s.owners() {
		if owner == principal {
			continue
		}
		if f, err := s.read(owner, name); err == nil && f.Shared {
			return fmt.Errorf("the flow %q is shared by %s; only its owner can delete or change it. Save a flow of your own under another name instead", name, owner)
		}
	}
	return &NotFoundError{Name: name, Available: s.namesLocked(principal)}
}
