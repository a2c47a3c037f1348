package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// The yardstick of the outline benchmarks: a page snapshot as Playwright
// MCP's browser_snapshot prints it, built from the same page's
// accessibility tree as Chromium computes it (Accessibility.getFullAXTree
// through chromedriver's CDP endpoint). Playwright computes its tree from
// the DOM with roles of its own; Chromium's differs in details, so the
// rendering follows Playwright's renderAriaTree (injected/ariaSnapshot.ts,
// forAI mode) rule by rule where the two meet:
//
//	- role "name" [checked] [disabled] [expanded] [active] [level=N] [pressed] [selected] [ref=eN] [cursor=pointer]: text
//	  - /url: /admin/
//
// every element gets a ref (e1, e2, … in document order), and an element
// with no role is "generic" (a div, a span, a label: Chromium ignores them
// as uninteresting, Playwright's forAI tree keeps them); text becomes
// "- text: …" lines unless its parent's name already says it; a generic
// wrapper of at most one element disappears; a link shows its href as
// /url; a text field its value; ignored nodes give way to their children.
// [cursor=pointer] (computed style in Playwright) is put on links,
// buttons, checkboxes and radios, not on their descendants. The result
// comes with browser_snapshot's header (page URL and title) in a yaml
// block, as the agent receives it.

// axNode is one node of Accessibility.getFullAXTree.
type axNode struct {
	NodeID   string   `json:"nodeId"`
	Ignored  bool     `json:"ignored"`
	Role     axValue  `json:"role"`
	Name     axValue  `json:"name"`
	Value    *axValue `json:"value"`
	ChildIDs []string `json:"childIds"`
	ParentID string   `json:"parentId"`
	Reasons  []struct {
		Name string `json:"name"`
	} `json:"ignoredReasons"`
	Props []struct {
		Name  string  `json:"name"`
		Value axValue `json:"value"`
	} `json:"properties"`
}

type axValue struct {
	Value any `json:"value"`
}

func (v axValue) String() string {
	switch x := v.Value.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}

func (n *axNode) prop(name string) string {
	for _, p := range n.Props {
		if p.Name == name {
			return p.Value.String()
		}
	}
	return ""
}

// ariaNode is a node of the tree as Playwright renders it: an element, or
// (role "") a run of text.
type ariaNode struct {
	role, name, text string
	attrs            []string
	url              string
	pointer          bool
	children         []*ariaNode
}

// axTree fetches the page's accessibility tree through chromedriver's CDP
// endpoint.
func (s *Session) axTree(ctx context.Context) ([]axNode, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	v, err := s.raw(ctx, "POST", "/goog/cdp/execute", map[string]any{"cmd": "Accessibility.getFullAXTree", "params": map[string]any{}})
	if err != nil {
		return nil, err
	}
	var r struct {
		Nodes []axNode `json:"nodes"`
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("Accessibility.getFullAXTree: %w", err)
	}
	return r.Nodes, nil
}

// playwrightSnapshot renders the page as Playwright MCP's browser_snapshot
// would (see the top of this file).
func (s *Session) playwrightSnapshot(ctx context.Context) (string, error) {
	// Chromium builds a document's accessibility tree after it loads; on a
	// loaded machine the first ask can find it without content. Ask again
	// until it has some or the test's deadline comes.
	top, err := s.ariaTree(ctx)
	for err == nil && len(top.children) == 0 {
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("the accessibility tree stayed empty: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
		top, err = s.ariaTree(ctx)
	}
	if err != nil {
		return "", err
	}
	pageURL, _ := s.CurrentURL()
	title, _ := s.Title()
	var b strings.Builder
	fmt.Fprintf(&b, "### Page\n- Page URL: %s\n- Page Title: %s\n### Snapshot\n```yaml\n", pageURL, title)
	ref := 0
	for _, c := range top.children {
		renderNode(&b, c, nil, "", true, &ref)
	}
	b.WriteString("```\n")
	return b.String(), nil
}

// ariaTree is the page's accessibility tree as Playwright's aria
// snapshot shapes it, under a fragment.
func (s *Session) ariaTree(ctx context.Context) (*ariaNode, error) {
	nodes, err := s.axTree(ctx)
	if err != nil {
		return nil, err
	}
	pageURL, _ := s.CurrentURL()
	byID := map[string]*axNode{}
	var root *axNode
	for i := range nodes {
		n := &nodes[i]
		byID[n.NodeID] = n
		if n.ParentID == "" && root == nil {
			root = n
		}
	}
	if root == nil {
		return nil, fmt.Errorf("the accessibility tree is empty")
	}
	origin := ""
	if u, err := url.Parse(pageURL); err == nil {
		origin = u.Scheme + "://" + u.Host
	}
	top := &ariaNode{role: "fragment"}
	top.children = normalizeGeneric(convertChildren(root, byID, origin, 0))
	return top, nil
}

// hoisted are Chromium roles Playwright has no node for: their children
// take their place.
var hoisted = map[string]bool{
	"RootWebArea": true, "none": true, "presentation": true, "MenuListPopup": true,
}

// dropped are Chromium roles Playwright does not show at all.
var dropped = map[string]bool{"ListMarker": true, "InlineTextBox": true, "LineBreak": true}

// chromiumRoles renames Chromium's internal roles to the ARIA ones
// Playwright prints.
var chromiumRoles = map[string]string{
	"DescriptionListTerm": "term", "DescriptionListDetail": "definition", "DescriptionList": "list",
	"Section": "region", "Pre": "generic", "Abbr": "generic", "Ruby": "generic",
	"sectionheader": "generic", "sectionfooter": "generic", "Canvas": "img", "image": "img",
}

func convertChildren(n *axNode, byID map[string]*axNode, origin string, depth int) []*ariaNode {
	var out []*ariaNode
	for _, id := range n.ChildIDs {
		c := byID[id]
		if c == nil {
			continue
		}
		out = append(out, convert(c, byID, origin, depth+1)...)
	}
	return mergeText(out)
}

// hidden are the reasons Chromium ignores a node that Playwright leaves
// out too, with its subtree: not rendered, aria-hidden, inert.
var hidden = map[string]bool{
	"notRendered": true, "notVisible": true, "ariaHiddenElement": true, "ariaHiddenSubtree": true,
	"inertElement": true, "inertSubtree": true, "activeModalDialog": true,
}

// roleless says whether Chromium ignored an element only for having no
// role worth exposing (a div, a span, a label's text): Playwright's forAI
// tree has it, as generic.
func (n *axNode) roleless() bool {
	for _, r := range n.Reasons {
		if r.Name == "uninteresting" || r.Name == "labelFor" {
			return true
		}
	}
	return false
}

func (n *axNode) hidden() bool {
	for _, r := range n.Reasons {
		if hidden[r.Name] {
			return true
		}
	}
	return false
}

// convert turns one AX node into the Playwright nodes that stand for it:
// none, itself, or (ignored and hoisted roles) its children. depth is 1
// for <html> and 2 for <body>, which Playwright's tree starts below.
func convert(n *axNode, byID map[string]*axNode, origin string, depth int) []*ariaNode {
	role := n.Role.String()
	if dropped[role] || n.Ignored && n.hidden() {
		return nil
	}
	if n.Ignored && n.roleless() && depth > 2 || role == "LabelText" {
		n.Ignored, role = false, "generic"
	}
	if role == "StaticText" {
		if n.Ignored {
			return nil
		}
		return []*ariaNode{{text: n.Name.String()}}
	}
	if n.Ignored || hoisted[role] || depth <= 2 && role == "generic" {
		return convertChildren(n, byID, origin, depth)
	}
	if r, ok := chromiumRoles[role]; ok {
		role = r
	}
	a := &ariaNode{role: role, name: collapse(n.Name.String())}
	if v := n.prop("checked"); v == "true" {
		a.attrs = append(a.attrs, "[checked]")
	} else if v == "mixed" {
		a.attrs = append(a.attrs, "[checked=mixed]")
	}
	if n.prop("disabled") == "true" {
		a.attrs = append(a.attrs, "[disabled]")
	}
	if n.prop("expanded") == "true" {
		a.attrs = append(a.attrs, "[expanded]")
	}
	if n.prop("focused") == "true" {
		a.attrs = append(a.attrs, "[active]")
	}
	if l := n.prop("level"); l != "" && role == "heading" {
		a.attrs = append(a.attrs, "[level="+l+"]")
	}
	if v := n.prop("pressed"); v == "true" {
		a.attrs = append(a.attrs, "[pressed]")
	}
	if n.prop("selected") == "true" {
		a.attrs = append(a.attrs, "[selected]")
	}
	switch role {
	case "link":
		a.url = strings.TrimPrefix(n.prop("url"), origin)
		a.pointer = true
	case "button", "checkbox", "radio", "switch", "tab", "menuitem":
		a.pointer = true
	}
	a.children = convertChildren(n, byID, origin, depth)
	// A text field shows its value as its text (passwords too: Playwright
	// prints what the accessibility tree holds, which is bullets).
	if (role == "textbox" || role == "searchbox" || role == "spinbutton") && n.Value != nil && n.Value.String() != "" {
		a.children = []*ariaNode{{text: n.Value.String()}}
	}
	return []*ariaNode{a}
}

var spaces = regexp.MustCompile(`\s+`)

func collapse(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

// mergeText joins adjacent runs of text and drops empty ones, as
// Playwright's normalizeStringChildren does.
func mergeText(in []*ariaNode) []*ariaNode {
	var out []*ariaNode
	for _, c := range in {
		if c.role == "" {
			if last := len(out) - 1; last >= 0 && out[last].role == "" {
				out[last] = &ariaNode{text: out[last].text + c.text}
				continue
			}
		}
		out = append(out, c)
	}
	kept := out[:0]
	for _, c := range out {
		if c.role == "" {
			c.text = collapse(c.text)
			if c.text == "" {
				continue
			}
		}
		kept = append(kept, c)
	}
	return kept
}

// normalizeGeneric removes a generic node that wraps at most one element
// and no text, as Playwright's normalizeGenericRoles does (every element
// has a ref in forAI mode).
func normalizeGeneric(in []*ariaNode) []*ariaNode {
	var out []*ariaNode
	for _, c := range in {
		if c.role == "" {
			out = append(out, c)
			continue
		}
		c.children = normalizeGeneric(c.children)
		if c.role == "generic" && len(c.children) <= 1 && (len(c.children) == 0 || c.children[0].role != "") {
			out = append(out, c.children...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// includeText says whether a text child adds to its parent's name
// (Playwright's includeText, with the longest common part approximated by
// containment).
func includeText(parent *ariaNode, text string) bool {
	if text == "" {
		return false
	}
	if parent == nil || parent.name == "" {
		return true
	}
	if len(parent.name) > len(text) || strings.Contains(parent.name, text) {
		return false
	}
	rest := strings.TrimSpace(strings.ReplaceAll(text, parent.name, ""))
	return float64(len(rest))/float64(len(text)) > 0.1
}

// renderNode writes n and its children as Playwright's renderAriaTree
// does, numbering refs in document order.
func renderNode(b *strings.Builder, n, parent *ariaNode, indent string, pointerAllowed bool, ref *int) {
	if n.role == "" {
		if parent != nil && !includeText(parent, n.text) {
			return
		}
		b.WriteString(indent + "- text: " + yamlValue(n.text) + "\n")
		return
	}
	key := n.role
	if n.name != "" && len(n.name) <= 900 {
		key += " " + jsonString(n.name)
	}
	for _, a := range n.attrs {
		key += " " + a
	}
	*ref++
	key += " [ref=e" + strconv.Itoa(*ref) + "]"
	if pointerAllowed && n.pointer {
		key += " [cursor=pointer]"
	}
	line := indent + "- " + key
	switch {
	case len(n.children) == 0 && n.url == "":
		b.WriteString(line + "\n")
	case len(n.children) == 1 && n.children[0].role == "" && n.url == "":
		if includeText(n, n.children[0].text) {
			b.WriteString(line + ": " + yamlValue(n.children[0].text) + "\n")
		} else {
			b.WriteString(line + "\n")
		}
	default:
		b.WriteString(line + ":\n")
		if n.url != "" {
			b.WriteString(indent + "  - /url: " + yamlValue(n.url) + "\n")
		}
		for _, c := range n.children {
			renderNode(b, c, n, indent+"  ", pointerAllowed && !n.pointer, ref)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// yamlValue quotes a value the way Playwright's yamlEscapeValueIfNeeded
// does: only when YAML would read it as something else.
func yamlValue(s string) string {
	if s == "" {
		return `""`
	}
	needs := strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") || strings.Contains(s, ": ") || strings.Contains(s, " #") ||
		strings.HasSuffix(s, ":") || strings.TrimSpace(s) != s
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "~":
		needs = true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		needs = true
	}
	if needs {
		return jsonString(s)
	}
	return s
}

// TestPlaywrightSnapshot keeps the benchmarks' yardstick honest: on the
// login fixture it renders the lines Playwright MCP would print.
func TestPlaywrightSnapshot(t *testing.T) {
	s := open(t, "/login")
	snap, err := s.playwrightSnapshot(testenv.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- Page Title: Sign in · Acme\n",
		"```yaml\n- banner [ref=e1]:\n",
		`- heading "Sign in to Acme" [level=1] [ref=e`,
		`- textbox "Email" [ref=e`,
		`- checkbox "Remember me" [ref=e`,
		`- button "Sign in" [ref=e`,
		"] [cursor=pointer]:\n",
		"- /url: /forgot\n",
		"- paragraph [ref=e",
		"]: Welcome back! Use your work email to continue.\n",
		"- text: © 2026 Acme Corporation. All rights reserved.\n",
	} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snap)
		}
	}
	if n := strings.Count(snap, "[ref=e"); n < 30 {
		t.Errorf("%d refs; every element has one:\n%s", n, snap)
	}
}
