package browser

import (
	"context"
	"fmt"
	"html"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The fixture server and one shared browser session serve most tests: a
// session costs about 0.3 s and 150 MiB.
var (
	fixtures *httptest.Server

	sharedOnce    sync.Once
	sharedDriver  *Driver
	sharedSession *Session
	sharedErr     error
)

func TestMain(m *testing.M) {
	fixtures = httptest.NewServer(fixtureHandler())
	code := m.Run()
	if sharedDriver != nil {
		sharedDriver.Close()
	}
	fixtures.Close()
	os.Exit(code)
}

// needChromedriver skips the test when chromedriver is not installed.
func needChromedriver(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("chromedriver"); err != nil {
		t.Skip("chromedriver is not on PATH")
	}
}

// shared returns the session shared by the tests.
func shared(t testing.TB) *Session {
	t.Helper()
	needChromedriver(t)
	sharedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		sharedDriver, sharedErr = Start(ctx)
		if sharedErr != nil {
			return
		}
		sharedSession, sharedErr = sharedDriver.NewSession(ctx, SessionOptions{})
	})
	if sharedErr != nil {
		t.Fatalf("starting the shared session: %v", sharedErr)
	}
	return sharedSession
}

func page(path string) string { return fixtures.URL + path }

// open navigates the shared session to a fixture page.
func open(t testing.TB, path string) *Session {
	t.Helper()
	s := shared(t)
	if err := s.Navigate(page(path)); err != nil {
		t.Fatalf("navigate to %s: %v", path, err)
	}
	return s
}

// User is a row of the admin fixture.
type User struct {
	ID                                  int
	Name, Email, Role, Status, LastSeen string
	StatusClass                         string
}

func adminUsers() []User {
	roles := []string{"Admin", "Editor", "Viewer", "Viewer", "Editor"}
	first := []string{"Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances", "Alan", "Radia"}
	last := []string{"Lovelace", "Hopper", "Torvalds", "Liskov", "Thompson", "Hamilton", "Ritchie", "Allen", "Turing", "Perlman", "Knuth", "Wirth"}
	var us []User
	for i := 1; i <= 120; i++ {
		f, l := first[i%len(first)], last[i%len(last)]
		st, cls := "Active", "active"
		if i%7 == 0 {
			st, cls = "Suspended", "suspended"
		}
		us = append(us, User{
			ID:          i,
			Name:        fmt.Sprintf("%s %s %d", f, l, i),
			Email:       fmt.Sprintf("user%d@example.com", i),
			Role:        roles[i%len(roles)],
			Status:      st,
			StatusClass: cls,
			LastSeen:    fmt.Sprintf("2026-11-%02d", 1+i%28),
		})
	}
	return us
}

const reportCSV = "month,orders,revenue\n2026-09,120,4810.50\n2026-10,133,5120.00\n2026-11,141,5533.25\n"

func fixtureHandler() http.Handler {
	mux := http.NewServeMux()
	file := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, filepath.Join("testdata", name))
		}
	}
	mux.HandleFunc("GET /login", file("login.html"))
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Welcome</title></head><body><main><h1>Dashboard</h1>
<p id="welcome">Welcome %s</p><p>Remember me: %s</p><a href="/login">Sign out</a></main></body></html>`,
			html.EscapeString(r.PostFormValue("email")), html.EscapeString(r.PostFormValue("remember")))
	})
	mux.HandleFunc("GET /article", file("article.html"))
	mux.HandleFunc("GET /controls", file("controls.html"))
	mux.HandleFunc("GET /tricky", file("tricky.html"))
	mux.HandleFunc("GET /download", file("download.html"))
	mux.HandleFunc("GET /upload", file("upload.html"))
	admin := template.Must(template.ParseFiles(filepath.Join("testdata", "admin.html.tmpl")))
	mux.HandleFunc("GET /admin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		admin.Execute(w, adminUsers())
	})
	mux.HandleFunc("GET /files/report.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		io.WriteString(w, reportCSV)
	})
	mux.HandleFunc("POST /upload", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(10 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var out string
		for _, field := range []string{"doc", "avatar"} {
			f, h, err := r.FormFile(field)
			if err != nil {
				continue
			}
			n, _ := io.Copy(io.Discard, f)
			f.Close()
			out += fmt.Sprintf("<p>Uploaded %s: %s (%d bytes)</p>", field, html.EscapeString(h.Filename), n)
		}
		if out == "" {
			out = "<p>Nothing uploaded</p>"
		}
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Uploaded</title></head><body><main>%s</main></body></html>`, out)
	})
	return mux
}
