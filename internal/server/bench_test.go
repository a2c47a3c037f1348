package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"

// BenchmarkStartToInitialize measures process start to initialize answered
// over stdio (ms-median; target ≤ 15 ms), and beside it the package
// initialisation time GODEBUG=inittrace=1 reports (init-ms, the median of
// the sums over runs), the slowest package named in the log:
//
//	go test -run '^$' -bench StartToInitialize -benchtime 40x -v ./internal/server/
func BenchmarkStartToInitialize(b *testing.B) {
	bin := servertest.Binary(b)
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(bin, "serve")
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(in, initializeLine)
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		var resp struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &resp) != nil || resp.Result == nil {
			b.Fatalf("not an initialize result: %s", line)
		}
		_ = in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	b.ReportMetric(float64(median(times).Microseconds())/1000, "ms-median")
	b.StopTimer()
	initMS, slowest := initTrace(b, bin, 9)
	b.ReportMetric(initMS, "init-ms")
	b.Logf("slowest package init: %s", slowest)
}

// initTrace runs the binary n times under GODEBUG=inittrace=1 up to the
// initialize answer and returns the median total of its package init
// clock times, and the slowest package of the last run.
func initTrace(b *testing.B, bin string, n int) (float64, string) {
	var totals []time.Duration
	slowest := ""
	for range n {
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		var trace strings.Builder
		cmd.Stderr = &trace
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(in, initializeLine)
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		_ = in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		// "init <pkg> @0.5 ms, 6.4 ms clock, 1701112 bytes, 21285 allocs"
		var total, worst float64
		for _, line := range strings.Split(trace.String(), "\n") {
			f := strings.Fields(line)
			if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
				continue
			}
			var ms float64
			if _, err := fmt.Sscanf(f[4], "%g", &ms); err != nil {
				continue
			}
			total += ms
			if ms > worst {
				worst, slowest = ms, fmt.Sprintf("%s %.1f ms", f[1], ms)
			}
		}
		totals = append(totals, time.Duration(total*float64(time.Millisecond)))
	}
	return float64(median(totals).Microseconds()) / 1000, slowest
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

const skillURI = "skill://selenium-flow/SKILL.md"

// BenchmarkReadSkillHTTP reads a skill over Streamable HTTP from 16
// concurrent clients, beside a bare net/http handler serving the same bytes
// in the same run. Target: the server within 3× of the bare handler.
func BenchmarkReadSkillHTTP(b *testing.B) {
	srv, err := server.New(server.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	content, err := srv.Table().Read(context.Background(), skillURI)
	if err != nil {
		b.Fatal(err)
	}
	mcpHTTP := httptest.NewServer(srv.HTTPHandler())
	b.Cleanup(mcpHTTP.Close) // after the clients' own cleanups
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		_, _ = io.WriteString(w, content.Text)
	}))
	defer bare.Close()

	const clients = 16
	const perClient = 200
	var mcpRate, bareRate float64
	for b.Loop() {
		mcpRate = measure(b, clients, perClient, func(b *testing.B) func() error {
			// A real client opens the session; the load is then sent as
			// plain HTTP, like the bare side, so the ratio measures the
			// server and not mcp-go's client-side decoding.
			c := servertest.ConnectHTTP(b, mcpHTTP.URL+"/mcp", servertest.Options{Protocol: servertest.Legacy})
			session := c.GetSessionId()
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
			body := `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"` + skillURI + `"}}`
			return func() error {
				req, _ := http.NewRequest(http.MethodPost, mcpHTTP.URL+"/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Session-Id", session)
				req.Header.Set("Mcp-Protocol-Version", servertest.Legacy)
				res, err := hc.Do(req)
				if err != nil {
					return err
				}
				n, _ := io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				if res.StatusCode != http.StatusOK || n < int64(len(content.Text)) {
					return fmt.Errorf("status %d, %d bytes", res.StatusCode, n)
				}
				return nil
			}
		})
		bareRate = measure(b, clients, perClient, func(b *testing.B) func() error {
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
			return func() error {
				res, err := hc.Get(bare.URL)
				if err != nil {
					return err
				}
				_, _ = io.Copy(io.Discard, res.Body)
				return res.Body.Close()
			}
		})
	}
	b.ReportMetric(mcpRate, "mcp-req/s")
	b.ReportMetric(bareRate, "bare-req/s")
	b.ReportMetric(bareRate/mcpRate, "bare/mcp")
}

// measure runs n requests on each of k clients at once and returns requests/s.
func measure(b *testing.B, k, n int, setup func(*testing.B) func() error) float64 {
	calls := make([]func() error, k)
	for i := range calls {
		calls[i] = setup(b)
	}
	var wg sync.WaitGroup
	var failed atomic.Int64
	start := time.Now()
	for _, call := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				if call() != nil {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() > 0 {
		b.Fatalf("%d requests failed", failed.Load())
	}
	return float64(k*n) / time.Since(start).Seconds()
}

// BenchmarkReadAllocs counts allocations of one resources/read handled by
// the MCP server in process, without a transport.
func BenchmarkReadAllocs(b *testing.B) {
	srv, err := server.New(server.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"` + skillURI + `"}}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := srv.MCP().HandleMessage(ctx, msg); r == nil {
			b.Fatal("no response")
		}
	}
}

// BenchmarkToolCallInProcess is one cheap tool call (list_resources)
// through the in-process client and the whole middleware chain, metrics,
// span and log line included, for comparing with BenchmarkToolCallRecord
// in internal/telemetry (the observation's own share).
func BenchmarkToolCallInProcess(b *testing.B) {
	srv := servertest.New(b, server.Config{Resources: surface.Off, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c := servertest.InProcess(b, srv, servertest.Options{})
	for b.Loop() {
		servertest.CallOK(b, c, "list_resources", nil)
	}
}
