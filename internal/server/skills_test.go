package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/frontmatter"
	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/skillsclient"
	"github.com/selenium-flow/selenium-flow/resources"
)

// Modern is the stateless protocol generation.
const Modern = "2026-07-28"

// generations are both protocol generations, by the version each pins.
var generations = []string{servertest.Legacy, Modern}

// conn is a connected client, how it connected, and what it was told.
type conn struct {
	skillsclient.Conn
	init *mcp.InitializeResult
}

func (c conn) read(t *testing.T, uri string) ([]byte, error) {
	t.Helper()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.Client.ReadResource(servertest.Context(t), req)
	if err != nil {
		return nil, err
	}
	assert.Assert(t, is.Len(res.Contents, 1), uri)
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	assert.Assert(t, ok, "%s is not text", uri)
	return []byte(tc.Text), nil
}

// newServer builds a server in this process; change adjusts its config.
func newServer(t *testing.T, change func(*server.Config)) *server.Server {
	t.Helper()
	cfg := server.Config{DataDir: t.TempDir(), SeleniumURL: "http://127.0.0.1:9"}
	if change != nil {
		change(&cfg)
	}
	srv, err := server.New(cfg)
	assert.NilError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

var testInfo = mcp.Implementation{Name: "skills-test", Version: "1"}

// transports connect a real mcp-go client to a server: in process through
// the server's layer, and over Streamable HTTP on httptest.
var transports = map[string]func(t *testing.T, srv *server.Server, proto string) conn{
	"in-process": func(t *testing.T, srv *server.Server, proto string) conn {
		c := mcpclient.NewClient(srv.InProcess(), mcpclient.WithProtocolVersion(proto))
		t.Cleanup(func() { _ = c.Close() })
		ctx, cancel := context.WithCancel(servertest.Context(t))
		defer cancel()
		assert.NilError(t, c.Start(ctx))
		req := mcp.InitializeRequest{}
		req.Params.ClientInfo = testInfo
		req.Params.ProtocolVersion = proto
		init, err := c.Initialize(ctx, req)
		assert.NilError(t, err)
		return conn{Conn: skillsclient.Conn{Client: c, Info: testInfo}, init: init}
	},
	"http": func(t *testing.T, srv *server.Server, proto string) conn {
		hs := httptest.NewServer(srv.HTTPHandler())
		t.Cleanup(hs.Close)
		c := servertest.ConnectHTTP(t, hs.URL+"/mcp", servertest.Options{Info: testInfo, Protocol: proto})
		return conn{Conn: skillsclient.Conn{Client: c.Client, Info: testInfo}, init: c.Init}
	},
}

// each runs f for every transport and protocol generation, on a server
// built with change.
func each(t *testing.T, change func(*server.Config), f func(t *testing.T, c conn, modern bool)) {
	for _, name := range []string{"in-process", "http"} {
		for _, proto := range generations {
			t.Run(name+" "+proto, func(t *testing.T) {
				c := transports[name](t, newServer(t, change), proto)
				assert.Equal(t, c.Client.ProtocolVersion(), proto, "the client did not get the generation it pinned")
				f(t, c, proto == Modern)
			})
		}
	}
}

func smallPages(c *server.Config) {
	c.TableOptions = func(rc *resources.Config) { rc.PageSize = 2 }
}

// TestSkillsExtension: the extension is declared, skills/list pages
// through every skill, skills/get answers for each (and for one named only
// in the instructions, before any listing), and every file a manifest
// lists reads back, through resources/read, with its digest and size.
func TestSkillsExtension(t *testing.T) {
	each(t, smallPages, func(t *testing.T, c conn, modern bool) {
		ext, ok := c.init.Capabilities.Extensions[skillsclient.Extension]
		assert.Assert(t, ok, "capabilities.extensions: %v", c.init.Capabilities.Extensions)
		assert.DeepEqual(t, ext, map[string]any{"directoryRead": true})

		// A skill the instructions point at, confirmed before any listing.
		pointed := "skill://selenium-flow/SKILL.md"
		assert.Assert(t, is.Contains(c.init.Instructions, pointed))
		got, err := c.Get(servertest.Context(t), pointed)
		assert.NilError(t, err)
		assert.Equal(t, got.Skill.URI, pointed)

		skills, pages, err := c.List(servertest.Context(t))
		assert.NilError(t, err)
		assert.Assert(t, len(skills) >= 1)
		for _, p := range pages {
			if modern {
				assert.Check(t, is.Equal(p.ResultType, "complete"))
				assert.Check(t, p.TTLMs != nil && p.CacheScope != "", "ttlMs and cacheScope are required on 2026-07-28")
				assert.Check(t, is.Contains(string(p.Meta), "selenium-flow"), "serverInfo in _meta")
			} else {
				assert.Check(t, p.ResultType == "" && p.TTLMs == nil && p.CacheScope == "", "2026-07-28 fields on the handshake generation")
			}
		}
		for _, s := range skills {
			one, err := c.Get(servertest.Context(t), s.URI)
			assert.NilError(t, err)
			assert.DeepEqual(t, one.Skill, s)
			name := s.Frontmatter["name"]
			assert.Check(t, is.Equal(name, strings.TrimSuffix(strings.TrimPrefix(s.URI, "skill://"), "/SKILL.md")), "the last path segment is the name")
			assert.Check(t, s.Frontmatter["description"] != "", s.URI)
			assert.Check(t, is.Equal(s.Resources[0].URI, s.URI), "SKILL.md comes first")
			for _, f := range s.Resources {
				body, err := c.read(t, f.URI)
				assert.NilError(t, err, "%s is in the manifest but does not read", f.URI)
				sum := sha256.Sum256(body)
				assert.Check(t, is.Equal(f.Digest, "sha256:"+hex.EncodeToString(sum[:])), f.URI)
				assert.Check(t, is.Equal(f.Size, int64(len(body))), f.URI)
				if f.URI == s.URI {
					// The entry's front matter is SKILL.md's, field for field.
					var fm map[string]any
					_, err := frontmatter.Parse(bytes.NewReader(body), &fm)
					assert.NilError(t, err)
					want, _ := json.Marshal(fm)
					have, _ := json.Marshal(s.Frontmatter)
					assert.Check(t, is.Equal(string(have), string(want)))
				}
			}
		}
	})
}

// TestDirectoryWalk: resources/directory/read walks every directory from
// the skills' roots and the knowledge documents, a page at a time; every
// file it lists reads, every manifest file is found, and a folder is a
// directory resource.
func TestDirectoryWalk(t *testing.T) {
	each(t, smallPages, func(t *testing.T, c conn, _ bool) {
		skills, _, err := c.List(servertest.Context(t))
		assert.NilError(t, err)
		queue := []string{resources.DocumentsDirectory}
		for _, s := range skills {
			queue = append(queue, strings.TrimSuffix(s.URI, "/SKILL.md"))
		}
		files, dirs, paged := map[string]bool{}, 0, false
		for len(queue) > 0 {
			dir := queue[0]
			queue = queue[1:]
			dirs++
			children, pages, err := c.Directory(servertest.Context(t), dir)
			assert.NilError(t, err, dir)
			paged = paged || pages > 1
			for _, r := range children {
				assert.Check(t, strings.HasPrefix(r.URI, dir+"/") && !strings.Contains(strings.TrimPrefix(r.URI, dir+"/"), "/"), "%s is not a direct child of %s", r.URI, dir)
				if r.MIMEType == resources.DirectoryMIMEType {
					queue = append(queue, r.URI)
					continue
				}
				body, err := c.read(t, r.URI)
				assert.NilError(t, err, r.URI)
				assert.Check(t, r.Size != nil && *r.Size == int64(len(body)), "%s declares %v bytes, reads %d", r.URI, r.Size, len(body))
				files[r.URI] = true
			}
		}
		assert.Check(t, paged, "no directory took more than one page of two")
		assert.Check(t, dirs >= 3, "only %d directories", dirs)
		assert.Check(t, files["knowledge://documents/sessions"])
		for _, s := range skills {
			for _, f := range s.Resources {
				assert.Check(t, files[f.URI], "%s is in the manifest but no directory lists it", f.URI)
			}
		}
	})
}

// TestDraftsAreNowhere: a draft skill is in no listing, no manifest, no
// directory, and neither skills/get nor resources/read serves it.
func TestDraftsAreNowhere(t *testing.T) {
	const draft = "skill://grid-operations/SKILL.md"
	each(t, nil, func(t *testing.T, c conn, _ bool) {
		skills, _, err := c.List(servertest.Context(t))
		assert.NilError(t, err)
		for _, s := range skills {
			assert.Check(t, s.URI != draft)
		}
		_, err = c.Get(servertest.Context(t), draft)
		assert.Check(t, is.ErrorContains(err, "-32602"))
		_, _, err = c.Directory(servertest.Context(t), "skill://grid-operations")
		assert.Check(t, is.ErrorContains(err, "-32602"))
		_, err = c.read(t, draft)
		assert.Check(t, err != nil, "the draft reads")
		res, err := c.Client.ListResources(servertest.Context(t), mcp.ListResourcesRequest{})
		assert.NilError(t, err)
		for _, r := range res.Resources {
			assert.Check(t, !strings.Contains(r.URI, "grid-operations"), r.URI)
		}
	})
}

// TestNoSkillsNoExtension: a server serving no skill does not declare the
// extension, does not answer its methods, and points at no skill.
func TestNoSkillsNoExtension(t *testing.T) {
	each(t, func(c *server.Config) {
		c.TableOptions = func(rc *resources.Config) { rc.WithoutSkills = true }
	}, func(t *testing.T, c conn, _ bool) {
		_, ok := c.init.Capabilities.Extensions[skillsclient.Extension]
		assert.Check(t, !ok, "the extension is declared: %v", c.init.Capabilities.Extensions)
		_, _, err := c.List(servertest.Context(t))
		// Method not found: -32601, which 2026-07-28 sends over HTTP with
		// status 404 (mcp-go's client reports the status).
		assert.Check(t, err != nil && (strings.Contains(err.Error(), "-32601") || strings.Contains(err.Error(), "404")), "skills/list: %v", err)
		assert.Check(t, !strings.Contains(c.init.Instructions, "skill://"), c.init.Instructions)
		idx, err := c.read(t, resources.IndexURI)
		assert.NilError(t, err)
		assert.Check(t, !strings.Contains(string(idx), "skill://"))
	})
}

// TestReferencesNotListed: a skill's references are read from SKILL.md's
// links through the reference template and enumerated by the manifest;
// resources/list does not list them one by one.
func TestReferencesNotListed(t *testing.T) {
	each(t, nil, func(t *testing.T, c conn, _ bool) {
		res, err := c.Client.ListResources(servertest.Context(t), mcp.ListResourcesRequest{})
		assert.NilError(t, err)
		for _, r := range res.Resources {
			assert.Check(t, !strings.Contains(r.URI, "/references/"), "%s is listed", r.URI)
		}
		tm, err := c.Client.ListResourceTemplates(servertest.Context(t), mcp.ListResourceTemplatesRequest{})
		assert.NilError(t, err)
		assert.Check(t, slices.ContainsFunc(tm.ResourceTemplates, func(r mcp.ResourceTemplate) bool {
			return r.URITemplate.Raw() == "skill://{id}/references/{file}"
		}))
		got, err := c.Get(servertest.Context(t), "skill://selenium-flow/SKILL.md")
		assert.NilError(t, err)
		assert.Check(t, slices.ContainsFunc(got.Skill.Resources, func(f skillsclient.File) bool {
			return f.URI == "skill://selenium-flow/references/FLOWS.md"
		}))
	})
}

// TestSkillsOverStdio: the binary on stdio answers the extension on both
// generations, alongside mcp-go's own methods on the same stream.
func TestSkillsOverStdio(t *testing.T) {
	for _, proto := range generations {
		t.Run(proto, func(t *testing.T) {
			sc := servertest.Connect(t, servertest.Stdio, servertest.Options{Info: testInfo, Protocol: proto})
			assert.Equal(t, sc.ProtocolVersion(), proto)
			c := conn{Conn: skillsclient.Conn{Client: sc.Client, Info: testInfo}, init: sc.Init}
			_, ok := c.init.Capabilities.Extensions[skillsclient.Extension]
			assert.Check(t, ok)
			skills, _, err := c.List(servertest.Context(t))
			assert.NilError(t, err)
			for _, s := range skills {
				for _, f := range s.Resources {
					body, err := c.read(t, f.URI)
					assert.NilError(t, err)
					assert.Check(t, is.Equal(f.Size, int64(len(body))), f.URI)
				}
			}
			children, _, err := c.Directory(servertest.Context(t), "skill://selenium-flow/references")
			assert.NilError(t, err)
			assert.Check(t, len(children) >= 5)
		})
	}
}

// TestExtensionOverHTTPChecks: the extension's requests over Streamable
// HTTP are checked as every other request is: a bearer token where tokens
// are configured, the session initialize opened on the handshake
// generation, and the version and method headers on 2026-07-28.
func TestExtensionOverHTTPChecks(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	tokens, err := auth.NewTokens(map[string]string{token: "ada"})
	assert.NilError(t, err)
	srv := newServer(t, func(c *server.Config) { c.Tokens = tokens })
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(hs.Close)
	post := func(header map[string]string, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		assert.NilError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	list := `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`
	bearer := "Bearer " + token

	code, _ := post(nil, list)
	assert.Check(t, is.Equal(code, http.StatusUnauthorized), "no token")
	code, body := post(map[string]string{"Authorization": bearer, "Mcp-Session-Id": "mcp-session-nope"}, list)
	assert.Check(t, is.Equal(code, http.StatusNotFound), "a session nobody opened: %s", body)

	modern := `{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	code, body = post(map[string]string{"Authorization": bearer, "Mcp-Protocol-Version": "2026-07-28"}, modern)
	assert.Check(t, is.Equal(code, http.StatusBadRequest), body)
	assert.Check(t, is.Contains(body, "Mcp-Method"), "the method header is required on 2026-07-28: %s", body)
	code, body = post(map[string]string{"Authorization": bearer, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "skills/list"}, modern)
	assert.Check(t, is.Equal(code, http.StatusOK), body)
	assert.Check(t, is.Contains(body, `"resultType":"complete"`))

	// Through a real client with the token, on both generations.
	for _, proto := range generations {
		c := servertest.ConnectHTTP(t, hs.URL+"/mcp", servertest.Options{Protocol: proto, Headers: map[string]string{"Authorization": bearer}})
		skills, _, err := skillsclient.Conn{Client: c.Client}.List(servertest.Context(t))
		assert.NilError(t, err, proto)
		assert.Check(t, len(skills) > 0, proto)
	}
}
