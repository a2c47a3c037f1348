package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/resources"
)

// OpenAPIVersion is the OpenAPI version of the read API's document.
const OpenAPIVersion = "3.1.0"

// DefaultBase is where `make serve-http` listens; the document names it as
// its server.
const DefaultBase = "http://127.0.0.1:8765"

// ResourceExtension is the OpenAPI extension that names the MCP resource,
// or resource template, a read endpoint answers.
const ResourceExtension = "x-mcp-resource"

// OpenAPI is the read API's OpenAPI 3.1 document for what this server
// serves: one path per resource and one templated path per template, each
// naming its URI in x-mcp-resource. Hidden entries are left out.
func (s *Server) OpenAPI() ([]byte, error) {
	return OpenAPI(s.table.Entries(), Version)
}

type openAPIDoc struct {
	OpenAPI    string                `json:"openapi"`
	Info       openAPIInfo           `json:"info"`
	Servers    []openAPIServer       `json:"servers"`
	Security   []map[string][]string `json:"security"`
	Paths      map[string]pathItem   `json:"paths"`
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

type pathItem struct {
	Parameters []parameter `json:"parameters,omitempty"`
	Get        operation   `json:"get"`
}

type parameter struct {
	Name        string         `json:"name"`
	In          string         `json:"in"`
	Required    bool           `json:"required"`
	Description string         `json:"description,omitempty"`
	Schema      map[string]any `json:"schema"`
}

type operation struct {
	OperationID string              `json:"operationId"`
	Summary     string              `json:"summary"`
	Description string              `json:"description"`
	Tags        []string            `json:"tags"`
	Resource    string              `json:"x-mcp-resource,omitempty"`
	Template    bool                `json:"x-mcp-resource-template,omitempty"`
	Responses   map[string]response `json:"responses"`
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
	SecuritySchemes map[string]securityScheme `json:"securitySchemes"`
	Responses       map[string]response       `json:"responses"`
}

type securityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme"`
	Description string `json:"description"`
}

// OpenAPI builds the read API's document from table entries; version is
// the server's version.
func OpenAPI(entries []resources.Entry, version string) ([]byte, error) {
	doc := openAPIDoc{
		OpenAPI: OpenAPIVersion,
		Info: openAPIInfo{
			Title:   "selenium-flow read API",
			Version: version,
			Description: "Read selenium-flow's MCP resources over plain HTTP, for callers without an MCP client. " +
				"GET " + ReadPrefix + "{uri} answers with the same bytes resources/read returns for that URI, typed as the resource is; " +
				"the URI goes into the path as it is (" + ReadPrefix + resources.IndexURI + ") or percent-encoded as one segment. " +
				"Authentication and per-caller scoping are those of the MCP endpoint /mcp: with tokens configured, send Authorization: Bearer <token>, and session, file, flow and secret resources are the token's principal's. " +
				"session://current and session://sites are those of the workspace named by ?workspace=NAME or the X-Workspace header (default otherwise; naming it both ways, or an invalid name, is 400). " +
				"A URI the server does not serve is 404 with a sentence naming what exists.",
		},
		Servers:  []openAPIServer{{URL: DefaultBase, Description: "selenium-flow serve --http 127.0.0.1:8765 (make serve-http); use your server's address"}},
		Security: []map[string][]string{{"bearer": {}}, {}},
		Paths:    map[string]pathItem{},
		Components: openAPIComponents{
			SecuritySchemes: map[string]securityScheme{"bearer": {
				Type: "http", Scheme: "bearer",
				Description: "A token from the server's FLOW_TOKENS file (or its --token). A server without tokens listens on loopback only and needs none.",
			}},
			Responses: map[string]response{
				"NotFound": {Description: "The server serves no such resource; the body says what exists and an example that works.",
					Content: map[string]mediaType{"text/plain": {Schema: map[string]any{"type": "string"}}}},
				"Unauthorized": {Description: "The request carried no bearer token, or one the server does not know.",
					Content: map[string]mediaType{"text/plain": {Schema: map[string]any{"type": "string"}}}},
			},
		},
	}
	doc.Paths[OpenAPIPath] = pathItem{Get: operation{
		OperationID: "openapi",
		Summary:     "This document",
		Description: "The read API's OpenAPI 3.1 document, generated from the resource table.",
		Tags:        []string{"meta"},
		Responses: map[string]response{"200": {Description: "The document.",
			Content: map[string]mediaType{"application/json": {Schema: map[string]any{"type": "object"}}}}},
	}}
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
		uri := tmpl.Expand(vars, "")
		p := ReadPrefix + uri
		if _, dup := doc.Paths[p]; dup {
			return nil, fmt.Errorf("two resources give the read path %s", p)
		}
		op := operation{
			OperationID: "read-" + e.Name,
			Summary:     e.Title,
			Description: e.Description,
			Tags:        []string{scheme(e.URI)},
			Resource:    e.URI,
			Template:    e.Template,
			Responses: map[string]response{
				"200": {Description: "The resource, as resources/read returns it.", Content: content(e.MIMEType)},
				"401": {Ref: "#/components/responses/Unauthorized"},
				"404": {Ref: "#/components/responses/NotFound"},
			},
		}
		item := pathItem{Get: op}
		for _, name := range tmpl.Vars() {
			schema := map[string]any{"type": "string"}
			if vals := e.Values[name]; len(vals) > 0 {
				schema["enum"] = slices.Clone(vals)
			}
			item.Parameters = append(item.Parameters, parameter{
				Name: name, In: "path", Required: true, Schema: schema,
				Description: fmt.Sprintf("The %s variable of %s.", name, e.URI),
			})
		}
		doc.Paths[p] = item
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

func scheme(uri string) string {
	s, _, _ := strings.Cut(uri, "://")
	return s
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
