package tools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/django"
)

// A real application nobody here wrote, Django's admin (Debian's
// python3-django, internal/servertest/django), driven end to end through
// an in-process MCP client with the server's default browser settings but
// the tests' closed-network resolver rule, at http://localhost:PORT: a host
// name the browser must resolve. The sequence a person would do — sign in,
// add an author, add a book choosing that author, hit a validation error
// and read it, search, filter, page, delete through the confirmation page —
// is one list of steps, run call by call and then saved as a flow and
// replayed with other parameters.

// djSecret is the admin password's secret name; its value is typed by the
// server and never passes through the test's calls.
const djSecret = "django"

// djValues are what one pass through the admin types: the site, the author
// and the book it adds, and the book's publication date.
type djValues struct {
	Base, Author, Title, Published string
}

// djStep is one page-tool call of the sequence, and what its text must
// contain when it is called directly (a flow's report keeps only a step's
// first line; the flow checks with its assert steps instead).
type djStep struct {
	id   string
	tool string
	args map[string]any
	want []string
}

func djRole(role, name string) map[string]any { return map[string]any{"role": role, "name": name} }

func djLabel(label string) map[string]any { return map[string]any{"label": label} }

// djResultRows are the change list's rows.
var djResultRows = map[string]any{"css": "#result_list tbody tr"}

// djSequence is the admin work, written as an agent would after reading
// the outlines: locators by label, role and name, the search box by its
// id. The seeded books (django.SeededBooks, five a page) make the numbers:
// four by Sagan, three of them Science, and a second page.
func djSequence(v djValues) []djStep {
	save := djRole("button", "Save")
	return []djStep{
		{"sign-in-page", "navigate", map[string]any{"url": v.Base + "/admin/"}, []string{`"Log in | Django site admin"`, "/admin/login/?next=/admin/"}},
		{"username", "write", map[string]any{"locator": djLabel("Username:"), "text": django.User}, nil},
		{"password", "write", map[string]any{"locator": djLabel("Password:"), "secret": djSecret}, []string{`Typed the secret "django"`}},
		{"log-in", "click", map[string]any{"locator": djRole("button", "Log in")}, []string{`"Site administration | Django site admin"`}},

		{"add-author", "navigate", map[string]any{"url": v.Base + "/admin/library/author/add/"}, []string{`"Add author | Django site admin"`}},
		{"author-name", "write", map[string]any{"locator": djLabel("Name:"), "text": v.Author}, nil},
		{"save-author", "click", map[string]any{"locator": save}, []string{`"Select author to change | Django site admin"`}},
		{"author-added", "assert", map[string]any{"text": "The author “" + v.Author + "” was added successfully."}, nil},

		{"add-book", "navigate", map[string]any{"url": v.Base + "/admin/library/book/add/"}, []string{`"Add book | Django site admin"`}},
		{"book-author", "select", map[string]any{"locator": djLabel("Author:"), "option": v.Author}, nil},
		{"book-published", "write", map[string]any{"locator": djLabel("Published:"), "text": v.Published}, nil},
		{"book-genre", "select", map[string]any{"locator": djLabel("Genre:"), "option": "Fiction"}, nil},
		// No title: Django refuses the form and says why.
		{"save-untitled", "click", map[string]any{"locator": save}, []string{`"Add book | Django site admin"`}},
		{"read-error", "outline", nil, []string{"Please correct the error below.", "This field is required."}},
		{"error-shown", "assert", map[string]any{"text": "This field is required.", "url": "/admin/library/book/add/$"}, nil},
		{"book-title", "write", map[string]any{"locator": djLabel("Title:"), "text": v.Title}, nil},
		{"save-book", "click", map[string]any{"locator": save}, []string{`"Select book to change | Django site admin"`}},
		{"book-added", "assert", map[string]any{"text": "The book “" + v.Title + "” was added successfully."}, nil},

		{"search", "write", map[string]any{"locator": map[string]any{"css": "#searchbar"}, "text": "Sagan"}, nil},
		{"search-go", "click", map[string]any{"locator": djRole("button", "Search")}, []string{"/admin/library/book/?q=Sagan"}},
		{"searched", "assert", map[string]any{"text": "4 results", "locator": djResultRows, "count": 4}, nil},
		{"filter", "click", map[string]any{"locator": djRole("link", "Science")}, []string{"genre__exact=science", "q=Sagan"}},
		{"filtered", "assert", map[string]any{"text": "3 results", "locator": djResultRows, "count": 3}, nil},

		{"list", "navigate", map[string]any{"url": v.Base + "/admin/library/book/"}, nil},
		{"page-2", "click", map[string]any{"locator": djRole("link", "2")}, []string{"/admin/library/book/?p=2"}},
		{"read-page-2", "outline", nil, []string{"Pompeii", "SPQR"}},
		{"paged", "assert", map[string]any{"text": "Pompeii", "locator": djResultRows, "count": django.PerPage}, nil},

		{"find-book", "write", map[string]any{"locator": map[string]any{"css": "#searchbar"}, "text": v.Title}, nil},
		{"find-go", "click", map[string]any{"locator": djRole("button", "Search")}, nil},
		{"found", "assert", map[string]any{"locator": djResultRows, "count": 1}, nil},
		{"open-book", "click", map[string]any{"locator": djRole("link", v.Title)}, []string{`Change book | Django site admin"`}},
		{"delete", "click", map[string]any{"locator": djRole("link", "Delete")}, []string{`"Are you sure? | Django site admin"`}},
		// The button says "Yes, I’m sure", with a typographic apostrophe.
		{"confirm", "click", map[string]any{"locator": djRole("button", "Yes, I’m sure")}, []string{`"Select book to change | Django site admin"`}},
		{"deleted", "assert", map[string]any{"text": "The book “" + v.Title + "” was deleted successfully."}, nil},
	}
}

// djRig is an in-process server whose one secret is the admin password,
// bound to the app's host name, a client, and the app.
type djRig struct {
	app *django.App
	c   *servertest.Client
}

func djStart(t *testing.T) *djRig {
	t.Helper()
	servertest.NeedBrowser(t)
	app := django.Start(t)
	f := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(f, []byte(auth.Local+" "+djSecret+" localhost "+app.Password+"\n"), 0o600))
	// The server's defaults but the secret; servertest.New adds only the
	// closed-network resolver rule, which leaves localhost resolving.
	srv := servertest.New(t, server.Config{Secrets: secrets.Sources{File: f}})
	return &djRig{app: app, c: servertest.InProcess(t, srv, servertest.Options{})}
}

// call runs one step and checks its text; a failure says what Django
// logged, which names the request that went wrong.
func (r *djRig) call(t *testing.T, st djStep) string {
	t.Helper()
	res := servertest.Call(t, r.c, st.tool, st.args)
	text := servertest.Text(res)
	assert.Assert(t, !res.IsError, "step %s: %s %v refused: %s\nDjango's log:\n%s", st.id, st.tool, st.args, text, djTail(r.app.Output()))
	for _, w := range st.want {
		assert.Check(t, is.Contains(text, w), "step %s: %s %v", st.id, st.tool, st.args)
	}
	assert.Check(t, !strings.Contains(text, r.app.Password), "step %s: the password reached a result", st.id)
	return text
}

// djTail is the end of Django's log, enough to see the last requests.
func djTail(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	return strings.Join(lines[max(0, len(lines)-15):], "\n")
}

// TestDjangoAdmin drives the sequence call by call, as an agent would.
func TestDjangoAdmin(t *testing.T) {
	r := djStart(t)
	v := djValues{Base: r.app.Localhost(), Author: "Octavia E. Butler", Title: "Kindred", Published: "1979-06-01"}
	steps := djSequence(v)
	servertest.CallOK(t, r.c, "open_session", nil)
	for _, st := range steps {
		text := r.call(t, st)
		switch st.id {
		case "read-error":
			// The error is read next to the field it is about.
			assert.Check(t, is.Regexp(`This field is required\.[^\n]*\n[^\n]*Title:`, text))
		case "read-page-2":
			assert.Check(t, !strings.Contains(text, "Cosmos"), "page 1's rows on page 2:\n%s", text)
		}
	}
	// The book is gone and the seeded ones are all there.
	servertest.CallOK(t, r.c, "navigate", map[string]any{"url": v.Base + "/admin/library/book/"})
	servertest.CallOK(t, r.c, "assert", map[string]any{"text": "12 books"})
	outline := servertest.CallOK(t, r.c, "outline", nil)
	assert.Check(t, !strings.Contains(outline, v.Title), outline)
}

// djFlow is the sequence as a flow document: the site, the author, the
// book and its date are parameters, the password a secret.
func djFlow(name string) map[string]any {
	var steps []any
	for _, st := range djSequence(djValues{Base: "{{base_url}}", Author: "{{author}}", Title: "{{title}}", Published: "{{published}}"}) {
		s := map[string]any{"id": st.id, "tool": st.tool}
		if st.args != nil {
			s["args"] = st.args
		}
		steps = append(steps, s)
	}
	param := func(name, desc string) map[string]any {
		return map[string]any{"name": name, "required": true, "description": desc}
	}
	return map[string]any{
		"name":        name,
		"description": "Sign in to the Django admin, add an author and a book of theirs, search, filter and page the books, and delete the book again.",
		"parameters": []any{
			param("base_url", "scheme://host:port of the Django site"),
			param("author", "the author to add"),
			param("title", "the book to add and delete"),
			param("published", "the book's date, YYYY-MM-DD"),
		},
		"steps": steps,
	}
}

// TestDjangoAdminFlow saves the sequence as a flow and replays it with
// run_flow in fresh sessions, with other parameters each time: every step
// runs on the server, the asserts in it prove each part worked, and the
// password is a secret, never a value in the document.
func TestDjangoAdminFlow(t *testing.T) {
	r := djStart(t)
	doc := djFlow("django-books")
	n := len(djSequence(djValues{}))
	saved := servertest.CallOK(t, r.c, "save_flow", map[string]any{"document": doc})
	assert.Check(t, is.Contains(saved, "Saved the flow django-books"))
	body, err := json.Marshal(doc)
	assert.NilError(t, err)
	assert.Check(t, !strings.Contains(string(body), r.app.Password))

	for _, run := range []map[string]any{
		{"author": "Octavia E. Butler", "title": "Kindred", "published": "1979-06-01"},
		{"author": "N. K. Jemisin", "title": "Parable of the Sower", "published": "1993-10-01"},
	} {
		run["base_url"] = r.app.Localhost()
		// A fresh browser: the flow signs in itself.
		servertest.CallOK(t, r.c, "close_session", nil)
		servertest.CallOK(t, r.c, "open_session", nil)
		res := servertest.Call(t, r.c, "run_flow", map[string]any{"name": "django-books", "params": run})
		text := servertest.Text(res)
		assert.Assert(t, !res.IsError, "run_flow %v: %s\nDjango's log:\n%s", run, text, djTail(r.app.Output()))
		assert.Check(t, is.Contains(text, "run_flow django-books: all "), text)
		var rep flows.Report
		first, rest, _ := strings.Cut(text, "\n")
		assert.NilError(t, json.Unmarshal([]byte(rest), &rep), first)
		assert.Check(t, rep.OK)
		assert.Check(t, is.Len(rep.Steps, n))
		var ids []string
		for _, s := range rep.Steps {
			assert.Check(t, is.Equal(s.Status, "ok"), "step %s: %s", s.ID, s.Result)
			ids = append(ids, s.ID)
		}
		assert.Check(t, slices.Contains(ids, "confirm"))
		assert.Check(t, !strings.Contains(text, r.app.Password), "the password reached the report")
	}
	// Both books were added and deleted again; both authors stay.
	servertest.CallOK(t, r.c, "navigate", map[string]any{"url": r.app.Localhost() + "/admin/library/book/"})
	servertest.CallOK(t, r.c, "assert", map[string]any{"text": "12 books"})
	servertest.CallOK(t, r.c, "navigate", map[string]any{"url": r.app.Localhost() + "/admin/library/author/"})
	servertest.CallOK(t, r.c, "assert", map[string]any{"text": "5 authors"})
}

// djWindow is the name (w1, w2, …) list_windows gives the window whose
// title starts with title.
func djWindow(t *testing.T, c *servertest.Client, title string) string {
	t.Helper()
	windows := servertest.CallOK(t, c, "list_windows", nil)
	m := regexp.MustCompile(`(?m)^- (\S+) "` + regexp.QuoteMeta(title)).FindStringSubmatch(windows)
	assert.Assert(t, m != nil, "no window titled %q in:\n%s", title, windows)
	return m[1]
}

// TestDjangoAdminPopup adds a book's author through the "+" link, which
// opens the add form in a window of its own: the click says so, the caller
// lists the windows, switches to the popup, saves the author (Django's
// popup then closes itself and fills the opener's select), switches back,
// and closes a second popup with close_window. It needs the window tools
// (switch_window, list_windows, close_window): until the server offers
// them, it is skipped.
func TestDjangoAdminPopup(t *testing.T) {
	r := djStart(t)
	if !slices.Contains(servertest.ToolNames(t, r.c), "switch_window") {
		t.Skip("needs switch_window")
	}
	base := r.app.Localhost()
	servertest.CallOK(t, r.c, "open_session", nil)
	for _, st := range djSequence(djValues{Base: base})[:4] { // sign in
		r.call(t, st)
	}
	plus := map[string]any{"locator": map[string]any{"css": "#add_id_author"}}
	servertest.CallOK(t, r.c, "navigate", map[string]any{"url": base + "/admin/library/book/add/"})
	opener := djWindow(t, r.c, "Add book")

	opened := servertest.CallOK(t, r.c, "click", plus)
	assert.Check(t, is.Contains(opened, "A new window opened"), "the click does not say it opened a window")
	popup := djWindow(t, r.c, "Add author")
	assert.Check(t, is.Contains(opened, popup), "the click does not name the window")
	servertest.CallOK(t, r.c, "switch_window", map[string]any{"window": popup})
	servertest.CallOK(t, r.c, "assert", map[string]any{"title": "^Add author", "url": "_popup=1"})
	servertest.CallOK(t, r.c, "write", map[string]any{"locator": djLabel("Name:"), "text": "Ted Chiang"})
	// Saving in the popup closes it and fills the opener's select.
	saved := servertest.Call(t, r.c, "click", map[string]any{"locator": djRole("button", "Save")})
	assert.Check(t, !saved.IsError, "saving in the popup, which closes it: %s", servertest.Text(saved))
	servertest.CallOK(t, r.c, "switch_window", map[string]any{"window": opener})
	page := servertest.CallOK(t, r.c, "outline", nil)
	assert.Check(t, is.Contains(page, `value:"Ted Chiang"`), "the opener's author select:\n%s", page)

	// A second popup, closed without saving: close_window goes back to
	// the window that opened it.
	servertest.CallOK(t, r.c, "click", plus)
	servertest.CallOK(t, r.c, "switch_window", map[string]any{"window": "newest"})
	servertest.CallOK(t, r.c, "assert", map[string]any{"title": "^Add author"})
	closed := servertest.CallOK(t, r.c, "close_window", nil)
	assert.Check(t, is.Contains(closed, opener), "close_window does not say where it went")
	windows := servertest.CallOK(t, r.c, "list_windows", nil)
	assert.Check(t, !strings.Contains(windows, "Add author"), windows)
	for _, st := range []djStep{
		{"on-opener", "assert", map[string]any{"title": "^Add book"}, nil},
		{"title", "write", map[string]any{"locator": djLabel("Title:"), "text": "Exhalation"}, nil},
		{"published", "write", map[string]any{"locator": djLabel("Published:"), "text": "2019-05-07"}, nil},
		{"genre", "select", map[string]any{"locator": djLabel("Genre:"), "option": "Fiction"}, nil},
		{"save", "click", map[string]any{"locator": djRole("button", "Save")}, []string{`"Select book to change | Django site admin"`}},
		{"added", "assert", map[string]any{"text": "The book “Exhalation” was added successfully."}, nil},
	} {
		r.call(t, st)
	}
}
