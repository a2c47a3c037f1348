package attack_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// oracleSecret is the value the attacker tries to learn. The attacker
// knows its length and its alphabet, and guesses its first character.
const oracleSecret = "Kx7pQ2mW9zR4vT"

// oracleProbes are the questions a caller could ask a page that shows a
// secret, one per kind of check or locator, each built around a guess g
// at the secret's first character.
var oracleProbes = []struct {
	name, tool string
	needle     string // the guess in context, with %s for the character
	args       func(needle string) map[string]any
	answered   bool // asked all the same, and answered alike for every guess
}{
	{"css value prefix", "click", `[value^="%s"]`, func(n string) map[string]any { return map[string]any{"locator": map[string]any{"css": "input" + n}} }, false},
	{"css data- substring", "assert", `[data-x*="for %s"]`, func(n string) map[string]any { return map[string]any{"locator": map[string]any{"css": "h2" + n}} }, false},
	{"css within", "outline", `[data-x^="Results for %s"]`, func(n string) map[string]any { return map[string]any{"within": map[string]any{"css": n}} }, false},
	{"css read_text", "read_text", `[data-x$="%s"]`, func(n string) map[string]any { return map[string]any{"locator": map[string]any{"css": n}} }, false},
	{"xpath starts-with", "assert", `starts-with(@value,"%s")`, func(n string) map[string]any {
		return map[string]any{"locator": map[string]any{"xpath": "//input[" + n + "]"}}
	}, false},
	{"xpath json blob", "hover", `contains(.,'"query": "%s')`, func(n string) map[string]any {
		return map[string]any{"locator": map[string]any{"xpath": "//pre[" + n + "]"}}
	}, false},
	{"text locator", "click", `You searched for %s`, func(n string) map[string]any { return map[string]any{"locator": map[string]any{"text": n}} }, false},
	{"text locator within", "click", `searched for %s`, func(n string) map[string]any {
		return map[string]any{"locator": map[string]any{"css": "#go", "within": map[string]any{"text": n}}}
	}, false},
	{"role name prefix", "assert", `Results for %s`, func(n string) map[string]any {
		return map[string]any{"locator": map[string]any{"role": "heading", "name": n}}
	}, true},
	{"label prefix", "write", `Query %s`, func(n string) map[string]any {
		return map[string]any{"locator": map[string]any{"label": n}, "text": "x"}
	}, true},
	{"assert text", "assert", `searched for %s`, func(n string) map[string]any { return map[string]any{"text": n} }, false},
	{"assert url", "assert", `q=%s`, func(n string) map[string]any { return map[string]any{"url": n} }, false},
	{"assert title", "assert", `^Results for %s`, func(n string) map[string]any { return map[string]any{"title": n} }, false},
	{"wait_for text", "wait_for", `searched for %s`, func(n string) map[string]any { return map[string]any{"text": n, "timeout": 1} }, false},
	{"wait_for url", "wait_for", `q=%s`, func(n string) map[string]any { return map[string]any{"url": n, "timeout": 1} }, false},
	{"assert count", "assert", `[value^="%s"]`, func(n string) map[string]any {
		return map[string]any{"locator": map[string]any{"css": "input" + n}, "count": 1}
	}, false},
	{"execute_script", "execute_script", `"%s"`, func(n string) map[string]any {
		return map[string]any{"script": "return document.title.startsWith(" + n + ".slice(0, 0) + 'Results for ' + " + n + ");"}
	}, false},
}

// TestNoOracle plays the attacker of issue 12: the caller's page echoes a
// secret it had the server type into the URL, the title, a field's value
// attribute, a data- attribute and a JSON blob, and the caller asks, one
// kind of question at a time, whether the secret starts with a guessed
// character. Every answer must be the same for the right character and
// the wrong ones: the probe itself taken out, the same isError and the
// same text.
func TestNoOracle(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" query 127.0.0.1 "+oracleSecret+"\n"), 0o600))
	c := servertest.InProcess(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}), servertest.Options{})

	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/echo"})
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Query"}, "secret": "query", "submit": true})
	// The page now shows the secret: the probes have something to find.
	servertest.CallOK(t, c, "wait_for", map[string]any{"locator": map[string]any{"css": "#said"}})

	guesses := []string{oracleSecret[:1], "Z", "k", "7"}
	for _, p := range oracleProbes {
		t.Run(p.name, func(t *testing.T) {
			var first, firstText string
			for i, g := range guesses {
				needle := fmt.Sprintf(p.needle, g)
				r := servertest.Call(t, c, p.tool, p.args(needle))
				text := strings.ReplaceAll(servertest.Text(r), needle, "")
				answer := fmt.Sprintf("isError=%v %s", r.IsError, text)
				assert.Check(t, !strings.Contains(text, oracleSecret), "the secret shows: %s", text)
				if i == 0 {
					first, firstText = answer, text
					// The mechanism: the question is refused, and says
					// what works instead; role names and labels are
					// answered, matching only as a whole.
					if !p.answered {
						assert.Check(t, r.IsError, "%s was answered: %s", p.tool, text)
						assert.Check(t, is.Contains(text, "shows a secret you typed"))
					}
					continue
				}
				assert.Check(t, answer == first, "the guess %q (right: %q) answers differently:\n%s\nagainst\n%s", g, guesses[0], answer, firstText)
			}
		})
	}

	// What a caller needs on such a page still works: the outline (with
	// the secret redacted), id locators, role and the whole name.
	out := servertest.CallOK(t, c, "outline", nil)
	assert.Check(t, !strings.Contains(out, oracleSecret))
	servertest.CallOK(t, c, "assert", map[string]any{"locator": map[string]any{"css": "#said"}})
	servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Search"}})
	// A page that does not show it answers everything again.
	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/echo"})
	servertest.CallOK(t, c, "assert", map[string]any{"title": `^Results for\s*$`, "locator": map[string]any{"css": `input[value=""]`}})
	servertest.CallOK(t, c, "execute_script", map[string]any{"script": "return 1;"})
}

// TestNoOracleLoginForm: the usual login, where the password typed as a
// secret stays in its field and nothing echoes it. Signing in by role and
// name and the outline work as ever; only execute_script, which could
// read the field, is refused until the form is sent.
func TestNoOracleLoginForm(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" acme 127.0.0.1 "+oracleSecret+"\n"), 0o600))
	c := servertest.InProcess(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}), servertest.Options{})

	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Email"}, "text": "ada@example.com"})
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Password"}, "secret": "acme"})

	out := servertest.CallOK(t, c, "outline", nil)
	assert.Check(t, is.Contains(out, "Sign in"))
	servertest.CallOK(t, c, "assert", map[string]any{"text": "Sign in to Acme", "title": "Sign in"})
	servertest.CallOK(t, c, "assert", map[string]any{"locator": map[string]any{"css": "input[name=email]"}})
	refused := servertest.CallRefused(t, c, "execute_script", map[string]any{"script": "return document.getElementById('password').value;"}, "execute_script", "still holds it")
	assert.Check(t, !strings.Contains(refused, oracleSecret))

	servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Sign in"}})
	servertest.CallOK(t, c, "assert", map[string]any{"text": "Password digest: " + fixtures.PasswordDigest(oracleSecret)})
	servertest.CallOK(t, c, "execute_script", map[string]any{"script": "return document.title;"})
}

// TestNoOracleLateEcho: the page shows the secret only a while after it
// loads, so a wait_for that starts on a page without it would see it come
// (or not) before its timeout. The look afterwards refuses the answer, for
// the right guess and the wrong one alike.
func TestNoOracleLateEcho(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" query 127.0.0.1 "+oracleSecret+"\n"), 0o600))
	c := servertest.InProcess(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}), servertest.Options{})

	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/echo-late"})
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Query"}, "secret": "query", "submit": true})
	timeout := 3 * fixtures.LateEcho.Seconds()
	var first string
	for i, g := range []string{oracleSecret[:1], "Z"} {
		servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/echo-late/show"})
		needle := "searched for " + g
		r := servertest.Call(t, c, "wait_for", map[string]any{"text": needle, "timeout": timeout})
		answer := fmt.Sprintf("isError=%v %s", r.IsError, strings.ReplaceAll(servertest.Text(r), needle, ""))
		if i == 0 {
			first = answer
			assert.Check(t, is.Contains(answer, "shows a secret you typed"))
			continue
		}
		assert.Check(t, is.Equal(answer, first), "the guess %q answers differently", g)
	}
}
