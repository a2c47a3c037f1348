package issuer

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"maps"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Claims are a token's claims; Token fills in iss, aud, iat and exp where
// they are missing. A claim set to nil is left out.
type Claims map[string]any

// MintOption changes how Token signs.
type MintOption func(*mint)

type mint struct {
	key  *Key
	alg  string // "none" or "HS256-public": the broken ones
	life time.Duration
}

// SignedBy signs with k instead of the current signing key (a retired or
// never-published key).
func SignedBy(k *Key) MintOption { return func(m *mint) { m.key = k } }

// Unsigned makes an alg "none" token with an empty signature.
func Unsigned() MintOption { return func(m *mint) { m.alg = "none" } }

// HS256WithPublicKey signs with HMAC-SHA256 keyed with the signing key's
// public key in PEM, the key-confusion attack on verifiers that take the
// algorithm from the token.
func HS256WithPublicKey() MintOption { return func(m *mint) { m.alg = "HS256-public" } }

// ExpiresIn sets exp that far from now (negative: already expired);
// five minutes by default.
func ExpiresIn(d time.Duration) MintOption { return func(m *mint) { m.life = d } }

// Token mints a compact JWT with claims over the defaults.
func (i *Issuer) Token(t testing.TB, claims Claims, opts ...MintOption) string {
	t.Helper()
	m := mint{key: i.SigningKey(), life: 5 * time.Minute}
	for _, o := range opts {
		o(&m)
	}
	tok, err := i.sign(claims, m)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (i *Issuer) sign(claims Claims, m mint) (string, error) {
	now := time.Now()
	all := Claims{"iss": i.URL, "aud": i.Audience, "iat": now.Unix(), "exp": now.Add(m.life).Unix()}
	maps.Copy(all, claims)
	maps.DeleteFunc(all, func(_ string, v any) bool { return v == nil })
	payload, err := json.Marshal(all)
	if err != nil {
		return "", err
	}
	switch m.alg {
	case "none":
		return compact(map[string]any{"alg": "none", "typ": "JWT", "kid": m.key.ID}, payload, func([]byte) []byte { return nil })
	case "HS256-public":
		der, err := x509.MarshalPKIXPublicKey(m.key.Public())
		if err != nil {
			return "", err
		}
		secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		return compact(map[string]any{"alg": "HS256", "typ": "JWT", "kid": m.key.ID}, payload, func(in []byte) []byte {
			mac := hmac.New(sha256.New, secret)
			mac.Write(in)
			return mac.Sum(nil)
		})
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: m.key.Alg, Key: jose.JSONWebKey{Key: m.key.Private, KeyID: m.key.ID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// compact assembles a JWT by hand, for the algorithms no honest signer
// offers.
func compact(header map[string]any, payload []byte, sign func([]byte) []byte) (string, error) {
	h, err := json.Marshal(header)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	in := enc.EncodeToString(h) + "." + enc.EncodeToString(payload)
	return in + "." + enc.EncodeToString(sign([]byte(in))), nil
}
