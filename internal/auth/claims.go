package auth

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// lookupClaim finds a claim by name, or by a dotted path into nested
// objects ("realm_access.roles"). A claim whose own name has a dot is
// found by that name first.
func lookupClaim(claims map[string]any, name string) any {
	if name == "" {
		return nil
	}
	if v, ok := claims[name]; ok {
		return v
	}
	var cur any = claims
	for _, part := range strings.Split(name, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		if cur, ok = m[part]; !ok {
			return nil
		}
	}
	return cur
}

// rolesOf reads a roles claim: a list of strings, or one string of
// space-separated names as OAuth writes scope. Anything else grants none.
// The list is not cut short: a required role may come late in a long
// list of groups, and MaxBearer already bounds it.
func rolesOf(v any) []string {
	var roles []string
	switch v := v.(type) {
	case string:
		roles = strings.Fields(v)
	case []any:
		for _, r := range v {
			if s, ok := r.(string); ok && s != "" {
				roles = append(roles, s)
			}
		}
	}
	return roles
}

// headerAlg is the alg a compact JWT's header names, "" when the header
// cannot be read. It is only used to choose a refusal's sentence.
func headerAlg(raw string) string {
	head, _, ok := strings.Cut(raw, ".")
	if !ok || len(head) > 4096 {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return ""
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(b, &h) != nil {
		return ""
	}
	return h.Alg
}
