package peerbench_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/peerbench"
	"github.com/selenium-flow/selenium-flow/internal/servertest/django"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// task is the sequence an agent runs on a page: navigate, read the page
// (outline or snapshot), type into a field, click.
type task struct {
	site, url string
	field     target
	text      string
	submit    target
}

func label(l string) map[string]any { return map[string]any{"label": l} }

func role(r, name string) map[string]any { return map[string]any{"role": r, "name": name} }

// TestPeers runs the side-by-side benchmark (make bench-peers). It needs
// npm, the system Chromium and python3-django; without FLOW_PEERBENCH=1
// it is skipped, as it installs the peers from npm and takes minutes.
func TestPeers(t *testing.T) {
	if os.Getenv("FLOW_PEERBENCH") != "1" {
		t.Skip("the peer benchmark runs with FLOW_PEERBENCH=1 (make bench-peers)")
	}
	repeats := 10
	if n, err := strconv.Atoi(os.Getenv("FLOW_PEERBENCH_REPEATS")); err == nil && n > 0 {
		repeats = n
	}
	site := fixtures.Serve(t)
	app := django.Start(t)
	dir := npmInstall(t, playwrightMCP, devtoolsMCP)

	peers := []*peer{seleniumFlow(t), playwright(t, dir)}
	if os.Getenv("FLOW_PEERBENCH_DEVTOOLS") != "0" {
		peers = append(peers, devtools(t, dir))
	}
	ctx := testenv.Context(t)

	// Sign in to the admin on every peer, untimed.
	signIn := []struct {
		do func(p *peer) error
	}{
		{func(p *peer) error { _, err := p.navigate(ctx, app.URL+"/admin/login/"); return err }},
		{func(p *peer) error { _, err := p.describe(ctx); return err }},
		{func(p *peer) error {
			return p.typeText(ctx, target{label("Username:"), []string{"textbox", "Username"}}, app.User)
		}},
		{func(p *peer) error {
			return p.typeText(ctx, target{label("Password:"), []string{"textbox", "Password"}}, app.Password)
		}},
		{func(p *peer) error {
			return p.click(ctx, target{role("button", "Log in"), []string{"button", "Log in"}})
		}},
	}
	for _, p := range peers {
		for i, s := range signIn {
			if err := s.do(p); err != nil {
				t.Fatalf("%s: signing in, step %d: %v", p.name, i+1, err)
			}
		}
	}

	tasks := []task{
		{"fixture", site + "/login", target{label("Email"), []string{"textbox", "Email"}}, "ada@example.com",
			target{role("button", "Sign in"), []string{"button", "Sign in"}}},
		{"django", app.URL + "/admin/library/book/", target{map[string]any{"css": "#searchbar"}, []string{"textbox"}}, "Sagan",
			target{role("button", "Search"), []string{"button", "Search"}}},
	}
	times := peerbench.Timings{}
	var steps []string
	for _, tk := range tasks {
		steps = append(steps, tk.site+": navigate", tk.site+": outline/snapshot", tk.site+": type", tk.site+": click", tk.site+": whole task")
	}
	for r := range repeats {
		for i := range peers {
			p := peers[(i+r)%len(peers)] // a different peer goes first each round
			for _, tk := range tasks {
				taskStart := time.Now()
				timed := func(step string, f func() error) {
					t.Helper()
					start := time.Now()
					if err := f(); err != nil {
						t.Fatalf("%s: %s: %s: %v", p.name, tk.site, step, err)
					}
					times.Add(tk.site+": "+step, p.name, time.Since(start))
				}
				timed("navigate", func() error { _, err := p.navigate(ctx, tk.url); return err })
				timed("outline/snapshot", func() error { _, err := p.describe(ctx); return err })
				timed("type", func() error { return p.typeText(ctx, tk.field, tk.text) })
				timed("click", func() error { return p.click(ctx, tk.submit) })
				times.Add(tk.site+": whole task", p.name, time.Since(taskStart))
			}
		}
	}

	rep := peerbench.Report{Started: time.Now(), Repeats: repeats, Steps: times.Steps(steps, names(peers))}
	rep.Peers = names(peers)
	pages := []struct{ name, url string }{
		{"fixture /login", site + "/login"},
		{"fixture /controls", site + "/controls"},
		{"fixture /admin", site + "/admin"},
		{"fixture /article", site + "/article"},
		{"django index", app.URL + "/admin/"},
		{"django book list", app.URL + "/admin/library/book/"},
		{"django add book", app.URL + "/admin/library/book/add/"},
		{"django author list", app.URL + "/admin/library/author/"},
	}
	for _, pg := range pages {
		for _, p := range peers {
			if _, err := p.navigate(ctx, pg.url); err != nil {
				t.Fatalf("%s: %s: %v", p.name, pg.name, err)
			}
			text, err := p.describe(ctx)
			if err != nil {
				t.Fatalf("%s: %s: %v", p.name, pg.name, err)
			}
			rep.Pages = append(rep.Pages, peerbench.PageSize{Page: pg.name, Peer: p.name, Bytes: len(text), Tokens: len(text) / 4})
			if dump := os.Getenv("FLOW_PEERBENCH_DUMP"); dump != "" {
				// Each description as a file, to see what makes one longer.
				name := strings.NewReplacer(" ", "_", "/", "_").Replace(pg.name) + "." + p.name + ".txt"
				if err := os.WriteFile(filepath.Join(dump, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	rep.WriteTable(os.Stdout)
	out := os.Getenv("FLOW_PEERBENCH_OUT")
	if out == "" {
		out = filepath.Join(os.TempDir(), "selenium-flow-peerbench-"+time.Now().UTC().Format("20060102T150405")+".json")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rep.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}

func names(ps []*peer) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.name
	}
	return out
}
