package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/egress"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at this address (e.g. 127.0.0.1:8765) instead of stdio; the endpoint is /mcp")
	res := fs.String("resources", os.Getenv("FLOW_RESOURCES"), "on: native resources only; off: offer the list_resources/read_resource mirror; auto: decide by clientInfo")
	token := fs.String("token", "", "accept this bearer token over HTTP, as the principal \"local\" (beside any FLOW_TOKENS)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: selenium-flow serve [--http ADDR] [--resources on|off|auto]")
		fs.PrintDefaults()
		printEnv(fs.Output())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	setting, err := surface.ParseSetting(*res)
	if err != nil {
		return err
	}
	tokens, err := loadTokens(os.Getenv("FLOW_TOKENS"), *token)
	if err != nil {
		return err
	}
	if *httpAddr != "" {
		if err := auth.CheckListen(*httpAddr, tokens); err != nil {
			return err
		}
	}
	idle, err := parseIdle(os.Getenv("FLOW_IDLE_TIMEOUT"))
	if err != nil {
		return err
	}
	deny, err := egress.ParseRanges(os.Getenv("FLOW_BROWSER_DENY"))
	if err != nil {
		return fmt.Errorf("FLOW_BROWSER_DENY: %w", err)
	}
	allow, err := egress.ParseRanges(os.Getenv("FLOW_BROWSER_ALLOW"))
	if err != nil {
		return fmt.Errorf("FLOW_BROWSER_ALLOW: %w", err)
	}
	// Listen before the server is built, so its browsers know the port
	// they must not reach.
	var ln net.Listener
	var listenPorts []int
	if *httpAddr != "" {
		if ln, err = net.Listen("tcp", *httpAddr); err != nil {
			return fmt.Errorf("cannot listen on %s: %w", *httpAddr, err)
		}
		defer ln.Close()
		listenPorts = []int{ln.Addr().(*net.TCPAddr).Port}
	}
	cfg := server.Config{
		Resources:      setting,
		ExcludeTools:   splitList(os.Getenv("FLOW_EXCLUDE_TOOLS")),
		NoScripts:      os.Getenv("FLOW_NO_SCRIPTS") == "1",
		Tokens:         tokens,
		DataDir:        os.Getenv("FLOW_DATA_DIR"),
		FlowLibraryDir: os.Getenv("FLOW_LIBRARY_DIR"),
		SeleniumURL:    os.Getenv("SELENIUM_URL"),
		IdleTimeout:    idle,
		Secrets:        secrets.FromEnviron(os.Environ()),
		BrowserArgs:    browserArgs(os.Getenv("FLOW_BROWSER_ARGS")),
		AllowedHosts:   splitList(strings.ToLower(os.Getenv("FLOW_ALLOWED_HOSTS"))),
		AllowedOrigins: splitList(os.Getenv("FLOW_ALLOWED_ORIGINS")),
		BrowserDeny:    deny,
		BrowserAllow:   allow,
		ListenPorts:    listenPorts,
	}
	// Secret values in the environment are read once and leave it, so the
	// chromedriver and browsers the server starts do not inherit them.
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, secrets.EnvPrefix) {
			_ = os.Unsetenv(name)
		}
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	for _, w := range srv.Warnings() {
		fmt.Fprintln(stderr, "selenium-flow:", w)
	}
	defer srv.Close()
	if *httpAddr == "" {
		return srv.ServeStdio(ctx, os.Stdin, stdout)
	}
	return serveHTTP(ctx, ln, srv.HTTPHandler(), stderr)
}

func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, stderr io.Writer) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "selenium-flow: serving Streamable HTTP at http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loadTokens reads FLOW_TOKENS and adds --token for the local principal;
// with neither there are no tokens (loopback only).
func loadTokens(file, token string) (*auth.Tokens, error) {
	if file == "" && token == "" {
		return nil, nil
	}
	t, _ := auth.NewTokens(nil)
	if file != "" {
		var err error
		if t, err = auth.LoadTokens(file); err != nil {
			return nil, err
		}
	}
	if token != "" {
		if err := t.Add(token, auth.Local); err != nil {
			return nil, fmt.Errorf("--token: %w", err)
		}
	}
	return t, nil
}

func parseIdle(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("FLOW_IDLE_TIMEOUT=%q is not a positive duration; use e.g. 15m or 1h", v)
	}
	return d, nil
}

// browserArgs splits FLOW_BROWSER_ARGS into Chromium arguments: each
// starts with --, and an argument's value may hold spaces and commas
// (a host-resolver rule such as "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1").
func browserArgs(s string) []string {
	var out []string
	for _, part := range strings.Split(" "+strings.TrimSpace(s), " --") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, "--"+part)
		}
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) error {
	fmt.Fprintln(stdout, "selenium-flow", server.Version)
	return nil
}
