package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/config"
	"github.com/selenium-flow/selenium-flow/internal/egress"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/internal/telemetry"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := loadSettings("serve", args, stderr,
		"Usage: selenium-flow serve [--config FILE] [--http ADDR] [--resources on|off|auto] [--SETTING VALUE]…")
	if c == nil || err != nil {
		return err
	}
	logger, err := newLogger(c.Get("log_level"), stderr)
	if err != nil {
		return err
	}
	cfg, err := serverConfig(c)
	if err != nil {
		return err
	}
	cfg.Logger = logger
	httpAddr := c.Get("http")
	cfg.OIDC = oidcConfig(c, httpAddr != "")
	if httpAddr == "" {
		stdout = holdGC(stdout) // until the first answer on stdio: startgc.go
	}
	if httpAddr != "" {
		if err := auth.CheckListen(httpAddr, cfg.Tokens, cfg.OIDC); err != nil {
			return err
		}
	}
	// Listen before the server is built, so its browsers know the port
	// they must not reach.
	var ln net.Listener
	if httpAddr != "" {
		if ln, err = net.Listen("tcp", httpAddr); err != nil {
			return fmt.Errorf("cannot listen on %s: %w", httpAddr, err)
		}
		defer ln.Close()
		cfg.ListenPorts = []int{ln.Addr().(*net.TCPAddr).Port}
	}
	tp, shutdown, err := telemetry.Tracing(ctx, os.Getenv)
	if err != nil {
		return err
	}
	defer shutdown()
	cfg.TracerProvider = tp
	// Secret values in the environment are read once and leave it, so the
	// chromedriver and browsers the server starts do not inherit them:
	// secret settings (FLOW_TOKEN) and the FLOW_SECRET_ variables.
	for _, set := range config.Table() {
		if set.Secret {
			_ = os.Unsetenv(set.EnvName())
		}
	}
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
		logger.Warn("configuration", "problem", w.Error())
	}
	defer srv.Close()
	if httpAddr == "" {
		return srv.ServeStdio(ctx, os.Stdin, stdout)
	}
	return serveHTTP(ctx, ln, srv.HTTPHandler(), logger)
}

// serverConfig turns the effective configuration into the server's.
func serverConfig(c *config.Config) (server.Config, error) {
	setting, err := surface.ParseSetting(c.Get("resources"))
	if err != nil {
		return server.Config{}, fmt.Errorf("resources (%s): %w", c.Source("resources"), err)
	}
	tokens, err := loadTokens(c.Get("tokens"), c.Get("token"))
	if err != nil {
		return server.Config{}, err
	}
	idle, err := c.Duration("idle_timeout")
	if err != nil {
		return server.Config{}, err
	}
	linkTTL, err := c.Duration("link_ttl")
	if err != nil {
		return server.Config{}, err
	}
	wsTTL, err := c.Duration("workspace_ttl")
	if err != nil {
		return server.Config{}, err
	}
	if wsTTL < time.Minute {
		return server.Config{}, fmt.Errorf("workspace_ttl (%s) is %s; use a duration of a minute or more, e.g. 24h or 168h", c.Source("workspace_ttl"), wsTTL)
	}
	deny, err := egress.ParseRanges(c.Get("browser_deny"))
	if err != nil {
		return server.Config{}, fmt.Errorf("FLOW_BROWSER_DENY: %w", err)
	}
	allow, err := egress.ParseRanges(c.Get("browser_allow"))
	if err != nil {
		return server.Config{}, fmt.Errorf("FLOW_BROWSER_ALLOW: %w", err)
	}
	src := secrets.FromEnviron(os.Environ())
	src.File, src.Dir = c.Get("secrets"), c.Get("secrets_dir")
	return server.Config{
		Resources:      setting,
		ExcludeTools:   splitList(c.Get("exclude_tools")),
		NoScripts:      c.Bool("no_scripts"),
		Tokens:         tokens,
		DataDir:        c.Get("data_dir"),
		FlowLibraryDir: c.Get("flow_library_dir"),
		SeleniumURL:    c.Get("selenium_url"),
		IdleTimeout:    idle,
		Store:          c.Get("store"),
		StorePrefix:    c.Get("store_prefix"),
		WorkspaceTTL:   wsTTL,
		Secrets:        src,
		BrowserArgs:    browserArgs(c.Get("browser_args")),
		AllowedHosts:   splitList(strings.ToLower(c.Get("allowed_hosts"))),
		AllowedOrigins: splitList(c.Get("allowed_origins")),
		BrowserDeny:    deny,
		BrowserAllow:   allow,
		MetricsPublic:  c.Bool("metrics_public"),
		Settings:       c.Settings(),
		PublicURL:      c.Get("public_url"),
		LinkKey:        c.Get("link_key"),
		LinkTTL:        linkTTL,

		AdminFrameAncestors: c.Get("admin_frame_ancestors"),
	}, nil
}

// shutdownGrace bounds how long SIGTERM waits for calls in flight (a
// flow run, a page still loading) before cutting them off; browsers are
// closed after either way (Server.Close, deferred by runServe).
const shutdownGrace = 20 * time.Second

// serveHTTP serves until ctx ends (SIGINT, SIGTERM), then stops taking
// requests and returns once the calls in flight have finished, or
// shutdownGrace has passed.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	logger.Info("serving Streamable HTTP", "url", fmt.Sprintf("http://%s/mcp", ln.Addr()))
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := hs.Shutdown(shut); err != nil {
			logger.Warn("shutdown: calls still running were cut off", "after", shutdownGrace.String())
			_ = hs.Close()
		}
	}()
	// Serve returns as soon as Shutdown starts; the calls in flight are
	// waited for below, before the browsers they use are closed.
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-drained
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
