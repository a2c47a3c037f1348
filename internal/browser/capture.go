package browser

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tebeka/selenium"
)

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// maxFullPage caps the height of a full-page screenshot, in CSS pixels.
const maxFullPage = 16384

// Screenshot returns a PNG of the element loc addresses, or when loc is nil
// of the viewport — or of the whole page when fullPage is true (the window
// is grown to the page's size for the shot, up to 16384 pixels high).
func (s *Session) Screenshot(loc *Locator, fullPage bool) ([]byte, error) {
	op := "screenshot"
	if loc != nil {
		op += " of " + loc.String()
	}
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var png []byte
	var err error
	switch {
	case loc != nil:
		el, rerr := s.resolve(*loc, false)
		if rerr != nil {
			return nil, s.fail(op, rerr)
		}
		png, err = el.Screenshot(true)
	case fullPage:
		png, err = s.fullPage()
	default:
		png, err = s.wd.Screenshot()
	}
	if err != nil {
		return nil, s.fail(op, err)
	}
	if !bytes.HasPrefix(png, pngMagic) {
		return nil, fmt.Errorf("%s: the browser did not return a PNG image", op)
	}
	return png, nil
}

type rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

func (s *Session) fullPage() ([]byte, error) {
	var size struct{ W, H, IW, IH float64 }
	if err := s.script("pageSize", nil, nil, &size); err != nil {
		return nil, err
	}
	ctx := context.Background()
	v, err := s.raw(ctx, "GET", "/window/rect", nil)
	if err != nil {
		return nil, err
	}
	var orig rect
	if err := json.Unmarshal(v, &orig); err != nil {
		return nil, errors.New("unexpected window rect")
	}
	w := orig.Width + max(0, size.W-size.IW)
	h := orig.Height + max(0, size.H-size.IH)
	h = min(h, maxFullPage+(orig.Height-size.IH))
	if w == orig.Width && h == orig.Height {
		return s.wd.Screenshot()
	}
	if _, err := s.raw(ctx, "POST", "/window/rect", map[string]float64{"width": w, "height": h}); err != nil {
		return nil, err
	}
	png, err := s.wd.Screenshot()
	// Put the window back even when the shot failed.
	if _, rerr := s.raw(ctx, "POST", "/window/rect", map[string]float64{"width": orig.Width, "height": orig.Height}); rerr != nil && err == nil {
		err = rerr
	}
	return png, err
}

// PrintOptions configures PrintPDF.
type PrintOptions struct {
	// Landscape prints in landscape orientation instead of portrait.
	Landscape bool `json:"landscape,omitempty"`
	// Background prints background colours and images.
	Background bool `json:"background,omitempty"`
}

// PrintPDF prints the page to PDF with the W3C Print Page command.
func (s *Session) PrintPDF(o PrintOptions) ([]byte, error) {
	const op = "print to PDF"
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	orient := "portrait"
	if o.Landscape {
		orient = "landscape"
	}
	v, err := s.raw(context.Background(), "POST", "/print", map[string]any{"orientation": orient, "background": o.Background})
	if err != nil {
		return nil, s.fail(op, err)
	}
	var b64 string
	if err := json.Unmarshal(v, &b64); err != nil {
		return nil, fmt.Errorf("%s: the browser did not return a PDF", op)
	}
	pdf, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) {
		return nil, fmt.Errorf("%s: the browser did not return a PDF", op)
	}
	return pdf, nil
}

// Upload puts the local file at path into the <input type=file> that loc
// addresses (hidden file inputs are accepted, as pages often hide them
// behind a styled button). A browser on a remote endpoint (a Selenium
// Grid) gets the file's bytes first (shipToNode) and the path on its node.
func (s *Session) Upload(loc Locator, path string) error {
	op := "upload into " + loc.String()
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s: the file to upload must be given by absolute path", op)
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: the file to upload does not exist or is not a regular file", op)
	}
	return s.withElement(op, loc, resolveOpts{AllowHidden: true}, func(el selenium.WebElement, _ resolved) error {
		var r struct {
			OK   bool   `json:"ok"`
			Kind string `json:"kind"`
		}
		if err := s.script("isFileInput", nil, el, &r); err != nil {
			return s.fail(op, err)
		}
		if !r.OK {
			return fmt.Errorf("%s: it is a %s, not a file input (<input type=file>)", op, r.Kind)
		}
		target := path
		if s.d.remote {
			if target, err = s.shipToNode(path); err != nil {
				return s.fail(op, err)
			}
		}
		if err := el.SendKeys(target); err != nil {
			return s.fail(op, err)
		}
		return nil
	})
}
