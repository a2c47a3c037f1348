// Package server wires selenium-flow together: it opens the stores, builds
// the tool families and the resource table (with every runtime reader,
// readers.go), puts every tool behind one middleware chain that tools/call
// and flow steps share, decides per request which surface a caller gets
// (internal/surface), and serves the stdio and Streamable HTTP transports
// (with run_flow's progress delivery, progress.go) and the HTTP read API.
package server

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/trace"

	"github.com/selenium-flow/selenium-flow/internal/admin"
	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/config"
	"github.com/selenium-flow/selenium-flow/internal/egress"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/internal/telemetry"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
	"github.com/selenium-flow/selenium-flow/resources"
	"github.com/selenium-flow/selenium-flow/tools"
)

// Name is the server's name in serverInfo.
const Name = "selenium-flow"

// Version is set at build time with -ldflags "-X .../internal/server.Version=…".
var Version = "dev"

// Config is everything the server is started with. The zero value serves
// the knowledge surface with every default.
type Config struct {
	// Resources is the surface for callers who do not choose one per request.
	Resources surface.Setting
	// ExcludeTools are tool names left out of the tool list (FLOW_EXCLUDE_TOOLS).
	ExcludeTools []string
	// Tokens authenticate HTTP callers; with none and no OIDC every HTTP
	// request is the local caller, which cmd allows on loopback only.
	Tokens *auth.Tokens
	// OIDC accepts bearer JWTs from an identity provider beside Tokens
	// (FLOW_OIDC_*); none when its Issuer is empty.
	OIDC auth.OIDCConfig
	// DataDir holds every caller's kept files and flows (FLOW_DATA_DIR);
	// DefaultDataDir when empty.
	DataDir string
	// FlowLibraryDir is the read-only flow library every caller can run
	// and only an operator can change (FLOW_LIBRARY_DIR); DataDir's
	// flow-library folder when empty.
	FlowLibraryDir string
	// SeleniumURL is a Selenium Grid 4 or other W3C endpoint; a local
	// chromedriver is started when empty.
	SeleniumURL string
	// IdleTimeout closes a caller's browser nobody used for this long
	// (FLOW_IDLE_TIMEOUT); sessions.DefaultIdleTimeout when zero.
	IdleTimeout time.Duration
	// AllowedHosts are the Host names the HTTP server answers for besides
	// the loopback names (FLOW_ALLOWED_HOSTS); a server reached on a
	// non-loopback address with none set answers for any (tokens guard it).
	AllowedHosts []string
	// AllowedOrigins are the browser origins, e.g. https://app.example.com,
	// that may call the HTTP server besides its own (FLOW_ALLOWED_ORIGINS).
	AllowedOrigins []string
	// BrowserArgs are extra Chromium command-line arguments for every
	// browser the server opens (FLOW_BROWSER_ARGS): a closed network's
	// host-resolver rules, a proxy. None by default: a user's browser
	// resolves localhost, intranet and public names.
	BrowserArgs []string
	// BrowserDeny are address ranges no local browser may connect to,
	// besides the server's own ports and link-local addresses, which are
	// always closed (FLOW_BROWSER_DENY); see package egress.
	BrowserDeny []netip.Prefix
	// BrowserAllow opens ranges a default would close, such as a
	// link-local device (FLOW_BROWSER_ALLOW). It never opens the server's
	// own ports.
	BrowserAllow []netip.Prefix
	// ListenPorts are the ports the server listens on, closed to its
	// browsers like the driver's: a page cannot call the server as the
	// server's own browser.
	ListenPorts []int
	// NoScripts leaves out execute_script (FLOW_NO_SCRIPTS=1), for
	// operators who forbid running a caller's JavaScript in the page: it is
	// then neither listed nor callable, nor a flow step.
	NoScripts bool
	// Secrets are where the secret catalogue is loaded from (FLOW_SECRETS,
	// FLOW_SECRETS_DIR, FLOW_SECRET_* variables); none when zero.
	Secrets secrets.Sources
	// AdminFrameAncestors are the CSP frame-ancestors sources of the admin
	// page (FLOW_ADMIN_FRAME_ANCESTORS); 'none' when empty.
	AdminFrameAncestors string
	// Logger receives one line per tool call and per HTTP request
	// (observe.go); slog.Default() when nil.
	Logger *slog.Logger
	// TracerProvider makes the spans of MCP requests, tool calls and
	// WebDriver commands (telemetry.Tracing); none are made when nil.
	TracerProvider trace.TracerProvider
	// MetricsPublic serves GET /metrics without a token
	// (FLOW_METRICS_PUBLIC=1); by default it needs one like every path.
	MetricsPublic bool
	// Settings are the effective settings with their sources, secrets
	// masked (config.Config.Settings), for the admin page's Settings view.
	Settings []config.Shown
	// PublicURL is the server's address as callers reach it, e.g.
	// https://flows.example.com (FLOW_PUBLIC_URL): links to kept files are
	// made absolute with it, and offered over stdio too.
	PublicURL string
	// LinkKey signs links to kept files (FLOW_LINK_KEY); when empty a
	// random key is kept in DataDir, shared by replicas of the folder.
	LinkKey string
	// LinkTTL is how long a link to a kept file works (LINK_TTL);
	// links.DefaultTTL when zero.
	LinkTTL time.Duration
	// Store keeps every workspace's record (FLOW_STORE): "" for the
	// embedded store under DataDir, redis://host:port/db for Redis, which
	// several replicas share. StorePrefix starts its keys
	// (FLOW_STORE_PREFIX) and WorkspaceTTL is how long an unused workspace
	// is kept (FLOW_WORKSPACE_TTL); see package workspaces.
	Store        string
	StorePrefix  string
	WorkspaceTTL time.Duration
	// TableOptions, when set, adjusts the resource table's configuration
	// before it is built (tests serve one without skills, or small pages).
	TableOptions func(*resources.Config)
}

// DefaultDataDir is the user's data directory for selenium-flow:
// $XDG_DATA_HOME/selenium-flow, else ~/.local/share/selenium-flow.
func DefaultDataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "selenium-flow"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for the data folder; set FLOW_DATA_DIR: %w", err)
	}
	return filepath.Join(home, ".local", "share", "selenium-flow"), nil
}

// Server is a configured selenium-flow server, ready for a transport.
type Server struct {
	cfg      Config
	table    *resources.Table
	mcp      *mcpserver.MCPServer
	tools    []tools.Tool
	secrets  *secrets.Store
	sessions *sessions.Manager
	scrub    *refusal.Scrubber
	authn    *auth.Authenticator // every HTTP route's authentication (authn.go)
	links    *fileLinks          // filelinks.go
	warnings []error
	obs      *observer // metrics, traces and logs (observe.go)

	httpOnce sync.Once
	http     http.Handler
	stream   *mcpserver.StreamableHTTPServer // shut down by Close
	registry registry                        // transport sessions, for the layer (extension.go)
	admin    *admin.Admin                    // the operator's page (admin.go)
	owned    *transportSessions              // Mcp-Session-Id ownership, shared through the workspace store
}

// New builds the server: the stores first, then the tools and every
// runtime reader, then the resource table, complete, and last the MCP
// server that serves them. Nothing is bound or set after New returns.
func New(cfg Config) (*Server, error) {
	if cfg.DataDir == "" {
		d, err := DefaultDataDir()
		if err != nil {
			return nil, err
		}
		cfg.DataDir = d
	}
	authn, err := newAuthenticator(cfg)
	if err != nil {
		return nil, err
	}
	// The server's own places never reach a caller, whatever error names
	// them; the session manager adds each driver's endpoint.
	scrub := refusal.NewScrubber(append(ownFolders(), cfg.DataDir, cfg.SeleniumURL, cfg.Store)...)
	// A server killed in the middle of a write leaves a temporary file.
	atomicfile.RemoveStale(cfg.DataDir, atomicfile.StaleAge)
	if cfg.NoScripts {
		cfg.ExcludeTools = append(slices.Clone(cfg.ExcludeTools), tools.ScriptTool)
	}
	configured := cfg.ExcludeTools
	cfg.ExcludeTools = withImplied(cfg.ExcludeTools)
	store, err := files.Open(filepath.Join(cfg.DataDir, "files"))
	if err != nil {
		return nil, fmt.Errorf("the data folder (FLOW_DATA_DIR) cannot hold kept files: %w", err)
	}
	// A broken secret configuration does not stop the server: it is
	// reported (Warnings), and a caller who types a secret is told the
	// configuration is broken instead of seeing the connection close.
	sec, secErr := secrets.Load(cfg.Secrets)
	schema, err := flowSchema(cfg.ExcludeTools)
	if err != nil {
		return nil, err
	}
	flowStore, err := flows.Open(filepath.Join(cfg.DataDir, "flows"), schema, flows.WithLibrary(cmp.Or(cfg.FlowLibraryDir, filepath.Join(cfg.DataDir, "flow-library"))))
	if err != nil {
		return nil, err
	}
	var open func() int // the open-browsers gauge reads the manager made below
	obs := newObserver(cfg, func() int { return open() })
	fileLinks, err := newFileLinks(cfg)
	if err != nil {
		return nil, err
	}
	opened, err := openWorkspaces(cfg)
	if err != nil {
		return nil, err
	}
	var wsStore workspaces.Store = countedStore{next: opened, count: func(op string, o telemetry.Outcome) { obs.metrics.StoreOp("workspaces", op, o) }}
	s := &Server{
		links:    fileLinks,
		cfg:      cfg,
		obs:      obs,
		secrets:  sec,
		scrub:    scrub,
		authn:    authn,
		warnings: slices.DeleteFunc([]error{secErr}, func(e error) bool { return e == nil }),
		sessions: sessions.New(store,
			sessions.WithSeleniumURL(cfg.SeleniumURL),
			sessions.WithIdleTimeout(cfg.IdleTimeout),
			sessions.WithScrubber(scrub),
			sessions.WithLinks(fileLinks.link),
			sessions.WithStore(wsStore),
			sessions.WithDriverOptions(
				browser.WithBrowserArgs(cfg.BrowserArgs...),
				browser.WithEgress(egress.Policy{Deny: cfg.BrowserDeny, Allow: cfg.BrowserAllow, Ports: cfg.ListenPorts}),
				browser.WithTransport(obs.webDriver))),
	}
	s.admin = s.newAdmin(store, flowStore)
	open = s.sessions.Len
	excluded := func(t tools.Tool) bool { return slices.Contains(cfg.ExcludeTools, t.Def.Name) }

	// An excluded page tool is out of flows too: a flow runs only what a
	// caller could call, through the same middleware a call goes through.
	browser := tools.Browser(s.sessions, sec)
	page := slices.DeleteFunc(slices.Clone(browser), excluded)
	steps := map[string]mcpserver.ToolHandlerFunc{}
	for _, t := range page {
		steps[t.Def.Name] = s.handle(t.Handler)
	}
	flowTools, prompts := tools.Flows(flowStore, sec, steps, progressFor, tools.WithPage(page, s.sessions))

	rt := runtime{sessions: s.sessions, secrets: sec, flows: flowStore}
	tableCfg := resources.Config{
		Readers:       rt.readers(),
		Completers:    rt.completers(),
		Filter:        s.redactContent,
		ExcludedTools: cfg.ExcludeTools,
		// The prompts whose text names an excluded tool (offeredPrompts).
		WithdrawnPrompts: withdrawnPrompts(prompts.Prompts(), cfg.ExcludeTools),
	}
	if cfg.TableOptions != nil {
		cfg.TableOptions(&tableCfg)
	}
	s.table, err = resources.New(tableCfg)
	if err == nil {
		err = checkExclusions(configured, browser, flowTools, tools.Resources(s.table), tools.Show(s.table))
	}
	if err != nil {
		s.sessions.Shutdown() // its idle reaper runs from sessions.New on
		_ = wsStore.Close()
		return nil, err
	}
	for _, family := range [][]tools.Tool{tools.Resources(s.table), page, flowTools, tools.Show(s.table)} {
		s.tools = append(s.tools, slices.DeleteFunc(family, excluded)...)
	}

	hooks := &mcpserver.Hooks{}
	s.obs.mcpHooks(hooks)
	s.table.ListHooks(hooks)
	s.registry.hooks(hooks)
	s.owned = newTransportSessions(SessionIdleTTL, wsStore)
	s.owned.hooks(hooks)
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, _ *mcp.InitializeRequest, r *mcp.InitializeResult) {
		r.Instructions = s.instructions(s.caller(ctx))
	})
	hooks.AddAfterDiscover(func(ctx context.Context, _ any, _ *mcp.DiscoverRequest, r *mcp.DiscoverResult) {
		r.Instructions = s.instructions(s.caller(ctx))
	})
	hooks.AddAfterListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest, r *mcp.ListResourcesResult) {
		if !s.caller(ctx).HasApps() {
			// The app shell is for hosts that draw apps; others would only
			// see an entry they cannot use.
			r.Resources = slices.DeleteFunc(r.Resources, func(res mcp.Resource) bool { return strings.HasPrefix(res.URI, "ui://") })
		}
	})
	hooks.AddAfterListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest, r *mcp.ListToolsResult) {
		r.Tools = slices.DeleteFunc(r.Tools, func(t mcp.Tool) bool { return s.offered(ctx, t.Name) != nil })
	})

	opts := []mcpserver.ServerOption{
		mcpserver.WithTitle(Title),
		mcpserver.WithDescription(About),
		mcpserver.WithResourceCapabilities(false, false),
		mcpserver.WithToolCapabilities(false),
		mcpserver.WithCompletions(),
		mcpserver.WithResourceCompletionProvider(s.table),
		mcpserver.WithPromptCompletionProvider(prompts),
		mcpserver.WithPromptCapabilities(false),
		mcpserver.WithLogging(),
		mcpserver.WithHooks(hooks),
		mcpserver.WithInstructions(s.instructions(surface.Caller{})),
		mcpserver.WithToolHandlerMiddleware(s.handle),
	}
	if s.table.HasSkills() {
		opts = append(opts, mcpserver.WithExtensions(skillsCapability()))
	}
	s.mcp = mcpserver.NewMCPServer(Name, Version, opts...)
	s.table.Register(s.mcp)
	served := make([]mcpserver.ServerTool, len(s.tools))
	for i, t := range s.tools {
		served[i] = mcpserver.ServerTool{Tool: t.Def, Handler: t.Handler}
	}
	s.mcp.AddTools(served...)
	s.mcp.AddPrompts(s.offeredPrompts(prompts.Prompts())...)
	return s, nil
}

// ownFolders are the process's temporary, home and working folders, which
// no refusal may show wherever they are. A folder of one segment (/tmp,
// /root) is left to the scrubber's path rule: hidden by value it would cut
// pieces out of a caller's URLs.
func ownFolders() []string {
	var out []string
	for _, f := range []func() (string, error){func() (string, error) { return os.TempDir(), nil }, os.UserHomeDir, os.Getwd} {
		if dir, err := f(); err == nil && strings.Count(strings.TrimRight(dir, "/"), "/") >= 2 {
			out = append(out, dir)
		}
	}
	return out
}

// flowSchema is flow://schema's document, which the flow store validates
// with; it is read from the generated entries because the table that
// serves it is built after the store.
func flowSchema(excluded []string) ([]byte, error) {
	for _, e := range resources.Generated() {
		if e.URI == resources.FlowSchemaURI {
			return resources.FlowSchema([]byte(e.Body), excluded)
		}
	}
	return nil, fmt.Errorf("the resource table has no flow://schema")
}

// Warnings are what is wrong with the configuration without stopping the
// server (a secret source that does not load); cmd prints them at start.
// They name files and lines, never a value.
func (s *Server) Warnings() []error { return slices.Clone(s.warnings) }

// Close ends every browser session and the WebDriver endpoint.
func (s *Server) Close() {
	if s.stream != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.stream.Shutdown(ctx)
		cancel()
	}
	s.sessions.Shutdown()
	if st := s.sessions.Store(); st != nil {
		_ = st.Close()
	}
}

// Sessions returns the browser session manager.
func (s *Server) Sessions() *sessions.Manager { return s.sessions }

// MCP returns the underlying MCP server, for in-process clients.
func (s *Server) MCP() *mcpserver.MCPServer { return s.mcp }

// Table returns the resource table the server serves.
func (s *Server) Table() *resources.Table { return s.table }

// Tools returns every tool the server can offer, before per-caller filtering.
func (s *Server) Tools() []tools.Tool { return slices.Clone(s.tools) }

// caller is who is calling, with the server-wide setting as the fallback
// for a caller that did not choose per request.
func (s *Server) caller(ctx context.Context) surface.Caller {
	c := surface.FromContext(ctx)
	if c.Setting == surface.Auto {
		c.Setting = s.cfg.Resources
	}
	return c
}

// offered says why a tool is not offered to this caller, or nil when it
// is: the mirror only to callers whose model cannot read resources.
func (s *Server) offered(ctx context.Context, name string) error {
	c := s.caller(ctx)
	if name == "show" && !c.HasApps() {
		return refusal.New("show is not offered to this client: it draws resources in an MCP App, and the client did not declare the io.modelcontextprotocol/ui extension.",
			"Read the resource instead (resources/read, or read_resource where the mirror is offered).")
	}
	if slices.Contains(tools.Mirror, name) && c.ReadsResources() {
		return refusal.New(
			fmt.Sprintf("%s is not offered to this client, whose model reads resources natively.", name),
			"Use resources/list and resources/read instead, starting with knowledge://index; or connect with ?resources=off (X-MCP-Resources: off, or --resources off on stdio) to get the mirror tools.")
	}
	return nil
}

// handle puts a tool handler behind the middleware every call goes
// through, in this order from the outside in: secrets redacted from what
// the client will see, errors and panics made into scrubbed isError
// results, the call's span, metrics and log line (observe.go), and tools
// the caller is not offered refused. It is the MCP
// server's one tool middleware, and flow steps are wrapped with it, so
// tools/call and a step reach a handler only this way.
func (s *Server) handle(h mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return s.redactSecrets(s.refusals(s.observe(s.onlyOffered(h))))
}

// onlyOffered refuses a call to a tool the caller is not offered, with the
// sentence that says what to use instead. tools/list leaves such tools out
// (see the AfterListTools hook); a refusal beats a bare "tool not found".
func (s *Server) onlyOffered(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := s.offered(ctx, req.Params.Name); err != nil {
			return nil, err
		}
		return next(ctx, req)
	}
}

// refusals turns every error and panic of a tool handler into an isError
// result with a clean sentence, so nothing reaches the client as a
// transport error, and a panicking flow step is one failed step.
func (s *Server) refusals(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.obs.log.Error("tool panicked", "tool", req.Params.Name, "stack", string(debug.Stack()))
				res, err = s.scrub.Result(fmt.Errorf("the %s tool failed unexpectedly and did nothing more; this is a server bug. Try the call again, or read knowledge://documents/troubleshooting", req.Params.Name)), nil
			}
		}()
		res, err = next(ctx, req)
		if err != nil {
			noteRefusal(ctx, err) // the HTTP surface's status (actions.go)
			return s.scrub.Result(err), nil
		}
		if res != nil && res.IsError {
			for i, c := range res.Content {
				if t, ok := c.(mcp.TextContent); ok {
					t.Text = s.scrub.Scrub(t.Text)
					res.Content[i] = t
				}
			}
		}
		return res, nil
	}
}

// redactSecrets replaces the caller's secret values, as they are or
// encoded, in every text a tool answers, refusals included: a page's URL
// after a form sent with GET, or an error quoting the page, would
// otherwise carry a password to the model. It is the outermost tool
// middleware, so it sees what the client will.
func (s *Server) redactSecrets(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := next(ctx, req)
		if res == nil {
			return res, err
		}
		principal := auth.Principal(ctx)
		for i, c := range res.Content {
			if t, ok := c.(mcp.TextContent); ok {
				t.Text = s.secrets.Redact(principal, t.Text)
				res.Content[i] = t
			}
		}
		if res.StructuredContent != nil {
			if b, jerr := json.Marshal(res.StructuredContent); jerr == nil {
				if red := s.secrets.Redact(principal, string(b)); red != string(b) {
					var v any
					if json.Unmarshal([]byte(red), &v) == nil {
						res.StructuredContent = v
					}
				}
			}
		}
		return res, err
	}
}

// redactContent is the table's filter: what any resource read returns is
// redacted of the caller's secrets like a tool result.
func (s *Server) redactContent(ctx context.Context, c resources.Content) resources.Content {
	c.Text = s.secrets.Redact(auth.Principal(ctx), c.Text)
	return c
}

// HTTPHandler serves Streamable HTTP at /mcp. Each request's ?resources=
// query or X-MCP-Resources header is read into its context; a value that is
// neither on, off nor auto is refused before the MCP layer sees it. The
// read API (GET /resources/{uri}, /openapi.json; readapi.go) shares the mux.
func (s *Server) HTTPHandler() http.Handler {
	s.httpOnce.Do(func() { s.http = s.buildHTTP() })
	return s.http
}

// buildHTTP makes the HTTP handler, once: its Streamable HTTP server keeps
// a session sweeper running until Close.
func (s *Server) buildHTTP() http.Handler {
	owned := s.owned
	stream := mcpserver.NewStreamableHTTPServer(s.mcp,
		mcpserver.WithEndpointPath("/mcp"),
		mcpserver.WithSessionIdManagerResolver(owned),
		mcpserver.WithSessionIdleTTL(SessionIdleTTL),
		mcpserver.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			set, _ := surface.SettingFromRequest(r)
			ctx = workspaces.WithWorkspace(owned.clientFrom(ctx, r), workspaces.Workspace(r.Context()))
			return auth.WithPrincipal(surface.WithSetting(ctx, set), auth.Principal(r.Context()))
		}),
	)
	s.stream = stream
	mux := http.NewServeMux()
	mux.Handle("/mcp", checkSetting(owned.ownSessionsOnly(s.httpLayer(trackProgress(stream)))))
	mux.HandleFunc("GET /files/{name}", s.serveFile)
	mux.Handle("GET "+MetricsPath, s.obs.metrics.Handler())
	s.mountReadAPI(mux)
	mux.Handle(admin.APIPrefix, s.admin.API())
	s.mountActions(mux) // actions.go, flowsapi.go, ops.go
	s.links.served.Store(true)
	return s.observeHTTP(mux, s.guardHTTP(s.cors(healthOnly(s.admin.Public(s.metricsAuth(s.signedFiles(s.authenticate(notePrincipal(workspaces.Middleware(keepURIPaths(mux)))))))))))
}

func checkSetting(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := surface.SettingFromRequest(r); err != nil {
			http.Error(w, err.Error()+" (in the ?resources= query or the "+surface.Header+" header)", http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// StdioContext is the context function for the stdio transport: the
// server-wide setting is the caller's explicit one.
func (s *Server) StdioContext(ctx context.Context) context.Context {
	ctx = workspaces.WithWorkspace(ctx, workspaces.Named{Name: workspaces.Default, How: workspaces.ByStdio})
	return surface.WithSetting(ctx, s.cfg.Resources)
}

// ServeStdio serves MCP on in and out until ctx ends or in closes, as the
// local principal.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	stdio := mcpserver.NewStdioServer(s.mcp)
	counted, withCount := countProgress(out)
	layer := s.stdio(in, counted)
	defer layer.stop()
	stdio.SetContextFunc(func(ctx context.Context) context.Context {
		ctx = withCount(s.StdioContext(ctx))
		layer.base(ctx)
		return ctx
	})
	return stdio.Listen(ctx, layer, layer)
}
