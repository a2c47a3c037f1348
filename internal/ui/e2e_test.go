//go:build unix

package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tebeka/selenium"
	"github.com/tebeka/selenium/chrome"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// The end-to-end test loads the built shell (Shell, i.e. dist/index.html) in
// headless Chromium, inside testdata/host.html: a page that plays the MCP Apps
// host with the SDK's own AppBridge (built from e2e/host.ts). Screenshots go
// to $UI_E2E_SHOTS when set, else to a temporary folder.

type hostLog struct {
	Initialized bool `json:"initialized"`
	Calls       []struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	} `json:"calls"`
	Reads        []string                          `json:"reads"`
	Contexts     []string                          `json:"contexts"`
	Sizes        []struct{ Width, Height float64 } `json:"sizes"`
	DisplayModes []string                          `json:"displayModes"`
}

type e2e struct {
	t    *testing.T
	wd   selenium.WebDriver
	base string
	dir  string
}

func TestE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	driver := testenv.NeedBrowser(t)
	host, err := os.ReadFile("testdata/host.html")
	if err != nil {
		t.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(host)
	})
	mux.HandleFunc("/app", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(Shell)
	})
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	defer srv.Close()

	dir := os.Getenv("UI_E2E_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	x := &e2e{t: t, wd: startBrowser(t, driver), base: srv.URL, dir: dir}

	t.Run("flows", func(t *testing.T) {
		x.t = t
		x.open("flow://flows", "light")
		titles := x.texts(".flow-card .card-title")
		if len(titles) != 6 || titles[0] != "login" {
			t.Fatalf("flow cards: %q, want 6 starting with login", titles)
		}
		if n := len(x.all("button.flow-card")); n != 6 {
			t.Fatalf("%d clickable cards, want 6", n)
		}
		var log hostLog
		x.wait("a size notification of at least 150 px", func() bool {
			log = x.log()
			return len(log.Sizes) > 0 && log.Sizes[len(log.Sizes)-1].Height >= 150
		})
		x.wantContext("The person is looking at flow://flows (flows).")
		x.shot("flows-light")

		x.inApp()
		x.find(`.flow-card[data-uri="flow://flows/login"]`).Click()
		x.waitText(".flow-name", "login")
		log = x.log()
		if len(log.Calls) != 1 || log.Calls[0].Name != "show" || log.Calls[0].Arguments["uri"] != "flow://flows/login" {
			t.Fatalf("tools/call after the card click: %+v", log.Calls)
		}
		x.wantContext("The person is looking at flow://flows/login (flow).")
		if steps, more := x.texts(".step-line"), x.texts("button.more"); len(steps) != 5 || len(more) != 1 || more[0] != "+3 more" {
			t.Errorf("inline flow: steps %q, more %q; want 5 and +3 more", steps, more)
		} else if steps[0] != "navigate url={{base_url}}/login" || steps[3] != `write label:"Email" text={{email}}` {
			t.Errorf("step summaries: %q", steps)
		}
		x.shot("flow-light")

		x.inApp()
		x.find("button.fullscreen").Click()
		x.waitCount(".step-line", 8)
		if log = x.log(); len(log.DisplayModes) != 1 || log.DisplayModes[0] != "fullscreen" {
			t.Errorf("display mode requests: %q", log.DisplayModes)
		}
		x.inApp()
		x.find("button.fullscreen").Click() // back to inline
		x.waitCount(".step-line", 5)

		x.find("button.back").Click()
		x.waitCount("button.flow-card", 6)
		if log = x.log(); len(log.Calls) != 1 {
			t.Errorf("Back called the server: %+v", log.Calls)
		}
		x.wantContext("The person is looking at flow://flows (flows).")
	})

	t.Run("skeleton while loading", func(t *testing.T) {
		x.t = t
		x.open("flow://flows", "light", "delay=1500")
		x.find(`.flow-card[data-uri="flow://flows/login"]`).Click()
		x.waitCount(".skeleton .sk-step", 5)
		if n := len(x.all(".spinner, [class*=spin]")); n != 0 {
			t.Errorf("%d spinners", n)
		}
		x.shot("skeleton-light")
		x.waitText(".flow-name", "login")
	})

	t.Run("cards per width", func(t *testing.T) {
		x.t = t
		for _, c := range []struct{ width, whole int }{{480, 3}, {1100, 5}} {
			x.open("flow://flows", "light", "width="+strconv.Itoa(c.width))
			v, err := x.wd.ExecuteScript(`const s = document.querySelector(".scroller"), r = s.getBoundingClientRect();
				const boxes = [...s.children].map((c) => c.getBoundingClientRect());
				return [boxes.filter((b) => b.left >= r.left - 1 && b.right <= r.right + 1).length,
				        boxes.filter((b) => b.left < r.right - 1 && b.right > r.right + 1).length];`, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(v)
			if want := fmt.Sprintf("[%d 1]", c.whole); got != want {
				t.Errorf("at %dpx: [whole cards, peeking cards] = %s, want %s", c.width, got, want)
			}
			x.shot(fmt.Sprintf("flows-%dpx", c.width))
		}
	})

	t.Run("dark", func(t *testing.T) {
		x.t = t
		x.open("flow://flows", "dark")
		if theme, _ := x.wd.ExecuteScript(`return document.documentElement.dataset.theme`, nil); theme != "dark" {
			t.Fatalf("app theme %v, want dark", theme)
		}
		bg, _ := x.wd.ExecuteScript(`return getComputedStyle(document.body).backgroundColor`, nil)
		if bg != "rgb(38, 38, 36)" { // the host's --color-background-primary
			t.Errorf("body background %v, want the host's dark background", bg)
		}
		x.shot("flows-dark")
		x.inApp()
		x.find(`.flow-card[data-uri="flow://flows/login"]`).Click()
		x.waitText(".flow-name", "login")
		x.shot("flow-dark")
	})

	t.Run("own palette without host variables", func(t *testing.T) {
		x.t = t
		x.open("flow://flows/login", "dark", "vars=0")
		if bg, _ := x.wd.ExecuteScript(`return getComputedStyle(document.body).backgroundColor`, nil); bg != "rgb(31, 31, 30)" {
			t.Errorf("body background %v, want the shell's own dark background", bg)
		}
		x.shot("flow-dark-own-palette")
	})

	t.Run("no server tools", func(t *testing.T) {
		x.t = t
		x.open("flow://flows", "light", "tools=0")
		if n := len(x.all("button.flow-card")); n != 0 {
			t.Fatalf("%d clickable cards on a host without serverTools", n)
		}
		x.waitCount(".flow-card.card-static", 6)
		x.waitText(".notice", "Open flows from the chat: this host can't call the server from the app.")
		x.find(".flow-card").Click()
		time.Sleep(300 * time.Millisecond)
		if log := x.log(); len(log.Calls) != 0 {
			t.Fatalf("a static card called the server: %+v", log.Calls)
		}
		x.shot("flows-no-tools")
	})

	for _, v := range []struct{ uri, sel, name string }{
		{"session://current", ".session-card", "context"},
		{"session://files", ".view-files .tile", "files"},
		{"session://files/screenshots", ".view-folder .tile img", "folder"},
	} {
		for _, theme := range []string{"light", "dark"} {
			t.Run(v.name+"-"+theme, func(t *testing.T) {
				x.t = t
				x.open(v.uri, theme)
				x.waitCount(v.sel, 1)
				if v.name == "folder" {
					x.waitCount(".tile img", 3)
					x.find("button.tile").Click()
					x.waitCount(".lightbox img", 1)
					x.wantContext("The person is looking at session://files/login-page.png (image) in session://files/screenshots (folder).")
				}
				x.shot(v.name + "-" + theme)
			})
		}
	}
}

func startBrowser(t *testing.T, driver string) selenium.WebDriver {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()

	cmd := exec.Command(driver, "--port="+strconv.Itoa(port), "--log-level=OFF")
	// Its own group, killed with its browsers in Cleanup; and it dies with
	// the test process, should that die first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // chromedriver and the browsers it started
		cmd.Wait()
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	if !testenv.Poll(testenv.Deadline(t, time.Minute), func() bool {
		var resp *http.Response
		if resp, err = http.Get(base + "/status"); err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}) {
		t.Fatalf("chromedriver did not start: %v", err)
	}

	caps := selenium.Capabilities{"browserName": "chrome"}
	caps.AddChrome(chrome.Capabilities{
		W3C:  true,
		Path: testenv.Chromium(),
		Args: []string{
			"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			testenv.ClosedNetwork,
			"--window-size=1100,900", "--hide-scrollbars", "--force-device-scale-factor=1",
		},
	})
	wd, err := selenium.NewRemote(caps, base)
	if err != nil {
		t.Fatalf("no browser session: %v", err)
	}
	t.Cleanup(func() { wd.Quit() })
	return wd
}

// open loads the host page showing uri and waits for the app to draw a view.
func (x *e2e) open(uri, theme string, extra ...string) {
	x.t.Helper()
	q := "view=" + url.QueryEscape(uri) + "&theme=" + theme
	for _, e := range extra {
		q += "&" + e
	}
	if err := x.wd.Get(x.base + "/?" + q); err != nil {
		x.t.Fatal(err)
	}
	x.wait("the host initialized the app", func() bool { return x.log().Initialized })
	x.inApp()
	x.waitCount(".content .view", 1)
}

func (x *e2e) inApp() {
	x.t.Helper()
	if err := x.wd.SwitchFrame(nil); err != nil {
		x.t.Fatal(err)
	}
	frame, err := x.wd.FindElement(selenium.ByCSSSelector, "iframe#app")
	if err != nil {
		x.t.Fatal(err)
	}
	if err := x.wd.SwitchFrame(frame); err != nil {
		x.t.Fatal(err)
	}
}

// log reads window.hostLog from the host page and returns to the app's frame.
func (x *e2e) log() hostLog {
	x.t.Helper()
	if err := x.wd.SwitchFrame(nil); err != nil {
		x.t.Fatal(err)
	}
	v, err := x.wd.ExecuteScript(`return JSON.stringify(window.hostLog || {})`, nil)
	if err != nil {
		x.t.Fatal(err)
	}
	var l hostLog
	if err := json.Unmarshal([]byte(fmt.Sprint(v)), &l); err != nil {
		x.t.Fatal(err)
	}
	x.inApp()
	return l
}

func (x *e2e) wantContext(text string) {
	x.t.Helper()
	var last string
	x.wait("model context "+strconv.Quote(text), func() bool {
		l := x.log()
		if len(l.Contexts) == 0 {
			return false
		}
		last = l.Contexts[len(l.Contexts)-1]
		return last == text
	})
}

// wait polls ok until it holds, or fails the test at its deadline (see
// testenv.Deadline): a loaded machine makes the app slower, not wrong.
func (x *e2e) wait(what string, ok func() bool) {
	x.t.Helper()
	if !testenv.Poll(testenv.Deadline(x.t, time.Minute), ok) {
		x.shot("timeout")
		x.t.Fatalf("timed out waiting for %s", what)
	}
}

func (x *e2e) all(css string) []selenium.WebElement {
	els, err := x.wd.FindElements(selenium.ByCSSSelector, css)
	if err != nil {
		return nil
	}
	return els
}

func (x *e2e) find(css string) selenium.WebElement {
	x.t.Helper()
	el, err := x.wd.FindElement(selenium.ByCSSSelector, css)
	if err != nil {
		x.t.Fatalf("%s: %v", css, err)
	}
	return el
}

func (x *e2e) texts(css string) []string {
	var out []string
	for _, el := range x.all(css) {
		s, _ := el.Text()
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func (x *e2e) waitCount(css string, n int) {
	x.t.Helper()
	x.wait(fmt.Sprintf("%d × %s", n, css), func() bool { return len(x.all(css)) >= n })
}

func (x *e2e) waitText(css, want string) {
	x.t.Helper()
	x.wait(css+" saying "+strconv.Quote(want), func() bool {
		for _, s := range x.texts(css) {
			if strings.Contains(s, want) {
				return true
			}
		}
		return false
	})
}

// shot saves a PNG of the whole host page and checks that it is one.
func (x *e2e) shot(name string) {
	x.t.Helper()
	time.Sleep(250 * time.Millisecond) // let the host apply the last size change
	b, err := x.wd.Screenshot()
	if err != nil {
		x.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		x.t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() < 500 || r.Dy() < 300 {
		x.t.Errorf("screenshot is %v", r)
	}
	path := filepath.Join(x.dir, name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		x.t.Fatal(err)
	}
	x.t.Logf("screenshot %s", path)
	x.inApp()
}
