package resources

import (
	"encoding/json"
	"slices"
)

// Excluded tools (Config.ExcludedTools, FLOW_EXCLUDE_TOOLS). What the server
// composes — an entry's title and description, flow://schema, the index —
// never names an excluded tool: an entry whose text names one
// (Entry.Tools) is not served, flow://schema lists only the step tools
// left, and the index drops the topics nothing left answers. Published
// pages (documents and skills) stay as written; the index says which
// tools, and which resources with them, this server does not offer, so a
// page that names one is understood.

// FlowSchemaURI is the flow document schema's resource.
const FlowSchemaURI = "flow://schema"

// excludeEntries drops the entries whose text names an excluded tool and
// narrows the flow schema to the tools left. New calls it once the
// exclusions are known.
func (t *Table) excludeEntries() error {
	if len(t.excluded) == 0 {
		return nil
	}
	t.entries = slices.DeleteFunc(t.entries, func(e Entry) bool {
		if slices.ContainsFunc(e.Tools, t.Excluded) {
			t.withdrawn = append(t.withdrawn, e.URI)
			return true
		}
		return false
	})
	slices.Sort(t.withdrawn)
	for i, e := range t.entries {
		if e.URI != FlowSchemaURI || e.Kind != Embedded {
			continue
		}
		body, err := FlowSchema([]byte(e.Body), t.ExcludedTools())
		if err != nil {
			return err
		}
		t.entries[i].Body, t.entries[i].Size, t.entries[i].Digest = string(body), int64(len(body)), Digest(body)
	}
	return nil
}

// ExcludedTools lists the excluded tools, sorted.
func (t *Table) ExcludedTools() []string {
	out := make([]string, 0, len(t.excluded))
	for n := range t.excluded {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Withdrawn lists the resources and templates not served because their
// text names an excluded tool.
func (t *Table) Withdrawn() []string { return slices.Clone(t.withdrawn) }

// FlowSchema returns the flow document schema with the excluded tools
// taken out of the step tool enum; with none excluded it is body as
// published. The flow store validates with the same schema the resource
// serves.
func FlowSchema(body []byte, excluded []string) ([]byte, error) {
	if len(excluded) == 0 {
		return body, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	enum := dig(doc, "properties", "steps", "items", "properties", "tool")
	if vals, ok := enum["enum"].([]any); ok {
		enum["enum"] = slices.DeleteFunc(vals, func(v any) bool {
			s, _ := v.(string)
			return slices.Contains(excluded, s)
		})
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// dig walks nested JSON objects by key; a missing key gives an empty map.
func dig(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return map[string]any{}
		}
		m = next
	}
	return m
}

// unavailableNote is what the index says about excluded tools.
func (t *Table) unavailable() *IndexUnavailable {
	if len(t.excluded) == 0 {
		return nil
	}
	return &IndexUnavailable{
		Tools:     t.ExcludedTools(),
		Resources: t.Withdrawn(),
		Prompts:   slices.Clone(t.prompts),
		Note: "The operator left these tools out of this server (FLOW_EXCLUDE_TOOLS), with the resources and prompts that need them. " +
			"A document or skill that names one describes what this server does not offer: say so rather than working around it.",
	}
}

// IndexUnavailable is the index's account of what an exclusion took away.
type IndexUnavailable struct {
	Tools     []string `json:"tools"`
	Resources []string `json:"resources,omitempty"`
	Prompts   []string `json:"prompts,omitempty"`
	Note      string   `json:"note"`
}
