package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tebeka/selenium"
)

// SentCommand is one WebDriver request as it went out, for benchmarks and
// tests that count or replay the commands an action sends.
type SentCommand struct {
	Method, URL, ContentType string
	Body                     []byte
	// Took is from sending the request to the answer's headers.
	Took time.Duration
}

var (
	sessionPrefix = regexp.MustCompile(`^.*/session/[^/]+`)
	elementID     = regexp.MustCompile(`/element/[^/]+`)
)

// Command names the request as "METHOD /command", the session id left out
// and element ids shown as {id}, so the same action names the same
// commands in every run.
func (c SentCommand) Command() string {
	path := c.URL
	if i := strings.Index(path, "://"); i >= 0 {
		if j := strings.IndexByte(path[i+3:], '/'); j >= 0 {
			path = path[i+3+j:]
		}
	}
	path, _, _ = strings.Cut(path, "?")
	path = elementID.ReplaceAllString(sessionPrefix.ReplaceAllString(path, ""), "/element/{id}")
	return fmt.Sprintf("%s %s", c.Method, path)
}

// Commands names each command (Command).
func Commands(cmds []SentCommand) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Command()
	}
	return out
}

// WebDriverRecorder keeps the WebDriver requests the process sends between
// Start and Stop. It wraps the WebDriver client's transport
// (selenium.HTTPClient, which tebeka/selenium shares process-wide) until
// the test ends, so tests and benchmarks using it must not run in
// parallel with others.
type WebDriverRecorder struct {
	next http.RoundTripper

	mu   sync.Mutex
	on   bool
	cmds []SentCommand
}

// RecordWebDriver starts recording the process's WebDriver requests; the
// client's transport is put back when tb ends.
func RecordWebDriver(tb testing.TB) *WebDriverRecorder {
	tb.Helper()
	old := selenium.HTTPClient
	next := old.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	r := &WebDriverRecorder{next: next}
	selenium.HTTPClient = &http.Client{Transport: r, Timeout: old.Timeout}
	tb.Cleanup(func() { selenium.HTTPClient = old })
	return r
}

// Start forgets what was kept and keeps the requests sent from now.
func (r *WebDriverRecorder) Start() {
	r.mu.Lock()
	r.on, r.cmds = true, nil
	r.mu.Unlock()
}

// Stop stops keeping and returns the requests sent since Start.
func (r *WebDriverRecorder) Stop() []SentCommand {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.cmds
}

// Sent returns the requests sent since Start, recording on.
func (r *WebDriverRecorder) Sent() []SentCommand {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]SentCommand(nil), r.cmds...)
}

// RoundTrip sends the request, keeping it while recording.
func (r *WebDriverRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	on := r.on
	r.mu.Unlock()
	if !on {
		return r.next.RoundTrip(req)
	}
	c := SentCommand{Method: req.Method, URL: req.URL.String(), ContentType: req.Header.Get("Content-Type")}
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		c.Body = body
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	start := time.Now()
	resp, err := r.next.RoundTrip(req)
	c.Took = time.Since(start)
	r.mu.Lock()
	r.cmds = append(r.cmds, c)
	r.mu.Unlock()
	return resp, err
}

// Replay sends the commands again, one after another, past the recorder,
// reading and decoding each answer as the WebDriver client does: the raw
// cost of the same commands without the server around them.
func (r *WebDriverRecorder) Replay(cmds []SentCommand) error {
	client := &http.Client{Transport: r.next}
	for _, c := range cmds {
		req, err := http.NewRequestWithContext(context.Background(), c.Method, c.URL, bytes.NewReader(c.Body))
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		if c.ContentType != "" {
			req.Header.Set("Content-Type", c.ContentType)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var v struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		var decoded any
		_ = json.Unmarshal(v.Value, &decoded)
	}
	return nil
}
