package admin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
)

// TestConfigOIDC: before sign-in the page learns whether to offer OIDC
// (an issuer and the admin client id, nothing secret), and its CSP lets
// it call exactly the issuer's origin besides its own, for discovery and
// the token exchange; without an admin client id it offers none and calls
// only its own origin.
func TestConfigOIDC(t *testing.T) {
	idp := issuer.Start(t)
	for _, tc := range []struct {
		name     string
		clientID string
		offer    bool
		connect  string
	}{
		{name: "offered", clientID: adminClientID, offer: true, connect: "connect-src 'self' " + idp.URL},
		{name: "no admin client", clientID: "", connect: "connect-src 'self'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := servertest.New(t, server.Config{OIDC: auth.OIDCConfig{Issuer: idp.URL, Audience: idp.Audience, AdminClientID: tc.clientID}})
			base := servertest.ServeHTTP(t, srv).Base

			st, _, body := servertest.Get(t, base+"/admin/api/config", nil)
			assert.Assert(t, is.Equal(st, 200), string(body))
			var cfg struct {
				OIDC *struct {
					Issuer   string `json:"issuer"`
					ClientID string `json:"clientId"`
				} `json:"oidc"`
			}
			assert.NilError(t, json.Unmarshal(body, &cfg))
			if tc.offer {
				assert.Assert(t, cfg.OIDC != nil, string(body))
				assert.Check(t, is.Equal(cfg.OIDC.Issuer, idp.URL))
				assert.Check(t, is.Equal(cfg.OIDC.ClientID, tc.clientID))
			} else {
				assert.Check(t, cfg.OIDC == nil, string(body))
			}

			st, h, _ := servertest.Get(t, base+"/admin", nil)
			assert.Assert(t, is.Equal(st, 200))
			var connect string
			for _, d := range strings.Split(h.Get("Content-Security-Policy"), ";") {
				if d = strings.TrimSpace(d); strings.HasPrefix(d, "connect-src ") {
					connect = d
				}
			}
			assert.Check(t, is.Equal(connect, tc.connect))
		})
	}
}
