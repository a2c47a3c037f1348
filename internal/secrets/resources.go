package secrets

import (
	"context"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/resources"
)

// List is secret://secrets: the caller's secret names and their sites.
type List struct {
	Secrets []Secret `json:"secrets"`
	How     string   `json:"how"`
}

// Bind attaches the secret://secrets reader to the table.
func (s *Store) Bind(t *resources.Table) {
	t.Bind("secret.list", func(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
		l := List{Secrets: s.List(auth.Principal(ctx)), How: `Type one with write(locator, secret="name") on a page of its site; values are never shown.`}
		if l.Secrets == nil {
			l.Secrets = []Secret{}
		}
		return resources.JSON(l)
	})
}
