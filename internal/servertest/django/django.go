// Package django runs a real web application nobody here wrote — Django's
// admin, from Debian's python3-django — for tests that drive it through a
// browser:
//
//	app := django.Start(t)
//	// app.URL + "/admin/" is the admin's login page; sign in with
//	// app.User and app.Password.
//
// Start makes a throwaway project in t.TempDir() (the files under
// project/: sqlite, the admin, and an app "library" whose Author and Book
// models have a foreign key, a date, choices and a checkbox, registered
// with search, filters and five rows per page), creates its tables, a
// superuser and twelve seeded books, and serves it with
// `manage.py runserver 127.0.0.1:PORT --noreload`. The server leads its
// own process group, dies with the test process (Pdeathsig) and is killed
// with its group when t ends.
//
// Without python3-django the test is skipped, and fails under CI=true,
// as testenv.NeedBrowser does for a missing browser. The package imports
// nothing of selenium-flow but testenv, so the internal tests of any
// package (internal/browser's benchmarks included) can use it.
package django

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// project is the Django project Start copies into the test's folder;
// "all:" keeps the packages' __init__.py files, which embed would skip.
//
//go:embed all:project
var project embed.FS

// The superuser Start creates. The password is a test value, typed by the
// tests as a secret.
const (
	User     = "admin"
	Password = "Adm1n-Test-Pa55!"
	Email    = "admin@example.com"
)

// Seeded facts the tests rely on: twelve books at five per change-list
// page, by three authors.
const (
	SeededBooks = 12
	PerPage     = 5
)

// App is a running Django project.
type App struct {
	// URL is the server's base, http://127.0.0.1:PORT, without a slash.
	URL string
	// Port is the port it listens on.
	Port int
	// User and Password sign in to the admin as a superuser.
	User, Password string

	dir string
	out *testenv.Buffer
}

// Localhost is the base URL by the host name localhost, which a browser
// must resolve (127.0.0.1 is not a host name).
func (a *App) Localhost() string { return "http://localhost:" + strconv.Itoa(a.Port) }

// Output is what the Django processes wrote so far (runserver's request
// log included), for a failing test's message.
func (a *App) Output() string { return a.out.String() }

// Python returns a python3 that can import django: Debian's
// /usr/bin/python3 first (a pyenv or virtualenv python3 on PATH usually
// cannot), then python3 on PATH. It skips t when there is none, and fails
// it under CI=true, where the Django tests must run (.ci/run installs
// python3-django).
func Python(t testing.TB) string {
	t.Helper()
	py, err := python()
	if err == nil {
		return py
	}
	if testenv.CI() {
		t.Fatalf("%v, and CI=true: the Django tests must run in CI (apt-get install python3-django)", err)
	}
	t.Skipf("%v (apt-get install python3-django)", err)
	return ""
}

var found struct {
	once sync.Once
	py   string
	err  error
}

func python() (string, error) {
	found.once.Do(func() {
		candidates := []string{"/usr/bin/python3"}
		if p, err := exec.LookPath("python3"); err == nil {
			candidates = append(candidates, p)
		}
		for _, py := range candidates {
			if exec.Command(py, "-c", "import django").Run() == nil {
				found.py = py
				return
			}
		}
		found.err = fmt.Errorf("no python3 can import django (tried %s)", strings.Join(candidates, ", "))
	})
	return found.py, found.err
}

// Start creates, seeds and serves a fresh Django project for t, and
// returns once its login page answers, within t's deadline.
func Start(t testing.TB) *App {
	t.Helper()
	py := Python(t)
	dir := filepath.Join(t.TempDir(), "project")
	if err := copyProject(dir); err != nil {
		t.Fatalf("django: writing the project: %v", err)
	}
	app := &App{User: User, Password: Password, dir: dir, out: &testenv.Buffer{}}
	ctx := testenv.Context(t)
	seed, err := project.ReadFile("project/seed.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range [][]string{
		// The library app has no migrations: --run-syncdb creates its
		// tables from the models.
		{"migrate", "--run-syncdb", "--verbosity", "0"},
		{"createsuperuser", "--noinput", "--username", User, "--email", Email},
		{"shell", "--command", string(seed)},
	} {
		if err := app.manage(ctx, py, step...); err != nil {
			t.Fatalf("django: manage.py %s: %v\n%s", step[0], err, app.Output())
		}
	}
	app.serve(t, py)
	return app
}

func copyProject(dir string) error {
	sub, err := fs.Sub(project, "project")
	if err != nil {
		return err
	}
	return os.CopyFS(dir, sub)
}

// environ is the environment of every manage.py run: the superuser's
// password for createsuperuser --noinput, and no bytecode written into
// the project.
func environ() []string {
	return append(os.Environ(), "DJANGO_SUPERUSER_PASSWORD="+Password, "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1")
}

func (a *App) manage(ctx context.Context, py string, args ...string) error {
	cmd := exec.CommandContext(ctx, py, append([]string{"manage.py"}, args...)...)
	cmd.Dir = a.dir
	cmd.Env = environ()
	cmd.Stdout, cmd.Stderr = a.out, a.out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd.Run()
}

// serve starts runserver on a free loopback port and waits until the login
// page answers. runserver picks no port itself, so a port is taken and let
// go just before; another process grabbing it in between makes runserver
// exit, which fails the test with its output rather than hanging.
func (a *App) serve(t testing.TB, py string) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatalf("django: no free port: %v", err)
	}
	a.Port, a.URL = port, "http://127.0.0.1:"+strconv.Itoa(port)
	cmd := exec.Command(py, "manage.py", "runserver", "127.0.0.1:"+strconv.Itoa(port), "--noreload")
	cmd.Dir = a.dir
	cmd.Env = environ()
	cmd.Stdout, cmd.Stderr = a.out, a.out
	// Its own group, killed whole with the test; dies with the test
	// process even when the binary is killed before Cleanup runs.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("django: runserver: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})

	login := a.URL + "/admin/login/"
	client := &http.Client{Timeout: 2 * time.Second}
	ready := testenv.Poll(testenv.Deadline(t, testenv.Fallback), func() bool {
		select {
		case <-exited:
			return true // reported below
		default:
		}
		res, err := client.Get(login)
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	select {
	case <-exited:
		t.Fatalf("django: runserver exited before serving:\n%s", a.Output())
	default:
	}
	if !ready {
		t.Fatalf("django: %s did not answer by the test's deadline:\n%s", login, a.Output())
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
