package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// KeyRefresh is the least time between two fetches of the provider's key
// set. A token naming a key not seen yet makes the verifier fetch the set
// again (the provider rotated its keys), but no more often than this, so
// a stream of forged tokens cannot make the server hammer the provider.
const KeyRefresh = 10 * time.Second

// maxKeySet bounds the key set document read from the provider.
const maxKeySet = 1 << 20

// keySet is the provider's signing keys, fetched from its jwks_uri when
// the first token arrives and again when a token names a key id not in
// the set. A token whose key id is known but whose signature does not
// verify is refused without a fetch. It implements oidc.KeySet.
type keySet struct {
	url     string
	client  *http.Client
	now     func() time.Time
	refresh time.Duration

	fetching sync.Mutex // one fetch at a time

	mu      sync.RWMutex
	keys    []jose.JSONWebKey
	fetched time.Time
	failed  error // of the last fetch
}

var errKeyNotPublished = errors.New("no key the provider publishes verifies the token")

// fetchFailed starts the error of a key set that could not be read; it
// survives go-oidc's wrapping (%v) for OIDC.failure to tell it apart.
const fetchFailed = "fetching keys"

// VerifySignature returns the payload of a token signed by one of the
// provider's keys.
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, algorithms())
	if err != nil {
		return nil, err
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("a token has one signature")
	}
	kid := jws.Signatures[0].Header.KeyID
	keys := k.cached()
	if payload, ok := verifyWith(jws, keys, kid); ok {
		return payload, nil
	}
	if kid != "" && slices.ContainsFunc(keys, func(key jose.JSONWebKey) bool { return key.KeyID == kid }) {
		return nil, errKeyNotPublished
	}
	if err := k.fetch(ctx); err != nil {
		return nil, err
	}
	if payload, ok := verifyWith(jws, k.cached(), kid); ok {
		return payload, nil
	}
	return nil, errKeyNotPublished
}

func (k *keySet) cached() []jose.JSONWebKey {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.keys
}

// verifyWith tries the keys with the token's key id, or every key when
// the token names none.
func verifyWith(jws *jose.JSONWebSignature, keys []jose.JSONWebKey, kid string) ([]byte, bool) {
	for _, key := range keys {
		if kid != "" && key.KeyID != kid {
			continue
		}
		if payload, err := jws.Verify(&key); err == nil {
			return payload, true
		}
	}
	return nil, false
}

// fetch reads the key set again unless it was read less than refresh
// ago; a caller that waited for another's fetch then uses its keys.
func (k *keySet) fetch(ctx context.Context) error {
	k.fetching.Lock()
	defer k.fetching.Unlock()
	k.mu.RLock()
	recent := !k.fetched.IsZero() && k.now().Sub(k.fetched) < k.refresh
	failed := k.failed
	k.mu.RUnlock()
	if recent {
		return failed
	}
	keys, err := k.get(ctx)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.fetched, k.failed = k.now(), nil
	if err != nil {
		k.failed = fmt.Errorf("%s: %w", fetchFailed, err)
		return k.failed
	}
	k.keys = keys
	return nil
}

func (k *keySet) get(ctx context.Context) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	res, err := k.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the key set answered %s", res.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(res.Body, maxKeySet)).Decode(&set); err != nil {
		return nil, fmt.Errorf("the key set is not JSON: %w", err)
	}
	// Only public signing keys: a symmetric key in the set would let the
	// set's publisher, or anyone who learns it, sign as the provider.
	keys := slices.DeleteFunc(set.Keys, func(key jose.JSONWebKey) bool {
		return !key.Valid() || !key.IsPublic() || (key.Use != "" && key.Use != "sig")
	})
	return keys, nil
}

func algorithms() []jose.SignatureAlgorithm {
	out := make([]jose.SignatureAlgorithm, len(Algorithms))
	for i, a := range Algorithms {
		out[i] = jose.SignatureAlgorithm(a)
	}
	return out
}
