package browser

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// outlinePages are the fixture pages the outline is checked on.
var outlinePages = []string{"/login", "/article", "/admin", "/controls", "/upload", "/download", "/tricky", "/generated", "/outline-list", "/hover", "/gestures", "/long", "/popup", "/dialogs", "/frames"}

// budgetPages must outline in at most 10% of their HTML.
var budgetPages = []string{"/login", "/article", "/admin"}

var (
	controlLineRE = regexp.MustCompile(`^(?:[a-z]+ )?(?:(?:css|xpath|text|label|role):|[a-z]+:")`)
	nthRE         = regexp.MustCompile(` nth:([0-9.,]+)`)
)

// outlineControl is a control line of an outline with its locators, one per
// nth when the line lists a range.
type outlineControl struct {
	line   string
	locs   []Locator
	hidden bool
}

// parseOutlineControls finds the control lines of an outline and parses
// their locators, expanding nth ranges such as "nth:1..3,7".
func parseOutlineControls(t *testing.T, outline string) []outlineControl {
	t.Helper()
	var out []outlineControl
	inFrame := -1 // the indent of a same-origin frame's line, while inside it
	for _, raw := range strings.Split(outline, "\n") {
		line := strings.TrimSpace(raw)
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		if inFrame >= 0 && indent > inFrame {
			continue // a frame's controls resolve after switch_frame, not here
		}
		inFrame = -1
		if strings.HasPrefix(line, "iframe ") {
			// A frame is no control; its own controls, listed under it,
			// are the frame's document's.
			if strings.Contains(line, "locators work after switch_frame") {
				inFrame = indent
			}
			continue
		}
		if !controlLineRE.MatchString(line) {
			continue
		}
		var nths []int
		if m := nthRE.FindStringSubmatch(line); m != nil {
			for _, part := range strings.Split(m[1], ",") {
				lo, hi, isRange := strings.Cut(part, "..")
				a, err := strconv.Atoi(lo)
				assert.NilError(t, err, line)
				b := a
				if isRange {
					b, err = strconv.Atoi(hi)
					assert.NilError(t, err, line)
				}
				for i := a; i <= b; i++ {
					nths = append(nths, i)
				}
			}
		}
		text := nthRE.ReplaceAllString(line, "")
		if i := strings.IndexByte(text, ' '); i > 0 && !strings.Contains(text[:i], ":") {
			text = text[i+1:] // the kind word
		}
		loc, rest, err := parseLocator(text, false)
		assert.NilError(t, err, line)
		assert.NilError(t, loc.Validate(), line)
		for _, tok := range strings.Fields(rest) {
			assert.Assert(t, !strings.HasPrefix(tok, "nth:"), line)
		}
		// A control shown only on hover is hidden until then.
		c := outlineControl{line: line, hidden: strings.HasSuffix(line, " hidden") || strings.Contains(line, " (hidden until hover: ")}
		if len(nths) == 0 {
			c.locs = []Locator{loc}
		}
		for _, n := range nths {
			l := loc
			l.Nth = n
			c.locs = append(c.locs, l)
		}
		out = append(out, c)
	}
	return out
}

// resolvesToOne resolves a locator the way the actions do.
func resolvesToOne(s *Session, l Locator, allowHidden bool) error {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	_, err := s.resolve(l, allowHidden)
	return err
}

// TestOutlineControlsAddressable checks, on every fixture page, that each
// control line's locator resolves to exactly one element, and that the
// outline lists as many controls as the page has visible ones.
func TestOutlineControlsAddressable(t *testing.T) {
	for _, p := range outlinePages {
		t.Run(strings.TrimPrefix(p, "/"), func(t *testing.T) {
			s := open(t, p)
			out, err := s.Outline(nil)
			assert.NilError(t, err)
			ctls := parseOutlineControls(t, out)
			assert.Assert(t, len(ctls) > 0)
			listed := 0
			seen := map[string]bool{}
			for _, c := range ctls {
				for _, l := range c.locs {
					assert.NilError(t, resolvesToOne(s, l, c.hidden), "line %q", c.line)
					key := l.String()
					assert.Assert(t, !seen[key], "locator %s is listed twice", key)
					seen[key] = true
					if !c.hidden {
						listed++
					}
				}
			}
			var visible int
			assert.NilError(t, func() error {
				if err := s.begin(); err != nil {
					return err
				}
				defer s.mu.Unlock()
				return s.script("controls", nil, nil, &visible)
			}())
			assert.Equal(t, listed, visible, "outline:\n%s", out)
		})
	}
}

func TestOutlineLogin(t *testing.T) {
	s := open(t, "/login")
	const password, code = "pa55-w0rd-XYZ", "918273"
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "a@b.c", true))
	assert.NilError(t, s.Write(Locator{Label: "Password"}, password, true))
	assert.NilError(t, s.Write(Locator{Label: "Verification code"}, code, true))
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	t.Log("\n" + out)
	assert.Assert(t, !strings.Contains(out, password), "the password shows in the outline")
	assert.Assert(t, !strings.Contains(out, code), "the one-time code shows in the outline")
	html, err := s.PageHTML()
	assert.NilError(t, err)
	assert.Assert(t, !strings.Contains(html, password)) // values are properties, not attributes

	want := []string{
		`page "Sign in · Acme" ` + page("/login"),
		"header",
		`  link:"Acme home"`,
		`  nav "Main"`,
		`    link:"Products"`,
		"main",
		`  h1 "Sign in to Acme"`,
		`  form "login"`,
		`    email css:#email "Email" value:"a@b.c"`,
		`    password css:#password "Password" filled (13 characters)`,
		`    textbox css:#code "Verification code" filled (6 characters)`,
		`    checkbox css:input[name=remember] "Remember me"`,
		`    link:"Forgot password?"`,
		`    button:"Sign in"`,
		`  button:"Google"`,
		"footer",
	}
	lines := strings.Split(out, "\n")
	for _, w := range want {
		assert.Assert(t, is.Contains(lines, w), "outline lacks %q:\n%s", w, out)
	}
	// Not shown: hidden inputs, the mobile menu button (display:none), the
	// cookie banner (display:none), the inline JSON and CSS.
	for _, no := range []string{"csrf", "Open menu", "Accept all", "Cookie", "--brand", "analytics"} {
		assert.Assert(t, !strings.Contains(out, no), "outline shows %q", no)
	}
}

func TestOutlineAdminTable(t *testing.T) {
	s := open(t, "/admin")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	t.Log("\n" + out)
	for _, w := range []string{
		`table "All users" rows:120 cols:"Name|Email|Role|Status|Last seen|Actions"`,
		`row "Grace Hopper 1|user1@example.com|Editor|Active|2026-11-02|Edit Delete"`,
		`… 117 more rows`,
		`button:"Edit" nth:1..120`,
		`button:"Delete" nth:1..120`,
		`select css:select[name=status] "Status" value:"Any status" options:"Any status|Active|Suspended|Invited"`,
		`link:"Users" current`,
	} {
		assert.Assert(t, is.Contains(out, w))
	}
	assert.Assert(t, !strings.Contains(out, "user57@example.com"), "rows past the first few are summarised")

	// The hint in the outline works: a row's control by the row's text.
	edit := Locator{Role: "button", Name: "Edit", Within: &Locator{Role: "row", Name: "user57@example.com"}}
	assert.NilError(t, s.Click(edit))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Editing Frances Perlman 57"}))
	// And so does the nth of the range.
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Delete", Nth: 120}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Deleted Ada Lovelace 120", Count: &Locator{Role: "button", Name: "Delete"}, Equals: 119}))
}

func TestOutlineControlsPage(t *testing.T) {
	s := open(t, "/controls")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	for _, w := range []string{
		`region "Drafts"`,
		// The two Save buttons are found within their cards, by id.
		`button:"Save" within:(css:#draft-1)`,
		`button:"Save" within:(css:#draft-2)`,
		`select css:#size "Size" value:"Medium" options:"Small|Medium|Large|Extra large"`,
		`group "Plan"`,
		`radio label:"Monthly" checked`,
		`editor label:"Rich editor"`,
		`button:"Custom action"`,
		`clickable text:"Clickable card"`,
		`text "Read the terms of use before you continue."`,
	} {
		assert.Assert(t, is.Contains(out, w), "outline lacks %q:\n%s", w, out)
	}
	for _, no := range []string{"Secret action", "Ghost action", "Muted action", "Hidden field"} {
		assert.Assert(t, !strings.Contains(out, no), "outline shows hidden %q", no)
	}

	// Outline of a part of the page.
	part, err := s.Outline(&Locator{CSS: "#draft-2"})
	assert.NilError(t, err)
	assert.Equal(t, part, `page "Controls" `+page("/controls")+` within:(css:#draft-2)`+"\n"+
		`h2 "Second draft"`+"\n"+`button:"Save" within:(css:#draft-2)`)
	_, err = s.Outline(&Locator{CSS: "#nothing"})
	assert.ErrorContains(t, err, "outline: no element matches css:#nothing")
}

func TestOutlineUploadShowsHiddenFileInput(t *testing.T) {
	s := open(t, "/upload")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Assert(t, is.Contains(out, `file css:#doc "Document"`))
	assert.Assert(t, is.Contains(out, `file css:#avatar "Avatar" hidden`))
}

func TestOutlineArticle(t *testing.T) {
	s := open(t, "/article")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	t.Log("\n" + out)
	for _, w := range []string{`h1 "A short history of driving browsers"`, `h2 "Headless and remote"`,
		`link:"chapter on scripting"`, `link:"running headless"`, `more paragraphs)`} {
		assert.Assert(t, is.Contains(out, w))
	}
	// A paragraph shows up to 200 characters (the first of a run of long
	// ones fewer) and says how to read the rest.
	for _, l := range strings.Split(out, "\n") {
		assert.Assert(t, len(l) <= 260, "long line %q", l)
	}
	assert.Assert(t, is.Contains(out, `… marks cut text; read_text {"locator":…} reads an element's text whole`))
}

// outlineRatio returns the outline's size and the page HTML's size.
func outlineRatio(tb testing.TB, s *Session, path string) (outline, html int) {
	tb.Helper()
	if err := s.Navigate(page(path)); err != nil {
		tb.Fatal(err)
	}
	o, err := s.Outline(nil)
	if err != nil {
		tb.Fatal(err)
	}
	h, err := s.PageHTML()
	if err != nil {
		tb.Fatal(err)
	}
	return len(o), len(h)
}

func TestOutlineBudget(t *testing.T) {
	s := shared(t)
	for _, p := range budgetPages {
		o, h := outlineRatio(t, s, p)
		pct := 100 * float64(o) / float64(h)
		t.Logf("%-8s outline %5d B, HTML %6d B: %.1f%%", p, o, h, pct)
		assert.Assert(t, pct <= 10, "%s: outline is %.1f%% of the HTML (%d of %d bytes)", p, pct, o, h)
	}
}

func BenchmarkOutlineSize(b *testing.B) {
	s := shared(b)
	for _, p := range outlinePages {
		b.Run(strings.TrimPrefix(p, "/"), func(b *testing.B) {
			o, h := outlineRatio(b, s, p)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.Outline(nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(100*float64(o)/float64(h), "outline-%")
			b.ReportMetric(float64(o), "outline-B")
			b.ReportMetric(float64(h), "html-B")
		})
	}
}

// BenchmarkTitleOverhead times the wrapped Title beside the raw client call.
func BenchmarkTitleOverhead(b *testing.B) {
	s := open(b, "/controls")
	b.Run("raw", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.WebDriver().Title(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wrapped", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.Title(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("click", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := s.Click(Locator{Role: "button", Name: "Custom action"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestOutlineTricky(t *testing.T) {
	s := open(t, "/tricky")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	for _, w := range []string{
		`link:"Tricky Inc."`, // named by its image
		`button:"Settings" collapsed`,
		`tab css:#tab-list "List" selected`,
		`form "Newsletter"`,
		`email label:"Your email"`, // placeholder as label
		`button:"Subscribe" within:(form:"Feedback")`,
		`role:textbox nth:2 within:(form:"Feedback")`, // unlabelled: by position in its form, not a css path
		`link:"Go" nth:3`,
		`alert "Your session expires in 5 minutes."`,
		`dialog "Confirm" modal`,
		`button:"Star"`,          // an svg with a role
		`text "Layout cell one"`, // a layout table is not outlined as a table
	} {
		assert.Assert(t, is.Contains(out, w), "outline lacks %q:\n%s", w, out)
	}
	assert.Assert(t, !strings.Contains(out, "Dark mode"), "content of a closed <details> is hidden")
	assert.Assert(t, !strings.Contains(out, "table rows:"))
}
