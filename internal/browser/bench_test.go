package browser

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tebeka/selenium"
)

// BenchmarkActions times the page tools on the fixture site with the
// shared session, one operation per iteration:
//
//	go test -run '^$' -bench Actions -benchtime 50x ./internal/browser/
func BenchmarkActions(b *testing.B) {
	s := shared(b)
	mustOpen := func(b *testing.B, path string) {
		b.Helper()
		if err := s.Navigate(page(path)); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("Click", func(b *testing.B) {
		mustOpen(b, "/controls")
		for b.Loop() {
			if err := s.Click(Locator{Text: "Clickable card"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ClickNavigates", func(b *testing.B) {
		// A link to the page itself: every click loads a new document, so
		// every lookup meets a document it has not seen.
		mustOpen(b, "/admin")
		for b.Loop() {
			if err := s.Click(Locator{Role: "link", Name: "Dashboard"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Write10", func(b *testing.B) {
		mustOpen(b, "/login")
		for b.Loop() {
			if err := s.Write(Locator{Label: "Email"}, "ada@ex.com", true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Write10IntoEmpty", func(b *testing.B) {
		// The common case: a fresh, empty field, cleared first (write's
		// default).
		mustOpen(b, "/login")
		for b.Loop() {
			b.StopTimer()
			if _, err := s.wd.ExecuteScript("const e = document.getElementById('email'); e.value = ''; e.blur(); return true", nil); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := s.Write(Locator{Label: "Email"}, "ada@ex.com", true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Write10NoClear", func(b *testing.B) {
		mustOpen(b, "/controls")
		for b.Loop() {
			if err := s.Write(Locator{Label: "Notes"}, "0123456789", false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Count", func(b *testing.B) {
		mustOpen(b, "/admin")
		for b.Loop() {
			if _, err := s.Count(Locator{Role: "link"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Assert", func(b *testing.B) {
		mustOpen(b, "/login")
		for b.Loop() {
			if err := s.Assert(Assertion{TextPresent: "Sign in", Visible: &Locator{Label: "Email"}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, p := range []string{"/login", "/admin"} {
		b.Run("Outline"+strings.ReplaceAll(p, "/", "_"), func(b *testing.B) {
			mustOpen(b, p)
			for b.Loop() {
				if _, err := s.Outline(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTraceCommands prints each WebDriver command that Click, Write and
// Assert send, with its time. It runs only when SF_TRACE=1.
func TestTraceCommands(t *testing.T) {
	if os.Getenv("SF_TRACE") == "" {
		t.Skip("set SF_TRACE=1 to trace WebDriver commands")
	}
	s := open(t, "/login")
	tr := trace(t)
	step := func(name string, f func() error) {
		tr.reset()
		start := time.Now()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %v\n%s", name, time.Since(start), tr.dump())
	}
	step("write (clear)", func() error { return s.Write(Locator{Label: "Email"}, "ada@ex.com", true) })
	step("write (again)", func() error { return s.Write(Locator{Label: "Email"}, "ada@ex.com", true) })
	step("write (no clear)", func() error { return s.Write(Locator{Label: "password"}, "0123456789", false) })
	step("click", func() error { return s.Click(Locator{Label: "Remember me"}) })
	step("assert", func() error { return s.Assert(Assertion{TextPresent: "Sign in"}) })
	step("outline", func() error { _, err := s.Outline(nil); return err })
}

// trace records the WebDriver commands sent until the test ends. Tests
// that use it must not run in parallel with others.
func trace(t testing.TB) *tracer {
	t.Helper()
	old := selenium.HTTPClient
	next := old.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	tr := &tracer{next: next}
	selenium.HTTPClient = &http.Client{Transport: tr}
	t.Cleanup(func() { selenium.HTTPClient = old })
	return tr
}

type tracer struct {
	next http.RoundTripper
	mu   sync.Mutex
	cmds []command
}

// command is one WebDriver command: its method, its path after the session
// id with element ids shown as "<el>", the size of its body and its time.
type command struct {
	method, path string
	sent         int64
	took         time.Duration
}

func (t *tracer) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(r)
	path := r.URL.Path
	if i := strings.Index(path, "/session/"); i >= 0 {
		path = path[i+len("/session/"):]
		if j := strings.IndexByte(path, '/'); j >= 0 {
			path = path[j:]
		} else {
			path = ""
		}
	}
	if rest, ok := strings.CutPrefix(path, "/element/"); ok {
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			path = "/element/<el>" + rest[j:]
		}
	}
	t.mu.Lock()
	t.cmds = append(t.cmds, command{r.Method, path, r.ContentLength, time.Since(start)})
	t.mu.Unlock()
	return resp, err
}

func (t *tracer) reset() { t.mu.Lock(); t.cmds = nil; t.mu.Unlock() }

// commands returns the commands sent since the last reset.
func (t *tracer) commands() []command {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]command(nil), t.cmds...)
}

func (t *tracer) dump() string {
	var b strings.Builder
	for _, c := range t.commands() {
		fmt.Fprintf(&b, "  %-6s %-28s %7.2f ms  (%d bytes sent)\n", c.method, c.path, float64(c.took.Microseconds())/1000, c.sent)
	}
	return b.String()
}
