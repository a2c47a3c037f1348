package resources

import (
	"cmp"
	"context"
	"encoding/base64"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Register serves the table as native MCP resources and templates on s.
// Listing order is restored to priority order by the hook ListHooks adds,
// since the SDK sorts by name.
func (t *Table) Register(s *server.MCPServer) {
	var res []server.ServerResource
	var tmpls []server.ServerResourceTemplate
	for _, e := range t.Entries() {
		if e.Template {
			tmpls = append(tmpls, server.ServerResourceTemplate{Template: t.nativeTemplate(e), Handler: t.nativeRead})
			continue
		}
		if e.Unlisted {
			continue // read through its template; see Entry.Unlisted
		}
		res = append(res, server.ServerResource{Resource: t.nativeResource(e), Handler: t.nativeRead})
	}
	// A catch-all template sends every URI no entry answers to the table,
	// so a miss is refused with the table's sentence (what exists and an
	// example) instead of the SDK's bare "handler not found". Every
	// template shares one handler that matches by itself, so the SDK's
	// template order does not matter; the hook in ListHooks unlists it.
	tmpls = append(tmpls, server.ServerResourceTemplate{
		Template: mcp.NewResourceTemplate(catchAll, "unmatched"),
		Handler:  t.nativeRead,
	})
	s.AddResources(res...)
	s.AddResourceTemplates(tmpls...)
}

// catchAll is the unlisted template that matches any URI.
const catchAll = "{+uri}"

func (t *Table) nativeResource(e Entry) mcp.Resource {
	opts := []mcp.ResourceOption{
		mcp.WithResourceTitle(e.Title),
		mcp.WithResourceDescription(e.Description),
		mcp.WithAnnotations(nil, e.Priority, ""),
	}
	if e.MIMEType != "" {
		opts = append(opts, mcp.WithMIMEType(e.MIMEType))
	}
	if e.Size > 0 {
		opts = append(opts, mcp.WithResourceSize(e.Size))
	}
	return mcp.NewResource(e.URI, e.Name, opts...)
}

func (t *Table) nativeTemplate(e Entry) mcp.ResourceTemplate {
	opts := []mcp.ResourceTemplateOption{
		mcp.WithTemplateTitle(e.Title),
		mcp.WithTemplateDescription(e.Description),
		mcp.WithTemplateAnnotations(nil, e.Priority, ""),
	}
	if e.MIMEType != "" {
		opts = append(opts, mcp.WithTemplateMIMEType(e.MIMEType))
	}
	return mcp.NewResourceTemplate(e.URI, e.Name, opts...)
}

func (t *Table) nativeRead(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	c, err := t.Read(ctx, req.Params.URI)
	if err != nil {
		if m, ok := ctx.Value(missKey{}).(*miss); ok && IsNotFound(err) {
			m.err = err
		}
		return nil, err
	}
	if c.IsText() {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}}, nil
	}
	return []mcp.ResourceContents{mcp.BlobResourceContents{URI: c.URI, MIMEType: c.MIMEType, Blob: base64.StdEncoding.EncodeToString(c.Blob)}}, nil
}

// ListHooks adds the hooks that order resources/list and
// resources/templates/list by priority, highest first, then by name.
func (t *Table) ListHooks(h *server.Hooks) {
	h.AddAfterListResources(func(_ context.Context, _ any, _ *mcp.ListResourcesRequest, r *mcp.ListResourcesResult) {
		slices.SortStableFunc(r.Resources, func(a, b mcp.Resource) int {
			return byPriority(a.Annotations, b.Annotations, a.Name, b.Name)
		})
	})
	h.AddAfterListResourceTemplates(func(_ context.Context, _ any, _ *mcp.ListResourceTemplatesRequest, r *mcp.ListResourceTemplatesResult) {
		r.ResourceTemplates = slices.DeleteFunc(r.ResourceTemplates, func(rt mcp.ResourceTemplate) bool {
			return rt.URITemplate != nil && rt.URITemplate.Raw() == catchAll
		})
		slices.SortStableFunc(r.ResourceTemplates, func(a, b mcp.ResourceTemplate) int {
			return byPriority(a.Annotations, b.Annotations, a.Name, b.Name)
		})
	})
}

func byPriority(a, b *mcp.Annotations, an, bn string) int {
	pa, pb := 0.0, 0.0
	if a != nil && a.Priority != nil {
		pa = *a.Priority
	}
	if b != nil && b.Priority != nil {
		pb = *b.Priority
	}
	if c := cmp.Compare(pb, pa); c != 0 {
		return c
	}
	return cmp.Compare(an, bn)
}

// CompleteResourceArgument answers completion/complete for a template; the
// Table is the server's resource completion provider.
func (t *Table) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	vals, err := t.Complete(ctx, uri, arg.Name, arg.Value)
	if err != nil {
		return nil, err
	}
	total := len(vals)
	more := false
	if len(vals) > 100 {
		vals, more = vals[:100], true
	}
	return &mcp.Completion{Values: vals, Total: total, HasMore: more}, nil
}

type missKey struct{}

type miss struct{ err error }

// RecordMiss returns a context in which a native resources/read that the
// table refuses as not found records its refusal, and the function that
// returns it (nil when the read found its resource or failed otherwise).
// mcp-go reports every resource handler error as an internal error; the
// server uses this to answer a miss with the code the protocol gives it,
// keeping the table's sentence.
func RecordMiss(ctx context.Context) (context.Context, func() error) {
	m := &miss{}
	return context.WithValue(ctx, missKey{}, m), func() error { return m.err }
}
