package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// siteDataTool is save_site_data: it keeps the browser's sign-ins in the
// workspace, so a browser reopened after a restart or an idle close comes
// back signed in.
func (p *pageTools) siteDataTool() Tool {
	return New("save_site_data", "Save Site Data", Upsert.OnPage(),
		"Keep this workspace's sign-ins: every cookie of the browser, the localStorage of the current site (other sites' saved storage stays) and the sessionStorage of the current page. "+
			"Call it after signing in; a browser reopened later (after a restart, an idle close, or open_session) gets it back before its first page, so it is still signed in. "+
			"session://sites lists what is kept, without secret values. Refused for an insecure browser and over 100 sites or 1 MiB. "+
			"open_session with restore_site_data false starts without it.",
		p.saveSiteData,
	)
}

func (p *pageTools) saveSiteData(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var saved browser.SiteData
	err := p.do(ctx, func(s *sessions.Session) error {
		d, err := p.sessions.SaveSiteData(ctx, s)
		saved = d
		return err
	})
	if err != nil {
		return nil, err
	}
	origins := saved.Hosts()
	text := fmt.Sprintf("Saved the site data of %d sites (%d cookies, storage of %d origins): %s. A reopened browser gets it back; session://sites shows it.",
		len(origins), len(saved.Cookies), len(saved.Storage), strings.Join(origins, ", "))
	if len(origins) == 0 {
		text = "Saved: the browser holds no cookies or storage yet, so there is nothing to restore. Sign in first, then call save_site_data again."
	}
	return mcp.NewToolResultText(text), nil
}
