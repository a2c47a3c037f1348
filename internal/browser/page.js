// page.js resolves locators and builds the page outline in one round trip
// (WebDriver "execute sync"). Package browser installs it once per
// document: it wraps this file in a function that returns run, stores a
// runner calling a fresh copy of that function in window.__seleniumFlow
// and later sends only a stub that calls the runner (see session.go).
// Everything computed here is cached for one execution only.
'use strict';

const norm = s => String(s == null ? '' : s).replace(/[\s\u00a0\u200b]+/g, ' ').trim();
const low = s => norm(s).toLowerCase();
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base']);
const TEXT_SKIP = new Set(['select', 'option', 'optgroup', 'datalist', 'textarea', 'svg']);
const cache = new Map();
const info = el => { let i = cache.get(el); if (!i) { i = {}; cache.set(el, i); } return i; };

// ---- visibility ------------------------------------------------------------

// shown: not removed from rendering (display:none, visibility:hidden,
// content-visibility) and not inside aria-hidden="true".
function shown(el) {
  const i = info(el);
  if (i.shown !== undefined) return i.shown;
  let v = true;
  if (el.getAttribute && el.getAttribute('aria-hidden') === 'true') v = false;
  else if (el.parentElement && !shown(el.parentElement)) {
    v = false;
    // visibility:visible may re-show a child of a visibility:hidden parent,
    // but display:none and aria-hidden cannot be undone below.
  }
  else if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) v = false;
  i.shown = v;
  return v;
}

// visible: shown and occupying space on the page.
function visible(el) {
  const i = info(el);
  if (i.vis !== undefined) return i.vis;
  let v = shown(el);
  if (v) {
    v = false;
    for (const r of el.getClientRects()) { if (r.width > 0 && r.height > 0) { v = true; break; } }
  }
  i.vis = v;
  return v;
}

// ---- roles and names -------------------------------------------------------

const KNOWN_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox ' +
  'columnheader combobox complementary contentinfo definition dialog directory document feed figure form grid ' +
  'gridcell group heading img link list listbox listitem log main marquee math menu menubar menuitem ' +
  'menuitemcheckbox menuitemradio meter navigation note option paragraph progressbar radio radiogroup region row ' +
  'rowgroup rowheader scrollbar search searchbox separator slider spinbutton status switch tab table tablist ' +
  'tabpanel term textbox timer toolbar tooltip tree treegrid treeitem').split(' '));

function inputRole(el) {
  switch (el.type) {
    case 'button': case 'submit': case 'reset': case 'image': return 'button';
    case 'checkbox': return 'checkbox';
    case 'radio': return 'radio';
    case 'range': return 'slider';
    case 'number': return 'spinbutton';
    case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
    case 'text': case 'email': case 'tel': case 'url': return el.hasAttribute('list') ? 'combobox' : 'textbox';
    default: return ''; // password, file, date, color, hidden …: no ARIA role
  }
}

const sectioned = el => !!(el.parentElement && el.parentElement.closest('article,aside,main,nav,section'));

function implicitRole(el) {
  const t = el.localName;
  switch (t) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'button': case 'summary': return 'button';
    case 'input': return inputRole(el);
    case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
    case 'textarea': return 'textbox';
    case 'option': return 'option';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'tr': return 'row';
    case 'td': { const tb = el.closest('table'); const r = tb ? roleOf(tb) : ''; return r === 'grid' || r === 'treegrid' ? 'gridcell' : 'cell'; }
    case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    case 'table': return 'table';
    case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
    case 'ul': case 'ol': case 'menu': return 'list';
    case 'li': return 'listitem';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'aside': return 'complementary';
    case 'header': return sectioned(el) ? '' : 'banner';
    case 'footer': return sectioned(el) ? '' : 'contentinfo';
    case 'form': return 'form';
    case 'search': return 'search';
    case 'section': return (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) ? 'region' : '';
    case 'article': return 'article';
    case 'dialog': return 'dialog';
    case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
    case 'fieldset': case 'details': case 'optgroup': return 'group';
    case 'hr': return 'separator';
    case 'progress': return 'progressbar';
    case 'meter': return 'meter';
    case 'output': return 'status';
    case 'p': return 'paragraph';
    case 'blockquote': return 'blockquote';
    case 'datalist': return 'listbox';
    case 'figure': return 'figure';
    case 'caption': return 'caption';
  }
  return '';
}

function roleOf(el) {
  const i = info(el);
  if (i.role !== undefined) return i.role;
  i.role = '';
  let r = '';
  const attr = (el.getAttribute('role') || '').trim().toLowerCase();
  if (attr) {
    for (const tok of attr.split(/\s+/)) { if (KNOWN_ROLES.has(tok) || tok === 'none' || tok === 'presentation') { r = tok; break; } }
    if (r === 'none' || r === 'presentation') r = '';
    else if (!r) r = implicitRole(el);
  } else r = implicitRole(el);
  i.role = r;
  return r;
}

const NAME_FROM_CONTENT = new Set(['button', 'link', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader',
  'row', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'checkbox', 'radio',
  'switch', 'tooltip', 'caption', 'term']);

// textOf: the visible text of an element, or the names of its images.
function textOf(el) {
  // innerText leaves out what is not rendered; hidden elements still have names.
  let s = norm(el.innerText !== undefined && shown(el) ? el.innerText : el.textContent);
  if (!s) {
    const d = el.querySelector && el.querySelector('img[alt],[aria-label],svg title');
    if (d) s = norm(d.localName === 'img' ? d.getAttribute('alt') : d.localName === 'title' ? d.textContent : d.getAttribute('aria-label'));
  }
  return s;
}

// labelText: text of a <label>, leaving out the controls inside it.
function labelText(lab) {
  let s = '';
  const walk = n => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) s += c.data;
      else if (c.nodeType === 1) {
        const t = c.localName;
        if (t === 'input' || t === 'select' || t === 'textarea' || t === 'button' || SKIP.has(t)) continue;
        if (!shown(c)) continue;
        if (t === 'br') s += ' ';
        walk(c);
      }
    }
  };
  walk(lab);
  return norm(s);
}

function labelledBy(el) {
  const ids = el.getAttribute('aria-labelledby');
  if (!ids) return '';
  return norm(ids.split(/\s+/).map(id => document.getElementById(id)).filter(Boolean).map(e => textOf(e)).join(' '));
}

const isField = el => ['input', 'select', 'textarea'].includes(el.localName);

function nameOf(el) {
  const i = info(el);
  if (i.name !== undefined) return i.name;
  i.name = '';
  i.name = norm(computeName(el));
  return i.name;
}

function computeName(el) {
  let s = labelledBy(el);
  if (s) return s;
  s = norm(el.getAttribute('aria-label'));
  if (s) return s;
  const t = el.localName;
  if (isField(el)) {
    const ty = t === 'input' ? el.type : '';
    if (ty === 'button' || ty === 'submit' || ty === 'reset') return el.value || (ty === 'submit' ? 'Submit' : ty === 'reset' ? 'Reset' : '');
    if (ty === 'image') return el.getAttribute('alt') || el.value || 'Submit';
    const ls = el.labels ? [...el.labels].map(labelText).filter(Boolean) : [];
    if (ls.length) return ls.join(' ');
    return el.getAttribute('title') || el.getAttribute('placeholder') || '';
  }
  if (t === 'img' || t === 'area') return el.getAttribute('alt') || el.getAttribute('title') || '';
  if (t === 'fieldset') { const l = el.querySelector(':scope > legend'); if (l) return textOf(l); }
  if (t === 'table') { const c = el.querySelector(':scope > caption'); if (c) return textOf(c); }
  if (t === 'figure') { const c = el.querySelector(':scope > figcaption'); if (c) return textOf(c); }
  if (NAME_FROM_CONTENT.has(roleOf(el))) { s = textOf(el); if (s) return s; }
  return el.getAttribute('title') || '';
}

// ---- label locator ---------------------------------------------------------

const LABEL_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'listbox']);

function labelable(el) {
  const t = el.localName;
  if (t === 'input') return el.type !== 'hidden';
  if (t === 'select' || t === 'textarea') return true;
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
  const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  return LABEL_ROLES.has(r);
}

// labelsOf: every text the element is labelled by, most specific first.
function labelsOf(el) {
  const i = info(el);
  if (i.labels) return i.labels;
  const out = [];
  const add = s => { s = norm(s); if (s && !out.includes(s)) out.push(s); };
  add(labelledBy(el));
  if (el.labels) for (const l of el.labels) add(labelText(l));
  add(el.getAttribute('aria-label'));
  add(el.getAttribute('placeholder'));
  add(el.getAttribute('title'));
  i.labels = out;
  return out;
}

// ---- resolution ------------------------------------------------------------

let allEls = null;
function everything() {
  if (!allEls) allEls = [...document.querySelectorAll('*')].filter(e => !SKIP.has(e.localName));
  return allEls;
}
let roleBuckets = null;
function withRole(role) {
  if (!roleBuckets) {
    roleBuckets = new Map();
    for (const el of everything()) {
      const r = roleOf(el);
      if (!r) continue;
      let b = roleBuckets.get(r);
      if (!b) { b = []; roleBuckets.set(r, b); }
      b.push(el);
    }
  }
  return roleBuckets.get(role) || [];
}
let labelPool = null;
function labelables() {
  if (!labelPool) labelPool = everything().filter(labelable);
  return labelPool;
}

// pick keeps the elements one of whose strings equals the needle
// (case-insensitive, whitespace-normalised) or, when none does, those one
// of whose strings contains it.
function pick(els, strings, needle) {
  const ex = [], part = [];
  for (const el of els) {
    let e = false, p = false;
    for (const s of strings(el)) {
      const l = s.toLowerCase();
      if (l === needle) { e = true; break; }
      if (l.includes(needle)) p = true;
    }
    if (e) ex.push(el); else if (p) part.push(el);
  }
  return ex.length ? ex : part;
}

// visibleFirst matches among the visible elements and falls back to the
// hidden ones only when no visible element matches.
function visibleFirst(pool, match) {
  const vis = [], hid = [];
  for (const el of pool) (visible(el) ? vis : hid).push(el);
  const m = match(vis);
  if (m.length) return {els: m, hidden: false};
  const h = match(hid);
  return {els: h, hidden: h.length > 0};
}

const inRoot = (root, el) => root === document || (root !== el && root.contains(el));

function byText(needle, root) {
  const nsq = needle.replace(/\s/g, '');
  const ex = [], part = [];
  const visit = el => {
    const t = el.localName;
    if (SKIP.has(t) || TEXT_SKIP.has(t)) return false;
    if (t === 'input') return false;
    if (!(el.textContent || '').toLowerCase().replace(/\s/g, '').includes(nsq)) return false;
    if (!shown(el)) return false;
    let child = false;
    for (const c of el.children) if (visit(c)) child = true;
    if (child) return true;
    if (!visible(el)) return false;
    const s = low(el.innerText);
    if (s === needle) { ex.push(el); return true; }
    if (s.includes(needle)) { part.push(el); return true; }
    return false;
  };
  const start = root === document ? document.body : root;
  if (start) {
    if (root === document) visit(start); else for (const c of start.children) visit(c);
  }
  // Buttons made of <input> carry their text in the value.
  const inputs = [...(root === document ? document : root).querySelectorAll('input[type=submit],input[type=button],input[type=reset]')].filter(visible);
  for (const i of inputs) {
    const v = low(i.value);
    if (v === needle) ex.push(i); else if (v.includes(needle)) part.push(i);
  }
  const order = (a, b) => a === b ? 0 : (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) ? -1 : 1;
  const res = ex.length ? ex : part;
  if (inputs.length) res.sort(order);
  return {els: res, hidden: false};
}

class LocErr {
  constructor(depth, n, nth, hidden, msg) { Object.assign(this, {depth, n, nth, hidden, msg}); }
}

const memo = new Map();
// matchAll returns every element the locator's strategy matches under root
// (nth not applied).
function matchAll(loc, root) {
  if (root === document) {
    const k = JSON.stringify([loc.css, loc.xpath, loc.text, loc.label, loc.role, loc.name]);
    let m = memo.get(k);
    if (!m) { m = matchAll1(loc, root); memo.set(k, m); }
    return m;
  }
  return matchAll1(loc, root);
}

function matchAll1(loc, root) {
  if (loc.css) {
    let list;
    try { list = [...(root === document ? document : root).querySelectorAll(loc.css)]; }
    catch (e) { throw new LocErr(0, 0, 0, false, 'invalid css selector'); }
    return visibleFirst(list, a => a);
  }
  if (loc.xpath) {
    let snap;
    try { snap = document.evaluate(loc.xpath, root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null); }
    catch (e) { throw new LocErr(0, 0, 0, false, 'invalid xpath expression'); }
    const list = [];
    for (let i = 0; i < snap.snapshotLength; i++) { const n = snap.snapshotItem(i); if (n.nodeType === 1) list.push(n); }
    return visibleFirst(list, a => a);
  }
  if (loc.text) return byText(low(loc.text), root);
  if (loc.label) {
    const needle = low(loc.label);
    return visibleFirst(labelables().filter(el => inRoot(root, el)), a => pick(a, labelsOf, needle));
  }
  if (loc.role) {
    const role = loc.role.trim().toLowerCase();
    const pool = withRole(role).filter(el => inRoot(root, el));
    if (!loc.name) return visibleFirst(pool, a => a);
    const needle = low(loc.name);
    return visibleFirst(pool, a => pick(a, el => [nameOf(el)], needle));
  }
  throw new LocErr(0, 0, 0, false, 'empty locator');
}

// resolveRoot resolves loc.within chains to the element to search under.
function resolveRoot(loc, depth) {
  if (!loc.within) return document;
  const w = loc.within;
  const el = resolveOne(w, depth + 1, false);
  return el;
}

// resolveOne resolves a locator to exactly one element (applying nth), or
// throws a LocErr.
function resolveOne(loc, depth, allowHidden) {
  const root = resolveRoot(loc, depth);
  let m;
  try { m = matchAll(loc, root); }
  catch (e) { if (e instanceof LocErr) { e.depth = depth; } throw e; }
  const n = m.els.length;
  const nth = loc.nth || 0;
  if (n === 0 || (nth === 0 && n > 1) || nth > n) throw new LocErr(depth, n, nth, m.hidden, '');
  if (m.hidden && !allowHidden) throw new LocErr(depth, n, nth, true, '');
  return m.els[nth ? nth - 1 : 0];
}

// countOf counts the visible elements a locator matches (nth ignored).
function countOf(loc) {
  let root;
  try { root = resolveRoot(loc, 0); } catch (e) { if (e instanceof LocErr) return {n: 0, hidden: 0}; throw e; }
  const m = matchAll(loc, root);
  return m.hidden ? {n: 0, hidden: m.els.length} : {n: m.els.length, hidden: 0};
}

// ---- locator strings (same syntax as Locator.String in Go) -----------------

const q = s => JSON.stringify(s);
const bare = s => /^[^\s"()]+$/.test(s) ? s : q(s);
function locString(l) {
  let s = '';
  if (l.css) s = 'css:' + bare(l.css);
  else if (l.xpath) s = 'xpath:' + bare(l.xpath);
  else if (l.text) s = 'text:' + q(l.text);
  else if (l.label) s = 'label:' + q(l.label);
  else if (l.role) { s = 'role:' + l.role; if (l.name) s += ' name:' + q(l.name); }
  if (l.nth) s += ' nth:' + l.nth;
  if (l.within) s += ' within:(' + locString(l.within) + ')';
  return s;
}

// clip shortens a string used as a locator needle; substring matching still
// finds the element.
function clip(s, n) {
  if (s.length <= n) return s;
  let c = s.slice(0, n);
  const sp = c.lastIndexOf(' ');
  if (sp > n / 2) c = c.slice(0, sp);
  return c;
}
const clipShow = (s, n) => s.length <= n ? s : s.slice(0, n).trimEnd() + '…';

// ---- outline ---------------------------------------------------------------

const NATIVE = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary']);
const CTRL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'treeitem', 'listbox']);

function isControl(el) {
  const t = el.localName;
  if (t === 'a') return el.hasAttribute('href') || el.hasAttribute('onclick');
  if (t === 'button' || t === 'select' || t === 'textarea' || t === 'summary') return true;
  if (t === 'input') return el.type !== 'hidden';
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
  const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  if (CTRL_ROLES.has(r)) return true;
  return el.hasAttribute('onclick');
}

function kindOf(el) {
  const t = el.localName;
  const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  if (CTRL_ROLES.has(r)) return r;
  if (t === 'a') return 'link';
  if (t === 'button' || t === 'summary') return 'button';
  if (t === 'input') {
    const ty = el.type;
    if (ty === 'button' || ty === 'submit' || ty === 'reset' || ty === 'image') return 'button';
    return ty === 'text' ? 'textbox' : ty;
  }
  if (t === 'select') return el.multiple ? 'listbox' : 'select';
  if (t === 'textarea') return 'textarea';
  if (el.isContentEditable) return 'editor';
  return 'clickable';
}

// secret: a field whose value must never be shown.
function secret(el) {
  if (el.type === 'password') return true;
  const ac = (el.getAttribute('autocomplete') || '').toLowerCase();
  if (/current-password|new-password|one-time-code|cc-number|cc-csc/.test(ac)) return true;
  const id = ((el.getAttribute('name') || '') + ' ' + (el.id || '')).toLowerCase();
  return /passw|pwd|secret|token|otp|cvv|cvc|api.?key/.test(id);
}

function states(el) {
  const a = [];
  const t = el.localName;
  if (t === 'input') {
    const ty = el.type;
    if (ty === 'checkbox' || ty === 'radio') { if (el.checked) a.push('checked'); }
    else if (ty === 'file') { if (el.files && el.files.length) a.push('file:' + q(clipShow([...el.files].map(f => f.name).join(', '), 60))); }
    else if (ty === 'button' || ty === 'submit' || ty === 'reset' || ty === 'image') { /* value is the name */ }
    else if (secret(el)) { if (el.value) a.push('filled'); }
    else if (el.value) a.push('value:' + q(clipShow(norm(el.value), 40)));
  } else if (t === 'textarea') {
    if (secret(el)) { if (el.value) a.push('filled'); }
    else if (el.value) a.push('value:' + q(clipShow(norm(el.value), 40)));
  } else if (t === 'select') {
    const opts = [...el.options];
    const sel = opts.filter(o => o.selected).map(o => norm(o.text));
    if (sel.length) a.push('value:' + q(clipShow(sel.join(', '), 40)));
    if (opts.length <= 8) a.push('options:' + q(clipShow(opts.map(o => norm(o.text)).join('|'), 120)));
    else a.push('options:' + opts.length);
  }
  const ac = el.getAttribute('aria-checked');
  if (ac === 'true') a.push('checked'); else if (ac === 'mixed') a.push('mixed');
  const ae = el.getAttribute('aria-expanded');
  if (ae === 'true') a.push('expanded'); else if (ae === 'false') a.push('collapsed');
  if (el.getAttribute('aria-selected') === 'true') a.push('selected');
  if (el.getAttribute('aria-pressed') === 'true') a.push('pressed');
  if (el.getAttribute('aria-current') && el.getAttribute('aria-current') !== 'false') a.push('current');
  if (el.disabled || el.getAttribute('aria-disabled') === 'true') a.push('disabled');
  return a.length ? ' ' + a.join(' ') : '';
}

function cssPath(el) {
  const parts = [];
  let e = el;
  while (e && e.nodeType === 1 && e !== document.documentElement) {
    if (e.id && e !== el) {
      const sel = '#' + CSS.escape(e.id);
      if (document.querySelectorAll(sel).length === 1) { parts.unshift(sel); break; }
    }
    const t = e.localName;
    if (t === 'body') { parts.unshift('body'); break; }
    let part = CSS.escape(t);
    const p = e.parentElement;
    if (p) {
      const same = [...p.children].filter(c => c.localName === t);
      if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(e) + 1) + ')';
    }
    parts.unshift(part);
    // Stop at the shortest path that is unique on the page.
    const sel = parts.join(' > ');
    if (document.querySelectorAll(sel).length === 1) return sel;
    e = p;
  }
  return parts.join(' > ');
}

// locatorFor chooses the locator the outline shows for a control: the first
// of label, role+name and text that matches it alone, then css:#id, then the
// first of those with nth, then a css path.
function locatorFor(el) {
  const cands = [];
  if (labelable(el)) { const l = labelsOf(el)[0]; if (l) cands.push({label: clip(l, 50)}); }
  const r = roleOf(el);
  if (r && CTRL_ROLES.has(r)) { const n = nameOf(el); if (n) cands.push({role: r, name: clip(n, 50)}); }
  if (!isField(el)) { const tx = norm(el.innerText); if (tx && tx.length <= 50) cands.push({text: tx}); }
  const hidden = !visible(el);
  const hits = c => { const m = matchAll(c, document); return m.hidden !== hidden ? [] : m.els; };
  const mine = e => e === el || el.contains(e);
  for (const c of cands) { const h = hits(c); if (h.length === 1 && mine(h[0])) return {loc: c, nth: 0}; }
  if (el.id) {
    const c = {css: '#' + CSS.escape(el.id)};
    const h = hits(c);
    if (h.length === 1 && h[0] === el) return {loc: c, nth: 0};
  }
  for (const c of cands) {
    if (c.text) continue;
    const i = hits(c).findIndex(mine);
    if (i >= 0) return {loc: c, nth: i + 1};
  }
  const c = {css: cssPath(el)};
  const i = hits(c).indexOf(el);
  return {loc: c, nth: hits(c).length > 1 && i >= 0 ? i + 1 : 0};
}

const LANDMARK_WORDS = {banner: 'header', navigation: 'nav', main: 'main', complementary: 'aside', contentinfo: 'footer',
  form: 'form', search: 'search', region: 'region', dialog: 'dialog', alertdialog: 'dialog', group: 'group'};

function landmarkName(el, role) {
  let n = nameOf(el);
  if (!n && role === 'form') n = el.getAttribute('name') || el.id || '';
  return n;
}

const MAX_LINES = 3000;
const LONG_TEXT = 80;
const TABLE_ROWS_FULL = 10;
const TABLE_ROWS_SHOWN = 3;

function outline(root, withinStr) {
  const out = [];
  const push = line => out.push(line);
  const ctl = (el, d, hidden) => {
    if (!hidden && !visible(el)) return false;
    const {loc, nth} = locatorFor(el);
    push({d, k: 'ctl', kind: kindOf(el), base: locString(loc), nth, st: states(el) + (hidden ? ' hidden' : '')});
    return true;
  };

  // mode 'all' emits structure, text and controls; 'ctl' only controls.
  const node = (el, d, mode) => {
    const t = el.localName;
    if (SKIP.has(t)) return;
    if (t === 'input' && el.type === 'file' && !visible(el)) {
      // Pages often hide the file input behind a styled button; Upload
      // accepts hidden file inputs, so they are listed.
      if (el.parentElement && shown(el.parentElement)) ctl(el, d, true);
      return;
    }
    if (!shown(el)) return;
    if (t === 'svg') { if (isControl(el)) ctl(el, d); return; }
    if (t === 'iframe' || t === 'frame') {
      if (mode === 'all' && visible(el)) push({d, k: 'misc', s: 'frame ' + q(clipShow(el.title || el.name || '', 60)) + ' (its content is not outlined)'});
      return;
    }
    if (isControl(el)) {
      ctl(el, d);
      if (!NATIVE.has(t)) kids(el, d + 1, 'ctl');
      return;
    }
    const role = roleOf(el);
    if (mode === 'ctl') { kids(el, d, 'ctl'); return; }
    if (role === 'heading') {
      const lvl = /^h[1-6]$/.test(t) ? t[1] : (el.getAttribute('aria-level') || '2');
      const s = textOf(el);
      if (s) push({d, k: 'head', s: 'h' + lvl + ' ' + q(clipShow(s, LONG_TEXT))});
      kids(el, d + 1, 'ctl');
      return;
    }
    if (t === 'table' && role === 'table' && !layoutTable(el)) { table(el, d); return; }
    if (role === 'alert' || role === 'status' || role === 'log') {
      const s = textOf(el);
      if (s) push({d, k: 'misc', s: role + ' ' + q(clipShow(s, 200))});
      kids(el, d + 1, 'ctl');
      return;
    }
    const lw = LANDMARK_WORDS[role];
    if (lw && (role !== 'group' || t === 'fieldset' || el.getAttribute('role') === 'group')) {
      const n = landmarkName(el, role);
      let s = lw + (n ? ' ' + q(clipShow(n, 60)) : '');
      if (role === 'dialog' && (el.getAttribute('aria-modal') === 'true' || (el.matches && el.matches(':modal')))) s += ' modal';
      const at = out.length;
      push({d, k: 'land', s});
      kids(el, d + 1, 'all');
      if (out.length === at + 1) out.pop();
      return;
    }
    if (t === 'label' || t === 'legend') { kids(el, d, 'ctl'); return; }
    if (hasOwnText(el)) {
      // Text made only of its controls' text (a list item holding a link)
      // is left to the controls.
      if (!ownText(el)) { kids(el, d, 'ctl'); return; }
      const s = textOf(el);
      if (s) push({d, k: 'text', s, long: s.length > LONG_TEXT});
      kids(el, d + 1, 'ctl');
      return;
    }
    kids(el, d, 'all');
  };
  const kids = (el, d, mode) => {
    for (const c of el.children) { if (out.length > MAX_LINES) return; node(c, d, mode); }
  };

  const table = (el, d) => {
    const rows = [...el.rows].filter(r => shown(r));
    let head = el.tHead ? [...el.tHead.rows].filter(r => shown(r)) : [];
    if (!head.length && rows.length && [...rows[0].cells].every(c => c.localName === 'th')) head = [rows[0]];
    const body = rows.filter(r => !head.includes(r));
    const cols = head.length ? [...head[head.length - 1].cells].map(c => clipShow(norm(c.textContent), 20)) : [];
    const name = nameOf(el);
    let s = 'table' + (name ? ' ' + q(clipShow(name, 60)) : '') + ' rows:' + body.length;
    if (cols.length) s += ' cols:' + q(clipShow(cols.join('|'), 160));
    push({d, k: 'land', s});
    const rowText = r => q(clipShow([...r.cells].map(c => textOf(c)).filter(Boolean).join('|'), 120));
    if (body.length <= TABLE_ROWS_FULL) {
      for (const h of head) kids(h, d + 1, 'ctl');
      for (const r of body) { push({d: d + 1, k: 'row', s: 'row ' + rowText(r)}); kids(r, d + 2, 'ctl'); }
      return;
    }
    for (const r of body.slice(0, TABLE_ROWS_SHOWN)) push({d: d + 1, k: 'row', s: 'row ' + rowText(r)});
    push({d: d + 1, k: 'misc', s: '… ' + (body.length - TABLE_ROWS_SHOWN) + ' more rows; for one row\'s controls use within:(role:row name:"<text in the row>") or nth'});
    // Every control of the table, grouped by locator: the nth of a group's
    // members are listed as ranges.
    const at = out.length;
    kids(el, d + 1, 'ctl');
    const items = out.splice(at);
    const groups = new Map();
    for (const it of items) {
      const key = it.k === 'ctl' && it.nth ? it.kind + '\u0000' + it.base + '\u0000' + it.st : null;
      if (!key) { groups.set(Symbol(), [it]); continue; }
      const g = groups.get(key);
      if (g) g.push(it); else groups.set(key, [it]);
    }
    for (const g of groups.values()) {
      if (g.length === 1) { out.push(g[0]); continue; }
      out.push(Object.assign({}, g[0], {nth: ranges(g.map(i => i.nth))}));
    }
  };

  out.push({d: 0, k: 'page', s: 'page ' + q(clipShow(document.title || '', 80)) + ' ' + location.href + (withinStr ? ' within:(' + withinStr + ')' : '')});
  if (root === document) kids(document.body || document.documentElement, 0, 'all');
  else { if (isControl(root)) ctl(root, 0); kids(root, 0, NATIVE.has(root.localName) ? 'ctl' : 'all'); }

  // Long paragraphs in a row: show the first, truncated, and count the rest.
  const lines = [];
  let run = null;
  for (const it of out) {
    const longText = it.k === 'text' && it.long;
    if (run && it.d <= run.d && !(longText && it.d === run.d)) run = null;
    if (longText) {
      if (run) { run.more++; continue; }
      it.more = 0;
      run = it;
    }
    lines.push(it);
  }
  const text = [];
  for (const it of lines) {
    let s;
    if (it.k === 'ctl') {
      const same = it.base === 'role:' + it.kind || it.base.startsWith('role:' + it.kind + ' ');
      s = (same ? '' : it.kind + ' ') + it.base + (it.nth ? ' nth:' + it.nth : '') + it.st;
    } else if (it.k === 'text') {
      s = 'text ' + q(it.long ? clipShow(it.s, 60) : it.s);
      if (it.more) s += ' (+' + it.more + ' more paragraphs)';
    } else s = it.s;
    text.push('  '.repeat(it.d) + s);
  }
  if (out.length > MAX_LINES) text.push('… outline cut at ' + MAX_LINES + ' lines; call outline with within to see one part');
  return text.join('\n');
}

// ownText: the element's text outside the controls inside it, without
// punctuation.
function ownText(el) {
  let s = '';
  const walk = n => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) s += c.data;
      else if (c.nodeType === 1 && !SKIP.has(c.localName) && !isControl(c) && shown(c)) walk(c);
    }
  };
  walk(el);
  return s.replace(/[\s\p{P}\p{S}]+/gu, '');
}

// layoutTable: a table without headers or caption that is only used to lay
// things out; its content is outlined as if there were no table.
function layoutTable(el) {
  if (el.getAttribute('role') === 'table' || el.caption || el.tHead || el.querySelector('th')) return false;
  const rows = el.rows.length;
  const cols = rows ? el.rows[0].cells.length : 0;
  return rows <= 2 || cols <= 1;
}

function hasOwnText(el) {
  const r = roleOf(el);
  if (r === 'paragraph' || r === 'blockquote' || r === 'listitem' || r === 'caption') return true;
  for (const c of el.childNodes) if (c.nodeType === 3 && c.data.trim()) return true;
  return false;
}

function ranges(ns) {
  ns = [...new Set(ns)].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    parts.push(j - i >= 1 ? ns[i] + '..' + ns[j] : String(ns[i]));
    if (j - i === 1) { parts.pop(); parts.push(ns[i] + ',' + ns[j]); }
    i = j + 1;
  }
  return parts.join(',');
}

// ---- operations called from Go ---------------------------------------------

function fail(e) {
  if (e instanceof LocErr) return {ok: false, depth: e.depth, n: e.n, nth: e.nth, hidden: e.hidden, msg: e.msg};
  throw e;
}

function check(a) {
  const r = {ok: true, url: location.href, title: document.title};
  if (a.text) {
    const body = document.body ? low(document.body.innerText) : '';
    r.textFound = body.includes(low(a.text));
  }
  r.counts = (a.locs || []).map(l => {
    try { return countOf(l); } catch (e) { if (e instanceof LocErr) return {n: 0, hidden: 0, msg: e.msg}; throw e; }
  });
  return r;
}

// TEXT_FIELDS are the input types an empty one of which Element Clear
// leaves alone (it focuses an empty number field).
const TEXT_FIELDS = new Set(['text', 'search', 'email', 'password', 'tel', 'url']);

// clearIsNoop: WebDriver's Element Clear would do nothing to el, which is
// then left alone: an empty, enabled, writable text field wholly in the
// viewport and not covered (Clear neither scrolls it, fires events, moves
// the focus nor fails). Anything else is cleared by WebDriver.
function clearIsNoop(el) {
  const t = el.localName;
  if (!(t === 'textarea' || (t === 'input' && TEXT_FIELDS.has(el.type)))) return false;
  if (el.value !== '' || el.isContentEditable || !el.matches(':enabled:read-write')) return false;
  const r = el.getBoundingClientRect();
  const d = document.documentElement;
  const w = Math.min(window.innerWidth, d.clientWidth || window.innerWidth);
  const h = Math.min(window.innerHeight, d.clientHeight || window.innerHeight);
  if (!(r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= w && r.bottom <= h)) return false;
  return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
}

// mark notes, in the document, when it starts to unload: markBody of
// settle.go, which must stay the same.
function mark() {
  window.__sfLeaving = false;
  if (!window.__sfMarked) { window.__sfMarked = true; window.addEventListener('beforeunload', function () { window.__sfLeaving = true; }); }
  return true;
}

function run(op, a, el) {
  switch (op) {
    case 'resolve': {
      // clear asks whether clearing the element would be a no-op; mark
      // prepares settle for the action that follows.
      let r;
      try { r = {ok: true, el: resolveOne(a.loc, 0, !!a.allowHidden)}; } catch (e) { return fail(e); }
      if (a.clear) { try { r.clearNoop = clearIsNoop(r.el); } catch (e) { r.clearNoop = false; } }
      if (a.mark) { try { r.marked = mark(); } catch (e) { r.marked = false; } }
      return r;
    }
    case 'outline': {
      let root = document;
      if (a.within) { try { root = resolveOne(a.within, 0, false); } catch (e) { return fail(e); } }
      return {ok: true, text: outline(root, a.withinStr || '')};
    }
    case 'check':
      return check(a);
    case 'option': {
      if (el.localName !== 'select') return {ok: false, notSelect: true, kind: kindOf(el)};
      const opts = [...el.options];
      const want = low(a.option);
      let m = opts.filter(o => low(o.text) === want);
      if (!m.length) m = opts.filter(o => o.value === a.option);
      if (!m.length) m = opts.filter(o => low(o.text).includes(want));
      const names = opts.map(o => norm(o.text) || o.value);
      if (m.length !== 1) return {ok: false, options: names, n: m.length};
      return {ok: true, el: m[0], disabled: m[0].disabled || !!(m[0].parentElement && m[0].parentElement.disabled), multiple: el.multiple, selected: m[0].selected};
    }
    case 'selectFallback': {
      const o = el; const s = o.closest('select');
      o.selected = true;
      s.dispatchEvent(new Event('input', {bubbles: true}));
      s.dispatchEvent(new Event('change', {bubbles: true}));
      return {ok: true};
    }
    case 'isFileInput':
      return {ok: el.localName === 'input' && el.type === 'file', kind: kindOf(el)};
    case 'pageSize': {
      const d = document.documentElement, b = document.body || d;
      return {w: Math.max(d.scrollWidth, b.scrollWidth), h: Math.max(d.scrollHeight, b.scrollHeight), iw: window.innerWidth, ih: window.innerHeight};
    }
    case 'controls': {
      // For tests: the visible interactive elements, counted independently
      // of the outline.
      const sel = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[contenteditable=""],[contenteditable=true],[onclick],' +
        [...CTRL_ROLES].map(r => '[role=' + r + ']').join(',');
      return [...document.querySelectorAll(sel)].filter(e => visible(e)).length;
    }
  }
  throw new Error('unknown op ' + op);
}
