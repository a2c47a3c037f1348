// Package surface decides, per request, which surface a caller gets:
// native resources or the list_resources/read_resource mirror, and the MCP
// App tool or not.
//
// The decision, in order: an explicit setting (the ?resources= query or
// X-MCP-Resources header over HTTP, --resources on stdio) wins; else the
// client's clientInfo name is looked up in NoResourceReaders; else resources
// are assumed readable. clientInfo comes from the initialize handshake, held
// for the transport session, or from a request's _meta on protocol
// generations that carry it there; both are merged.
package surface

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// NoResourceReaders are the clients whose models cannot read MCP resources,
// by clientInfo name. VS Code lists resources for the person to attach but
// gives its model no tool to read them, so its model gets the mirror.
var NoResourceReaders = []string{
	"Visual Studio Code",
	"Visual Studio Code - Insiders",
}

// AppsExtension is the MCP Apps extension a client declares in its
// capabilities when it can draw ui:// resources.
const AppsExtension = "io.modelcontextprotocol/ui"

// Setting is an explicit choice of surface.
type Setting int

const (
	// Auto decides by clientInfo.
	Auto Setting = iota
	// On serves native resources; the mirror is hidden.
	On
	// Off offers the mirror tools.
	Off
)

func (s Setting) String() string {
	switch s {
	case On:
		return "on"
	case Off:
		return "off"
	}
	return "auto"
}

// ParseSetting reads on, off or auto (and the empty string as auto).
func ParseSetting(v string) (Setting, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "auto":
		return Auto, nil
	case "on", "true", "1":
		return On, nil
	case "off", "false", "0":
		return Off, nil
	}
	return Auto, fmt.Errorf("resources setting %q is not valid; use on, off or auto", v)
}

type settingKey struct{}

type clientKey struct{}

// WithClient records what a client said of itself at initialize, for a
// request whose transport session this process did not initialize (it
// was, on another replica); FromContext uses it when the session has none.
func WithClient(ctx context.Context, info mcp.Implementation, caps mcp.ClientCapabilities) context.Context {
	return context.WithValue(ctx, clientKey{}, Caller{Info: info, Capabilities: caps})
}

// WithSetting records an explicit setting for the request.
func WithSetting(ctx context.Context, s Setting) context.Context {
	if s == Auto {
		return ctx
	}
	return context.WithValue(ctx, settingKey{}, s)
}

// SettingFrom returns the explicit setting recorded for the request.
func SettingFrom(ctx context.Context) Setting {
	s, _ := ctx.Value(settingKey{}).(Setting)
	return s
}

// Header is the HTTP header that sets the surface, beside the ?resources= query.
const Header = "X-MCP-Resources"

// SettingFromRequest reads ?resources= first, then the header.
func SettingFromRequest(r *http.Request) (Setting, error) {
	if v := r.URL.Query().Get("resources"); v != "" {
		return ParseSetting(v)
	}
	return ParseSetting(r.Header.Get(Header))
}

// Caller is who is calling, as far as the request says.
type Caller struct {
	Info         mcp.Implementation
	Capabilities mcp.ClientCapabilities
	Setting      Setting
}

// FromContext merges what the transport session holds (initialize) with what
// the request itself carries (_meta on the stateless protocol).
func FromContext(ctx context.Context) Caller {
	c := Caller{Setting: SettingFrom(ctx)}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		c.Info = s.GetClientInfo()
		c.Capabilities = s.GetClientCapabilities()
	}
	if c.Info.Name == "" {
		// A transport session initialized on another replica: this
		// process's session has no clientInfo, the shared store has.
		if k, ok := ctx.Value(clientKey{}).(Caller); ok {
			c.Info, c.Capabilities = k.Info, k.Capabilities
		}
	}
	if p := server.RequestProtocolInfoFromContext(ctx); p != nil {
		if p.ClientInfo != nil && p.ClientInfo.Name != "" {
			c.Info = *p.ClientInfo
		}
		if p.ClientCapabilities != nil {
			c.Capabilities = *p.ClientCapabilities
		}
	}
	return c
}

// ReadsResources reports whether the caller's model can read resources.
func (c Caller) ReadsResources() bool {
	switch c.Setting {
	case On:
		return true
	case Off:
		return false
	}
	return !slices.Contains(NoResourceReaders, c.Info.Name)
}

// HasApps reports whether the caller's host draws MCP Apps.
func (c Caller) HasApps() bool {
	_, ok := c.Capabilities.Extensions[AppsExtension]
	return ok
}
