package main

import (
	"os"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// oidcFromEnv reads the FLOW_OIDC_* settings for an HTTP server; the
// server checks them (auth.NewOIDC) and stops the start with a sentence
// when they are wrong. Over stdio there is no bearer to check, so the
// identity provider is not asked for anything and cannot stop the start.
func oidcFromEnv(http bool) auth.OIDCConfig {
	if !http {
		return auth.OIDCConfig{}
	}
	get := func(name string) string { return strings.TrimSpace(os.Getenv(name)) }
	return auth.OIDCConfig{
		Issuer:         get("FLOW_OIDC_ISSUER"),
		Audience:       get("FLOW_OIDC_AUDIENCE"),
		PrincipalClaim: get("FLOW_OIDC_PRINCIPAL_CLAIM"),
		RolesClaim:     get("FLOW_OIDC_ROLES_CLAIM"),
		RequiredRole:   get("FLOW_OIDC_REQUIRED_ROLE"),
		AdminClientID:  get("FLOW_OIDC_ADMIN_CLIENT_ID"),
	}
}
