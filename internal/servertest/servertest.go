// Package servertest starts the real selenium-flow binary for tests and
// connects real MCP clients (mcp-go's own) to it over stdio or Streamable
// HTTP, on either protocol generation.
package servertest

import (
	"bufio"
	"context"
	"fmt"
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
)

// Transport is how a test reaches the server.
type Transport string

const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// Transports are both, for table-driven tests.
var Transports = []Transport{Stdio, HTTP}

// Legacy is the newest protocol version on the initialize handshake.
const Legacy = "2025-11-25"

// Options describe one client and the server it starts.
type Options struct {
	// Info is the clientInfo the client announces.
	Info mcp.Implementation
	// Capabilities are the client's declared capabilities.
	Capabilities mcp.ClientCapabilities
	// Protocol pins a version; empty lets the client try the stateless
	// protocol first, as mcp-go's client does by default.
	Protocol string
	// Args are extra flags for `selenium-flow serve`.
	Args []string
	// Env is extra KEY=VALUE environment for the server.
	Env []string
	// Headers are sent with every HTTP request; Query is appended to the URL.
	Headers map[string]string
	Query   string
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary builds cmd/selenium-flow once per test binary and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "selenium-flow-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "selenium-flow")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/selenium-flow")
		cmd.Dir = repoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// baseEnv is the test's environment with a data folder of its own, so a
// test never touches the user's data; a later FLOW_DATA_DIR in Env wins.
func baseEnv(t testing.TB) []string {
	return append(os.Environ(), "FLOW_DATA_DIR="+t.TempDir())
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Server is a running selenium-flow process serving HTTP.
type Server struct {
	URL    string // the /mcp endpoint
	Base   string // scheme://host:port
	cmd    *exec.Cmd
	stderr *syncBuffer
}

// Stderr is what the server wrote to stderr so far.
func (s *Server) Stderr() string { return s.stderr.String() }

// PID is the server's process id; the server leads its own process group,
// so children it starts (chromedriver) are found with pgrep -P PID.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// StartHTTP runs `selenium-flow serve --http 127.0.0.1:0` and waits until it listens.
func StartHTTP(t testing.TB, args []string, env []string) *Server {
	t.Helper()
	cmd := exec.Command(Binary(t), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(baseEnv(t), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{cmd: cmd, stderr: &syncBuffer{}}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
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
		close(ready)
	}()
	select {
	case u, ok := <-ready:
		if !ok {
			t.Fatalf("server exited before listening:\n%s", s.Stderr())
		}
		s.URL = u
		s.Base = strings.TrimSuffix(u, "/mcp")
	case <-time.After(20 * time.Second):
		t.Fatalf("server did not listen within 20s:\n%s", s.Stderr())
	}
	return s
}

// Client is an initialized mcp-go client and what initialize answered.
type Client struct {
	*client.Client
	Init *mcp.InitializeResult

	stderr func() string
}

// Stderr is what the server wrote to stderr so far: the child's stderr on
// stdio, the server process's on HTTP when Connect started it, else "".
func (c *Client) Stderr() string {
	if c.stderr == nil {
		return ""
	}
	return c.stderr()
}

// Connect starts a server on the transport and returns an initialized client.
func Connect(t testing.TB, tr Transport, o Options) *Client {
	t.Helper()
	if tr == HTTP {
		srv := StartHTTP(t, o.Args, o.Env)
		c := ConnectHTTP(t, srv.URL, o)
		c.stderr = srv.Stderr
		return c
	}
	stderr := &syncBuffer{}
	tp := transport.NewStdioWithOptions(Binary(t), append(baseEnv(t), o.Env...), append([]string{"serve"}, o.Args...),
		transport.WithCommandStderrWriter(stderr))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.NewClient(tp, clientOptions(o)...)
	// Start (not tp.Start) so the client's notification and request
	// handlers are installed on the transport: without them OnNotification
	// never hears notifications/progress over stdio.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &Client{Client: c, Init: initialize(ctx, t, c, o), stderr: stderr.String}
}

// ConnectHTTP connects a client to a running server's /mcp URL.
func ConnectHTTP(t testing.TB, url string, o Options) *Client {
	t.Helper()
	if o.Query != "" {
		url += "?" + o.Query
	}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPTimeout(60 * time.Second)}
	if len(o.Headers) > 0 {
		opts = append(opts, transport.WithHTTPHeaders(o.Headers))
	}
	tp, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tp, clientOptions(o)...)
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return &Client{Client: c, Init: initialize(ctx, t, c, o)}
}

func clientOptions(o Options) []client.ClientOption {
	var opts []client.ClientOption
	if o.Protocol != "" {
		opts = append(opts, client.WithProtocolVersion(o.Protocol))
	}
	return opts
}

func initialize(ctx context.Context, t testing.TB, c *client.Client, o Options) *mcp.InitializeResult {
	t.Helper()
	info := o.Info
	if info.Name == "" {
		info = mcp.Implementation{Name: "servertest", Version: "1"}
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = info
	req.Params.Capabilities = o.Capabilities
	req.Params.ProtocolVersion = o.Protocol
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return res
}

// Call calls a tool and fails the test on a transport error; an isError
// result is returned for the test to inspect.
func Call(t testing.TB, c client.MCPClient, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: transport error: %v", name, err)
	}
	return res
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

// ToolNames lists the names of the tools the client is offered.
func ToolNames(t testing.TB, c client.MCPClient) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) WriteString(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(v)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
