package main

import (
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/config"
)

// oidcConfig reads the oidc_* settings for an HTTP server; the server
// checks them (auth.NewOIDC) and stops the start with a sentence when they
// are wrong. Over stdio there is no bearer to check, so the identity
// provider is not asked for anything and cannot stop the start.
func oidcConfig(c *config.Config, http bool) auth.OIDCConfig {
	if !http {
		return auth.OIDCConfig{}
	}
	get := func(key string) string { return strings.TrimSpace(c.Get(key)) }
	return auth.OIDCConfig{
		Issuer:         get("oidc_issuer"),
		Audience:       get("oidc_audience"),
		PrincipalClaim: get("oidc_principal_claim"),
		RolesClaim:     get("oidc_roles_claim"),
		RequiredRole:   get("oidc_required_role"),
		AdminClientID:  get("oidc_admin_client_id"),
	}
}
