package main

import (
	"os"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// oidcFromEnv reads the FLOW_OIDC_* settings; the server checks them
// (auth.NewOIDC) and stops the start with a sentence when they are wrong.
func oidcFromEnv() auth.OIDCConfig {
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
