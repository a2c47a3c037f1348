package server

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/ui"
	"github.com/selenium-flow/selenium-flow/resources"
)

// runtime is what the runtime resources are read from: the packages that
// own the data stay free of the resource table and of MCP, and this file
// is the one place that says which resource shows what.
type runtime struct {
	sessions *sessions.Manager
	secrets  *secrets.Store
	flows    *flows.Store
}

// readers returns a reader for every runtime entry of resources/runtime.json.
func (r runtime) readers() map[resources.Reader]resources.ReadFunc {
	return map[resources.Reader]resources.ReadFunc{
		resources.ReaderSessionCurrent: func(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
			return resources.JSON(r.current(ctx))
		},
		resources.ReaderSessionFiles: func(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
			l, err := r.sessions.ListFiles(ctx, auth.Principal(ctx))
			if err != nil {
				return resources.Content{}, err
			}
			return resources.JSON(l)
		},
		resources.ReaderSessionFolder: func(ctx context.Context, uri string, _ map[string]string) (resources.Content, error) {
			f, err := r.sessions.ListFolder(ctx, auth.Principal(ctx), strings.TrimPrefix(uri, "session://files/"))
			if err != nil {
				return resources.Content{}, err
			}
			return resources.JSON(f)
		},
		resources.ReaderSessionFile:  r.readKept,
		resources.ReaderSessionSites: r.readSites,
		resources.ReaderSessionSite:  r.readSite,
		resources.ReaderFlowList: func(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
			list := r.flows.List(auth.Principal(ctx))
			if list == nil {
				list = []flows.Summary{}
			}
			return resources.JSON(map[string]any{"flows": list})
		},
		resources.ReaderFlowOne: func(ctx context.Context, _ string, vars map[string]string) (resources.Content, error) {
			flow, _, err := r.flows.Get(auth.Principal(ctx), vars["name"])
			if errors.Is(err, flows.ErrNotFound) {
				return resources.Content{}, resources.Missing(err)
			}
			if err != nil {
				return resources.Content{}, err
			}
			return resources.JSON(flow)
		},
		resources.ReaderSecretList: func(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
			list := r.secrets.List(auth.Principal(ctx))
			if list == nil {
				list = []secrets.Secret{}
			}
			out := struct {
				Secrets []secrets.Secret `json:"secrets"`
				How     string           `json:"how"`
				Broken  string           `json:"broken,omitempty"`
			}{Secrets: list, How: `Type one with write(locator, secret="name"), or secret="name/key" for one key of a secret with several, on a page of one of its sites; values are never shown.`}
			if r.secrets.Err() != nil {
				out.Broken = "The server's secret configuration is broken, so no secret can be typed; ask the operator to fix it (the server's log names the file and line) and restart."
			}
			return resources.JSON(out)
		},
		resources.ReaderUIShell: func(context.Context, string, map[string]string) (resources.Content, error) {
			return resources.Content{Text: string(ui.Shell)}, nil
		},
	}
}

// current is session://current: the session as sessions.Describe gives
// it, with its windows, the frame commands act in and an open dialog. A
// dialog blocks the page's title and URL, so it is shown instead of an
// error, with the call that answers it.
type current struct {
	sessions.Current
	Windows []browser.WindowInfo `json:"windows,omitempty"`
	// Frame is the locators of the frames entered, outermost first; absent
	// at the top page.
	Frame  []string        `json:"frame,omitempty"`
	Dialog *browser.Dialog `json:"dialog,omitempty"`
}

func (r runtime) current(ctx context.Context) current {
	principal := auth.Principal(ctx)
	c := current{Current: r.sessions.Describe(ctx, sessions.OwnerOf(ctx))}
	s := r.sessions.Peek(sessions.OwnerOf(ctx))
	if s == nil {
		return c
	}
	if d, err := s.Dialog(); err == nil && d != nil {
		d.Text = r.secrets.Redact(principal, d.Text)
		c.Dialog = d
		c.Next = d.String()
	}
	c.Windows, _ = s.Windows()
	for i := range c.Windows {
		c.Windows[i].Title = r.secrets.Redact(principal, c.Windows[i].Title)
	}
	if path, err := s.FramePath(); err == nil {
		for _, l := range path {
			c.Frame = append(c.Frame, l.String())
		}
	}
	if len(c.Frame) > 0 && c.Dialog == nil {
		c.Next = `Commands act inside the frame ` + strings.Join(c.Frame, " › ") + `; switch_frame {"top":true} returns to the page.`
	}
	return c
}

// completers returns a completer for every template runtime.json names one for.
func (r runtime) completers() map[resources.Completer]resources.CompleteFunc {
	return map[resources.Completer]resources.CompleteFunc{
		// Kept files complete in the form the server's own URIs use,
		// percent-encoded (sessions.FileURI), so a value completed is a
		// value that reads: session://files/a%20b.png.
		resources.CompleterSessionFile: func(ctx context.Context, _, _ string) ([]string, error) {
			names, err := r.sessions.KeptNames(auth.Principal(ctx))
			for i, n := range names {
				names[i] = url.PathEscape(n)
			}
			return names, err
		},
		resources.CompleterSessionSite: r.completeSites,
		resources.CompleterFlowName: func(ctx context.Context, _, _ string) ([]string, error) {
			return r.flows.Names(auth.Principal(ctx)), nil
		},
	}
}

// readKept reads session://files/{+name}: text as text, anything else as
// bytes with the link a person fetches it at. The name is percent-encoded
// as sessions.FileURI writes it, and may start with its folder
// (downloads/report.pdf), as upload_file accepts it.
func (r runtime) readKept(ctx context.Context, uri string, vars map[string]string) (resources.Content, error) {
	name, err := url.PathUnescape(vars["name"])
	if err != nil {
		return resources.Content{}, fmt.Errorf("%s is not a file URI: a kept file's name is percent-encoded, as session://files lists it (e.g. session://files/a%%20b.png)", uri)
	}
	if folder, rest, ok := strings.Cut(name, "/"); ok && slices.Contains(files.Folders, folder) {
		name = rest
	}
	data, f, err := r.sessions.ReadKept(ctx, auth.Principal(ctx), name)
	if errors.Is(err, files.ErrNotFound) {
		return resources.Content{}, resources.Missing(err)
	}
	if err != nil {
		return resources.Content{}, err
	}
	c := resources.Content{MIMEType: f.MimeType, Link: r.sessions.Link(auth.Principal(ctx), f.Name)}
	if isText(f.MimeType) {
		c.Text = string(data)
	} else {
		c.Blob = data
	}
	return c, nil
}

func isText(mime string) bool {
	return strings.HasPrefix(mime, "text/") || mime == "application/json" || strings.HasSuffix(mime, "+json") || strings.HasSuffix(mime, "+xml")
}
