// Package servertest is the one set of helpers every package's MCP tests
// use: servers in process and as the real binary, mcp-go's own clients on
// every transport and protocol generation, and calls and reads that fail
// the test with a sentence.
//
// The test pyramid it serves:
//
//   - table and surface tests run the real server value in process
//     (New, then InProcess for client.NewInProcessClient, or OverHTTP for
//     Streamable HTTP through httptest), with real Chromium where they
//     drive pages;
//   - one smoke test per transport and protocol generation runs the real
//     binary (Binary, Connect, StartHTTP), as do the tests of commands
//     that start it (install, eval);
//   - every wait derives from t.Deadline() (Deadline, Context; see
//     package testenv), never from fixed seconds.
//
// A started binary dies with the test process (Pdeathsig) and leads its
// own process group, which Cleanup kills. The binary is built once per
// test binary into a temporary folder that Main (the package's TestMain)
// removes; a package without servertest.Main builds it per test instead,
// into the test's t.TempDir.
//
// servertest imports internal/server, so only external test packages
// (package x_test) can use it; internal tests of the packages the server
// depends on (internal/browser, internal/ui) use package testenv.
package servertest

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// Transport is how a test reaches the server.
type Transport string

const (
	// Stdio is the binary's stdio (Connect only).
	Stdio Transport = "stdio"
	// HTTP is Streamable HTTP: the binary's (Connect) or, for Local, the
	// in-process server's handler behind httptest.
	HTTP Transport = "http"
	// InProc is client.NewInProcessClient on the server value (Local only).
	InProc Transport = "in-process"
)

// Transports are the binary's two, for the smoke tests.
var Transports = []Transport{Stdio, HTTP}

// LocalTransports are the in-process server's two, for table tests.
var LocalTransports = []Transport{InProc, HTTP}

// Legacy is the newest protocol version on the initialize handshake; ""
// (the default) lets the client try the stateless one first.
const Legacy = "2025-11-25"

// Protocols are both generations, as Options.Protocol values.
var Protocols = []string{Legacy, ""}

// Generation names a Protocols value for a subtest.
func Generation(protocol string) string {
	if protocol == "" {
		return "stateless"
	}
	return "handshake"
}

// Options describe one client, and for the binary the server it starts.
type Options struct {
	// Info is the clientInfo the client announces.
	Info mcp.Implementation
	// Capabilities are the client's declared capabilities.
	Capabilities mcp.ClientCapabilities
	// Protocol pins a version (Legacy); empty lets the client try the
	// stateless protocol (server/discover) first, as mcp-go's does.
	Protocol string
	// Args are extra flags for `selenium-flow serve` (the binary only).
	Args []string
	// Env is extra KEY=VALUE environment for the binary (the binary only;
	// an in-process server takes a server.Config).
	Env []string
	// Headers are sent with every HTTP request; Query is appended to the URL.
	Headers map[string]string
	Query   string
}

// Re-exported from testenv, so MCP tests need one import.
var (
	Deadline    = testenv.Deadline
	Context     = testenv.Context
	Remaining   = testenv.Remaining
	Eventually  = testenv.Eventually
	NeedBrowser = testenv.NeedBrowser
)

// Main is the TestMain of a package using servertest: testenv.Main (child
// process and goroutine leak checks, children killed before a timeout),
// plus the removal of the binary's build folder.
func Main(m *testing.M, teardown ...func()) {
	build.mu.Lock()
	build.hooked = true
	build.mu.Unlock()
	testenv.Main(m, append(teardown, removeBuild)...)
}

var build struct {
	mu     sync.Mutex
	hooked bool // Main runs: build once, remove at exit
	dir    string
	path   string
	err    error
	// perTest are the binaries built without Main, by test.
	perTest map[testing.TB]string
}

func removeBuild() {
	build.mu.Lock()
	defer build.mu.Unlock()
	if build.dir != "" {
		_ = os.RemoveAll(build.dir)
		build.dir, build.path = "", ""
	}
}

// Binary builds cmd/selenium-flow and returns its path: once per test
// binary under Main, else once per test into t.TempDir().
func Binary(t testing.TB) string {
	t.Helper()
	build.mu.Lock()
	defer build.mu.Unlock()
	if !build.hooked {
		if path, ok := build.perTest[t]; ok {
			return path
		}
		path := filepath.Join(t.TempDir(), "selenium-flow")
		if err := goBuild(t, path); err != nil {
			t.Fatal(err)
		}
		if build.perTest == nil {
			build.perTest = map[testing.TB]string{}
		}
		build.perTest[t] = path
		t.Cleanup(func() {
			build.mu.Lock()
			defer build.mu.Unlock()
			delete(build.perTest, t)
		})
		return path
	}
	if build.path == "" && build.err == nil {
		dir, err := os.MkdirTemp("", "selenium-flow-bin-")
		if err != nil {
			t.Fatal(err)
		}
		build.dir, build.path = dir, filepath.Join(dir, "selenium-flow")
		if build.err = goBuild(t, build.path); build.err != nil {
			build.path = ""
		}
	}
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

func goBuild(t testing.TB, out string) error {
	ctx, cancel := context.WithDeadline(context.Background(), Deadline(t, testenv.Fallback))
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/selenium-flow")
	cmd.Dir = repoRoot()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, b)
	}
	return nil
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Command is the binary with args, ready to run for t: it dies with the
// test process (Pdeathsig), leads its own process group, which is killed
// when t ends, and gets a data folder of its own (FLOW_DATA_DIR; a later
// one in env wins).
//
// Pdeathsig fires when the OS thread that started the child exits; the Go
// runtime keeps its threads, so in practice that is the process's death.
func Command(t testing.TB, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(Binary(t), args...)
	cmd.Env = append(baseEnv(t), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	t.Cleanup(func() {
		// Whatever of the group is left, even after its leader exited.
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	return cmd
}

// ClosedNetwork are the Chromium arguments every test server's browsers
// get (testenv.ClosedNetwork).
var ClosedNetwork = []string{testenv.ClosedNetwork}

// baseEnv is the test's environment with a data folder of its own, no
// Selenium Grid, no shared workspace store and the closed network, so a
// test never touches the user's data, a developer's Grid or Redis, or the
// outside world; later entries win.
func baseEnv(t testing.TB) []string {
	return append(os.Environ(), "FLOW_DATA_DIR="+t.TempDir(), "SELENIUM_URL=", "FLOW_STORE=", "FLOW_BROWSER_ARGS="+strings.Join(ClosedNetwork, " "))
}

// Server is a running selenium-flow process serving HTTP.
type Server struct {
	URL    string // the /mcp endpoint
	Base   string // scheme://host:port
	cmd    *exec.Cmd
	stderr *testenv.Buffer
	exited chan struct{}
}

// Stop sends sig (SIGTERM, or SIGKILL for a crash) to the server process
// alone, as an orchestrator would, and waits until it has exited.
func (s *Server) Stop(t testing.TB, sig syscall.Signal) {
	t.Helper()
	_ = syscall.Kill(s.cmd.Process.Pid, sig)
	select {
	case <-s.exited:
	case <-time.After(time.Until(Deadline(t, time.Minute))):
		t.Fatalf("the server did not exit after %v", sig)
	}
}

// Stderr is what the server wrote to stderr so far.
func (s *Server) Stderr() string { return s.stderr.String() }

// PID is the server's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// StartHTTP runs `selenium-flow serve --http 127.0.0.1:0` and waits until
// it listens. Cleanup stops it with SIGTERM, as a person would, and kills
// its process group if it has not gone by t's deadline.
func StartHTTP(t testing.TB, args []string, env []string) *Server {
	t.Helper()
	cmd := Command(t, env, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	pr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	s := &Server{cmd: cmd, stderr: &testenv.Buffer{}, exited: exited}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			s.stderr.WriteString(line + "\n")
			if i := strings.Index(line, "http://"); i >= 0 && strings.Contains(line, "serving") {
				select {
				case ready <- strings.TrimSpace(line[i:]):
				default:
				}
			}
		}
		_ = cmd.Wait() // after the pipe's EOF, as exec requires
		close(exited)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(time.Until(Deadline(t, 10*time.Second))):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	select {
	case u := <-ready:
		s.URL = u
		s.Base = strings.TrimSuffix(u, "/mcp")
	case <-exited:
		t.Fatalf("server exited before listening:\n%s", s.Stderr())
	case <-time.After(time.Until(Deadline(t, testenv.Fallback))):
		t.Fatalf("server did not listen by the test's deadline:\n%s", s.Stderr())
	}
	return s
}

// Client is an initialized mcp-go client and what initialize answered.
type Client struct {
	*client.Client
	Init *mcp.InitializeResult

	stderr func() string
}

// Stderr is what the server wrote so far: the binary's stderr (stdio, and
// HTTP when Connect started it), the process log an in-process server's
// New captured, else "".
func (c *Client) Stderr() string {
	if c.stderr == nil {
		return ""
	}
	return c.stderr()
}

// Connect starts the binary on the transport and returns an initialized
// client: for the smoke tests and the tests that need a process.
func Connect(t testing.TB, tr Transport, o Options) *Client {
	t.Helper()
	switch tr {
	case HTTP:
		srv := StartHTTP(t, o.Args, o.Env)
		c := ConnectHTTP(t, srv.URL, o)
		c.stderr = srv.Stderr
		return c
	case Stdio:
	default:
		t.Fatalf("Connect starts the binary on stdio or http, not %q; use Local for an in-process server", tr)
	}
	stderr := &testenv.Buffer{}
	tp := transport.NewStdioWithOptions(Binary(t), nil, nil,
		transport.WithCommandFunc(func(_ context.Context, _ string, _ []string, _ []string) (*exec.Cmd, error) {
			cmd := Command(t, o.Env, append([]string{"serve"}, o.Args...)...)
			cmd.Stderr = stderr
			return cmd, nil
		}))
	c := client.NewClient(tp, clientOptions(t, o)...)
	// Start (not tp.Start) so the client's notification and request
	// handlers are installed on the transport: without them OnNotification
	// never hears notifications/progress over stdio. Its context outlives
	// the call: the stdio transport keeps it.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &Client{Client: c, Init: initialize(t, c, o), stderr: stderr.String}
}

// ConnectHTTP connects a client to a running server's /mcp URL.
func ConnectHTTP(t testing.TB, url string, o Options) *Client {
	t.Helper()
	if o.Query != "" {
		url += "?" + o.Query
	}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPTimeout(Remaining(t))}
	if len(o.Headers) > 0 {
		opts = append(opts, transport.WithHTTPHeaders(o.Headers))
	}
	tp, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tp, clientOptions(t, o)...)
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(Context(t)); err != nil {
		t.Fatal(err)
	}
	return &Client{Client: c, Init: initialize(t, c, o)}
}

func clientOptions(t testing.TB, o Options) []client.ClientOption {
	// mcp-go gives server/discover 5 s before it falls back to the
	// handshake; on a loaded machine a stateless client would then quietly
	// become a handshake one.
	opts := []client.ClientOption{client.WithDiscoverTimeout(Remaining(t))}
	if o.Protocol != "" {
		opts = append(opts, client.WithProtocolVersion(o.Protocol))
	}
	return opts
}

func initialize(t testing.TB, c *client.Client, o Options) *mcp.InitializeResult {
	t.Helper()
	info := o.Info
	if info.Name == "" {
		info = mcp.Implementation{Name: "servertest", Version: "1"}
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = info
	req.Params.Capabilities = o.Capabilities
	req.Params.ProtocolVersion = o.Protocol
	ctx, cancel := callContext(t)
	defer cancel()
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if o.Protocol == "" && !mcp.IsModernProtocol(c.ProtocolVersion()) {
		t.Fatalf("the client settled on %s, not the stateless protocol", c.ProtocolVersion())
	}
	return res
}

// New builds the server in process for t, as `selenium-flow serve` would
// with cfg: a data folder of its own unless cfg names one, no Selenium
// Grid unless cfg names one, closed (its browsers with it) when t ends.
// Until then the process log (log and slog, where mcp-go and the server
// write) is also kept, for Client.Stderr.
func New(t testing.TB, cfg server.Config) *server.Server {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.BrowserArgs == nil {
		cfg.BrowserArgs = ClosedNetwork
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatalf("server.New: %v", err)
	}
	t.Cleanup(srv.Close)
	captureLog(t)
	return srv
}

// logs is the process log captured for the current test; tests that use
// New do not run in parallel (they share the process's log).
var logs struct {
	mu  sync.Mutex
	buf *testenv.Buffer
}

func captureLog(t testing.TB) {
	logs.mu.Lock()
	defer logs.mu.Unlock()
	if logs.buf != nil {
		return
	}
	buf := &testenv.Buffer{}
	logs.buf = buf
	prevOut, prevFlags, prevSlog := log.Writer(), log.Flags(), slog.Default()
	// slog first: a handler of its own also takes over the log package's
	// output, which is then set to tee as it was.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.MultiWriter(os.Stderr, buf), nil)))
	log.SetOutput(io.MultiWriter(prevOut, buf))
	log.SetFlags(prevFlags)
	t.Cleanup(func() {
		logs.mu.Lock()
		defer logs.mu.Unlock()
		log.SetOutput(prevOut)
		log.SetFlags(prevFlags)
		slog.SetDefault(prevSlog)
		logs.buf = nil
	})
}

func logged() string {
	logs.mu.Lock()
	defer logs.mu.Unlock()
	if logs.buf == nil {
		return ""
	}
	return logs.buf.String()
}

// Local connects a client to an in-process server: InProc or HTTP.
func Local(t testing.TB, srv *server.Server, tr Transport, o Options) *Client {
	t.Helper()
	switch tr {
	case InProc:
		return InProcess(t, srv, o)
	case HTTP:
		return OverHTTP(t, srv, o)
	}
	t.Fatalf("Local connects in process or over http, not %q; use Connect for the binary", tr)
	return nil
}

// InProcess connects client.NewInProcessClient to the server value. Each
// request's context goes through srv.StdioContext, as on stdio: the
// server-wide Config.Resources is the caller's explicit setting. Options
// Args, Env, Headers and Query do not apply.
func InProcess(t testing.TB, srv *server.Server, o Options) *Client {
	t.Helper()
	if len(o.Args)+len(o.Env)+len(o.Headers) > 0 || o.Query != "" {
		t.Fatal("an in-process client takes no Args, Env, Headers or Query: put the setting in server.Config")
	}
	c := client.NewClient(wireNotifications{srv.InProcess()}, clientOptions(t, o)...)
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(Context(t)); err != nil {
		t.Fatal(err)
	}
	return &Client{Client: c, Init: initialize(t, c, o), stderr: logged}
}

// wireNotifications hands notifications on as the wire would: the
// in-process session passes Go values (an int stays an int), a client
// over stdio or HTTP decodes JSON (numbers are float64).
type wireNotifications struct{ transport.Interface }

func (w wireNotifications) SetNotificationHandler(handler func(mcp.JSONRPCNotification)) {
	w.Interface.SetNotificationHandler(func(n mcp.JSONRPCNotification) {
		var wire mcp.JSONRPCNotification
		if b, err := json.Marshal(n); err == nil && json.Unmarshal(b, &wire) == nil {
			n = wire
		}
		handler(n)
	})
}

// HTTPServer is an in-process server's HTTP handler behind httptest.
type HTTPServer struct {
	URL  string // the /mcp endpoint
	Base string // http://127.0.0.1:port
}

// ServeHTTP serves srv.HTTPHandler() on a loopback port until t ends.
func ServeHTTP(t testing.TB, srv *server.Server) *HTTPServer {
	t.Helper()
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(hs.Close)
	return &HTTPServer{URL: hs.URL + "/mcp", Base: hs.URL}
}

// OverHTTP serves srv over Streamable HTTP (ServeHTTP) and connects a
// client to it.
func OverHTTP(t testing.TB, srv *server.Server, o Options) *Client {
	t.Helper()
	c := ConnectHTTP(t, ServeHTTP(t, srv).URL, o)
	c.stderr = logged
	return c
}

// callContext is the context of one request: it ends at t's deadline, and
// when the request is done (a benchmark makes thousands).
func callContext(t testing.TB) (context.Context, context.CancelFunc) {
	return context.WithDeadline(context.Background(), Deadline(t, testenv.Fallback))
}

// Call calls a tool and fails the test on a transport error; an isError
// result is returned for the test to inspect.
func Call(t testing.TB, c client.MCPClient, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	ctx, cancel := callContext(t)
	defer cancel()
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: transport error: %v", name, err)
	}
	return res
}

// CallOK calls a tool that must succeed and returns its text.
func CallOK(t testing.TB, c client.MCPClient, tool string, args map[string]any) string {
	t.Helper()
	r := Call(t, c, tool, args)
	assert.Assert(t, !r.IsError, "%s %v refused: %s", tool, args, Text(r))
	return Text(r)
}

// CallRefused calls a tool that must be refused (an isError result, not a
// transport error) and checks that its text has each of wants.
func CallRefused(t testing.TB, c client.MCPClient, tool string, args map[string]any, wants ...string) string {
	t.Helper()
	r := Call(t, c, tool, args)
	text := Text(r)
	assert.Assert(t, r.IsError, "%s %v was not refused: %s", tool, args, text)
	for _, w := range wants {
		assert.Check(t, is.Contains(text, w), "%s %v", tool, args)
	}
	return text
}

// Text joins a result's text contents.
func Text(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Read reads a resource natively (resources/read), returning the error.
func Read(t testing.TB, c client.MCPClient, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	ctx, cancel := callContext(t)
	defer cancel()
	return c.ReadResource(ctx, req)
}

// ReadText reads a resource natively that must be one text content.
func ReadText(t testing.TB, c client.MCPClient, uri string) string {
	t.Helper()
	res, err := Read(t, c, uri)
	assert.NilError(t, err, "resources/read %s", uri)
	assert.Assert(t, is.Len(res.Contents, 1), uri)
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	assert.Assert(t, ok, "%s is not text: %T", uri, res.Contents[0])
	return tc.Text
}

// ReadJSON reads a JSON resource natively into v.
func ReadJSON(t testing.TB, c client.MCPClient, uri string, v any) {
	t.Helper()
	text := ReadText(t, c, uri)
	assert.NilError(t, json.Unmarshal([]byte(text), v), "%s: %s", uri, text)
}

// ReadBlob reads a binary resource natively and returns its bytes.
func ReadBlob(t testing.TB, c client.MCPClient, uri string) []byte {
	t.Helper()
	res, err := Read(t, c, uri)
	assert.NilError(t, err, uri)
	assert.Assert(t, is.Len(res.Contents, 1))
	blob, ok := res.Contents[0].(mcp.BlobResourceContents)
	assert.Assert(t, ok, "%s is not a blob: %T", uri, res.Contents[0])
	data, err := base64.StdEncoding.DecodeString(blob.Blob)
	assert.NilError(t, err)
	return data
}

// MirrorRead reads a resource through the read_resource mirror tool.
func MirrorRead(t testing.TB, c client.MCPClient, uri string) *mcp.CallToolResult {
	t.Helper()
	return Call(t, c, "read_resource", map[string]any{"uri": uri})
}

// MirrorJSON reads a JSON resource through the mirror into v.
func MirrorJSON(t testing.TB, c client.MCPClient, uri string, v any) {
	t.Helper()
	r := MirrorRead(t, c, uri)
	assert.Assert(t, !r.IsError, "%s: %s", uri, Text(r))
	assert.NilError(t, json.Unmarshal([]byte(Text(r)), v), uri)
}

// ToolNames lists the names of the tools the client is offered.
func ToolNames(t testing.TB, c client.MCPClient) []string {
	t.Helper()
	ctx, cancel := callContext(t)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// Get fetches url with optional headers and returns the status, headers
// and body; redirects are reported, not followed.
func Get(t testing.TB, url string, header http.Header) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := callContext(t)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	assert.NilError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := noRedirects.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	assert.NilError(t, err)
	return res.StatusCode, res.Header, body
}

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
