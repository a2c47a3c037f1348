package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// ResourceMetadataPath is where the OAuth 2.0 Protected Resource Metadata
// (RFC 9728) of the whole server is served; the MCP endpoint's own
// document is at this path followed by /mcp.
const ResourceMetadataPath = "/.well-known/oauth-protected-resource"

// discoveryTimeout bounds reading the identity provider's discovery
// document at start.
const discoveryTimeout = 30 * time.Second

// newAuthenticator builds the one authentication of every HTTP surface
// from Config.Tokens and Config.OIDC; with OIDC it reads the provider's
// discovery document, so a wrong issuer stops the start.
func newAuthenticator(cfg Config) (*auth.Authenticator, error) {
	opts := []auth.Option{auth.WithTokens(cfg.Tokens), auth.WithResourceMetadata(resourceMetadataURL)}
	if cfg.OIDC.Enabled() {
		ctx, cancel := context.WithTimeout(context.Background(), discoveryTimeout)
		defer cancel()
		v, err := auth.NewOIDC(ctx, cfg.OIDC)
		if err != nil {
			return nil, err
		}
		opts = append(opts, auth.WithOIDC(v))
	}
	return auth.NewAuthenticator(opts...), nil
}

// authenticate puts every HTTP route but the protected-resource metadata
// behind the authenticator: a client must read that document, unsigned
// in, to learn where to sign in.
func (s *Server) authenticate(next http.Handler) http.Handler {
	authed := s.authn.Middleware(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if resource, ok := metadataResource(r.URL.Path); ok && s.authn.OIDC() != nil {
			s.serveResourceMetadata(w, r, resource)
			return
		}
		authed.ServeHTTP(w, r)
	})
}

// metadataResource is the resource path a metadata request is about: ""
// for the server, "/mcp" for the MCP endpoint.
func metadataResource(path string) (string, bool) {
	switch path {
	case ResourceMetadataPath, ResourceMetadataPath + "/":
		return "", true
	case ResourceMetadataPath + "/mcp":
		return "/mcp", true
	}
	return "", false
}

// resourceMetadata is the RFC 9728 document.
type resourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

func (s *Server) serveResourceMetadata(w http.ResponseWriter, r *http.Request, resource string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "The protected-resource metadata is read with GET.", http.StatusMethodNotAllowed)
		return
	}
	doc := resourceMetadata{
		// RFC 9728 §3.3: resource is the identifier the document's URL was
		// formed from, so a client can check it is the server it called.
		Resource:               origin(r) + resource,
		AuthorizationServers:   []string{s.authn.OIDC().Config().Issuer},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           Title,
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=300")
	_ = json.NewEncoder(w).Encode(doc)
}

// resourceMetadataURL is the metadata a 401 points to: the MCP
// endpoint's own document for /mcp, the server's for every other route.
func resourceMetadataURL(r *http.Request) string {
	u := origin(r) + ResourceMetadataPath
	if r.URL.Path == "/mcp" || strings.HasPrefix(r.URL.Path, "/mcp/") {
		u += "/mcp"
	}
	return u
}

// origin is the scheme and host the caller reached the server at; the
// Host was checked by guardHTTP. Behind a TLS-terminating proxy that says
// so (X-Forwarded-Proto: https) the scheme is https.
func origin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
