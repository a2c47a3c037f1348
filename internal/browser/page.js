// page.js resolves locators and builds the page outline in one round trip
// (WebDriver "execute sync"). Package browser installs it once per
// document: it wraps this file in a function that returns run, stores a
// runner calling a fresh copy of that function in window.__seleniumFlow
// and later sends only a stub that calls the runner (see session.go).
// Everything computed here is cached for one execution only.
'use strict';

const norm = s => String(s == null ? '' : s).replace(/[\s\u00a0\u200b]+/g, ' ').trim();
// TYPO maps typographic quotes, dashes and the ellipsis to their plain
// forms: a locator typed with a straight apostrophe finds "I’m", and one
// copied from the page finds a page that uses straight quotes.
const TYPO = {'\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '\u02bc': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-', '\u2026': '...'};
const TYPO_RE = /[\u2018\u2019\u201a\u201b\u2032\u02bc\u201c-\u201f\u2033\u2010-\u2015\u2212\u2026]/g;
const fold = s => s.replace(TYPO_RE, c => TYPO[c]);
// low is the form every text, label and name is compared in: whitespace
// normalised, typography folded, lower case.
const low = s => fold(norm(s)).toLowerCase();
// squash is a cheap superset test of low: whitespace, quotes, dashes and
// dots taken out, so "I’m  sure" and "i'm sure" squash alike.
const SQUASH_RE = /[\s\u00a0\u200b'"\u2018-\u201f\u2032\u2033\u02bc\u2010-\u2015\u2212\u2026.-]+/g;
const squash = s => String(s == null ? '' : s).toLowerCase().replace(SQUASH_RE, '');
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
  const i = info(el);
  if (i.text === undefined) i.text = textOf1(el);
  return i.text;
}

function textOf1(el) {
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

// exactNames is set for one call by run's options (Session.SetExactNames):
// while the page shows a typed secret, names, labels and option texts
// match only as a whole, so that a match says nothing of a fragment.
let exactNames = false;

// pick keeps the elements one of whose strings equals the needle
// (case-insensitive, whitespace-normalised) or, when none does, those one
// of whose strings contains it (not under exactNames).
function pick(els, strings, needle) {
  const ex = [], part = [];
  for (const el of els) {
    let e = false, p = false;
    for (const s of strings(el)) {
      const l = low(s);
      if (l === needle) { e = true; break; }
      if (!exactNames && l.includes(needle)) p = true;
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
  const nsq = squash(needle);
  const ex = [], part = [];
  const visit = el => {
    const t = el.localName;
    if (SKIP.has(t) || TEXT_SKIP.has(t)) return false;
    if (t === 'input') return false;
    if (!squash(el.textContent).includes(nsq)) return false;
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
    return visibleFirst(pool, a => pick(a, el => [nameOf(el) || (role === 'listitem' ? textOf(el) : '')], needle));
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
  if (n === 0) { const e = new LocErr(depth, 0, nth, false, ''); e.sugg = nearest(loc, root); throw e; }
  if ((nth === 0 && n > 1) || nth > n) throw new LocErr(depth, n, nth, m.hidden, '');
  if (m.hidden && !allowHidden) throw new LocErr(depth, n, nth, true, '');
  return m.els[nth ? nth - 1 : 0];
}

// countOf counts the visible elements a locator matches (nth ignored; Go
// applies it). A within that does not resolve is reported as within; with
// near, a locator matching nothing comes with the nearest candidates.
function countOf(loc, near) {
  let root;
  try { root = resolveRoot(loc, 0); } catch (e) { if (e instanceof LocErr) return {n: 0, hidden: 0, within: fail(e)}; throw e; }
  const m = matchAll(loc, root);
  const r = m.hidden ? {n: 0, hidden: m.els.length} : {n: m.els.length, hidden: 0};
  if (near && !m.els.length) r.sugg = nearest(loc, root);
  return r;
}

// ---- nearest candidates ------------------------------------------------------

// Similarity is the Dice coefficient of character trigrams of the folded,
// lower-cased strings: cheap, and kind to typos, reordered words and
// missing punctuation. A long text is compared by its best window of as
// many words as the needle has.
const NEAR_MIN = 0.45;
// OTHER_ROLE is taken off a candidate of another role than the one asked
// for: a link named "Edit" for a button "Edit" is suggested, a textbox
// "Notes" for a button "Nope" is not.
const OTHER_ROLE = 0.2;
const NEAR_MAX = 3;

function grams(s) {
  const g = new Map();
  const t = ' ' + s + ' ';
  for (let i = 0; i + 3 <= t.length; i++) { const k = t.slice(i, i + 3); g.set(k, (g.get(k) || 0) + 1); }
  return g;
}
function gramCount(g) { let n = 0; for (const c of g.values()) n += c; return n; }
function overlap(a, b) { let n = 0; for (const [k, c] of a) { const d = b.get(k); if (d) n += Math.min(c, d); } return n; }

// editSim is 1 minus the edit distance over the longer length: what
// trigrams miss in short words ("Edt" for "Edit"). Only short strings are
// compared so.
function editSim(a, b) {
  if (a.length > 40 || b.length > 40) return 0;
  let prev = Array.from({length: b.length + 1}, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  const sim = 1 - prev[b.length] / Math.max(a.length, b.length, 1);
  return sim >= 0.6 ? sim : 0; // below that, two strings share too little to suggest
}

// closest scores candidates {s, mk, long, bonus} against needle and returns
// the best few as {show, loc}: show is the candidate or, for a long one,
// its best window; mk makes the locator that finds it.
function closest(needle, cands, k) {
  const nd = low(needle);
  if (!nd) return [];
  const A = grams(nd), an = gramCount(A);
  const words = nd.split(' ').length;
  const scored = [];
  for (const c of cands) {
    const cs = low(c.s);
    if (!cs) continue;
    let score = 0, show = c.s;
    if (c.long && cs.length > nd.length * 2 + 10) {
      if (overlap(A, grams(cs)) / an < NEAR_MIN) continue;
      const ws = norm(c.s).split(' ');
      for (let i = 0; i === 0 || i + words <= ws.length; i++) {
        const win = ws.slice(i, i + words).join(' ');
        const G = grams(low(win));
        const sc = Math.max(2 * overlap(A, G) / (an + gramCount(G)), editSim(nd, low(win)));
        if (sc > score) { score = sc; show = win; }
      }
    } else {
      const B = grams(cs);
      score = Math.max(2 * overlap(A, B) / (an + gramCount(B)), editSim(nd, cs));
    }
    score += c.bonus || 0;
    if (score >= NEAR_MIN) scored.push({score, show, c});
  }
  scored.sort((a, b) => b.score - a.score);
  const out = [], seen = new Set();
  for (const x of scored) {
    const loc = x.c.mk ? x.c.mk(clip(x.show, NAME_MAX)) : null;
    const key = loc ? locString(loc) : low(x.show);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({show: x.show, loc});
    if (out.length === k) break;
  }
  return out;
}

// pageTexts: the visible texts under root, one per block (so that
// "I'm <b>sure</b>" reads as one), at most 1500 and 400 characters each.
function pageTexts(root) {
  const out = [], seen = new Set();
  const start = root === document ? document.body : root;
  if (!start) return out;
  const w = document.createTreeWalker(start, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n && out.length < 1500; n = w.nextNode()) {
    if (!n.data.trim()) continue;
    let p = n.parentElement;
    while (p && p !== start && p.parentElement && getComputedStyle(p).display === 'inline') p = p.parentElement;
    if (!p || seen.has(p) || SKIP.has(p.localName) || TEXT_SKIP.has(p.localName)) continue;
    seen.add(p);
    if (!visible(p)) continue;
    const s = norm(p.innerText);
    if (s) out.push(s.slice(0, 400));
  }
  for (const i of start.querySelectorAll('input[type=submit],input[type=button],input[type=reset]')) if (visible(i) && i.value) out.push(norm(i.value));
  return out;
}

// nearest suggests up to three locators of the same kind as loc that find
// something close to what loc asked for under root.
function nearest(loc, root) {
  try {
    const cands = [];
    const here = el => inRoot(root, el) && visible(el);
    let needle = '';
    if (loc.text) {
      needle = loc.text;
      for (const s of pageTexts(root)) cands.push({s, long: true, mk: t => ({text: t})});
    } else if (loc.label) {
      needle = loc.label;
      for (const el of labelables()) if (here(el)) for (const l of labelsOf(el)) cands.push({s: l, mk: t => ({label: t})});
    } else if (loc.role && loc.name) {
      // Same role first; a control of another role with a close name
      // (a link where a button was asked for) comes next.
      needle = loc.name;
      const role = loc.role.trim().toLowerCase();
      for (const el of everything()) {
        const r = roleOf(el);
        if (!r || (r !== role && !CTRL_ROLES.has(r)) || !here(el)) continue;
        const n = nameOf(el);
        // Names from content (a row's) are long: compared by window.
        if (n) cands.push({s: n, long: true, bonus: r === role ? 0 : -OTHER_ROLE, mk: t => ({role: r, name: t})});
      }
    }
    return closest(needle, cands, NEAR_MAX).map(x => locString(x.loc));
  } catch (e) {
    return [];
  }
}

// ---- locator strings (same syntax as Locator.String in Go) -----------------

const q = s => JSON.stringify(s);
const bare = s => /^[^\s\u0085"()]+$/.test(s) ? s : q(s); // no space of Go's unicode.IsSpace either
function locString(l) {
  let s = '';
  if (l.css) s = 'css:' + bare(l.css);
  else if (l.xpath) s = 'xpath:' + bare(l.xpath);
  else if (l.text) s = 'text:' + q(l.text);
  else if (l.label) s = 'label:' + q(l.label);
  // link:"Sign in" is short for role:link name:"Sign in" (locator.go).
  else if (l.role) s = l.name && KNOWN_ROLES.has(l.role) ? l.role + ':' + q(l.name) : 'role:' + l.role + (l.name ? ' name:' + q(l.name) : '');
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
  if (window.__sfSecretFields && window.__sfSecretFields.has(el)) return true;
  if (el.type === 'password') return true;
  const ac = (el.getAttribute('autocomplete') || '').toLowerCase();
  if (/current-password|new-password|one-time-code|cc-number|cc-csc/.test(ac)) return true;
  const id = ((el.getAttribute('name') || '') + ' ' + (el.id || '')).toLowerCase();
  return /passw|pwd|secret|token|otp|cvv|cvc|api.?key/.test(id);
}

// filled describes a secret field that holds a value: how full, never
// what with.
function filled(el) {
  const n = Array.from(el.value).length;
  return 'filled (' + n + (n === 1 ? ' character)' : ' characters)');
}

function states(el) {
  const a = [];
  const t = el.localName;
  if (t === 'input') {
    const ty = el.type;
    if (ty === 'checkbox' || ty === 'radio') { if (el.checked) a.push('checked'); }
    else if (ty === 'file') { if (el.files && el.files.length) a.push('file:' + q(clipShow([...el.files].map(f => f.name).join(', '), 60))); }
    else if (ty === 'button' || ty === 'submit' || ty === 'reset' || ty === 'image') { /* value is the name */ }
    else if (secret(el)) { if (el.value) a.push(filled(el)); }
    else if (el.value) a.push('value:' + q(clipShow(norm(el.value), 40)));
  } else if (t === 'textarea') {
    if (secret(el)) { if (el.value) a.push(filled(el)); }
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

// ---- choosing stable locators ----------------------------------------------

// generatedId: an id or test id that looks made up by a framework or a
// random generator, and so is likely to change on the next render: React's
// ":r1:", "ember123", "react-select-5-input", base64 such as "pY4JQAQ=",
// long hex, UUIDs, long numbers.
function generatedId(id) {
  if (!id) return true;
  if (/[:=+\/\s]/.test(id)) return true;
  if (/\d{4,}/.test(id)) return true;
  if (/^(ember|ext-|gwt-|yui_|j_id|jquery|ui-id-|mui-|radix-|headlessui-|react-select-|downshift-|rc-|el-|cdk-|mat-|ng-|tippy-|uid|__)\S*\d/i.test(id)) return true;
  // nanoid and kin use - and _ too, where no person puts them: doubled,
  // last, or between digits.
  if (/\d/.test(id) && /[-_]{2}|[-_]$|\d[-_]\d/.test(id)) return true;
  // The whole id is judged as well as each part.
  for (const tok of [id.replace(/[-_.]/g, '')].concat(id.split(/[-_.]/))) {
    if (tok.length >= 8 && /^[0-9a-f]+$/i.test(tok) && /\d/.test(tok)) return true; // hex
    // Random letters and digits: a digit between letters with mixed case
    // (pY4JQAQ), or many changes between letters and digits (a8f3k2).
    if (tok.length >= 5) {
      const mixed = /[a-z]/.test(tok) && /[A-Z]/.test(tok) && /[A-Za-z]\d+[A-Za-z]/.test(tok);
      const flips = (tok.match(/(?=[A-Za-z]\d|\d[A-Za-z])/g) || []).length;
      if (mixed || flips >= 3) return true;
    }
    // A run of digits inside letters (zts13umyi, PS419CNYX), or mixed
    // case with several digits (6819fWou): no word is spelled so.
    if (tok.length >= 7 && /[A-Za-z]\d{2,}[A-Za-z]{2,}/.test(tok)) return true;
    if (tok.length >= 8 && /[a-z]/.test(tok) && /[A-Z]/.test(tok) && (tok.match(/\d/g) || []).length >= 3) return true;
  }
  return false;
}

const TEST_ATTRS = ['data-testid', 'data-test', 'data-test-id', 'data-qa', 'data-cy'];
const cssValue = v => /^[A-Za-z_][\w-]*$/.test(v) ? v : q(v);

// attrCands: the locators from attributes made to be stable: a test id,
// then a stable id, then a form field's name.
function attrCands(el) {
  const out = [];
  for (const a of TEST_ATTRS) {
    const v = el.getAttribute(a);
    if (v && !generatedId(v)) { out.push({css: '[' + a + '=' + cssValue(v) + ']'}); break; }
  }
  if (el.id && !generatedId(el.id)) out.push({css: '#' + CSS.escape(el.id)});
  const n = el.getAttribute('name');
  if (n && isField(el) && !generatedId(n)) out.push({css: el.localName + '[name=' + cssValue(n) + ']'});
  return out;
}

// semanticCands: the locators a person would use: label, role and name,
// text.
function semanticCands(el) {
  const cands = [];
  if (labelable(el)) { const l = labelsOf(el)[0]; if (l) cands.push({label: clip(l, NAME_MAX)}); }
  const r = roleOf(el);
  if (r && CTRL_ROLES.has(r)) { const n = nameOf(el); if (n) cands.push({role: r, name: clip(n, NAME_MAX)}); }
  if (!isField(el)) { const tx = norm(el.innerText); if (tx && tx.length <= NAME_MAX) cands.push({text: tx}); }
  return cands;
}

// unique: the locator matches el (or, for text, an element inside el)
// alone under root, among elements as visible as el.
function unique(c, el, root, inside) {
  const m = matchAll(c, root);
  if (m.hidden !== !visible(el) || m.els.length !== 1) return false;
  return m.els[0] === el || (inside && el.contains(m.els[0]));
}

// containerLoc: a locator that finds a container (a table row, list item,
// form, region …) alone on the page, for use as within; null when there is
// none. Rows and list items are found by a text in them that no other has.
function containerLoc(el) {
  const i = info(el);
  if (i.cloc !== undefined) return i.cloc;
  i.cloc = null;
  for (const c of attrCands(el)) if (unique(c, el, document, false)) return (i.cloc = c);
  const r = roleOf(el);
  if (!r) return null;
  const texts = [];
  if (r === 'row') for (const cell of el.cells || []) texts.push(textOf(cell));
  else if (r === 'listitem') for (const c of el.children) texts.push(textOf(c));
  texts.push(nameOf(el) || (r === 'listitem' ? textOf(el) : ''));
  for (const t of texts) {
    if (!t || /^[\W\d_]{0,3}$/u.test(t)) continue; // "", "1", "✓": too weak to find a row by
    const c = {role: r, name: clip(t, NAME_MAX)};
    if (unique(c, el, document, false)) return (i.cloc = c);
  }
  return null;
}

// withinLoc finds the nearest container with a locator of its own in
// which one of el's locators (or its bare role) is unique: the control
// stays addressable when rows move or are added, unlike nth or a css path.
function withinLoc(el, cands) {
  const r = roleOf(el);
  const inner = cands.concat(r && !cands.some(c => c.role) ? [{role: r}] : []);
  if (!inner.length) return null;
  let a = el.parentElement;
  for (let hops = 0; a && a !== document.body && hops < 8; a = a.parentElement, hops++) {
    if (!shown(a)) continue;
    const cl = containerLoc(a);
    if (!cl) continue;
    for (const c of inner) if (unique(c, el, a, !!c.text)) return Object.assign({}, c, {within: cl});
  }
  return null;
}

// withinNth: el's bare role with nth inside the nearest container that has
// a locator of its own (the second unlabelled field of the "Feedback"
// form): positional, but only inside that container.
function withinNth(el) {
  const r = roleOf(el);
  if (!r) return null;
  const hidden = !visible(el);
  for (let a = el.parentElement, hops = 0; a && a !== document.body && hops < 8; a = a.parentElement, hops++) {
    const cl = shown(a) && containerLoc(a);
    if (!cl) continue;
    const m = matchAll({role: r}, a);
    const i = m.els.indexOf(el);
    if (m.hidden === hidden && i >= 0) return {role: r, nth: i + 1, within: cl};
  }
  return null;
}

// cssPath: the last resort, a css path anchored at the nearest ancestor
// with a stable id or test id.
function cssPath(el) {
  const parts = [];
  let e = el;
  while (e && e.nodeType === 1 && e !== document.documentElement) {
    if (e !== el) {
      const a = attrCands(e).find(c => c.css[0] === '[' || c.css[0] === '#');
      if (a && document.querySelectorAll(a.css).length === 1) { parts.unshift(a.css); break; }
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

// preferNth is set while the controls of a long table are listed: they are
// grouped into nth ranges (role:button name:"Edit" nth:1..120) instead of
// one within locator per row.
let preferNth = false;

// locatorFor chooses the locator the outline shows for an element, the
// most stable first: a test id, a stable id or field name, then label,
// role+name and text, each when it matches the element alone; then one of
// those within a container (a row found by its text); then nth; a css path
// only when nothing else finds it.
function locatorFor(el) {
  for (const c of attrCands(el)) if (unique(c, el, document, false)) return {loc: c, nth: 0};
  const cands = semanticCands(el);
  for (const c of cands) if (unique(c, el, document, !!c.text)) return {loc: c, nth: 0};
  if (!preferNth) { const w = withinLoc(el, cands); if (w) return {loc: w, nth: 0}; }
  const hidden = !visible(el);
  const hits = c => { const m = matchAll(c, document); return m.hidden !== hidden ? [] : m.els; };
  for (const c of cands) {
    if (c.text) continue;
    const i = hits(c).findIndex(e => e === el || el.contains(e));
    if (i >= 0) return {loc: c, nth: i + 1};
  }
  if (!preferNth) { const w = withinNth(el); if (w) return {loc: w, nth: 0}; }
  else {
    // An unnamed control of a long table or list: its role and nth, which
    // group into one range with its kin.
    const r = roleOf(el);
    const i = r && CTRL_ROLES.has(r) ? hits({role: r}).indexOf(el) : -1;
    if (i >= 0) return {loc: {role: r}, nth: i + 1};
  }
  const c = {css: cssPath(el)};
  const i = hits(c).indexOf(el);
  return {loc: c, nth: hits(c).length > 1 && i >= 0 ? i + 1 : 0};
}

// locObj is a locator as the JSON object the tools take.
function locObj(loc, nth) {
  const o = {};
  for (const k of ['css', 'xpath', 'text', 'label', 'role', 'name']) if (loc[k]) o[k] = loc[k];
  if (nth || loc.nth) o.nth = nth || loc.nth;
  if (loc.within) o.within = locObj(loc.within, 0);
  return o;
}

const LANDMARK_WORDS = {banner: 'header', navigation: 'nav', main: 'main', complementary: 'aside', contentinfo: 'footer',
  form: 'form', search: 'search', region: 'region', dialog: 'dialog', alertdialog: 'dialog', group: 'group'};

function landmarkName(el, role) {
  let n = nameOf(el);
  if (!n && role === 'form') n = [el.getAttribute('name'), el.id].find(v => v && !generatedId(v)) || '';
  return n;
}

const MAX_LINES = 3000;
// NAME_MAX is the longest name or label a locator carries (a longer one is
// cut at a word: the locator still matches, by substring); headings show
// as much. TEXT_MAX is how much of a paragraph the outline shows.
const NAME_MAX = 80;
const TEXT_MAX = 200;
const TEXT_RUN = 120;
const ROW_MAX = 160;
const TABLE_ROWS_FULL = 10;
const TABLE_ROWS_SHOWN = 3;
// FRAME_DEPTH is how deep same-origin frames are outlined.
const FRAME_DEPTH = 2;

// outline builds the outline of root. o.frameDepth is how many frames deep
// this document is; frames at FRAME_DEPTH are listed but not opened.
function outline(root, withinStr, o) {
  o = o || {};
  const frameDepth = o.frameDepth || 0;
  const out = [];
  let cut = false;
  // cutShow shortens text shown to the reader, noting that something was
  // cut so the outline says once how to read it whole.
  const cutShow = (s, n) => { if (s.length > n) cut = true; return clipShow(s, n); };
  const push = line => out.push(line);
  const hov = hoverReveals();
  const ctl = (el, d, hidden, hoverBy) => {
    if (!hidden && !visible(el)) return false;
    const {loc, nth} = locatorFor(el);
    let st = states(el);
    // Grouped controls share one line: the hover is said in words.
    if (hoverBy && preferNth) st += ' (hidden until hover: hover its row or item first)';
    else if (hoverBy) st += ' (hidden until hover: hover {"locator":' + JSON.stringify(locObj(hoverTarget(hoverBy), 0)) + '})';
    else if (hidden) st += ' hidden';
    // A locator from an attribute says nothing of what the control is:
    // its name follows.
    let nm = '';
    if (loc.css) { const n = nameOf(el) || labelsOf(el)[0] || ''; if (n) nm = ' ' + q(cutShow(n, NAME_MAX)); }
    push({d, k: 'ctl', kind: kindOf(el), base: locString(loc), nth, nm, st});
    return true;
  };
  // hoverList lists the controls of el, which shows only while container
  // is hovered.
  const hoverList = (el, d, container) => {
    for (const c of [el, ...el.querySelectorAll('*')]) {
      if (isControl(c) && !SKIP.has(c.localName)) ctl(c, d, true, container);
    }
  };

  // mode 'all' emits structure, text and controls; 'ctl' only controls.
  const node = (el, d, mode) => {
    const t = el.localName;
    if (SKIP.has(t)) return;
    const hc = hov.get(el);
    if (hc) { hoverList(el, d, hc); return; }
    if (t === 'input' && el.type === 'file' && !visible(el)) {
      // Pages often hide the file input behind a styled button; Upload
      // accepts hidden file inputs, so they are listed.
      if (el.parentElement && shown(el.parentElement)) ctl(el, d, true);
      return;
    }
    if (!shown(el)) return;
    if (t === 'svg') { if (isControl(el)) ctl(el, d); return; }
    if (t === 'iframe' || t === 'frame') { if (visible(el)) frame(el, d); return; }
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
      // A heading that is one link says so on one line: h1 link:"Home".
      const at = out.length;
      if (s && !ownText(el)) {
        kids(el, d, 'ctl');
        if (out.length === at + 1 && out[at].k === 'ctl' && !out[at].nm) { out[at].kind = 'h' + lvl; return; }
        out.splice(at);
      }
      if (s) push({d, k: 'head', s: 'h' + lvl + ' ' + q(cutShow(s, NAME_MAX))});
      kids(el, d + 1, 'ctl');
      return;
    }
    if (t === 'table' && role === 'table' && !layoutTable(el)) { table(el, d); return; }
    if (role === 'list') { list(el, d); return; }
    if (role === 'alert' || role === 'status' || role === 'log') {
      const s = textOf(el);
      if (s) push({d, k: 'misc', s: role + ' ' + q(cutShow(s, TEXT_MAX))});
      kids(el, d + 1, 'ctl');
      return;
    }
    const lw = LANDMARK_WORDS[role];
    if (lw && (role !== 'group' || t === 'fieldset' || el.getAttribute('role') === 'group')) {
      const n = landmarkName(el, role);
      let s = lw + (n ? ' ' + q(cutShow(n, NAME_MAX)) : '');
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
      // The controls' own words are on their lines below: the text line
      // keeps the rest ("Signed in as ada. Profile / Log out" with two
      // links is text "Signed in as ada.").
      const s = textBesideControls(el);
      if (s) push({d, k: 'text', s, long: s.length > TEXT_MAX});
      kids(el, d + 1, 'ctl');
      return;
    }
    kids(el, d, 'all');
  };
  const kids = (el, d, mode) => {
    for (const c of el.children) { if (out.length > MAX_LINES) return; node(c, d, mode); }
  };

  // frame lists an iframe with the locator switch_frame takes; a
  // same-origin frame's content is outlined below it by a copy of this
  // script run in the frame's own window.
  const frame = (el, d) => {
    const loc = frameLoc(el);
    const n = el.getAttribute('title') || el.getAttribute('aria-label') || el.getAttribute('name') || '';
    const head = 'iframe ' + locString(loc) + (n ? ' ' + q(cutShow(norm(n), NAME_MAX)) : '');
    const sw = 'switch_frame {"locator":' + JSON.stringify(locObj(loc, 0)) + '}';
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { doc = null; }
    if (!doc) { push({d, k: 'misc', s: head + ' cross-origin: ' + sw + ' to act inside'}); return; }
    // Until its page arrives a frame holds an empty document of its
    // parent's origin: neither its origin nor its content is known yet.
    const src = el.getAttribute('src') || '';
    if (doc.readyState !== 'complete' || (doc.URL === 'about:blank' && src && !/^\s*about:/i.test(src))) {
      push({d, k: 'misc', s: head + ' loading: call outline again once it has loaded'});
      return;
    }
    if (frameDepth + 1 >= FRAME_DEPTH) { push({d, k: 'misc', s: head + ' same-origin: ' + sw + ', then outline'}); return; }
    const sub = outlineIn(el, frameDepth + 1);
    if (sub === null) { push({d, k: 'misc', s: head + ' same-origin: ' + sw + ', then outline'}); return; }
    const lines = sub.text.split('\n').slice(1).filter(Boolean); // the frame's page line is left out
    if (sub.cut) cut = true;
    if (!lines.length) { push({d, k: 'misc', s: head + ' same-origin, empty'}); return; }
    push({d, k: 'misc', s: head + ' same-origin; these locators work after ' + sw + ':'});
    for (const l of lines) push({d: d + 1, k: 'raw', s: l});
  };

  const table = (el, d) => {
    const rows = [...el.rows].filter(r => shown(r));
    let head = el.tHead ? [...el.tHead.rows].filter(r => shown(r)) : [];
    if (!head.length && rows.length && [...rows[0].cells].every(c => c.localName === 'th')) head = [rows[0]];
    const body = rows.filter(r => !head.includes(r));
    const cols = head.length ? [...head[head.length - 1].cells].map(c => clipShow(norm(c.textContent), 20)) : [];
    const name = nameOf(el);
    let s = 'table' + (name ? ' ' + q(cutShow(name, NAME_MAX)) : '') + ' rows:' + body.length;
    if (cols.length) s += ' cols:' + q(clipShow(cols.join('|'), 160));
    push({d, k: 'land', s});
    const rowText = r => q(cutShow([...r.cells].map(c => textOf(c)).filter(Boolean).join('|'), ROW_MAX));
    // A row whose every cell holds only a control's name (a menu laid out
    // as a table) says nothing its controls do not: they are listed alone.
    const onlyControls = r => [...r.cells].every(c => {
      const t = textOf(c);
      if (!t) return true;
      const ctl = c.querySelector('a[href], button, [role=link], [role=button]');
      return !!ctl && textOf(ctl) === t;
    });
    if (body.length <= TABLE_ROWS_FULL) {
      for (const h of head) kids(h, d + 1, 'ctl');
      for (const r of body) {
        if (onlyControls(r)) { kids(r, d + 1, 'ctl'); continue; }
        push({d: d + 1, k: 'row', s: 'row ' + rowText(r)});
        kids(r, d + 2, 'ctl');
      }
      return;
    }
    for (const r of body.slice(0, TABLE_ROWS_SHOWN)) push({d: d + 1, k: 'row', s: 'row ' + rowText(r)});
    push({d: d + 1, k: 'misc', s: '… ' + (body.length - TABLE_ROWS_SHOWN) + ' more rows; for one row\'s controls use within:(row:"<text in the row>") or nth'});
    grouped(el, d + 1);
  };

  // grouped lists every control of a long table or list grouped by
  // locator: the nth of a group's members are listed as ranges.
  const grouped = (el, d) => {
    const at = out.length;
    const was = preferNth;
    preferNth = true;
    try { kids(el, d, 'ctl'); } finally { preferNth = was; }
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

  // list outlines a list as usual, unless it is long and its items repeat
  // the same controls (a to-do list, search results): then, as a long
  // table, it shows the first items and every control grouped by locator,
  // instead of one within locator per item.
  const list = (el, d) => {
    const items = [...el.children].filter(c => roleOf(c) === 'listitem' && shown(c));
    const at = out.length;
    kids(el, d, 'all');
    if (items.length <= TABLE_ROWS_FULL) return;
    const perItem = out.slice(at).filter(it => it.k === 'ctl' && it.base.includes(' within:(listitem:')).length;
    if (perItem <= TABLE_ROWS_FULL) return;
    out.splice(at);
    push({d, k: 'land', s: 'list items:' + items.length});
    for (const li of items.slice(0, TABLE_ROWS_SHOWN)) push({d: d + 1, k: 'row', s: 'item ' + q(cutShow(textOf(li), ROW_MAX))});
    push({d: d + 1, k: 'misc', s: '… ' + (items.length - TABLE_ROWS_SHOWN) + ' more items; for one item\'s controls use within:(listitem:"<text in the item>") or nth'});
    grouped(el, d + 1);
  };

  out.push({d: 0, k: 'page', s: 'page ' + q(clipShow(document.title || '', NAME_MAX)) + ' ' + location.href + (withinStr ? ' within:(' + withinStr + ')' : '')});
  if (root === document) kids(document.body || document.documentElement, 0, 'all');
  else { if (isControl(root)) ctl(root, 0); kids(root, 0, NATIVE.has(root.localName) ? 'ctl' : 'all'); }

  // Long paragraphs in a row: show the first, cut, and count the rest.
  const lines = [];
  let run = null;
  for (const it of out) {
    const longText = it.k === 'text' && it.long;
    if (run && it.d <= run.d && !(longText && it.d === run.d)) run = null;
    if (longText) {
      cut = true;
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
      const same = it.base === 'role:' + it.kind || it.base.startsWith('role:' + it.kind + ' ') || it.base.startsWith(it.kind + ':"');
      s = (same ? '' : it.kind + ' ') + it.base + (it.nth ? ' nth:' + it.nth : '') + it.nm + it.st;
    } else if (it.k === 'text') {
      // The first of several long paragraphs in a row shows less: the
      // rest are only counted, and read_text reads them all.
      s = 'text ' + q(it.long ? clipShow(it.s, it.more ? TEXT_RUN : TEXT_MAX) : it.s);
      if (it.more) s += ' (+' + it.more + ' more paragraphs)';
    } else s = it.s;
    text.push('  '.repeat(it.d) + s);
  }
  if (out.length > MAX_LINES) text.push('… outline cut at ' + MAX_LINES + ' lines; call outline with within to see one part');
  else if (cut && !frameDepth) text.push('… marks cut text; read_text {"locator":…} reads an element\'s text whole, e.g. {"text":"<its first words>"}');
  return {text: text.join('\n'), cut};
}

// outlineIn outlines a same-origin frame's document by running a copy of
// this script in the frame's own window (its document, location and
// globals are the frame's). The copy is made from fresh, the function
// session.go's install script wraps this file in; without it (or when the
// frame forbids it) the frame is only listed. null when that cannot be
// done.
function outlineIn(frameEl, depth) {
  try {
    /* global fresh */
    if (typeof fresh !== 'function') return null;
    const w = frameEl.contentWindow;
    const r = w.Function('return (' + fresh.toString() + ')')()()('outline', {frameDepth: depth}, null);
    return r && r.ok ? {text: String(r.text), cut: !!r.cut} : null;
  } catch (e) {
    return null;
  }
}

// frameLoc: the locator switch_frame takes for an iframe.
function frameLoc(el) {
  const t = el.localName;
  const cands = attrCands(el);
  const n = el.getAttribute('name');
  if (n && !generatedId(n)) cands.push({css: t + '[name=' + cssValue(n) + ']'});
  const ti = el.getAttribute('title');
  if (ti) cands.push({css: t + '[title=' + cssValue(ti) + ']'});
  for (const c of cands) if (unique(c, el, document, false)) return c;
  const all = matchAll({css: t}, document).els;
  const i = all.indexOf(el);
  return all.length > 1 && i >= 0 ? {css: t, nth: i + 1} : {css: t};
}

// ---- controls shown on hover ------------------------------------------------

// hoverReveals finds the elements a :hover rule of the page's style sheets
// shows (display, visibility or opacity) while they are hidden now, each
// with the element to hover. Style sheets of other origins cannot be read
// and are skipped.
function hoverReveals() {
  const found = new Map();
  const rules = [];
  const collect = list => {
    for (const r of list) {
      if (r.selectorText === undefined && r.cssRules) { collect(r.cssRules); continue; } // @media, @supports
      if (!r.selectorText || !r.selectorText.includes(':hover')) continue;
      const st = r.style;
      const dsp = st.getPropertyValue('display'), vis = st.getPropertyValue('visibility'), op = st.getPropertyValue('opacity');
      if ((dsp && dsp !== 'none') || vis === 'visible' || (op && parseFloat(op) > 0)) rules.push(r.selectorText);
    }
  };
  for (const sh of document.styleSheets) { try { collect(sh.cssRules); } catch (e) { /* another origin */ } }
  for (const text of rules) {
    for (const sel of splitSelectors(text)) {
      const i = sel.indexOf(':hover');
      if (i < 0) continue;
      // The container is the compound holding :hover; what it reveals is
      // the whole selector without :hover.
      let j = i + 6;
      while (j < sel.length && !/[\s>+~]/.test(sel[j])) j++;
      const contSel = (sel.slice(0, i) + sel.slice(i + 6, j)).replace(/:hover/g, '').trim();
      const revSel = sel.replace(/:hover/g, '').trim();
      // A sibling combinator after it reveals something outside it: not
      // followed (the hovered element is looked for among ancestors).
      if (!contSel || /[+~]/.test(sel.slice(j))) continue;
      let els;
      try { els = document.querySelectorAll(revSel); } catch (e) { continue; }
      for (const el of els) {
        if (found.has(el) || !hiddenNow(el)) continue;
        const c = el.parentElement && el.parentElement.closest(contSel);
        if (c && visible(c)) found.set(el, c);
      }
    }
  }
  return found;
}

// hiddenNow: not displayed, visibility:hidden or fully transparent.
function hiddenNow(el) {
  if (!visible(el)) return true;
  return !!(el.checkVisibility && !el.checkVisibility({opacityProperty: true}));
}

// splitSelectors splits a selector list at its top-level commas.
function splitSelectors(text) {
  const out = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) { out.push(text.slice(start, i)); start = i + 1; }
  }
  out.push(text.slice(start));
  return out.map(s => s.trim()).filter(Boolean);
}

// hoverTarget: a locator of something to hover so that container is
// hovered: the container itself, or a text in it found alone on the page.
function hoverTarget(container) {
  const i = info(container);
  if (i.hover) return i.hover;
  let loc = containerLoc(container);
  if (!loc && isControl(container)) loc = locatorFor(container).loc;
  if (!loc) {
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(), k = 0; n && k < 50 && !loc; n = walker.nextNode(), k++) {
      const p = n.parentElement;
      const t = norm(n.data);
      if (!t || !p || !visible(p)) continue;
      const c = {text: clip(t, NAME_MAX)};
      const m = matchAll(c, document);
      if (!m.hidden && m.els.length === 1 && container.contains(m.els[0])) loc = c;
    }
  }
  if (!loc) loc = {css: cssPath(container)};
  i.hover = loc;
  return loc;
}

// ownText: the element's text outside the controls inside it, without
// punctuation.
// textBesideControls is el's visible text without its controls' text,
// and without the separators left between them.
function textBesideControls(el) {
  const parts = [];
  let cur = '';
  const walk = n => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) cur += c.data;
      else if (c.nodeType === 1 && !SKIP.has(c.localName) && shown(c)) {
        if (isControl(c)) { parts.push(cur); cur = ''; } else walk(c);
      }
    }
  };
  walk(el);
  parts.push(cur);
  // Only controls set apart by separators (a menu, breadcrumbs) leave
  // the text: a link inside a sentence is part of what it says.
  const apart = /[›»>/|·•,;:.\-–—]$/u, apartAfter = /^[›»>/|·•,;:.\-–—]/u;
  for (let i = 0; i < parts.length; i++) {
    const p = norm(parts[i]);
    if (!p) continue;
    if (i < parts.length - 1 && !apart.test(p)) return textOf(el);
    if (i > 0 && !apartAfter.test(p)) return textOf(el);
  }
  const sep = /^[\s›»>/|·•,;:\-–—]+|[\s›»>/|·•,;:\-–—]+$/gu;
  return norm(parts.map(p => norm(p).replace(sep, '')).filter(p => /[\p{L}\p{N}]/u.test(p)).join(' '));
}

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

// similar ranks the visible controls by how like the needle (what loc
// looks for) their name or label is (closest); for a text locator the
// page's texts are candidates too. With no needle or nothing close, the
// first controls of the page.
function similar(loc, k) {
  loc = loc || {};
  const needle = loc.text || loc.label || loc.name || loc.css || loc.xpath || '';
  const cands = [];
  for (const el of everything()) {
    if (!isControl(el) || !visible(el) || hiddenNow(el)) continue;
    const n = nameOf(el) || labelsOf(el)[0] || '';
    // closest keeps one candidate per locator string: the index makes
    // each control's its own.
    const i = cands.length;
    cands.push({s: n, mk: () => ({el, text: '#' + i})});
  }
  if (loc.text) {
    for (const t of pageTexts(document)) {
      const i = cands.length;
      cands.push({s: t, long: true, mk: w => ({show: w, text: '#' + i})});
    }
  }
  const ctl = el => { const p = locatorFor(el); return {role: roleOf(el) || kindOf(el), name: clip(nameOf(el) || '', NAME_MAX), locator: locString(locObj(p.loc, p.nth))}; };
  let picked = needle ? closest(needle, cands, k).map(x => x.loc.el ? ctl(x.loc.el) : {role: 'text', name: x.loc.show, locator: locString({text: x.loc.show})}) : [];
  if (!picked.length) picked = cands.slice(0, k).filter(c => c.mk().el).map(c => ctl(c.mk().el));
  return {url: location.href, title: document.title, controls: picked};
}

function fail(e) {
  if (e instanceof LocErr) return {ok: false, depth: e.depth, n: e.n, nth: e.nth, hidden: e.hidden, msg: e.msg, sugg: e.sugg || []};
  throw e;
}

// check reads what WaitFor and Assert test. With near (asked once a check
// has failed) it also finds what the page has instead: the texts closest
// to a missing text, and the nearest candidates of a locator that matches
// nothing.
function check(a) {
  const r = {ok: true, url: location.href, title: document.title};
  if (a.text) {
    const body = document.body ? low(document.body.innerText) : '';
    r.textFound = body.includes(low(a.text));
    if (a.near && !r.textFound) r.near = closest(a.text, pageTexts(document).map(s => ({s, long: true})), NEAR_MAX).map(x => x.show);
  }
  r.counts = (a.locs || []).map(l => {
    try { return countOf(l, !!a.near); } catch (e) { if (e instanceof LocErr) return {n: 0, hidden: 0, msg: e.msg}; throw e; }
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
  if (window.navigation && !window.__sfNav) { window.__sfNav = true; navigation.addEventListener('navigate', function (e) { if (!e.destination.sameDocument) window.__sfLeaving = true; }); }
  return true;
}

// exposure gathers what a check or a locator could test a typed secret
// against (Session.Exposure): from the top document when it is reachable,
// and each same-origin frame's, the URL, title and markup, the value of
// every field no secret was typed into, and the cookies and storage a
// script could read; filled says a field a secret was typed into still
// holds a value. At most max characters; cut says there was more.
function exposure(max) {
  const parts = [];
  let size = 0, cut = false, filled = false;
  const add = s => {
    if (typeof s !== 'string' || !s || cut) return;
    if (size + s.length + 1 > max) { cut = true; return; }
    parts.push(s); size += s.length + 1;
  };
  let top = window;
  try { if (window.top.document) top = window.top; } catch (e) { /* another origin: this frame and below */ }
  const seen = new Set();
  const visit = w => {
    let doc;
    try { doc = w.document; } catch (e) { return; }
    if (!doc || seen.has(doc)) return;
    seen.add(doc);
    const marked = w.__sfSecretFields;
    try { add(String(w.location.href)); } catch (e) { /* ignore */ }
    add(doc.title);
    if (doc.documentElement) add(doc.documentElement.outerHTML);
    try { add(doc.cookie); } catch (e) { /* sandboxed */ }
    for (const name of ['localStorage', 'sessionStorage']) {
      try {
        const st = w[name];
        for (let i = 0; i < st.length; i++) { const k = st.key(i); add(k); add(st.getItem(k)); }
      } catch (e) { /* storage refused */ }
    }
    for (const f of doc.querySelectorAll('input,textarea,select')) {
      if (marked && marked.has(f)) { if (f.value) filled = true; continue; }
      add(f.value);
    }
    for (let i = 0; i < w.frames.length; i++) visit(w.frames[i]);
  };
  visit(top);
  return {text: parts.join('\n'), cut, filled};
}

// pickOption finds the option of the <select> el whose text (or value)
// is option: exact first, then by substring unless names must match whole.
function pickOption(el, option) {
  if (el.localName !== 'select') return {ok: false, notSelect: true, kind: kindOf(el)};
  const opts = [...el.options];
  const want = low(option);
  let m = opts.filter(o => low(o.text) === want);
  if (!m.length) m = opts.filter(o => o.value === option);
  if (!m.length && !exactNames) m = opts.filter(o => low(o.text).includes(want));
  const names = opts.map(o => norm(o.text) || o.value);
  if (m.length !== 1) return {ok: false, options: names, n: m.length};
  return {ok: true, el: m[0], disabled: m[0].disabled || !!(m[0].parentElement && m[0].parentElement.disabled), multiple: el.multiple, selected: m[0].selected};
}

function run(op, a, el, o) {
  exactNames = !!(o && o.exact);
  switch (op) {
    case 'exposure':
      return exposure(a.max);
    case 'resolve': {
      // clear asks whether clearing the element would be a no-op; mark
      // prepares settle for the action that follows.
      let r;
      try { r = {ok: true, el: resolveOne(a.loc, 0, !!a.allowHidden)}; } catch (e) { return fail(e); }
      if (a.clear) { try { r.clearNoop = clearIsNoop(r.el); } catch (e) { r.clearNoop = false; } }
      if (a.mark) { try { r.marked = mark(); } catch (e) { r.marked = false; } }
      if (a.kind) { r.fileInput = r.el.type === 'file'; }
      // option picks a <select>'s option in the same call (Select).
      if (a.option != null) r.option = pickOption(r.el, a.option);
      return r;
    }
    case 'outline': {
      let root = document;
      if (a.within) { try { root = resolveOne(a.within, 0, false); } catch (e) { return fail(e); } }
      const r = outline(root, a.withinStr || '', {frameDepth: a.frameDepth || 0});
      return {ok: true, text: r.text, cut: r.cut};
    }
    case 'check':
      return check(a);
    case 'option':
      return pickOption(el, a.option);
    case 'selectFallback': {
      const o = el; const s = o.closest('select');
      o.selected = true;
      s.dispatchEvent(new Event('input', {bubbles: true}));
      s.dispatchEvent(new Event('change', {bubbles: true}));
      return {ok: true};
    }
    case 'markSecret':
      // A secret was typed here (Session.WriteSecret): outlines and reads
      // say the field is filled, never what it holds — not even the part a
      // maxlength kept, or its length beyond what typing showed.
      if (!window.__sfSecretFields) window.__sfSecretFields = new WeakSet();
      window.__sfSecretFields.add(el);
      return {ok: true};
    case 'isFileInput':
      return {ok: el.localName === 'input' && el.type === 'file', kind: kindOf(el)};
    case 'pageSize': {
      const d = document.documentElement, b = document.body || d;
      return {w: Math.max(d.scrollWidth, b.scrollWidth), h: Math.max(d.scrollHeight, b.scrollHeight), iw: window.innerWidth, ih: window.innerHeight};
    }
    case 'preferred': {
      // Recording (Session.Preferred): the locator outline would give the
      // element loc resolves to, and where the page is, before an action.
      let el;
      try { el = resolveOne(a.loc, 0, true); } catch (e) { return fail(e); }
      const p = locatorFor(el);
      return {ok: true, loc: locObj(p.loc, p.nth), url: location.href};
    }
    case 'similar':
      // A failed flow step (Session.Similar): the visible controls most
      // like what the step looked for, each with its outline locator.
      return similar(a.loc, a.k || 5);
    case 'generatedIds':
      // For tests: which of the ids the outline would refuse to offer.
      return a.ids.map(generatedId);
    case 'controls': {
      // For tests: the visible interactive elements, counted independently
      // of the outline.
      const sel = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[contenteditable=""],[contenteditable=true],[onclick],' +
        [...CTRL_ROLES].map(r => '[role=' + r + ']').join(',');
      return [...document.querySelectorAll(sel)].filter(e => visible(e) && !hiddenNow(e)).length;
    }
  }
  throw new Error('unknown op ' + op);
}
