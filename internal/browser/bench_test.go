package browser

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
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
	rec := testenv.RecordWebDriver(t)
	step := func(name string, f func() error) {
		rec.Start()
		start := time.Now()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %v\n%s", name, time.Since(start), dump(rec.Stop()))
	}
	step("write (clear)", func() error { return s.Write(Locator{Label: "Email"}, "ada@ex.com", true) })
	step("write (again)", func() error { return s.Write(Locator{Label: "Email"}, "ada@ex.com", true) })
	step("write (no clear)", func() error { return s.Write(Locator{Label: "password"}, "0123456789", false) })
	step("click", func() error { return s.Click(Locator{Label: "Remember me"}) })
	step("assert", func() error { return s.Assert(Assertion{TextPresent: "Sign in"}) })
	step("outline", func() error { _, err := s.Outline(nil); return err })
}

// dump lists the commands with their times and body sizes.
func dump(cmds []testenv.SentCommand) string {
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "  %-40s %7.2f ms  (%d bytes sent)\n", c.Command(), float64(c.Took.Microseconds())/1000, len(c.Body))
	}
	return b.String()
}
