package resources

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// MirrorPageSize is how many entries one list_resources page holds.
const MirrorPageSize = 16

// MirrorItem is one entry as list_resources shows it: the same URI, title,
// description, type, size and priority as the native list.
type MirrorItem struct {
	URI         string  `json:"uri,omitempty"`
	URITemplate string  `json:"uriTemplate,omitempty"`
	Name        string  `json:"name"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	MIMEType    string  `json:"mimeType,omitempty"`
	Size        int64   `json:"size,omitempty"`
	Priority    float64 `json:"priority"`
}

// MirrorPage is one page of list_resources.
type MirrorPage struct {
	Resources  []MirrorItem `json:"resources"`
	NextCursor string       `json:"nextCursor,omitempty"`
}

// mirrored lists what the mirror offers: what resources/list lists, but
// hidden entries.
func (t *Table) mirrored() []Entry {
	var out []Entry
	for _, e := range t.Entries() {
		if !e.Hidden && !e.Unlisted {
			out = append(out, e)
		}
	}
	return out
}

// MirrorList returns one page of the mirror listing. The cursor is opaque: it
// names the offset and the entry found there, so a cursor from another
// listing is refused instead of silently skipping entries.
func (t *Table) MirrorList(cursor string) (MirrorPage, error) {
	all := t.mirrored()
	start := 0
	if cursor != "" {
		var err error
		if start, err = decodeCursor(cursor, all); err != nil {
			return MirrorPage{}, err
		}
	}
	end := min(start+MirrorPageSize, len(all))
	page := MirrorPage{Resources: make([]MirrorItem, 0, end-start)}
	for _, e := range all[start:end] {
		it := MirrorItem{Name: e.Name, Title: e.Title, Description: e.Description, MIMEType: e.MIMEType, Size: e.Size, Priority: e.Priority}
		if e.Template {
			it.URITemplate = e.URI
		} else {
			it.URI = e.URI
		}
		page.Resources = append(page.Resources, it)
	}
	if end < len(all) {
		page.NextCursor = encodeCursor(end, all[end].Name)
	}
	return page, nil
}

func encodeCursor(offset int, name string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + ":" + name))
}

func decodeCursor(c string, all []Entry) (int, error) {
	bad := fmt.Errorf("cursor %q is not one list_resources gave; call list_resources without a cursor to start from the first page", c)
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, bad
	}
	off, name, ok := strings.Cut(string(raw), ":")
	n, err := strconv.Atoi(off)
	if !ok || err != nil || n < 0 || n >= len(all) || all[n].Name != name {
		return 0, bad
	}
	return n, nil
}

// MirrorListResult is list_resources as a tool result: the page as JSON text
// and as structured content.
func (t *Table) MirrorListResult(cursor string) (*mcp.CallToolResult, error) {
	page, err := t.MirrorList(cursor)
	if err != nil {
		return nil, err
	}
	body, _ := json.MarshalIndent(page, "", "  ")
	return mcp.NewToolResultStructured(page, string(body)), nil
}

// MirrorReadResult is read_resource as a tool result: text as text, an image
// as image content, any other binary described (type, size, link) and never
// sent as base64.
func (t *Table) MirrorReadResult(ctx context.Context, uri string) (*mcp.CallToolResult, error) {
	if strings.HasPrefix(uri, "ui://") {
		return nil, fmt.Errorf("%s is an app shell that hosts draw; it is not read as a resource. To show a resource to the person, call show with its URI; to read one, call read_resource with a URI from list_resources", uri)
	}
	if e, _, ok := t.Match(uri); ok && e.Hidden {
		return nil, t.notFound(ctx, uri)
	}
	c, err := t.Read(ctx, uri)
	if err != nil {
		return nil, err
	}
	switch {
	case c.IsText():
		return mcp.NewToolResultText(c.Text), nil
	case strings.HasPrefix(c.MIMEType, "image/"):
		return &mcp.CallToolResult{Content: []mcp.Content{
			mcp.NewTextContent(fmt.Sprintf("%s (%s, %d bytes):", uri, c.MIMEType, len(c.Blob))),
			mcp.NewImageContent(base64.StdEncoding.EncodeToString(c.Blob), c.MIMEType),
		}}, nil
	default:
		return mcp.NewToolResultText(DescribeBinary(c)), nil
	}
}

// DescribeBinary is the sentence that stands in for binary content a model
// cannot use.
func DescribeBinary(c Content) string {
	s := fmt.Sprintf("%s is %s, %d bytes; binary content is not shown here.", c.URI, c.MIMEType, len(c.Blob))
	if c.Link != "" {
		s += " A person can fetch it at " + c.Link + "."
	}
	return s
}
