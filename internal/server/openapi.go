package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v2"

	"github.com/selenium-flow/selenium-flow/resources"
	"github.com/selenium-flow/selenium-flow/tools"
)

// OpenAPIVersion is the OpenAPI version of the HTTP surface's document.
const OpenAPIVersion = "3.1.0"

// DefaultBase is where `make serve-http` listens; the document names it as
// its server.
const DefaultBase = "http://127.0.0.1:8765"

// ResourceExtension is the OpenAPI extension that names the MCP resource,
// or resource template, a read endpoint answers.
const ResourceExtension = "x-mcp-resource"

// ToolExtension is the OpenAPI extension that names the MCP tool an
// action endpoint calls.
const ToolExtension = "x-mcp-tool"

// OpenAPI is the HTTP surface's OpenAPI 3.1 document for what this server
// serves: an action endpoint per tool (x-mcp-tool, its request body the
// tool's own input schema), a read path per resource and template
// (x-mcp-resource), and the operational endpoints. Hidden entries and
// excluded tools are left out.
func (s *Server) OpenAPI() ([]byte, error) {
	return OpenAPI(s.table.Entries(), s.tools, Version)
}

// OpenAPIYAML is the same document as YAML.
func (s *Server) OpenAPIYAML() ([]byte, error) {
	doc, err := s.OpenAPI()
	if err != nil {
		return nil, err
	}
	var v yaml.MapSlice
	if err := yaml.Unmarshal(doc, &v); err != nil { // JSON is YAML; MapSlice keeps the order
		return nil, fmt.Errorf("the OpenAPI document does not convert to YAML: %w", err)
	}
	return yaml.Marshal(v)
}

type openAPIDoc struct {
	OpenAPI    string                `json:"openapi"`
	Info       openAPIInfo           `json:"info"`
	Servers    []openAPIServer       `json:"servers"`
	Security   []map[string][]string `json:"security"`
	Tags       []openAPITag          `json:"tags"`
	Paths      map[string]*pathItem  `json:"paths"`
	Components openAPIComponents     `json:"components"`
}

type openAPIInfo struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

type openAPIServer struct {
	URL         string `json:"url"`
	Description string `json:"description"`
}

type openAPITag struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type pathItem struct {
	Parameters []parameter `json:"parameters,omitempty"`
	Get        *operation  `json:"get,omitempty"`
	Put        *operation  `json:"put,omitempty"`
	Post       *operation  `json:"post,omitempty"`
	Delete     *operation  `json:"delete,omitempty"`
}

// set puts op at method, refusing a second one.
func (p *pathItem) set(method string, op *operation) error {
	slot := map[string]**operation{"GET": &p.Get, "PUT": &p.Put, "POST": &p.Post, "DELETE": &p.Delete}[method]
	if slot == nil || *slot != nil {
		return fmt.Errorf("two operations, or an unknown method, at %s %s", method, op.OperationID)
	}
	*slot = op
	return nil
}

type parameter struct {
	Name        string         `json:"name"`
	In          string         `json:"in"`
	Required    bool           `json:"required"`
	Description string         `json:"description,omitempty"`
	Schema      map[string]any `json:"schema"`
}

type operation struct {
	OperationID string                `json:"operationId"`
	Summary     string                `json:"summary"`
	Description string                `json:"description"`
	Tags        []string              `json:"tags"`
	Tool        string                `json:"x-mcp-tool,omitempty"`
	Resource    string                `json:"x-mcp-resource,omitempty"`
	Template    bool                  `json:"x-mcp-resource-template,omitempty"`
	Parameters  []parameter           `json:"parameters,omitempty"`
	RequestBody *requestBody          `json:"requestBody,omitempty"`
	Security    []map[string][]string `json:"security,omitempty"`
	Responses   map[string]response   `json:"responses"`
}

type requestBody struct {
	Description string               `json:"description,omitempty"`
	Required    bool                 `json:"required"`
	Content     map[string]mediaType `json:"content"`
}

type response struct {
	Ref         string               `json:"$ref,omitempty"`
	Description string               `json:"description,omitempty"`
	Content     map[string]mediaType `json:"content,omitempty"`
}

type mediaType struct {
	Schema map[string]any `json:"schema"`
}

type openAPIComponents struct {
	Schemas         map[string]map[string]any `json:"schemas"`
	SecuritySchemes map[string]securityScheme `json:"securitySchemes"`
	Responses       map[string]response       `json:"responses"`
}

type securityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme"`
	Description string `json:"description"`
}

// The endpoint groups: each is a tag of the document and a page of the
// manual.
var groups = []openAPITag{
	{Name: "browser", Description: "Every page tool as POST " + BrowserPrefix + "{tool}: the tool's arguments as the JSON body, its result as JSON."},
	{Name: "flows", Description: "Saved flows: list, read, save (validated), delete and run, with progress as Server-Sent Events."},
	{Name: "files", Description: "Kept files (screenshots, prints, downloads): list, fetch (with a token or a signed link) and delete."},
	{Name: "secrets", Description: "The names of your secrets; values never leave the server."},
	{Name: "resources", Description: "Every MCP resource over plain GET, with the bytes resources/read returns."},
	{Name: "operations", Description: "Health, readiness, what the server offers, and this document."},
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

func jsonContent(schema map[string]any) map[string]mediaType {
	return map[string]mediaType{"application/json": {Schema: schema}}
}

// refusals are the error responses of an action: each status a refusal
// Kind, a failed browser or an unknown token gives.
func refusals(codes ...string) map[string]response {
	out := map[string]response{}
	for _, c := range codes {
		out[c] = response{Ref: "#/components/responses/" + c}
	}
	return out
}

var errorStatuses = map[string]string{
	"400": "The arguments are wrong: the body says which and what would work.",
	"401": "The request carried no bearer token, or one the server does not accept (unknown, expired, for another audience); with OIDC the WWW-Authenticate header names the protected-resource metadata. A valid token without the role the server requires gets 403.",
	"403": "The caller may not do this, or a signed link expired or was altered.",
	"404": "A named thing (tool, flow, file, resource) does not exist; the body names what does.",
	"409": "The page or session is not in the state the call needs (no element matched, a dialog is open, an assertion or flow step failed).",
	"413": "The request body is over the limit.",
	"502": "The browser or its driver failed; the call can be tried again.",
	"503": "No browser endpoint answers (chromedriver or the Grid).",
}

// OpenAPI builds the document from table entries and tools; version is
// the server's version.
func OpenAPI(entries []resources.Entry, served []tools.Tool, version string) ([]byte, error) {
	doc := openAPIDoc{
		OpenAPI: OpenAPIVersion,
		Info: openAPIInfo{
			Title:   "selenium-flow HTTP API",
			Version: version,
			Description: "Every selenium-flow tool as an HTTP endpoint, and every MCP resource over plain GET, for callers without an MCP client (workflow engines, scripts, curl). " +
				"An action endpoint calls the same handler tools/call reaches, with the same validation and refusal sentences: the JSON body is the tool's arguments, the answer its result as JSON, a refusal a JSON error body with the status of its kind. " +
				"GET " + ReadPrefix + "{uri} answers with the same bytes resources/read returns for that URI, typed as the resource is; the URI goes into the path as it is (" + ReadPrefix + resources.IndexURI + ") or percent-encoded as one segment. " +
				"Authentication and per-caller scoping are those of the MCP endpoint /mcp: with tokens configured, send Authorization: Bearer <token>, and sessions, files, flows and secrets are the token's principal's. " +
				"Page tools, session://current and session://sites work in the workspace named by ?workspace=NAME or the X-Workspace header (default otherwise; naming it both ways, or an invalid name, is 400). " +
				"A URI the server does not serve is 404 with a sentence naming what exists.",
		},
		Servers:  []openAPIServer{{URL: DefaultBase, Description: "selenium-flow serve --http 127.0.0.1:8765 (make serve-http); use your server's address"}},
		Security: []map[string][]string{{"bearer": {}}, {}},
		Tags:     groups,
		Paths:    map[string]*pathItem{},
		Components: openAPIComponents{
			Schemas: map[string]map[string]any{
				"Error": {"type": "object", "required": []string{"error", "status"}, "properties": map[string]any{
					"error":  map[string]any{"type": "string", "description": "what was wrong and the call that would work"},
					"tool":   map[string]any{"type": "string"},
					"status": map[string]any{"type": "integer"},
				}},
				"ToolAnswer": {"type": "object", "required": []string{"tool", "text"}, "properties": map[string]any{
					"tool":   map[string]any{"type": "string"},
					"text":   map[string]any{"type": "string", "description": "the tool's text, as an MCP client reads it"},
					"result": map[string]any{"description": "the tool's structured result, when it has one"},
					"images": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
						"mimeType": map[string]any{"type": "string"}, "bytes": map[string]any{"type": "integer"}}}},
					"files": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
						"uri": map[string]any{"type": "string"}, "name": map[string]any{"type": "string"}, "mimeType": map[string]any{"type": "string"},
						"link": map[string]any{"type": "string", "description": "a signed link that works without a token until it expires"}}}},
				}},
				"FlowDocument": {"type": "object", "description": "A flow document in the shape of flow://schema (GET " + ReadPrefix + resources.FlowSchemaURI + "); name may be left out, the path gives it."},
				"RunRequest": {"type": "object", "additionalProperties": false, "properties": map[string]any{
					"params": map[string]any{"type": "object", "description": "parameter values by name"}}},
				"Health": {"type": "object", "properties": map[string]any{"status": map[string]any{"type": "string"}}},
				"Ready": {"type": "object", "required": []string{"ready", "endpoint"}, "properties": map[string]any{
					"ready": map[string]any{"type": "boolean"}, "endpoint": map[string]any{"type": "string"}, "error": map[string]any{"type": "string"}}},
				"Info": {"type": "object", "required": []string{"name", "version"}, "properties": map[string]any{
					"name": map[string]any{"type": "string"}, "version": map[string]any{"type": "string"},
					"surfaces": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
					"browser":  map[string]any{"type": "string"},
					"tools":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
					"enabled":  map[string]any{"type": "object"}}},
				"ResourceList": {"type": "object", "properties": map[string]any{"resources": map[string]any{"type": "array", "items": map[string]any{"type": "object"}}}},
			},
			SecuritySchemes: map[string]securityScheme{"bearer": {
				Type: "http", Scheme: "bearer",
				Description: "A token from the server's FLOW_TOKENS file (or its --token), or, where the server has FLOW_OIDC_ISSUER set, an access token (JWT) from that identity provider, named in " + ResourceMetadataPath + ". A server without either listens on loopback only and needs none.",
			}},
			Responses: map[string]response{
				"NotFound": {Description: "The server serves no such resource; the body says what exists and an example that works.",
					Content: map[string]mediaType{"text/plain": {Schema: map[string]any{"type": "string"}}}},
				"Unauthorized": {Description: errorStatuses["401"],
					Content: map[string]mediaType{"text/plain": {Schema: map[string]any{"type": "string"}}}},
			},
		},
	}
	for code, desc := range errorStatuses {
		doc.Components.Responses[code] = response{Description: desc, Content: jsonContent(ref("Error"))}
	}
	add := func(path, method string, op *operation) error {
		item := doc.Paths[path]
		if item == nil {
			item = &pathItem{}
			doc.Paths[path] = item
		}
		return item.set(method, op)
	}
	for _, op := range opsOperations() {
		if err := add(op.path, op.method, op.op); err != nil {
			return nil, err
		}
	}
	for _, t := range served {
		route, ok := routeFor(t.Def.Name)
		if !ok {
			continue
		}
		op, err := toolOperation(route, t)
		if err != nil {
			return nil, err
		}
		if err := add(route.Path, route.Method, op); err != nil {
			return nil, err
		}
	}
	if err := addReadPaths(&doc, entries, add); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("the OpenAPI document does not marshal: %w", err)
	}
	return b.Bytes(), nil
}

// nameParam is the {name} of a flow or file path.
func nameParam(of string) parameter {
	return parameter{Name: "name", In: "path", Required: true, Description: "The " + of + "'s name.", Schema: map[string]any{"type": "string"}}
}

// toolOperation is the operation of one tool's endpoint: its request body
// is the tool's own input schema (the flow routes take the name from the
// path).
func toolOperation(route Route, t tools.Tool) (*operation, error) {
	schema, err := inputSchema(t)
	if err != nil {
		return nil, err
	}
	op := &operation{
		OperationID: t.Def.Name,
		Summary:     cmpOr(t.Def.Annotations.Title, t.Def.Title, t.Def.Name),
		Description: t.Def.Description,
		Tags:        []string{route.Group},
		Tool:        t.Def.Name,
		Responses:   refusals("400", "401", "403", "404", "409", "413", "502", "503"),
	}
	ok := response{Description: "The tool's result.", Content: jsonContent(ref("ToolAnswer"))}
	switch t.Def.Name {
	case "save_flow":
		op.Parameters = []parameter{nameParam("flow")}
		op.RequestBody = &requestBody{Required: true, Description: "The flow document.", Content: jsonContent(ref("FlowDocument"))}
	case "delete_flow":
		op.Parameters = []parameter{nameParam("flow")}
	case "run_flow":
		op.Parameters = []parameter{nameParam("flow")}
		op.RequestBody = &requestBody{Description: "The run's parameters, or nothing.", Content: jsonContent(ref("RunRequest"))}
		ok.Description = "The per-step report; with Accept: text/event-stream, a progress event per step, then a result or error event."
		ok.Content["text/event-stream"] = mediaType{Schema: map[string]any{"type": "string"}}
	case "list_resources":
		op.Description = "Every resource and template the server serves, with the path that reads each (the mirror tool list_resources over HTTP). " + t.Def.Description
		op.Responses = refusals("401")
		ok = response{Description: "The resources.", Content: jsonContent(ref("ResourceList"))}
	case "read_resource":
		op.OperationID = "read_resource"
		op.Description = "Any resource by URI, percent-encoded as one segment (the mirror tool read_resource over HTTP); each resource also has a path of its own below. " + t.Def.Description
		op.Parameters = []parameter{{Name: "uri", In: "path", Required: true, Description: "The resource's URI, e.g. knowledge%3A%2F%2Findex.", Schema: map[string]any{"type": "string"}}}
		op.Responses = refusals("400", "401")
		op.Responses["404"] = response{Ref: "#/components/responses/NotFound"}
		ok = response{Description: "The resource, as resources/read returns it.", Content: map[string]mediaType{"*/*": {Schema: map[string]any{}}}}
	default:
		op.RequestBody = &requestBody{Description: "The tool's arguments.", Content: jsonContent(schema)}
		if t.Def.Name == "upload_file" {
			// The file may travel in the request instead of naming a kept one.
			props, _ := schema["properties"].(map[string]any)
			withFile := map[string]any{}
			for k, v := range schema {
				withFile[k] = v
			}
			p := map[string]any{"file": map[string]any{"type": "object", "description": "a file to keep and upload instead of kept", "required": []string{"name", "content"},
				"properties": map[string]any{"name": map[string]any{"type": "string"}, "content": map[string]any{"type": "string", "contentEncoding": "base64"}}}}
			for k, v := range props {
				p[k] = v
			}
			withFile["properties"] = p
			withFile["required"] = []string{"locator"}
			op.RequestBody.Description = "upload_file's arguments; or, instead of kept, the file itself: as file {name, content} in JSON, or as the file part of a multipart form (up to 64 MiB) with locator as a JSON field."
			op.RequestBody.Content = map[string]mediaType{
				"application/json": {Schema: withFile},
				"multipart/form-data": {Schema: map[string]any{"type": "object", "required": []string{"file", "locator"}, "properties": map[string]any{
					"file":    map[string]any{"type": "string", "contentMediaType": "application/octet-stream"},
					"locator": map[string]any{"type": "string", "description": "the locator as JSON, e.g. {\"label\": \"Document\"}"}}}},
			}
		}
		if t.Def.Name == "screenshot" {
			ok.Description += " With Accept: image/png, the PNG itself."
			ok.Content["image/png"] = mediaType{Schema: map[string]any{"type": "string", "contentMediaType": "image/png"}}
		}
	}
	op.Responses["200"] = ok
	return op, nil
}

// inputSchema is a tool's input schema as a JSON Schema object.
func inputSchema(t tools.Tool) (map[string]any, error) {
	raw := []byte(t.Def.RawInputSchema)
	if len(raw) == 0 {
		var err error
		if raw, err = json.Marshal(t.Def.InputSchema); err != nil {
			return nil, fmt.Errorf("the input schema of %s does not marshal: %w", t.Def.Name, err)
		}
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("the input schema of %s is not an object: %w", t.Def.Name, err)
	}
	return schema, nil
}

func cmpOr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

type opAt struct {
	path, method string
	op           *operation
}

// opsOperations are the operational endpoints and the routes of the flow,
// file and secret collections that read resources.
func opsOperations() []opAt {
	none := []map[string][]string{{}}
	json200 := func(desc, schema string) map[string]response {
		return map[string]response{"200": {Description: desc, Content: jsonContent(ref(schema))}}
	}
	read := func(id, summary, uri string, params ...parameter) *operation {
		return &operation{OperationID: id, Summary: summary, Description: "Answers the resource " + uri + ", as resources/read does.",
			Tags: []string{strings.Split(strings.TrimPrefix(id, "get-"), "-")[0]}, Resource: uri, Parameters: params,
			Responses: map[string]response{
				"200": {Description: "The resource.", Content: map[string]mediaType{"application/json": {Schema: map[string]any{"type": "object"}}}},
				"400": {Ref: "#/components/responses/400"},
				"401": {Ref: "#/components/responses/Unauthorized"},
				"404": {Ref: "#/components/responses/NotFound"},
			}}
	}
	fileGet := &operation{OperationID: "get-file", Summary: "Fetch a kept file",
		Description: "One of your kept files, with Range support. With a token, or without one through the signed link results and session://files give (exp, p and sig in the query); an expired or altered link is a 403 page.",
		Tags:        []string{"files"}, Resource: "session://files/{+name}", Parameters: []parameter{nameParam("file"),
			{Name: "exp", In: "query", Schema: map[string]any{"type": "string"}, Description: "a signed link's expiry"},
			{Name: "p", In: "query", Schema: map[string]any{"type": "string"}, Description: "a signed link's principal"},
			{Name: "sig", In: "query", Schema: map[string]any{"type": "string"}, Description: "a signed link's signature"}},
		Responses: map[string]response{
			"200": {Description: "The file.", Content: map[string]mediaType{"*/*": {Schema: map[string]any{}}}},
			"206": {Description: "The requested range of the file.", Content: map[string]mediaType{"*/*": {Schema: map[string]any{}}}},
			"400": {Ref: "#/components/responses/400"}, "401": {Ref: "#/components/responses/Unauthorized"},
			"403": {Description: "The signed link expired or was altered.", Content: map[string]mediaType{"text/html": {Schema: map[string]any{"type": "string"}}}},
			"404": {Description: "No kept file of that name.", Content: map[string]mediaType{"text/plain": {Schema: map[string]any{"type": "string"}}}},
		}}
	fileDelete := &operation{OperationID: "delete-file", Summary: "Delete a kept file", Description: "Deletes one of your kept files; session://files lists them.",
		Tags: []string{"files"}, Parameters: []parameter{nameParam("file")},
		Responses: map[string]response{"204": {Description: "Deleted."}, "400": {Ref: "#/components/responses/400"}, "401": {Ref: "#/components/responses/401"}, "404": {Ref: "#/components/responses/404"}}}
	return []opAt{
		{HealthPath, "GET", &operation{OperationID: "health", Summary: "The process answers", Description: "Always 200 while the server runs; needs no token (for load balancers).",
			Tags: []string{"operations"}, Security: none, Responses: json200("The server runs.", "Health")}},
		{ReadyPath, "GET", &operation{OperationID: "ready", Summary: "The browser endpoint answers", Description: "200 when the browser endpoint (the local chromedriver or the Grid) answers its /status; 503 otherwise. Opens no browser and never names the endpoint's address.",
			Tags: []string{"operations"}, Responses: map[string]response{
				"200": {Description: "Ready.", Content: jsonContent(ref("Ready"))}, "401": {Ref: "#/components/responses/Unauthorized"},
				"503": {Description: "Not ready.", Content: jsonContent(ref("Ready"))}}}},
		{InfoPath, "GET", &operation{OperationID: "info", Summary: "What this server offers", Description: "Version, surfaces, tools and what is enabled; no secrets.",
			Tags: []string{"operations"}, Responses: json200("The server's description.", "Info")}},
		{OpenAPIPath, "GET", &operation{OperationID: "openapi", Summary: "This document", Description: "This OpenAPI 3.1 document, generated from the tool schemas and the resource table.",
			Tags: []string{"operations"}, Responses: map[string]response{"200": {Description: "The document.", Content: jsonContent(map[string]any{"type": "object"})}}}},
		{OpenAPIYAMLPath, "GET", &operation{OperationID: "openapi-yaml", Summary: "This document as YAML", Description: "The same document as " + OpenAPIPath + ", in YAML.",
			Tags: []string{"operations"}, Responses: map[string]response{"200": {Description: "The document.", Content: map[string]mediaType{"application/yaml": {Schema: map[string]any{"type": "string"}}}}}}},
		{FlowsPath, "GET", read("get-flows", "List flows", "flow://flows")},
		{FlowsPath + "/{name}", "GET", read("get-flows-one", "Read a flow", "flow://flows/{name}", nameParam("flow"))},
		{FilesPath, "GET", read("get-files", "List kept files", "session://files")},
		{FilesPath + "/{name}", "GET", fileGet},
		{FilesPath + "/{name}", "DELETE", fileDelete},
		{FilesPath, "POST", &operation{OperationID: "post-file", Summary: "Keep a file sent in the request",
			Description: "Keeps the file in your uploads folder (up to 64 MiB), for upload_file's kept argument: the \"file\" part of a multipart form (curl -F file=@report.pdf), or JSON {\"file\": {\"name\", \"content\": base64}}.",
			Tags:        []string{"files"},
			RequestBody: &requestBody{Required: true, Content: map[string]mediaType{
				"multipart/form-data": {Schema: map[string]any{"type": "object", "required": []string{"file"}, "properties": map[string]any{"file": map[string]any{"type": "string", "contentMediaType": "application/octet-stream"}}}},
				"application/json": {Schema: map[string]any{"type": "object", "required": []string{"file"}, "properties": map[string]any{"file": map[string]any{"type": "object", "required": []string{"name", "content"},
					"properties": map[string]any{"name": map[string]any{"type": "string"}, "content": map[string]any{"type": "string", "contentEncoding": "base64"}}}}}},
			}},
			Responses: map[string]response{
				"201": {Description: "Kept: its URI, name, type and signed link.", Content: jsonContent(map[string]any{"type": "object", "properties": map[string]any{
					"uri": map[string]any{"type": "string"}, "name": map[string]any{"type": "string"}, "mimeType": map[string]any{"type": "string"}, "link": map[string]any{"type": "string"}}})},
				"400": {Ref: "#/components/responses/400"}, "401": {Ref: "#/components/responses/401"}, "413": {Ref: "#/components/responses/413"},
			}}},
		{SecretsPath, "GET", read("get-secrets", "List secret names", "secret://secrets")},
	}
}

// addReadPaths adds a read path per resource and template.
func addReadPaths(doc *openAPIDoc, entries []resources.Entry, add func(string, string, *operation) error) error {
	for _, e := range entries {
		if e.Hidden || e.Unlisted {
			continue // an unlisted entry is read through its template's path
		}
		tmpl := resources.ParseTemplate(e.URI)
		// OpenAPI path templates have one kind of variable: {+path} is
		// written {path}.
		vars := map[string]string{}
		for _, v := range tmpl.Vars() {
			vars[v] = "{" + v + "}"
		}
		p := ReadPrefix + tmpl.Expand(vars, "")
		if _, dup := doc.Paths[p]; dup {
			return fmt.Errorf("two resources give the read path %s", p)
		}
		op := &operation{
			OperationID: "read-" + e.Name,
			Summary:     e.Title,
			Description: e.Description,
			Tags:        []string{"resources"},
			Resource:    e.URI,
			Template:    e.Template,
			Responses: map[string]response{
				"200": {Description: "The resource, as resources/read returns it.", Content: content(e.MIMEType)},
				"401": {Ref: "#/components/responses/Unauthorized"},
				"404": {Ref: "#/components/responses/NotFound"},
			},
		}
		for _, name := range tmpl.Vars() {
			schema := map[string]any{"type": "string"}
			if vals := e.Values[name]; len(vals) > 0 {
				schema["enum"] = slices.Clone(vals)
			}
			op.Parameters = append(op.Parameters, parameter{
				Name: name, In: "path", Required: true, Schema: schema,
				Description: fmt.Sprintf("The %s variable of %s.", name, e.URI),
			})
		}
		if err := add(p, "GET", op); err != nil {
			return err
		}
	}
	return nil
}

// content is a 200 response's media type for a resource's MIME type.
func content(mime string) map[string]mediaType {
	switch {
	case mime == "":
		return map[string]mediaType{"*/*": {Schema: map[string]any{}}}
	case strings.Contains(mime, "json"):
		return map[string]mediaType{mime: {Schema: map[string]any{"type": "object"}}}
	case strings.HasPrefix(mime, "text/"):
		return map[string]mediaType{mime: {Schema: map[string]any{"type": "string"}}}
	}
	return map[string]mediaType{mime: {Schema: map[string]any{}}}
}
