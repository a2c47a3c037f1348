// Package skillsclient calls the Skills extension's methods (SEP-2640:
// skills/list, skills/get, resources/directory/read) through mcp-go's
// client, which has no method of its own for them. A request goes through
// the client's transport as the client's own requests do: on protocol
// 2026-07-28 with the _meta (protocol version, client info, capabilities)
// and the Mcp-Method header the client adds to every request; on the
// handshake generation in the session initialize opened.
package skillsclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Extension is the Skills extension's identifier.
const Extension = "io.modelcontextprotocol/skills"

// Skill is a skill entry.
type Skill struct {
	URI         string         `json:"uri"`
	Frontmatter map[string]any `json:"frontmatter"`
	Resources   []File         `json:"resources"`
}

// File is one file of a skill's manifest.
type File struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Page is what a paged method answers, with the fields 2026-07-28 adds.
type Page struct {
	NextCursor string          `json:"nextCursor,omitempty"`
	ResultType string          `json:"resultType,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope string          `json:"cacheScope,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// ListResult is skills/list's result.
type ListResult struct {
	Page
	Skills []Skill `json:"skills"`
}

// GetResult is skills/get's result.
type GetResult struct {
	Page
	Skill Skill `json:"skill"`
}

// DirectoryResult is resources/directory/read's result.
type DirectoryResult struct {
	Page
	Resources []mcp.Resource `json:"resources"`
}

// Error is a JSON-RPC error the server answered.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// Conn is a client and what it declared when it connected.
type Conn struct {
	Client       *client.Client
	Info         mcp.Implementation
	Capabilities mcp.ClientCapabilities
}

// ids start far above the client's own, so the transport never pairs a
// response with the wrong request.
var ids atomic.Int64

func init() { ids.Store(1 << 40) }

// Call sends method with params and decodes the result into out. A
// JSON-RPC error is returned as *Error.
func (c Conn) Call(ctx context.Context, method string, params map[string]any, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	var header http.Header
	if v := c.Client.ProtocolVersion(); mcp.IsModernProtocol(v) {
		meta := map[string]any{
			mcp.MetaKeyProtocolVersion:    v,
			mcp.MetaKeyClientCapabilities: c.Capabilities,
		}
		if c.Info.Name != "" {
			meta[mcp.MetaKeyClientInfo] = c.Info
		}
		params["_meta"] = meta
		raw, _ := json.Marshal(params)
		header = http.Header{}
		for k, val := range mcp.StandardHeaders(v, mcp.MCPMethod(method), raw) {
			header.Set(k, val)
		}
	}
	resp, err := c.Client.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(ids.Add(1)),
		Method:  method,
		Params:  params,
		Header:  header,
	})
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return &Error{Code: resp.Error.Code, Message: resp.Error.Message}
	}
	return json.Unmarshal(resp.Result, out)
}

// List pages through skills/list.
func (c Conn) List(ctx context.Context) ([]Skill, []ListResult, error) {
	var all []Skill
	var pages []ListResult
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page ListResult
		if err := c.Call(ctx, "skills/list", params, &page); err != nil {
			return nil, nil, err
		}
		pages = append(pages, page)
		all = append(all, page.Skills...)
		if page.NextCursor == "" {
			return all, pages, nil
		}
		cursor = page.NextCursor
	}
}

// Get calls skills/get.
func (c Conn) Get(ctx context.Context, uri string) (GetResult, error) {
	var r GetResult
	err := c.Call(ctx, "skills/get", map[string]any{"uri": uri}, &r)
	return r, err
}

// Directory pages through resources/directory/read of one directory.
func (c Conn) Directory(ctx context.Context, uri string) ([]mcp.Resource, int, error) {
	var all []mcp.Resource
	cursor, pages := "", 0
	for {
		params := map[string]any{"uri": uri}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page DirectoryResult
		if err := c.Call(ctx, "resources/directory/read", params, &page); err != nil {
			return nil, pages, err
		}
		pages++
		all = append(all, page.Resources...)
		if page.NextCursor == "" {
			return all, pages, nil
		}
		cursor = page.NextCursor
	}
}
