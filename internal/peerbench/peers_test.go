package peerbench_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/peerbench"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// Versions of the peers, as the npm registry here serves them.
const (
	playwrightMCP = "@playwright/mcp@0.0.83"
	devtoolsMCP   = "chrome-devtools-mcp@1.11.0"
)

// closedNetwork keeps the browsers from outside DNS look-ups (test only).
const closedNetwork = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost"

// target is an element as each peer addresses it: a selenium-flow locator,
// and the words a snapshot line holds for it (role and accessible name).
type target struct {
	locator map[string]any
	line    []string
}

// peer is one MCP server under measurement, with its calls for the four
// kinds of step. last is the latest snapshot a peer with references gave,
// where type and click look their target up.
type peer struct {
	name     string
	c        *client.Client
	navigate func(ctx context.Context, url string) (string, error)
	describe func(ctx context.Context) (string, error)
	typeText func(ctx context.Context, t target, text string) error
	click    func(ctx context.Context, t target) error
	last     string
}

func call(ctx context.Context, c *client.Client, tool string, args map[string]any) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	if args == nil {
		args = map[string]any{} // the Node servers refuse null arguments
	}
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("%s: %s", tool, b.String())
	}
	return b.String(), nil
}

// seleniumFlow starts the binary over stdio with a browser open.
func seleniumFlow(t *testing.T) *peer {
	c := servertest.Connect(t, servertest.Stdio, servertest.Options{
		Env: []string{"FLOW_DATA_DIR=" + t.TempDir(), "FLOW_BROWSER_ARGS=" + closedNetwork},
	})
	if _, err := call(testenv.Context(t), c.Client, "open_session", nil); err != nil {
		t.Fatal(err)
	}
	return &peer{
		name: "selenium-flow",
		c:    c.Client,
		navigate: func(ctx context.Context, url string) (string, error) {
			return call(ctx, c.Client, "navigate", map[string]any{"url": url})
		},
		describe: func(ctx context.Context) (string, error) { return call(ctx, c.Client, "outline", nil) },
		typeText: func(ctx context.Context, tg target, text string) error {
			_, err := call(ctx, c.Client, "write", map[string]any{"locator": tg.locator, "text": text})
			return err
		},
		click: func(ctx context.Context, tg target) error {
			_, err := call(ctx, c.Client, "click", map[string]any{"locator": tg.locator})
			return err
		},
	}
}

// npmInstall installs the packages into a temporary folder.
func npmInstall(t *testing.T, pkgs ...string) string {
	dir := t.TempDir()
	cmd := exec.CommandContext(testenv.Context(t), "npm", append([]string{"install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", dir}, pkgs...)...)
	cmd.Env = append(os.Environ(), "PUPPETEER_SKIP_DOWNLOAD=1", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	return dir
}

// nodeServer starts a Node MCP server over stdio, in its own process
// group, which dies with the test.
func nodeServer(t *testing.T, name, script string, args ...string) *client.Client {
	tp := transport.NewStdioWithOptions("node", nil, append([]string{script}, args...),
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.Command(command, args...)
			// Whatever a peer writes beside it (Playwright MCP's console
			// logs and snapshots) lands in a folder of the test's own.
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1", "CI=1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			t.Cleanup(func() {
				if cmd.Process != nil {
					_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				}
			})
			return cmd, nil
		}))
	c := client.NewClient(tp, client.WithProtocolVersion("2025-06-18"))
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "peerbench", Version: "1"}
	req.Params.ProtocolVersion = "2025-06-18"
	if _, err := c.Initialize(testenv.Context(t), req); err != nil {
		t.Fatalf("%s: initialize: %v", name, err)
	}
	return c
}

// playwright is Playwright MCP on the system Chromium.
func playwright(t *testing.T, dir string) *peer {
	c := nodeServer(t, "playwright-mcp", filepath.Join(dir, "node_modules/@playwright/mcp/cli.js"),
		"--headless", "--isolated", "--browser", "chromium", "--executable-path", chromium(t), "--output-dir", t.TempDir())
	p := &peer{name: "playwright-mcp", c: c}
	p.navigate = func(ctx context.Context, url string) (string, error) {
		out, err := call(ctx, c, "browser_navigate", map[string]any{"url": url})
		p.last = out
		return out, err
	}
	p.describe = func(ctx context.Context) (string, error) {
		out, err := call(ctx, c, "browser_snapshot", nil)
		p.last = out
		return out, err
	}
	p.typeText = func(ctx context.Context, tg target, text string) error {
		ref, ok := peerbench.Ref(p.last, tg.line...)
		if !ok {
			return fmt.Errorf("playwright-mcp: no %q in the snapshot", tg.line)
		}
		out, err := call(ctx, c, "browser_type", map[string]any{"element": strings.Join(tg.line, " "), "target": ref, "text": text})
		if strings.Contains(out, "[ref=") {
			p.last = out
		}
		return err
	}
	p.click = func(ctx context.Context, tg target) error {
		ref, ok := peerbench.Ref(p.last, tg.line...)
		if !ok {
			return fmt.Errorf("playwright-mcp: no %q in the snapshot", tg.line)
		}
		out, err := call(ctx, c, "browser_click", map[string]any{"element": strings.Join(tg.line, " "), "target": ref})
		if strings.Contains(out, "[ref=") {
			p.last = out
		}
		return err
	}
	return p
}

// devtools is chrome-devtools-mcp on the system Chromium.
func devtools(t *testing.T, dir string) *peer {
	c := nodeServer(t, "chrome-devtools-mcp", filepath.Join(dir, "node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js"),
		"--headless", "--isolated", "--executablePath", chromium(t), "--no-usage-statistics", "--chromeArg=--no-sandbox", "--chromeArg="+closedNetwork)
	p := &peer{name: "chrome-devtools-mcp", c: c}
	// Every call names the page it acts on: the one the browser opened with.
	pages, err := call(testenv.Context(t), c, "list_pages", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+):`).FindStringSubmatch(pages)
	if m == nil {
		t.Fatalf("chrome-devtools-mcp: no page id in %q", pages)
	}
	id, _ := strconv.Atoi(m[1])
	p.navigate = func(ctx context.Context, url string) (string, error) {
		return call(ctx, c, "navigate_page", map[string]any{"pageId": id, "type": "url", "url": url})
	}
	p.describe = func(ctx context.Context) (string, error) {
		out, err := call(ctx, c, "take_snapshot", map[string]any{"pageId": id})
		p.last = out
		return out, err
	}
	p.typeText = func(ctx context.Context, tg target, text string) error {
		ref, ok := peerbench.Ref(p.last, tg.line...)
		if !ok {
			return fmt.Errorf("chrome-devtools-mcp: no %q in the snapshot", tg.line)
		}
		_, err := call(ctx, c, "fill", map[string]any{"pageId": id, "uid": ref, "value": text})
		return err
	}
	p.click = func(ctx context.Context, tg target) error {
		ref, ok := peerbench.Ref(p.last, tg.line...)
		if !ok {
			return fmt.Errorf("chrome-devtools-mcp: no %q in the snapshot", tg.line)
		}
		_, err := call(ctx, c, "click", map[string]any{"pageId": id, "uid": ref})
		return err
	}
	return p
}

func chromium(t *testing.T) string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("no system Chromium (apt-get install chromium)")
	return ""
}
