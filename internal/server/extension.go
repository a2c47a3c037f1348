package server

// The Skills extension (SEP-2640) and resources/read's refusals, on the
// wire.
//
// mcp-go v1.2.1 dispatches only the methods it knows: WithExtensions
// advertises an extension, but skills/list, skills/get and
// resources/directory/read would get "method not found". And a resource
// handler's error is always -32603 there, where a resources/read of a URI
// the server does not answer is -32002 (resource not found) on the
// handshake generation and -32602 on 2026-07-28. So every transport puts a
// thin layer in front of MCPServer.HandleMessage (layer.go: stdio, the
// Streamable HTTP endpoint, and the in-process transport). The layer
// answers the extension's three methods itself, from the resource table,
// and hands resources/read to HandleMessage, correcting only the code of a
// refusal; every other message goes to HandleMessage untouched.
//
// The layer sees a request as HandleMessage would: the context carries
// the transport's session (clientInfo from initialize), the principal
// (auth: stdio is local, HTTP the bearer token's), the surface setting,
// and the protocol generation, read from the request's _meta exactly as
// mcp-go reads it (mcpserver.RequestProtocolInfo). Results on 2026-07-28
// carry resultType, serverInfo and the caching hints mcp-go gives its own
// lists; errors are JSON-RPC errors of the codes the extension's text
// gives: -32602 for a URI that is no skill or no directory, a bad cursor
// or a missing or mistyped parameter.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/resources"
)

// The extension's methods.
const (
	MethodSkillsList    = "skills/list"
	MethodSkillsGet     = "skills/get"
	MethodDirectoryRead = "resources/directory/read"
)

// extensionMethods are the methods the layer answers itself.
var extensionMethods = []string{MethodSkillsList, MethodSkillsGet, MethodDirectoryRead}

// ListSkillsResult is skills/list's result.
type ListSkillsResult struct {
	mcp.PaginatedResult
	Skills []resources.Skill `json:"skills"`
}

// GetSkillResult is skills/get's result.
type GetSkillResult struct {
	mcp.CacheableResult
	Skill resources.Skill `json:"skill"`
}

// ReadDirectoryResult is resources/directory/read's result.
type ReadDirectoryResult struct {
	mcp.PaginatedResult
	Resources []mcp.Resource `json:"resources"`
}

// skillsCapability is the extension's entry in capabilities.extensions.
func skillsCapability() map[string]any {
	return map[string]any{resources.SkillsExtension: map[string]any{"directoryRead": true}}
}

// registry holds the transport sessions mcp-go registered, by ID, so that
// a Streamable HTTP request on the handshake generation finds its session
// (and the clientInfo initialize gave it) as mcp-go would.
type registry struct{ m sync.Map }

func (ss *registry) hooks(h *mcpserver.Hooks) {
	h.AddOnRegisterSession(func(_ context.Context, s mcpserver.ClientSession) { ss.m.Store(s.SessionID(), s) })
	h.AddOnUnregisterSession(func(_ context.Context, s mcpserver.ClientSession) { ss.m.Delete(s.SessionID()) })
}

func (ss *registry) get(id string) (mcpserver.ClientSession, bool) {
	v, ok := ss.m.Load(id)
	if !ok {
		return nil, false
	}
	return v.(mcpserver.ClientSession), true
}

// request is the envelope of one JSON-RPC message.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// peek reads a message's envelope; ok is false for anything that is not
// a request (a notification, a response, a batch, bad JSON).
func peek(raw []byte) (request, bool) {
	var r request
	if json.Unmarshal(raw, &r) != nil || r.ID == nil || r.Method == "" {
		return r, false
	}
	return r, true
}

// ours reports whether the layer answers a request's method: the
// extension's, when the server serves skills, and resources/read.
func (s *Server) ours(method string) bool {
	return method == string(mcp.MethodResourcesRead) || (s.table.HasSkills() && slices.Contains(extensionMethods, method))
}

// protocolInfo reads the request's generation from its _meta, as mcp-go
// does; a malformed modern request is refused.
func protocolInfo(params json.RawMessage) (*mcpserver.RequestProtocolInfo, *mcp.JSONRPCErrorDetails) {
	var wrapper struct {
		Meta *mcp.Meta `json:"_meta"`
	}
	_ = json.Unmarshal(params, &wrapper)
	version := wrapper.Meta.ProtocolVersion()
	if !mcp.IsModernProtocol(version) {
		return &mcpserver.RequestProtocolInfo{ProtocolVersion: version}, nil
	}
	if !mcp.IsValidProtocolVersion(version) {
		e := mcp.UnsupportedProtocolVersionError{Version: version, Supported: mcp.ValidProtocolVersions}.JSONRPCError().Error
		return nil, &e
	}
	caps := wrapper.Meta.ClientCapabilities()
	if caps == nil {
		return nil, &mcp.JSONRPCErrorDetails{Code: mcp.INVALID_PARAMS, Message: "missing or invalid _meta field " + mcp.MetaKeyClientCapabilities}
	}
	return &mcpserver.RequestProtocolInfo{
		Modern:             true,
		ProtocolVersion:    version,
		ClientInfo:         wrapper.Meta.ClientInfo(),
		ClientCapabilities: caps,
		LogLevel:           wrapper.Meta.LogLevel(),
	}, nil
}

// handleMessage answers one message for a transport: the layer's methods
// here, everything else by HandleMessage. ctx is what the transport would
// give HandleMessage.
func (s *Server) handleMessage(ctx context.Context, raw []byte) mcp.JSONRPCMessage {
	req, ok := peek(raw)
	if !ok || !s.ours(req.Method) || req.JSONRPC != mcp.JSONRPC_VERSION {
		return s.mcp.HandleMessage(ctx, raw)
	}
	return s.answer(ctx, req, raw)
}

// answer answers a request the layer owns.
func (s *Server) answer(ctx context.Context, req request, raw []byte) mcp.JSONRPCMessage {
	info, perr := protocolInfo(req.Params)
	if perr != nil {
		return rpcError(req.ID, perr.Code, perr.Message)
	}
	ctx = mcpserver.WithRequestProtocolInfo(ctx, info)
	if req.Method == string(mcp.MethodResourcesRead) {
		return s.read(ctx, req, raw)
	}
	result, err := s.extension(ctx, req)
	if err != nil {
		code := mcp.INTERNAL_ERROR
		if errors.Is(err, resources.ErrInvalid) {
			code = mcp.INVALID_PARAMS
		}
		return rpcError(req.ID, code, s.scrub.Text(err))
	}
	if info.Modern {
		decorate(result)
	}
	return mcp.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(req.ID), Result: result}
}

// read hands resources/read to HandleMessage and, when the table refused
// the URI as not found, gives the refusal the code the request's
// generation specifies: -32002 (resource not found) on the handshake,
// -32602 on 2026-07-28. The sentence stays the table's.
func (s *Server) read(ctx context.Context, req request, raw []byte) mcp.JSONRPCMessage {
	ctx, missed := resources.RecordMiss(ctx)
	resp := s.mcp.HandleMessage(ctx, raw)
	e, ok := resp.(mcp.JSONRPCError)
	if !ok || missed() == nil {
		return resp
	}
	e.Error.Code = mcp.RESOURCE_NOT_FOUND
	if mcpserver.IsModernRequest(ctx) {
		e.Error.Code = mcp.INVALID_PARAMS
	}
	return e
}

// extension answers skills/list, skills/get and resources/directory/read.
func (s *Server) extension(_ context.Context, req request) (any, error) {
	var p struct {
		URI    *json.RawMessage `json:"uri"`
		Cursor *json.RawMessage `json:"cursor"`
	}
	if len(req.Params) > 0 && string(req.Params) != "null" {
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, invalidf("%s takes params as an object, e.g. %s", req.Method, example(req.Method))
		}
	}
	cursor, err := stringParam(req.Method, "cursor", p.Cursor, false)
	if err != nil {
		return nil, err
	}
	switch req.Method {
	case MethodSkillsList:
		skills, next, err := s.table.Skills(cursor)
		if err != nil {
			return nil, err
		}
		r := &ListSkillsResult{Skills: skills}
		r.NextCursor = mcp.Cursor(next)
		return r, nil
	case MethodSkillsGet:
		uri, err := stringParam(req.Method, "uri", p.URI, true)
		if err != nil {
			return nil, err
		}
		skill, err := s.table.Skill(uri)
		if err != nil {
			return nil, err
		}
		return &GetSkillResult{Skill: skill}, nil
	default: // MethodDirectoryRead
		uri, err := stringParam(req.Method, "uri", p.URI, true)
		if err != nil {
			return nil, err
		}
		children, next, err := s.table.Directory(uri, cursor)
		if err != nil {
			return nil, err
		}
		r := &ReadDirectoryResult{Resources: children}
		r.NextCursor = mcp.Cursor(next)
		return r, nil
	}
}

// stringParam reads a string parameter; a missing required one and one of
// another type are refused with a sentence that shows a call that works.
func stringParam(method, name string, raw *json.RawMessage, required bool) (string, error) {
	if raw == nil || string(*raw) == "null" {
		if required {
			return "", invalidf("%s needs params.%s, a string: %s", method, name, example(method))
		}
		return "", nil
	}
	var v string
	if err := json.Unmarshal(*raw, &v); err != nil {
		return "", invalidf("%s's params.%s is %s, not a string: %s", method, name, *raw, example(method))
	}
	return v, nil
}

// example is a call of method that works.
func example(method string) string {
	switch method {
	case MethodSkillsGet:
		return `{"uri": "skill://selenium-flow/SKILL.md"} (skills/list lists every skill)`
	case MethodDirectoryRead:
		return `{"uri": "knowledge://documents"} (a skill's directory is its SKILL.md URI without /SKILL.md)`
	}
	return `{} for the first page, then {"cursor": "<nextCursor of the page before>"}`
}

func invalidf(format string, args ...any) error {
	return &resources.InvalidError{Msg: fmt.Sprintf(format, args...)}
}

// decorate stamps a result for protocol 2026-07-28 as mcp-go stamps its
// own lists: resultType, the server's identity, and the caching hints
// (mcp-go's defaults: no freshness promised, private to the caller).
func decorate(result any) {
	if m, ok := result.(mcp.ResultMetadata); ok {
		m.SetResultType(mcp.ResultTypeComplete)
		m.EnsureResultMeta().SetServerInfo(serverInfo())
	}
	if c, ok := result.(mcp.CacheHintSetter); ok {
		c.SetCacheHints(0, mcp.CacheScopePrivate)
	}
}

func rpcError(id any, code int, message string) mcp.JSONRPCMessage {
	return mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Error: mcp.JSONRPCErrorDetails{Code: code, Message: message}}
}
