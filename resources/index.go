package resources

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// indexReader is the reader key gen gives knowledge://index. No reader is
// bound to it: New builds the index itself, from its own entries and scope,
// so it names exactly what is served and its declared size is exact.
const indexReader Reader = "knowledge.index"

// IndexURI is the resource to read first.
const IndexURI = "knowledge://index"

// Index is the JSON served at knowledge://index.
type Index struct {
	Purpose   string       `json:"purpose"`
	Coverage  string       `json:"coverage"`
	ReadFirst []string     `json:"readFirst"`
	Topics    []IndexTopic `json:"topics"`
	Live      []IndexItem  `json:"live,omitempty"`
	Templates []IndexItem  `json:"templates"`
	// Unavailable names what FLOW_EXCLUDE_TOOLS took away, when it did.
	Unavailable *IndexUnavailable `json:"unavailable,omitempty"`
}

// IndexTopic is one topic with what answers it.
type IndexTopic struct {
	ID        string       `json:"id"`
	Title     string       `json:"title"`
	Scope     string       `json:"scope"`
	Summary   string       `json:"summary"`
	Documents []IndexItem  `json:"documents,omitempty"`
	Skills    []IndexSkill `json:"skills,omitempty"`
	Tools     []string     `json:"tools"`
}

// IndexItem names one resource or template.
type IndexItem struct {
	URI   string `json:"uri"`
	Title string `json:"title"`
	About string `json:"about,omitempty"`
}

// IndexSkill is a skill with its reference pages.
type IndexSkill struct {
	IndexItem
	References []IndexItem `json:"references"`
}

// buildIndex writes the index body into its entry, which from then on is
// served like any embedded entry. New calls it once every entry is known.
func (t *Table) buildIndex() error {
	i, ok := t.byURI[IndexURI]
	if !ok {
		return nil
	}
	body, err := json.MarshalIndent(t.index(), "", "  ")
	if err != nil {
		return fmt.Errorf("resources: the index does not marshal: %w", err)
	}
	e := &t.entries[i]
	e.Kind, e.Reader, e.Body, e.Size = Embedded, "", string(body)+"\n", int64(len(body)+1)
	e.Digest = Digest([]byte(e.Body))
	return nil
}

func (t *Table) index() Index {
	at := func(uri string) (Entry, bool) {
		i, ok := t.byURI[uri]
		if !ok {
			return Entry{}, false
		}
		return t.entries[i], true
	}
	idx := Index{Purpose: t.scope.Purpose, Coverage: t.scope.Coverage, ReadFirst: []string{IndexURI}, Unavailable: t.unavailable()}
	// The first skill served is read next, whether or not an exclusion
	// dropped its topic: a skill is served as published, like a document.
	for _, top := range t.scope.Topics {
		for _, id := range top.Skills {
			if _, ok := at("skill://" + id + "/SKILL.md"); ok && len(idx.ReadFirst) == 1 {
				idx.ReadFirst = append(idx.ReadFirst, "skill://"+id+"/SKILL.md")
			}
		}
	}
	for _, top := range t.scope.Topics {
		var tools []string
		for _, name := range top.Tools {
			if !t.excluded[name] {
				tools = append(tools, name)
			}
		}
		if len(tools) == 0 {
			continue // nothing left can answer it
		}
		it := IndexTopic{ID: top.ID, Title: top.Title, Scope: top.Scope, Summary: top.Summary, Tools: tools}
		for _, id := range top.Documents {
			if e, ok := at("knowledge://documents/" + id); ok {
				it.Documents = append(it.Documents, IndexItem{URI: e.URI, Title: e.Title})
			}
		}
		for _, id := range top.Skills {
			e, ok := at("skill://" + id + "/SKILL.md")
			if !ok {
				continue
			}
			s := IndexSkill{IndexItem: IndexItem{URI: e.URI, Title: e.Title, About: e.Description}, References: []IndexItem{}}
			prefix := "skill://" + id + "/references/"
			for _, r := range t.entries {
				if strings.HasPrefix(r.URI, prefix) && !r.Template {
					s.References = append(s.References, IndexItem{URI: r.URI, Title: r.Title})
				}
			}
			slices.SortFunc(s.References, func(a, b IndexItem) int { return strings.Compare(a.URI, b.URI) })
			it.Skills = append(it.Skills, s)
		}
		idx.Topics = append(idx.Topics, it)
	}
	for _, e := range t.entries {
		if e.Hidden || e.Kind != Runtime || e.Reader == indexReader || e.Template {
			continue
		}
		idx.Live = append(idx.Live, IndexItem{URI: e.URI, Title: e.Title})
	}
	for _, e := range t.entries {
		if e.Template && !e.Hidden {
			idx.Templates = append(idx.Templates, IndexItem{URI: e.URI, Title: e.Title, About: e.Description})
		}
	}
	return idx
}
