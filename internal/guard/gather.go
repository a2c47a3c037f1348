package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/skillsclient"
	"github.com/selenium-flow/selenium-flow/resources"
)

// Sources are the clients a gathering reads through: between them they are
// given everything the server gives any agent.
type Sources struct {
	// Reader is a client whose model reads resources natively.
	Reader     client.MCPClient
	ReaderInit *mcp.InitializeResult
	// Mirror is a client offered the most tools: the list_resources and
	// read_resource mirror and the MCP App tool.
	Mirror     client.MCPClient
	MirrorInit *mcp.InitializeResult
	// CallTimeout bounds each request; zero means 30 seconds.
	CallTimeout time.Duration
	// Skills calls the Skills extension as Reader; when the server declares
	// the extension, every skill file it lists and every directory entry is
	// read too.
	Skills *skillsclient.Conn
}

// Corpus is what Gather read.
type Corpus struct {
	Texts  []Text
	Served Served
	// Tools is tools/list as the Mirror client is given it.
	Tools []mcp.Tool
	// Problems were found while reading: a listed resource that does not
	// read, a refusal that arrived as a JSON-RPC error instead of an isError
	// result.
	Problems []Finding
	// Skipped names the tools not called and the resources not read, and why.
	Skipped []string
}

// missingValue fills template variables and arguments so that nothing
// exists by that name.
const missingValue = "no-such-guard-item"

// Gather reads everything the server gives an agent: both instructions,
// tool titles, descriptions and argument descriptions, resource and template
// titles and descriptions, every resource's text, every prompt rendered, and
// the refusals that tools, reads and prompts give to calls that cannot work.
// The body of a ui:// app shell is code for the host, not text for a model,
// and is not read.
//
// A tool is called with empty and with wrongly typed arguments only when it
// is read-only or has a required argument, so the call is refused before it
// acts; any other tool is listed in Skipped.
func Gather(ctx context.Context, src Sources) (*Corpus, error) {
	g := &gatherer{src: src, timeout: src.CallTimeout, c: &Corpus{}}
	if g.timeout == 0 {
		g.timeout = 30 * time.Second
	}
	g.instructions()
	for _, step := range []func(context.Context) error{g.tools, g.resources, g.skills, g.prompts, g.refusals} {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return g.c, nil
}

type gatherer struct {
	src     Sources
	timeout time.Duration
	c       *Corpus
	bodies  map[string]bool
}

// text keeps a body once, under the first place it was read: the mirror
// gives the same document as the native read.
func (g *gatherer) text(where, body string, echo ...string) {
	g.add(Text{Where: where, Body: body, Echo: echo})
}

// published keeps a text served as written: a document's or a skill's.
func (g *gatherer) published(where, body string, echo ...string) {
	g.add(Text{Where: where, Body: body, Echo: echo, Published: true})
}

func (g *gatherer) add(t Text) {
	if strings.TrimSpace(t.Body) == "" || g.bodies[t.Body] {
		return
	}
	if g.bodies == nil {
		g.bodies = map[string]bool{}
	}
	g.bodies[t.Body] = true
	g.c.Texts = append(g.c.Texts, t)
}

// isPublished reports whether a resource is a page served as written: a
// knowledge document or a skill file, whose title and description come
// from the page too.
func isPublished(uri string) bool {
	return strings.HasPrefix(uri, "knowledge://documents/") || strings.HasPrefix(uri, "skill://")
}

func (g *gatherer) problem(where, format string, args ...any) {
	g.c.Problems = append(g.c.Problems, Finding{Where: where, Problem: fmt.Sprintf(format, args...)})
}

func (g *gatherer) instructions() {
	for _, in := range []struct {
		who  string
		init *mcp.InitializeResult
	}{{"a resource-reading client", g.src.ReaderInit}, {"a mirror client", g.src.MirrorInit}} {
		where := "instructions for " + in.who
		if in.init == nil || strings.TrimSpace(in.init.Instructions) == "" {
			g.problem(where, "the server gave no instructions")
			continue
		}
		g.text(where, in.init.Instructions)
	}
}

func (g *gatherer) tools(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	res, err := g.src.Mirror.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	g.c.Tools = res.Tools
	for _, t := range res.Tools {
		g.c.Served.Tools = append(g.c.Served.Tools, t.Name)
		where := "tool " + t.Name
		g.text(where+" title", cmpOr(t.Title, t.Annotations.Title))
		g.text(where+" description", t.Description)
		for _, d := range schemaDescriptions(inputSchema(t)) {
			g.text(where+" argument description", d)
		}
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// inputSchema is a tool's input schema as JSON, however it was declared.
func inputSchema(t mcp.Tool) map[string]any {
	var raw []byte
	if len(t.RawInputSchema) > 0 {
		raw = t.RawInputSchema
	} else {
		raw, _ = json.Marshal(t.InputSchema)
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

// schemaDescriptions collects every "description" string in a JSON schema.
func schemaDescriptions(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s, ok := x[k].(string); ok && k == "description" {
				out = append(out, s)
				continue
			}
			out = append(out, schemaDescriptions(x[k])...)
		}
	case []any:
		for _, e := range x {
			out = append(out, schemaDescriptions(e)...)
		}
	}
	return out
}

func (g *gatherer) resources(ctx context.Context) error {
	lctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	res, err := g.src.Reader.ListResources(lctx, mcp.ListResourcesRequest{})
	if err != nil {
		return fmt.Errorf("resources/list: %w", err)
	}
	tmpls, err := g.src.Reader.ListResourceTemplates(lctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		return fmt.Errorf("resources/templates/list: %w", err)
	}
	for _, r := range res.Resources {
		g.c.Served.Resources = append(g.c.Served.Resources, r.URI)
		keep := g.text
		if isPublished(r.URI) {
			keep = g.published
		}
		keep("resource "+r.URI+" title", r.Title)
		keep("resource "+r.URI+" description", r.Description)
	}
	for _, r := range tmpls.ResourceTemplates {
		u := r.URITemplate.Raw()
		g.c.Served.Templates = append(g.c.Served.Templates, u)
		g.text("template "+u+" title", r.Title)
		g.text("template "+u+" description", r.Description)
	}
	for _, r := range res.Resources {
		if strings.HasPrefix(r.URI, "ui://") {
			// An app shell is code a host draws for the person; no model
			// reads it. Its title and description are checked above.
			g.c.Skipped = append(g.c.Skipped, r.URI+": an app shell for the host, not text for the model")
			continue
		}
		body, err := g.read(ctx, r.URI)
		if err != nil {
			g.problem("resource "+r.URI, "listed but does not read: %v", err)
			continue
		}
		switch {
		case isPublished(r.URI):
			g.published("resource "+r.URI, body)
		case r.URI == resources.IndexURI:
			// The index names what is unavailable, and may.
			g.unavailable(body)
			g.text("resource "+r.URI, body, g.c.Served.Withdrawn...)
		default:
			g.text("resource "+r.URI, body)
		}
	}
	return nil
}

// unavailable reads what the index says an exclusion took away.
func (g *gatherer) unavailable(index string) {
	var idx resources.Index
	if err := json.Unmarshal([]byte(index), &idx); err != nil {
		g.problem("resource "+resources.IndexURI, "not the index's JSON: %v", err)
		return
	}
	if u := idx.Unavailable; u != nil {
		g.c.Served.Excluded, g.c.Served.Withdrawn, g.c.Served.WithdrawnPrompts = u.Tools, u.Resources, u.Prompts
	}
}

// skills reads what the Skills extension gives: every skill's front matter
// and files, and every directory entry's title and description.
func (g *gatherer) skills(ctx context.Context) error {
	if g.src.Skills == nil || g.src.ReaderInit == nil {
		return nil
	}
	if _, ok := g.src.ReaderInit.Capabilities.Extensions[skillsclient.Extension]; !ok {
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	skills, _, err := g.src.Skills.List(lctx)
	if err != nil {
		return fmt.Errorf("skills/list: %w", err)
	}
	dirs := []string{resources.DocumentsDirectory}
	for _, s := range skills {
		if d, ok := s.Frontmatter["description"].(string); ok {
			g.published("skill "+s.URI+" front matter", d)
		}
		for _, f := range s.Resources {
			body, err := g.read(ctx, f.URI)
			if err != nil {
				g.problem("skill file "+f.URI, "in the manifest of %s but does not read: %v", s.URI, err)
				continue
			}
			g.published("skill file "+f.URI, body)
		}
		dirs = append(dirs, strings.TrimSuffix(s.URI, "/SKILL.md"))
	}
	for len(dirs) > 0 {
		dir := dirs[0]
		dirs = dirs[1:]
		children, _, err := g.src.Skills.Directory(lctx, dir)
		if err != nil {
			g.problem("directory "+dir, "resources/directory/read: %v", err)
			continue
		}
		for _, r := range children {
			keep := g.text
			if r.MIMEType == resources.DirectoryMIMEType {
				dirs = append(dirs, r.URI)
			} else if isPublished(r.URI) {
				keep = g.published
			}
			keep("directory entry "+r.URI+" title", r.Title)
			keep("directory entry "+r.URI+" description", r.Description)
		}
	}
	return nil
}

// read reads a resource natively and returns its text; binary contents
// are not text an agent reads and are left out.
func (g *gatherer) read(ctx context.Context, uri string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := g.src.Reader.ReadResource(ctx, req)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, c := range res.Contents {
		if t, ok := c.(mcp.TextResourceContents); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n"), nil
}

func (g *gatherer) prompts(ctx context.Context) error {
	if g.src.ReaderInit == nil || g.src.ReaderInit.Capabilities.Prompts == nil {
		return nil // the server offers no prompts
	}
	lctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	res, err := g.src.Reader.ListPrompts(lctx, mcp.ListPromptsRequest{})
	if err != nil {
		return fmt.Errorf("prompts/list: %w", err)
	}
	for _, p := range res.Prompts {
		g.c.Served.Prompts = append(g.c.Served.Prompts, p.Name)
	}
	for _, p := range res.Prompts {
		where := "prompt " + p.Name
		g.text(where+" title", p.Title)
		g.text(where+" description", p.Description)
		args := map[string]string{}
		required := false
		for _, a := range p.Arguments {
			g.text(where+" argument "+a.Name, a.Description)
			args[a.Name] = g.completion(ctx, p.Name, a.Name)
			required = required || a.Required
		}
		body, err := g.prompt(ctx, p.Name, args)
		if err != nil {
			// Plausible values may name nothing that exists yet (no flow is
			// saved on a fresh server); the refusal is text an agent reads.
			raw, _ := json.Marshal(args)
			g.text(fmt.Sprintf("refusal of prompt %s %s", p.Name, raw), err.Error(), slices.Collect(maps.Values(args))...)
		} else {
			g.text(where+" rendered", body)
		}
		if required {
			// Without its arguments the prompt is refused; that sentence is
			// given to an agent too.
			if _, err := g.prompt(ctx, p.Name, nil); err != nil {
				g.text(where+" refusal without arguments", err.Error())
			}
		}
	}
	return nil
}

// completion is the first value the server completes a prompt argument
// with, or else a plausible one.
func (g *gatherer) completion(ctx context.Context, prompt, arg string) string {
	if g.src.ReaderInit != nil && g.src.ReaderInit.Capabilities.Completions != nil {
		ctx, cancel := context.WithTimeout(ctx, g.timeout)
		defer cancel()
		req := mcp.CompleteRequest{}
		req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: prompt}
		req.Params.Argument = mcp.CompleteArgument{Name: arg}
		if res, err := g.src.Reader.Complete(ctx, req); err == nil && len(res.Completion.Values) > 0 {
			return res.Completion.Values[0]
		}
	}
	return plausible(arg)
}

// plausible is an argument value a caller would pass, by the argument's name.
func plausible(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "goal"), strings.Contains(n, "task"):
		return "sign in to https://staging.example.com and download the latest invoice"
	case strings.Contains(n, "url"), strings.Contains(n, "site"):
		return "https://staging.example.com"
	case strings.Contains(n, "flow"), strings.Contains(n, "name"):
		return "login"
	case strings.Contains(n, "uri"):
		return "knowledge://index"
	}
	return "example"
}

func (g *gatherer) prompt(ctx context.Context, name string, args map[string]string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	req := mcp.GetPromptRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := g.src.Reader.GetPrompt(ctx, req)
	if err != nil {
		return "", err
	}
	parts := []string{res.Description}
	for _, m := range res.Messages {
		parts = append(parts, contentText(m.Content))
	}
	return strings.Join(parts, "\n"), nil
}

func contentText(c mcp.Content) string {
	switch x := c.(type) {
	case mcp.TextContent:
		return x.Text
	case mcp.EmbeddedResource:
		if t, ok := x.Resource.(mcp.TextResourceContents); ok {
			return t.Text
		}
	}
	return ""
}

// refusals gathers what an agent is told when a call cannot work: reads of
// URIs that do not exist, natively and through the mirror, and each tool
// called with empty and with wrongly typed arguments.
func (g *gatherer) refusals(ctx context.Context) error {
	missing := []string{"knowledge://" + missingValue}
	for _, t := range g.c.Served.Templates {
		missing = append(missing, resources.ParseTemplate(t).Expand(nil, missingValue))
	}
	for _, u := range missing {
		if _, err := g.read(ctx, u); err != nil {
			g.text("refusal of resources/read "+u, err.Error(), u)
		} else {
			g.problem("resources/read "+u, "a URI that names nothing was read without a refusal")
		}
	}
	offered := func(name string) bool { return slices.Contains(g.c.Served.Tools, name) }
	if offered("read_resource") {
		for _, u := range missing {
			g.call(ctx, "read_resource", map[string]any{"uri": u})
		}
		for _, u := range g.c.Served.Resources {
			g.call(ctx, "read_resource", map[string]any{"uri": u})
		}
	}
	if offered("list_resources") {
		g.call(ctx, "list_resources", map[string]any{"cursor": missingValue})
	}
	for _, t := range g.c.Tools {
		schema := inputSchema(t)
		props, _ := schema["properties"].(map[string]any)
		required, _ := schema["required"].([]any)
		readOnly := t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
		if !readOnly && len(required) == 0 {
			g.c.Skipped = append(g.c.Skipped, t.Name+": not read-only and no required argument, so a call with empty or wrong arguments could act")
			continue
		}
		g.call(ctx, t.Name, map[string]any{})
		if len(props) > 0 {
			g.call(ctx, t.Name, wrongTyped(props))
		}
	}
	return nil
}

// wrongTyped gives every property a value of the wrong JSON type.
func wrongTyped(props map[string]any) map[string]any {
	args := map[string]any{}
	for name, p := range props {
		typ, _ := p.(map[string]any)["type"].(string)
		switch typ {
		case "string":
			args[name] = 12345
		case "number", "integer":
			args[name] = "not-a-number"
		case "boolean":
			args[name] = "not-a-boolean"
		case "array":
			args[name] = "not-an-array"
		case "object":
			args[name] = "not-an-object"
		default:
			args[name] = []any{missingValue}
		}
	}
	return args
}

// call calls a tool and keeps its result text; a JSON-RPC error from an
// offered tool is a problem, since refusals must arrive as isError results.
func (g *gatherer) call(ctx context.Context, name string, args map[string]any) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	raw, _ := json.Marshal(args)
	where := fmt.Sprintf("%s %s", name, raw)
	res, err := g.src.Mirror.CallTool(ctx, req)
	if err != nil {
		g.problem(where, "answered with a JSON-RPC error instead of an isError result: %v", err)
		return
	}
	var parts, echo []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	for _, v := range args {
		if s, ok := v.(string); ok {
			echo = append(echo, s)
		}
	}
	if res.IsError {
		where = "refusal of " + where
	} else {
		where = "result of " + where
		if name == "list_resources" && g.listing(where, strings.Join(parts, "\n")) {
			return
		}
	}
	g.text(where, strings.Join(parts, "\n"), echo...)
}

// listing keeps a list_resources page entry by entry, so that a document's
// title and description, served as written, are judged as the document is.
func (g *gatherer) listing(where, body string) bool {
	var page resources.MirrorPage
	if json.Unmarshal([]byte(body), &page) != nil {
		return false
	}
	for _, it := range page.Resources {
		uri := it.URI + it.URITemplate
		keep := g.text
		if isPublished(it.URI) {
			keep = g.published
		}
		keep(where+" "+uri+" title", it.Title)
		keep(where+" "+uri+" description", it.Description)
	}
	return true
}
