package django

import (
	"bytes"
	"os/exec"
	"syscall"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// Shell runs Python code in the project's Django shell (models imported
// by the code itself) and returns what it printed: how a test reads the
// database's end state, beside what the pages showed.
func (a *App) Shell(t testing.TB, code string) string {
	t.Helper()
	py := Python(t)
	var out bytes.Buffer
	cmd := exec.CommandContext(testenv.Context(t), py, "manage.py", "shell", "--command", code)
	cmd.Dir = a.dir
	cmd.Env = environ()
	cmd.Stdout, cmd.Stderr = &out, a.out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Run(); err != nil {
		t.Fatalf("django: manage.py shell: %v\n%s", err, a.Output())
	}
	return out.String()
}
