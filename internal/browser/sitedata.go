package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The caps on saved site data: a workspace record is read on every call,
// so it stays small.
const (
	MaxSites     = 100
	MaxSiteBytes = 1 << 20
)

// Cookie is one saved cookie, as the browser holds it.
type Cookie struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Domain   string `json:"domain"`
	Path     string `json:"path"`
	Secure   bool   `json:"secure,omitempty"`
	HTTPOnly bool   `json:"http_only,omitempty"`
	SameSite string `json:"same_site,omitempty"`
	// Expiry is in Unix seconds; 0 for a cookie that ends with the browser.
	Expiry int64 `json:"expiry,omitempty"`
}

// SiteStorage is the web storage one origin kept.
type SiteStorage struct {
	Origin  string            `json:"origin"`
	Local   map[string]string `json:"local,omitempty"`
	Session map[string]string `json:"session,omitempty"`
}

// SiteData is what SaveSiteData keeps of a browser so that a new one comes
// back signed in: every cookie, the localStorage of each site visited and
// the sessionStorage of the page it was saved on.
type SiteData struct {
	Cookies []Cookie      `json:"cookies"`
	Storage []SiteStorage `json:"storage"`
	SavedAt time.Time     `json:"saved_at"`
}

// Hosts are the sites the data is of, sorted: the host of every storage
// origin and every cookie domain (cookies have no scheme or port).
func (d SiteData) Hosts() []string {
	var out []string
	for _, s := range d.Storage {
		out = append(out, s.Host())
	}
	for _, c := range d.Cookies {
		out = append(out, c.Host())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Host is the host name of the storage's origin.
func (s SiteStorage) Host() string {
	if u, err := url.Parse(s.Origin); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return s.Origin
}

// Host is the cookie's domain without its leading dot.
func (c Cookie) Host() string { return strings.TrimPrefix(c.Domain, ".") }

// ErrSiteDataTooLarge is site data over MaxSites or MaxSiteBytes.
var ErrSiteDataTooLarge = errors.New("site data too large")

// Check refuses site data over the caps, saying how far over it is.
func (d SiteData) Check() error {
	if n := len(d.Hosts()); n > MaxSites {
		return fmt.Errorf("%w: it holds %d sites, at most %d are kept", ErrSiteDataTooLarge, n, MaxSites)
	}
	b, _ := json.Marshal(d)
	if len(b) > MaxSiteBytes {
		return fmt.Errorf("%w: it is %d KiB, at most %d KiB are kept", ErrSiteDataTooLarge, len(b)>>10, MaxSiteBytes>>10)
	}
	return nil
}

const storageScript = `const dump = (st) => { const o = {}; try { for (let i = 0; i < st.length; i++) { const k = st.key(i); o[k] = st.getItem(k); } } catch (e) {} return o; };
return JSON.stringify({origin: location.origin, local: dump(window.localStorage), session: dump(window.sessionStorage)});`

// SaveSiteData reads the browser's site data and merges it into prev (the
// data saved before, or nil): the cookies are all the browser holds now,
// the storage of the current page's origin replaces what prev kept of it,
// and other origins' storage stays as prev kept it.
func (s *Session) SaveSiteData(ctx context.Context, prev *SiteData) (SiteData, error) {
	if err := s.begin(); err != nil {
		return SiteData{}, fmt.Errorf("save site data: %w", err)
	}
	defer s.mu.Unlock()
	out := SiteData{SavedAt: time.Now().UTC()}
	cookies, err := s.allCookies(ctx)
	if err != nil {
		return SiteData{}, s.fail("save site data", err)
	}
	var here SiteStorage
	v, err := s.execute(storageScript, nil)
	if err != nil {
		return SiteData{}, s.fail("save site data", err)
	}
	var text string
	if json.Unmarshal(v, &text) != nil || json.Unmarshal([]byte(text), &here) != nil {
		return SiteData{}, errors.New("save site data: unexpected script reply")
	}
	if prev != nil {
		out.Storage = slices.DeleteFunc(slices.Clone(prev.Storage), func(st SiteStorage) bool { return st.Origin == here.Origin })
		if cookies == nil {
			cookies = prev.Cookies
		}
	}
	if strings.HasPrefix(here.Origin, "http") && (len(here.Local) > 0 || len(here.Session) > 0) {
		out.Storage = append(out.Storage, here)
	}
	slices.SortFunc(out.Storage, func(a, b SiteStorage) int { return strings.Compare(a.Origin, b.Origin) })
	out.Cookies = cookies
	return out, nil
}

// allCookies are every cookie of the browser, of all sites, through the
// Chrome DevTools command chromedriver (and a Grid's Chrome node) serves;
// where it is not served, the current page's cookies.
func (s *Session) allCookies(ctx context.Context) ([]Cookie, error) {
	v, err := s.raw(ctx, "POST", "/goog/cdp/execute", map[string]any{"cmd": "Network.getAllCookies", "params": map[string]any{}})
	if err == nil {
		var r struct {
			Cookies []struct {
				Name, Value, Domain, Path, SameSite string
				Expires                             float64
				HTTPOnly                            bool `json:"httpOnly"`
				Secure, Session                     bool
			} `json:"cookies"`
		}
		if json.Unmarshal(v, &r) == nil {
			out := []Cookie{}
			for _, c := range r.Cookies {
				k := Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: c.SameSite}
				if !c.Session && c.Expires > 0 {
					k.Expiry = int64(c.Expires)
				}
				out = append(out, k)
			}
			return out, nil
		}
	}
	if errors.Is(clean(err), ErrSessionGone) {
		return nil, err
	}
	v, err = s.raw(ctx, "GET", "/cookie", nil)
	if err != nil {
		return nil, err
	}
	var cs []struct {
		Name, Value, Domain, Path, SameSite string
		Secure                              bool
		HTTPOnly                            bool `json:"httpOnly"`
		Expiry                              int64
	}
	if json.Unmarshal(v, &cs) != nil {
		return nil, errors.New("unexpected cookie reply")
	}
	out := []Cookie{}
	for _, c := range cs {
		out = append(out, Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: c.SameSite, Expiry: c.Expiry})
	}
	return out, nil
}

// RestoreSiteData puts d into the browser: the cookies at once, each
// origin's storage on a page of that origin. It leaves the window on the
// last origin restored; the caller navigates on.
func (s *Session) RestoreSiteData(ctx context.Context, d SiteData) error {
	if err := s.begin(); err != nil {
		return fmt.Errorf("restore site data: %w", err)
	}
	defer s.mu.Unlock()
	if err := s.setCookies(ctx, d.Cookies); err != nil {
		return s.fail("restore site data", err)
	}
	for _, st := range d.Storage {
		u, err := url.Parse(st.Origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			continue
		}
		s.newDoc = true
		// A small resource of the origin: the storage belongs to the
		// origin, and no application page runs before it is there.
		if err := s.wd.Get(st.Origin + "/favicon.ico"); err != nil {
			if errors.Is(clean(err), ErrSessionGone) {
				return s.fail("restore site data", err)
			}
			continue
		}
		_, err = s.execute(`const [origin, local, session] = arguments;
if (location.origin !== origin) { return false; }
for (const [k, v] of Object.entries(local || {})) { localStorage.setItem(k, v); }
for (const [k, v] of Object.entries(session || {})) { sessionStorage.setItem(k, v); }
return true;`, []any{st.Origin, st.Local, st.Session})
		if errors.Is(clean(err), ErrSessionGone) {
			return s.fail("restore site data", err)
		}
	}
	return nil
}

// setCookies sets every cookie through DevTools, which takes cookies of any
// domain; without it, each on a page of its own domain.
func (s *Session) setCookies(ctx context.Context, cs []Cookie) error {
	if len(cs) == 0 {
		return nil
	}
	var params []map[string]any
	for _, c := range cs {
		p := map[string]any{"name": c.Name, "value": c.Value, "domain": c.Domain, "path": c.Path, "secure": c.Secure, "httpOnly": c.HTTPOnly}
		if c.SameSite != "" {
			p["sameSite"] = c.SameSite
		}
		if c.Expiry > 0 {
			p["expires"] = c.Expiry
		}
		params = append(params, p)
	}
	_, err := s.raw(ctx, "POST", "/goog/cdp/execute", map[string]any{"cmd": "Network.setCookies", "params": map[string]any{"cookies": params}})
	if err == nil || errors.Is(clean(err), ErrSessionGone) {
		return err
	}
	for _, c := range cs {
		host := strings.TrimPrefix(c.Domain, ".")
		scheme := "http"
		if c.Secure {
			scheme = "https"
		}
		if err := s.wd.Get(scheme + "://" + host + "/favicon.ico"); err != nil {
			continue
		}
		s.newDoc = true
		ck := map[string]any{"name": c.Name, "value": c.Value, "domain": c.Domain, "path": c.Path, "secure": c.Secure, "httpOnly": c.HTTPOnly}
		if c.Expiry > 0 {
			ck["expiry"] = c.Expiry
		}
		_, _ = s.raw(ctx, "POST", "/cookie", map[string]any{"cookie": ck})
	}
	return nil
}
