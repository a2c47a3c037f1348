package browser

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/django"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// The benchmarks issue 11 names, reported by make bench (go test -run '^$'
// -bench .):
//
//   - BenchmarkSnapshotSize: outline bytes beside the page's HTML and a
//     Playwright-style accessibility snapshot of the same page
//     (axsnapshot_test.go), on the fixture pages and on Django admin pages
//     (internal/servertest/django), as custom metrics; the outline should
//     stay at most a quarter of the snapshot (snapshot/outline ≥ 4);
//   - BenchmarkActionOverhead: the median time of a page action beside the
//     same WebDriver commands sent directly, in the same run; the
//     difference (added-ms) is what the package adds per action, to stay
//     under 2 ms. On a loaded machine the two runs' noise can exceed the
//     difference; gap-ms, the action's time outside its own round trips,
//     measures the same without a second run.
//
// Outline against HTML alone is BenchmarkOutlineSize (outline_test.go),
// an MCP call's overhead tools' BenchmarkToolOverhead, and listing
// session://files with a browser open internal/sessions'
// BenchmarkListFiles.

// BenchmarkSnapshotSize times Outline per page and reports its size beside
// the page's HTML (the DOM as serialised after scripts) and the snapshot:
//
//	go test -run '^$' -bench SnapshotSize ./internal/browser/
func BenchmarkSnapshotSize(b *testing.B) {
	s := shared(b)
	for _, p := range fixtures.Pages {
		b.Run("fixture"+strings.ReplaceAll(p, "/", "_"), func(b *testing.B) {
			if err := s.Navigate(page(p)); err != nil {
				b.Fatal(err)
			}
			benchOutline(b, s)
		})
	}
	b.Run("django", func(b *testing.B) {
		app := django.Start(b)
		for _, p := range []struct{ name, path string }{
			{"login", "/admin/login/"},
			{"changelist", "/admin/library/book/"},
			{"changelist_page2", "/admin/library/book/?p=2"},
			{"add_form", "/admin/library/book/add/"},
			{"delete_confirmation", "/admin/library/book/1/delete/"},
		} {
			b.Run(p.name, func(b *testing.B) {
				djangoPage(b, s, app, p.path)
				benchOutline(b, s)
			})
		}
	})
}

// djangoPage loads an admin page by the host name localhost: the login
// page signed out, any other signed in (signing in when Django asks).
func djangoPage(b *testing.B, s *Session, app *django.App, path string) {
	b.Helper()
	u := app.Localhost() + path
	if path == "/admin/login/" {
		// Signed in, Django sends the login page on to the index.
		if err := s.Navigate(u); err != nil {
			b.Fatal(err)
		}
		if err := s.wd.DeleteAllCookies(); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Navigate(u); err != nil {
		b.Fatal(err)
	}
	if now, _ := s.CurrentURL(); path != "/admin/login/" && strings.Contains(now, "/admin/login/") {
		for _, err := range []error{
			s.Write(Locator{Label: "Username:"}, app.User, true),
			s.Write(Locator{Label: "Password:"}, app.Password, true),
			s.Click(Locator{Role: "button", Name: "Log in"}),
		} {
			if err != nil {
				b.Fatalf("signing in to Django: %v\n%s", err, app.Output())
			}
		}
		if err := s.Navigate(u); err != nil {
			b.Fatal(err)
		}
	}
	if now, _ := s.CurrentURL(); !strings.HasPrefix(now, u) {
		b.Fatalf("wanted %s, the browser is at %s", u, now)
	}
}

// benchOutline times Outline on the current page and reports the sizes.
func benchOutline(b *testing.B, s *Session) {
	b.Helper()
	// Once in a run on a loaded machine chromedriver answered an empty
	// page source right after a load; a size of 0 would be a lie.
	var html string
	var err error
	if !testenv.Poll(testenv.Deadline(b, testenv.Fallback), func() bool {
		html, err = s.PageHTML()
		return err != nil || html != ""
	}) || err != nil {
		b.Fatalf("page HTML: %v (%d bytes)", err, len(html))
	}
	snap, err := s.playwrightSnapshot(testenv.Context(b))
	if err != nil {
		b.Fatal(err)
	}
	var outline string
	for b.Loop() {
		if outline, err = s.Outline(nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(outline)), "outline-bytes")
	b.ReportMetric(float64(len(html)), "html-bytes")
	b.ReportMetric(float64(len(snap)), "snapshot-bytes")
	b.ReportMetric(float64(len(snap))/float64(len(outline)), "snapshot/outline")
	b.ReportMetric(float64(len(html))/float64(len(outline)), "html/outline")
}

// BenchmarkActionOverhead runs each action, records the WebDriver commands
// it sent, and sends those same commands again directly through the
// WebDriver client's HTTP client (as tebeka's own calls do: a request, the
// whole JSON answer read and decoded), in the same iteration. It reports
// the medians of both and of their difference per action (added-ms), and
// the median time of the action spent outside its WebDriver round trips
// (gap-ms: the package's own work, and any waiting it does on purpose,
// such as Click's look for a navigation it may have started, settle.go):
//
//	go test -run '^$' -bench ActionOverhead ./internal/browser/
func BenchmarkActionOverhead(b *testing.B) {
	s := shared(b)
	sizes := []string{"Small", "Large"}
	for _, a := range []struct {
		name, path string
		do         func(i int) error
	}{
		{"Click", "/controls", func(int) error { return s.Click(Locator{Text: "Clickable card"}) }},
		{"Write", "/login", func(int) error { return s.Write(Locator{Label: "Email"}, "ada@ex.com", true) }},
		{"Select", "/controls", func(i int) error { return s.Select(Locator{Label: "Size"}, sizes[i%2]) }},
		{"Assert", "/login", func(int) error {
			return s.Assert(Assertion{TextPresent: "Sign in", Visible: &Locator{Label: "Email"}})
		}},
		{"Count", "/admin", func(int) error { _, err := s.Count(Locator{Role: "link"}); return err }},
	} {
		b.Run(a.name, func(b *testing.B) {
			if err := s.Navigate(page(a.path)); err != nil {
				b.Fatal(err)
			}
			// Once before timing: the page script is installed on the
			// first call in a document, which later calls do not repeat.
			if err := a.do(1); err != nil {
				b.Fatal(err)
			}
			rec := testenv.RecordWebDriver(b)
			var action, raw, added, gap []time.Duration
			cmds := 0
			i := 0
			for b.Loop() {
				rec.Start()
				t0 := time.Now()
				if err := a.do(i); err != nil {
					b.Fatal(err)
				}
				took := time.Since(t0)
				sent := rec.Stop()
				t1 := time.Now()
				if err := rec.Replay(sent); err != nil {
					b.Fatal(err)
				}
				direct := time.Since(t1)
				wire := time.Duration(0)
				for _, c := range sent {
					wire += c.Took
				}
				action, raw, added, gap = append(action, took), append(raw, direct), append(added, took-direct), append(gap, took-wire)
				cmds += len(sent)
				i++
			}
			b.ReportMetric(ms(median(action)), "action-ms")
			b.ReportMetric(ms(median(raw)), "raw-ms")
			b.ReportMetric(ms(median(added)), "added-ms")
			b.ReportMetric(ms(median(gap)), "gap-ms")
			b.ReportMetric(float64(cmds)/float64(max(i, 1)), "cmds/op")
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
