package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
)

// BenchmarkAuthenticate is what one request's authentication costs: a
// static token beside OIDC, and a JWT of each common algorithm once its
// key is cached (the JWKS is fetched before the timer starts).
func BenchmarkAuthenticate(b *testing.B) {
	for _, alg := range []jose.SignatureAlgorithm{"static", jose.RS256, jose.ES256} {
		b.Run(string(alg), func(b *testing.B) {
			idpAlg := alg
			if alg == "static" {
				idpAlg = jose.RS256
			}
			idp := issuer.Start(b, issuer.WithAlgorithm(idpAlg))
			v, err := NewOIDC(context.Background(), OIDCConfig{Issuer: idp.URL, Audience: idp.Audience, RolesClaim: "roles"})
			if err != nil {
				b.Fatal(err)
			}
			tokens, _ := NewTokens(map[string]string{staticToken: "robot"})
			for i := range 20 {
				_ = tokens.Add(staticToken+string(rune('a'+i)), "robot")
			}
			a := NewAuthenticator(WithTokens(tokens), WithOIDC(v))
			bearer := staticToken
			if alg != "static" {
				bearer = idp.Token(b, issuer.Claims{"sub": "alice", "roles": []string{"operator"}})
			}
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.Header.Set("Authorization", "Bearer "+bearer)
			if _, f := a.Authenticate(r); f != nil {
				b.Fatal(f.Message)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, f := a.Authenticate(r); f != nil {
					b.Fatal(f.Message)
				}
			}
		})
	}
}
