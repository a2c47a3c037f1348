package auth

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Operator is the role that may see and tidy every principal's
// workspaces, files and flows (the admin page). Other roles are names an
// operator chooses, such as one required to use the server at all.
const Operator = "operator"

type rolesKey struct{}

// WithRoles records the roles of a request's caller.
func WithRoles(ctx context.Context, roles []string) context.Context {
	return context.WithValue(ctx, rolesKey{}, slices.Clone(roles))
}

// Roles are the roles of a request's caller; none when the credential
// carried none.
func Roles(ctx context.Context) []string {
	if r, ok := ctx.Value(rolesKey{}).([]string); ok {
		return r
	}
	return nil
}

// HasRole reports whether the caller of a request holds role.
func HasRole(ctx context.Context, role string) bool {
	return slices.Contains(Roles(ctx), role)
}

// IsOperator reports whether the caller may act on every principal's
// things: a holder of the operator role, or the stdio caller, whose
// request carries no credential at all and who runs its own server.
func IsOperator(ctx context.Context) bool {
	if _, credential := ctx.Value(rolesKey{}).([]string); !credential {
		return Principal(ctx) == Local
	}
	return HasRole(ctx, Operator)
}

// parseRoles reads a token line's optional third field,
// "roles=operator,qa". The "roles=" prefix is required so that a second
// token pasted onto a line is refused rather than taken for a role.
func parseRoles(field string) ([]string, error) {
	list, ok := strings.CutPrefix(field, "roles=")
	if !ok {
		return nil, fmt.Errorf(`the third field is not a role list; write "roles=operator" (comma-separated) after the principal, or leave it out`)
	}
	var roles []string
	for _, r := range strings.Split(list, ",") {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !ValidPrincipal(r) {
			return nil, fmt.Errorf("a role is not valid; use letters, digits, dot, underscore and dash, separated by commas, after the principal on its line")
		}
		roles = append(roles, r)
	}
	return roles, nil
}
