package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tebeka/selenium"
)

// Pointer gestures go through the W3C Actions API with one mouse, "mouse",
// whose position the driver keeps between calls: after Hover the pointer
// stays on the element, so a menu that opens on hover stays open for the
// next click (WebDriver's element click moves straight to its target, and
// an item of a hover menu lies inside the hovered element). Chromium does
// not fire HTML5 drag-and-drop events for synthetic mouse input, so Drag
// dispatches them from a script when the dragged element is draggable.

// Point is an offset in CSS pixels: X to the right, Y down.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// ClickOptions say which button Click presses and how often.
type ClickOptions struct {
	// Button is "left" (the default), "right" or "middle".
	Button string
	// Double clicks twice, as a double-click.
	Double bool
}

// buttons maps a button name to its W3C pointer button number.
var buttons = map[string]int{"": 0, "left": 0, "middle": 1, "right": 2}

// ClickWith clicks the element loc addresses with the button and count o
// asks for. A plain left click is Click; the others are pointer actions at
// the element's centre.
func (s *Session) ClickWith(loc Locator, o ClickOptions) error {
	b, ok := buttons[o.Button]
	if !ok {
		return fmt.Errorf("click: button %q is not left, right or middle", o.Button)
	}
	if b == 0 && !o.Double {
		return s.Click(loc)
	}
	op := "click " + loc.String()
	if o.Double {
		op = "double-click " + loc.String()
	}
	if b != 0 {
		op = o.Button + "-" + op
	}
	return s.withElement(op, loc, resolveOpts{Mark: true}, func(el selenium.WebElement, r resolved) error {
		move, err := s.moveTo(el)
		if err != nil {
			return s.fail(op, err)
		}
		acts := []map[string]any{move}
		n := 1
		if o.Double {
			n = 2
		}
		for range n {
			acts = append(acts, map[string]any{"type": "pointerDown", "button": b}, map[string]any{"type": "pointerUp", "button": b})
		}
		if err := s.pointer(acts); err != nil {
			return s.fail(op, err)
		}
		if r.Marked {
			if err := s.settle(); err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
		}
		return nil
	})
}

// Hover moves the pointer over the centre of the element loc addresses
// (scrolling it into view first) and leaves it there: what the page shows
// on hover stays shown until the pointer moves on.
func (s *Session) Hover(loc Locator) error {
	op := "hover over " + loc.String()
	return s.withElement(op, loc, resolveOpts{}, func(el selenium.WebElement, _ resolved) error {
		move, err := s.moveTo(el)
		if err != nil {
			return s.fail(op, err)
		}
		if err := s.pointer([]map[string]any{move}); err != nil {
			return s.fail(op, err)
		}
		return nil
	})
}

// ScrollResult is where a scroll left the page or the scrolled element.
type ScrollResult struct {
	// X and Y are the scroll offsets in CSS pixels after scrolling.
	X int `json:"x"`
	Y int `json:"y"`
}

// scrollScript scrolls an element into view, the page by an offset, or an
// element's own content by an offset, and reports the offsets after.
const scrollScript = `const el = arguments[0], by = arguments[1];
if (el && !by) { el.scrollIntoView({block: 'center', inline: 'nearest'}); return {x: Math.round(window.scrollX), y: Math.round(window.scrollY)}; }
if (el) { el.scrollBy(by.x, by.y); return {x: Math.round(el.scrollLeft), y: Math.round(el.scrollTop)}; }
window.scrollBy(by.x, by.y);
return {x: Math.round(window.scrollX), y: Math.round(window.scrollY)};`

// Scroll scrolls the element loc addresses into view (loc alone), the
// page by an offset (by alone), or the content of a scrollable element by
// an offset (both). It returns the scroll offsets of what it scrolled.
func (s *Session) Scroll(loc *Locator, by *Point) (ScrollResult, error) {
	op := "scroll"
	if loc == nil && by == nil {
		return ScrollResult{}, errors.New("scroll: give a locator to scroll into view, by to scroll the page, or both to scroll inside an element")
	}
	if loc != nil {
		op += " " + loc.String()
	}
	if err := s.begin(); err != nil {
		return ScrollResult{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var args []any
	if loc != nil {
		el, err := s.resolve(*loc, false)
		if err != nil {
			return ScrollResult{}, s.fail(op, err)
		}
		args = append(args, el)
	} else {
		args = append(args, nil)
	}
	if by != nil {
		args = append(args, by)
	} else {
		args = append(args, nil)
	}
	v, err := s.execute(scrollScript, args)
	if err != nil {
		return ScrollResult{}, s.fail(op, err)
	}
	var r ScrollResult
	if err := json.Unmarshal(v, &r); err != nil {
		return ScrollResult{}, fmt.Errorf("%s: unexpected script reply", op)
	}
	return r, nil
}

// intoViewScript scrolls an element into view when its box is not wholly
// in the viewport, and tells whether it takes part in HTML5 drag-and-drop:
// it or an ancestor is draggable="true" or has an ondragstart attribute
// (a listener added by a script cannot be seen from the page).
const intoViewScript = `const el = arguments[0];
const r = el.getBoundingClientRect();
if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) { el.scrollIntoView({block: 'center', inline: 'center'}); }
return !!el.closest('[draggable="true"], [ondragstart]');`

// html5DragScript plays an HTML5 drag-and-drop from arguments[0] onto
// arguments[1], or onto what lies at the offset arguments[2] from the
// source's centre, with one DataTransfer carried through the events. It
// reports whether the drop was accepted (a dragover handler called
// preventDefault) and, when there was nothing to drop on, says so.
const html5DragScript = `const src = arguments[0].closest('[draggable="true"], [ondragstart]') || arguments[0], dst = arguments[1], by = arguments[2];
const r = src.getBoundingClientRect();
const sx = r.left + r.width / 2, sy = r.top + r.height / 2;
let target = dst, tx, ty;
if (dst) {
  dst.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const d = dst.getBoundingClientRect();
  tx = d.left + d.width / 2; ty = d.top + d.height / 2;
} else {
  tx = sx + by.x; ty = sy + by.y;
  target = document.elementFromPoint(tx, ty);
}
const dt = new DataTransfer();
function fire(el, type, x, y) {
  const e = new DragEvent(type, {bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt});
  el.dispatchEvent(e);
  return e;
}
if (fire(src, 'dragstart', sx, sy).defaultPrevented) { return 'cancelled'; }
fire(src, 'drag', sx, sy);
if (!target) { fire(src, 'dragend', sx, sy); return 'nothing'; }
fire(target, 'dragenter', tx, ty);
const over = fire(target, 'dragover', tx, ty);
let result = 'refused';
if (over.defaultPrevented) { fire(target, 'drop', tx, ty); result = 'dropped'; } else { fire(target, 'dragleave', tx, ty); }
fire(src, 'dragend', tx, ty);
return result;`

// Drag drags the element from addresses onto the element to addresses, or
// by an offset from its centre. An element that is draggable (HTML5
// drag-and-drop) gets the drag events from a script, as Chromium fires
// none for synthetic input; anything else (a slider's thumb, a sortable
// list driven by pointer events) is pressed, moved and released with the
// pointer. Exactly one of to and by is given.
func (s *Session) Drag(from Locator, to *Locator, by *Point) error {
	if (to == nil) == (by == nil) {
		return errors.New("drag: give exactly one of to (an element to drop on) or by (an offset in pixels)")
	}
	op := "drag " + from.String()
	if to != nil {
		op += " to " + to.String()
	} else {
		op += fmt.Sprintf(" by (%d, %d)", by.X, by.Y)
	}
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	src, r, err := s.resolveWith(from, resolveOpts{Mark: true})
	if err != nil {
		return s.fail(op, err)
	}
	var dst selenium.WebElement
	if to != nil {
		if dst, err = s.resolve(*to, false); err != nil {
			return s.fail(op, err)
		}
	}
	v, err := s.execute(intoViewScript, []any{src})
	if err != nil {
		return s.fail(op, err)
	}
	if string(v) == "true" {
		err = s.html5Drag(src, dst, by)
	} else {
		err = s.pointerDrag(src, dst, by)
	}
	if err != nil {
		return s.fail(op, err)
	}
	if r.Marked {
		if err := s.settle(); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return nil
}

func (s *Session) html5Drag(src, dst selenium.WebElement, by *Point) error {
	args := []any{src, nil, by}
	if dst != nil {
		args[1] = dst
	}
	v, err := s.execute(html5DragScript, args)
	if err != nil {
		return err
	}
	var result string
	_ = json.Unmarshal(v, &result)
	switch result {
	case "dropped":
		return nil
	case "cancelled":
		return safef("the page cancelled the drag at its start (its dragstart handler refused it)")
	case "nothing":
		return safef("there is nothing at that offset to drop on; give to with the drop target's locator from outline, or a smaller by")
	case "refused":
		return safef("the drop target does not accept this drag (no drop handler there); pick another target with to, using a locator from outline")
	}
	return errors.New("unexpected script reply")
}

// dragSteps is how many moves a pointer drag by an offset is split into,
// so that a page following pointermove sees a path, not a jump.
const dragSteps = 5

// pointerDrag presses on src (which Drag has scrolled into view), moves
// to dst or by an offset, and releases.
func (s *Session) pointerDrag(src, dst selenium.WebElement, by *Point) error {
	start, err := moveOnto(src)
	if err != nil {
		return err
	}
	acts := []map[string]any{start, {"type": "pointerDown", "button": 0}}
	if dst != nil {
		end, err := s.moveTo(dst)
		if err != nil {
			return err
		}
		end["duration"] = 100
		acts = append(acts, end)
	} else {
		done := Point{}
		for i := 1; i <= dragSteps; i++ {
			p := Point{by.X * i / dragSteps, by.Y * i / dragSteps}
			acts = append(acts, map[string]any{"type": "pointerMove", "origin": "pointer", "x": p.X - done.X, "y": p.Y - done.Y, "duration": 20})
			done = p
		}
	}
	acts = append(acts, map[string]any{"type": "pointerUp", "button": 0})
	return s.pointer(acts)
}

// moveTo returns the pointer move onto the centre of el, scrolling el into
// view first when its centre is outside the viewport (the Actions API does
// not scroll and refuses a target out of bounds).
func (s *Session) moveTo(el selenium.WebElement) (map[string]any, error) {
	if _, err := s.execute(intoViewScript, []any{el}); err != nil {
		return nil, err
	}
	return moveOnto(el)
}

// moveOnto is the pointer move onto the centre of el, as it lies now.
func moveOnto(el selenium.WebElement) (map[string]any, error) {
	ref, err := elementRef(el)
	if err != nil {
		return nil, err
	}
	return map[string]any{"type": "pointerMove", "origin": ref, "x": 0, "y": 0}, nil
}

// pointer performs a sequence of mouse actions. The mouse keeps its
// position after: nothing is released.
func (s *Session) pointer(acts []map[string]any) error {
	body := map[string]any{"actions": []any{map[string]any{
		"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"}, "actions": acts,
	}}}
	_, err := s.raw(context.Background(), "POST", "/actions", body)
	return err
}

// w3cElement is the key of a W3C web element reference.
const w3cElement = "element-6066-11e4-a52e-4f735466cecf"

// elementRef returns el as a W3C element reference, the form an action's
// origin takes.
func elementRef(el selenium.WebElement) (map[string]string, error) {
	b, err := json.Marshal(el)
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil || m[w3cElement] == "" {
		return nil, errors.New("unexpected element reference")
	}
	return map[string]string{w3cElement: m[w3cElement]}, nil
}
