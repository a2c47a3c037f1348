package django_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/django"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// TestMain fails the package if runserver outlives its test (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// TestStart: the admin answers by its host name too, its static files are
// served (the "+" popups need them), and runserver's process group is gone
// once the test that started it has ended.
func TestStart(t *testing.T) {
	var pgid int
	t.Run("serve", func(t *testing.T) {
		app := django.Start(t)
		for _, u := range []string{
			app.URL + "/admin/login/",
			app.Localhost() + "/admin/login/",
			app.URL + "/static/admin/js/admin/RelatedObjectLookups.js",
		} {
			res, err := http.Get(u)
			if err != nil {
				t.Fatalf("GET %s: %v", u, err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Errorf("GET %s: %s\n%s", u, res.Status, app.Output())
			}
			if strings.HasSuffix(u, "/login/") && !strings.Contains(string(body), "Django administration") {
				t.Errorf("GET %s is not the admin's login page:\n%s", u, body)
			}
		}
		for _, p := range testenv.Children() {
			if p.PGID == p.PID && strings.HasPrefix(p.Name, "python") {
				pgid = p.PGID
			}
		}
		if pgid == 0 {
			t.Fatalf("no runserver process among %v", testenv.Children())
		}
	})
	if left := testenv.GroupProcesses(pgid); len(left) > 0 {
		t.Errorf("runserver's group outlived its test: %v", left)
	}
}
