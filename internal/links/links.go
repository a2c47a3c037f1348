// Package links signs the links to kept files so that they travel: an
// <img> tag on another page, a chat host or a person opens them without
// an Authorization header, until they expire.
//
// A link is the file's path with three query values: p (the principal
// whose file it is), exp (Unix seconds) and sig, an HMAC-SHA256 over the
// principal, the path and the expiry with the server's key. Any change to
// one of them, or a request after exp, is refused by Check:
//
//	s := links.New(key, links.WithTTL(time.Hour))
//	link := s.Sign("alice", "/files/shot.png") // /files/shot.png?exp=…&p=alice&sig=…
//	principal, err := s.Check(r.URL)            // on the request for that link
//
// The key is FLOW_LINK_KEY, or a random key kept in the data folder
// (LoadKey), so replicas that share the folder accept each other's links.
package links

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
)

// DefaultTTL is how long a link works when LINK_TTL is not set.
const DefaultTTL = time.Hour

// KeyFile is the name of the key kept in the data folder.
const KeyFile = "link.key"

// keyLen is the length of a generated key, in bytes.
const keyLen = 32

// The query values of a signed link.
const (
	QueryPrincipal = "p"
	QueryExpiry    = "exp"
	QuerySignature = "sig"
)

// ErrExpired and ErrInvalid are what Check refuses with (wrapped).
var (
	ErrExpired = errors.New("the link has expired")
	ErrInvalid = errors.New("the link's signature does not match it")
)

// Signer signs and checks links with one key.
type Signer struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// Option adjusts a Signer at construction.
type Option func(*Signer)

// WithTTL sets how long a link works; DefaultTTL when d is not positive.
func WithTTL(d time.Duration) Option {
	return func(s *Signer) {
		if d > 0 {
			s.ttl = d
		}
	}
}

// WithClock sets the clock links expire by (tests).
func WithClock(now func() time.Time) Option { return func(s *Signer) { s.now = now } }

// New returns a Signer with key.
func New(key []byte, opts ...Option) *Signer {
	s := &Signer{key: append([]byte(nil), key...), ttl: DefaultTTL, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// TTL is how long a link made now works.
func (s *Signer) TTL() time.Duration { return s.ttl }

// Sign returns the link to path (unescaped, as a request's URL.Path will
// hold it) with the query values that let principal's file be fetched
// without a token until the TTL runs out.
func (s *Signer) Sign(principal, path string) string {
	exp := strconv.FormatInt(s.now().Add(s.ttl).Unix(), 10)
	q := url.Values{}
	q.Set(QueryPrincipal, principal)
	q.Set(QueryExpiry, exp)
	q.Set(QuerySignature, s.mac(principal, path, exp))
	u := url.URL{Path: path, RawQuery: q.Encode()}
	return u.String()
}

// Signed reports whether u carries a signature at all: a request without
// one goes through the usual token check instead.
func Signed(u *url.URL) bool { return u.Query().Has(QuerySignature) }

// Check returns the principal a signed link was made for, or an error
// wrapping ErrExpired or ErrInvalid.
func (s *Signer) Check(u *url.URL) (string, error) {
	q := u.Query()
	principal, exp, sig := q.Get(QueryPrincipal), q.Get(QueryExpiry), q.Get(QuerySignature)
	want := s.mac(principal, u.Path, exp)
	if principal == "" || !hmac.Equal([]byte(sig), []byte(want)) {
		return "", ErrInvalid
	}
	secs, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return "", ErrInvalid
	}
	if !s.now().Before(time.Unix(secs, 0)) {
		return "", fmt.Errorf("%w (at %s)", ErrExpired, time.Unix(secs, 0).UTC().Format(time.RFC3339))
	}
	return principal, nil
}

// mac is the signature over one link's parts; the newlines keep "a"+"b/c"
// apart from "ab"+"/c".
func (s *Signer) mac(principal, path, exp string) string {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte("selenium-flow link v1\n" + principal + "\n" + path + "\n" + exp))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// LoadKey is the link key: fromEnv (FLOW_LINK_KEY) when set, else the key
// kept in dir, made and kept (0600, written atomically) the first time.
// Two replicas starting at once over a shared dir end with the same key:
// the one that loses the race to create it reads the winner's.
func LoadKey(fromEnv, dir string) ([]byte, error) {
	if k := strings.TrimSpace(fromEnv); k != "" {
		if len(k) < 16 {
			return nil, errors.New("FLOW_LINK_KEY is shorter than 16 characters; use a long random value, e.g. from openssl rand -hex 32")
		}
		return []byte(k), nil
	}
	p := filepath.Join(dir, KeyFile)
	if k, err := readKey(p); err == nil {
		return k, nil
	}
	raw := make([]byte, keyLen)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("links: no random key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("links: the data folder cannot hold the link key: %w", err)
	}
	enc := []byte(base64.RawURLEncoding.EncodeToString(raw))
	if err := atomicfile.Create(p, enc, 0o600); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(p)
		}
		return nil, fmt.Errorf("links: the link key cannot be kept in the data folder: %w", err)
	}
	return enc, nil
}

func readKey(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	k := strings.TrimSpace(string(b))
	if len(k) < 16 {
		return nil, fmt.Errorf("links: the kept link key is too short; delete %s to make a new one", KeyFile)
	}
	return []byte(k), nil
}
