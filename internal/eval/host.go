package eval

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// Conn is the part of an MCP client the harness uses; mcp-go's
// *client.Client is one.
type Conn interface {
	ListTools(ctx context.Context, req mcp.ListToolsRequest) (*mcp.ListToolsResult, error)
	CallTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)
	ListResourcesByPage(ctx context.Context, req mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error)
	ListResourceTemplatesByPage(ctx context.Context, req mcp.ListResourceTemplatesRequest) (*mcp.ListResourceTemplatesResult, error)
	ReadResource(ctx context.Context, req mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error)
}

// The host's own resource tools, offered when resources are on, as a chat
// host that reads MCP resources offers them to its model.
const (
	ListResourcesTool = "list_mcp_resources"
	ListTemplatesTool = "list_mcp_resource_templates"
	ReadResourceTool  = "read_mcp_resource"
)

// readTools are the calls that read a resource by its uri argument: the
// host's, and the server's mirror.
var readTools = []string{ReadResourceTool, "read_resource"}

// CutAt is the size of text a tool result may hand the model; longer text
// is cut in the middle and saved whole to a file the result names.
const CutAt = 20 * 1024

// maxPages bounds a listing, beside the guard against a repeated cursor.
const maxPages = 1000

// Host is what a chat host gives the model: the server's tools, and when
// resources are on, its own tools for the server's resources. ui://
// resources are app shells a host draws; they are never offered to the model.
type Host struct {
	conn      Conn
	tools     []mcp.Tool
	resources bool
	dir       string
}

// NewHost lists the server's tools and makes the host. dir is where cut
// text and binary contents are saved, each in a file only its owner reads.
func NewHost(ctx context.Context, conn Conn, resources bool, dir string) (*Host, error) {
	res, err := conn.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	return &Host{conn: conn, tools: res.Tools, resources: resources, dir: dir}, nil
}

// ToolNames are the names offered to the model.
func (h *Host) ToolNames() []string {
	var out []string
	for _, s := range h.Specs() {
		out = append(out, s.Function.Name)
	}
	return out
}

// ReadOnly reports whether a call of the named tool leaves everything as it
// was: the host's resource tools, and a server tool whose own annotations
// say readOnlyHint. A tool that says nothing is not read-only.
func (h *Host) ReadOnly(name string) bool {
	if h.resources && slices.Contains([]string{ListResourcesTool, ListTemplatesTool, ReadResourceTool}, name) {
		return true
	}
	for _, t := range h.tools {
		if t.Name == name {
			return t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
		}
	}
	return false
}

// Offers reports whether the model was offered the named tool.
func (h *Host) Offers(name string) bool { return slices.Contains(h.ToolNames(), name) }

// Specs are the tools as the model is offered them.
func (h *Host) Specs() []ToolSpec {
	var out []ToolSpec
	for _, t := range h.tools {
		out = append(out, ToolSpec{Type: "function", Function: FunctionSpec{Name: t.Name, Description: t.Description, Parameters: parameters(t)}})
	}
	if !h.resources {
		return out
	}
	cursor := json.RawMessage(`{"type":"object","properties":{}}`)
	return append(out,
		ToolSpec{Type: "function", Function: FunctionSpec{Name: ListResourcesTool, Parameters: cursor,
			Description: "List the MCP server's resources: URI, name, title, description, type and size of each."}},
		ToolSpec{Type: "function", Function: FunctionSpec{Name: ListTemplatesTool, Parameters: cursor,
			Description: "List the MCP server's resource templates: URI templates to fill in before reading."}},
		ToolSpec{Type: "function", Function: FunctionSpec{Name: ReadResourceTool,
			Parameters:  json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string","description":"the resource URI"}},"required":["uri"]}`),
			Description: "Read one of the MCP server's resources by URI."}},
	)
}

// parameters is a tool's input schema as JSON, however it was declared.
func parameters(t mcp.Tool) json.RawMessage {
	if len(t.RawInputSchema) > 0 {
		return t.RawInputSchema
	}
	raw, err := json.Marshal(t.InputSchema)
	if err != nil || string(raw) == "null" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return raw
}

// errNotOffered is a call of a tool the model was not offered.
var errNotOffered = errors.New("not offered")

// Call runs one tool call and returns what the model is told. A refusal by
// the server is text for the model, not an error; the error is for calls
// the host could not make at all.
func (h *Host) Call(ctx context.Context, name string, args map[string]any) (string, error) {
	if h.resources {
		switch name {
		case ListResourcesTool:
			return h.listResources(ctx)
		case ListTemplatesTool:
			return h.listTemplates(ctx)
		case ReadResourceTool:
			uri, _ := args["uri"].(string)
			return h.readResource(ctx, uri)
		}
	}
	if !slices.ContainsFunc(h.tools, func(t mcp.Tool) bool { return t.Name == name }) {
		return "", fmt.Errorf("%s: %w; the tools are %s", name, errNotOffered, strings.Join(h.ToolNames(), ", "))
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := h.conn.CallTool(ctx, req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	var parts []string
	for _, c := range res.Content {
		switch x := c.(type) {
		case mcp.TextContent:
			parts = append(parts, x.Text)
		case mcp.ImageContent:
			parts = append(parts, h.saveBase64(name+" result", x.MIMEType, x.Data))
		case mcp.AudioContent:
			parts = append(parts, h.saveBase64(name+" result", x.MIMEType, x.Data))
		case mcp.EmbeddedResource:
			parts = append(parts, h.contents(x.Resource))
		case mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("resource link: %s (%s)", x.URI, x.Name))
		}
	}
	text := h.cut(strings.Join(parts, "\n"))
	if res.IsError {
		return "The call was refused: " + text, nil
	}
	return text, nil
}

type listedResource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

type listedTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// pages follows the server's opaque cursors from the first page to the
// last. A cursor the server already gave stops the listing with an error,
// since following it would loop.
func pages(ctx context.Context, page func(ctx context.Context, cursor mcp.Cursor) (mcp.Cursor, error)) error {
	seen := map[mcp.Cursor]bool{}
	var cursor mcp.Cursor
	for n := 1; ; n++ {
		next, err := page(ctx, cursor)
		if err != nil {
			return err
		}
		if next == "" {
			return nil
		}
		if seen[next] || next == cursor {
			return fmt.Errorf("the server gave cursor %q again after %d page(s); the listing stopped there so as not to loop", next, n)
		}
		if n >= maxPages {
			return fmt.Errorf("the listing stopped after %d pages", n)
		}
		seen[next] = true
		cursor = next
	}
}

func (h *Host) listResources(ctx context.Context) (string, error) {
	out := []listedResource{}
	err := pages(ctx, func(ctx context.Context, cursor mcp.Cursor) (mcp.Cursor, error) {
		req := mcp.ListResourcesRequest{}
		req.Params.Cursor = cursor
		res, err := h.conn.ListResourcesByPage(ctx, req)
		if err != nil {
			return "", fmt.Errorf("resources/list: %w", err)
		}
		for _, r := range res.Resources {
			if isUI(r.URI) {
				continue
			}
			var size int64
			if r.Size != nil {
				size = *r.Size
			}
			out = append(out, listedResource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: size})
		}
		return res.NextCursor, nil
	})
	if err != nil {
		return "", err
	}
	return h.json(map[string]any{"resources": out})
}

func (h *Host) listTemplates(ctx context.Context) (string, error) {
	out := []listedTemplate{}
	err := pages(ctx, func(ctx context.Context, cursor mcp.Cursor) (mcp.Cursor, error) {
		req := mcp.ListResourceTemplatesRequest{}
		req.Params.Cursor = cursor
		res, err := h.conn.ListResourceTemplatesByPage(ctx, req)
		if err != nil {
			return "", fmt.Errorf("resources/templates/list: %w", err)
		}
		for _, r := range res.ResourceTemplates {
			raw := ""
			if r.URITemplate != nil && r.URITemplate.Template != nil {
				raw = r.URITemplate.Raw()
			}
			if isUI(raw) {
				continue
			}
			out = append(out, listedTemplate{URITemplate: raw, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType})
		}
		return res.NextCursor, nil
	})
	if err != nil {
		return "", err
	}
	return h.json(map[string]any{"resourceTemplates": out})
}

func (h *Host) json(v any) (string, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", err
	}
	return h.cut(string(b)), nil
}

func isUI(uri string) bool { return strings.HasPrefix(strings.ToLower(uri), "ui://") }

func (h *Host) readResource(ctx context.Context, uri string) (string, error) {
	if uri == "" {
		return "", fmt.Errorf("%s needs a uri", ReadResourceTool)
	}
	if isUI(uri) {
		return "", fmt.Errorf("%s is an app shell for the host to draw; ui:// resources are not read by the model", uri)
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := h.conn.ReadResource(ctx, req)
	if err != nil {
		return "", fmt.Errorf("resources/read %s: %w", uri, err)
	}
	var parts []string
	for _, c := range res.Contents {
		parts = append(parts, h.contents(c))
	}
	return h.cut(strings.Join(parts, "\n")), nil
}

// contents is one resource content as the model is given it: text as text,
// binary saved to a file the text names.
func (h *Host) contents(c mcp.ResourceContents) string {
	switch x := c.(type) {
	case mcp.TextResourceContents:
		return x.Text
	case mcp.BlobResourceContents:
		return h.saveBase64(x.URI, x.MIMEType, x.Blob)
	}
	return ""
}

func (h *Host) saveBase64(what, mimeType, data string) string {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return fmt.Sprintf("%s is binary (%s) that is not valid base64: %v", what, mimeType, err)
	}
	ext := ".bin"
	if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 {
		ext = exts[0]
	}
	path, err := h.save("binary-*"+ext, b)
	if err != nil {
		return fmt.Sprintf("%s is binary (%s, %d bytes) and could not be saved: %v", what, mimeType, len(b), err)
	}
	return fmt.Sprintf("%s is binary (%s, %d bytes); it is saved at %s", what, mimeType, len(b), path)
}

// save writes a file only its owner can read and returns its path.
func (h *Host) save(pattern string, b []byte) (string, error) {
	f, err := os.CreateTemp(h.dir, pattern)
	if err != nil {
		return "", err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return "", err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return "", err
	}
	return f.Name(), f.Close()
}

// cut returns text no longer than CutAt as it is; longer text keeps its
// head and tail, and the middle is replaced by a line naming how much was
// cut and the file that holds the whole text.
func (h *Host) cut(text string) string {
	if len(text) <= CutAt {
		return text
	}
	head, tail := trimPartialEnd(text[:CutAt/2]), text[len(text)-CutAt/2:]
	for i := 0; i < utf8.UTFMax && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	note := ""
	if path, err := h.save("text-*.txt", []byte(text)); err == nil {
		note = fmt.Sprintf("[%d bytes cut from the middle; the full text is saved at %s]", len(text)-len(head)-len(tail), path)
	} else {
		note = fmt.Sprintf("[%d bytes cut from the middle; the full text could not be saved: %v]", len(text)-len(head)-len(tail), err)
	}
	return head + "\n\n" + note + "\n\n" + tail
}

// trimPartialEnd drops a rune the cut split at the end of s.
func trimPartialEnd(s string) string {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i]
			}
			return s
		}
	}
	return s
}
