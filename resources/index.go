package resources

import (
	"encoding/json"
	"slices"
	"strings"
)

// indexReader is the reader key of knowledge://index. The table builds the
// index itself, once, from its own entries and scope, so it always names
// exactly what is served and its declared size is exact.
const indexReader = "knowledge.index"

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

// buildIndex makes the index body once all readers are bound, on first use.
func (t *Table) buildIndex() {
	t.indexOnce.Do(func() {
		i, ok := t.byURI[IndexURI]
		if !ok {
			return
		}
		body, err := json.MarshalIndent(t.index(), "", "  ")
		if err != nil {
			panic("resources: the index does not marshal: " + err.Error())
		}
		e := &t.entries[i]
		e.Kind, e.Body, e.Size = Embedded, string(body)+"\n", int64(len(body)+1)
	})
}

func (t *Table) index() Index {
	at := func(uri string) (Entry, bool) {
		i, ok := t.byURI[uri]
		if !ok {
			return Entry{}, false
		}
		return t.entries[i], true
	}
	idx := Index{Purpose: t.scope.Purpose, Coverage: t.scope.Coverage, ReadFirst: []string{IndexURI}}
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
			if len(idx.ReadFirst) == 1 {
				idx.ReadFirst = append(idx.ReadFirst, e.URI)
			}
		}
		idx.Topics = append(idx.Topics, it)
	}
	for _, e := range t.entries {
		if e.Hidden || e.Kind != Runtime || e.Reader == indexReader || !t.served(e) {
			continue
		}
		if e.Template {
			continue
		}
		idx.Live = append(idx.Live, IndexItem{URI: e.URI, Title: e.Title})
	}
	for _, e := range t.entries {
		if e.Template && !e.Hidden && t.served(e) {
			idx.Templates = append(idx.Templates, IndexItem{URI: e.URI, Title: e.Title, About: e.Description})
		}
	}
	return idx
}
