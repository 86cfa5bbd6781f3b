// jsref.js: JavaScript reference for the wire contract (shared/DESIGN.md
// section 3), used by jsdiff_test.go. It follows the contract's text
// literally, in JavaScript terms, with no npm packages.
//
// Input (stdin): a JSON array of cases {op, s?, kind?, raw?}.
// Output (stdout): a JSON array with one {v} or {err} per case, in order.
'use strict';

const fs = require('fs');

const SCHEME = 't3-context://v1/';
const SCAN_PATTERN = /(!?)\[([^\]\n]{0,512})\]\((t3-context:\/\/v1\/[^\s)]{1,200})\)/g;
const KIND_RE = /^[a-z][a-z0-9-]{0,39}$/;
const ID_RE = /^[a-z0-9_-]{1,128}$/i;

// sanitizeLabel: DESIGN 3.4.
function sanitizeLabel(label, kind) {
  let s = label.replace(/[\[\]\\\r\n]/g, ' ');
  s = s.replace(/\s+/g, ' ');
  s = s.trim();
  if (s.length > 200) {
    s = s.slice(0, 200);
    const last = s.charCodeAt(199);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, 199);
  }
  return s === '' ? kind : s;
}

// parseHref: DESIGN 3.4.
function parseHref(href) {
  if (!href.startsWith(SCHEME)) return null;
  const parts = href.slice(SCHEME.length).split('/');
  if (parts.length !== 2) return null;
  const [kind, id] = parts;
  if (!KIND_RE.test(kind) || !ID_RE.test(id)) return null;
  return { kind, id };
}

// byteOffsets maps UTF-16 indices of text to UTF-8 byte offsets.
function byteOffsets(text) {
  const out = new Array(text.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    out[i] = b;
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length &&
             text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      out[i + 1] = b + 2; // inside a pair: not a character boundary
      b += 4;
      i++;
    } else b += 3;
  }
  out[text.length] = b;
  return out;
}

// scan: DESIGN 3.4.
function scan(text) {
  const occ = [];
  if (!text.includes('](t3-context:')) return occ;
  let offsets = null;
  SCAN_PATTERN.lastIndex = 0;
  let m;
  while ((m = SCAN_PATTERN.exec(text)) !== null) {
    const ref = parseHref(m[3]);
    if (!ref) continue;
    if (!offsets) offsets = byteOffsets(text);
    const start = m.index;
    const end = m.index + m[0].length;
    if (Buffer.byteLength(text.slice(0, start)) !== offsets[start]) throw new Error('offset table');
    occ.push({
      kind: ref.kind,
      contextId: ref.id,
      label: sanitizeLabel(m[2], ref.kind),
      image: m[1] === '!',
      start: offsets[start],
      end: offsets[end],
    });
  }
  return occ;
}

function hex8(v) {
  return (v >>> 0).toString(16).padStart(8, '0');
}

// toContextId: DESIGN 3.3.
function toContextId(p) {
  if (ID_RE.test(p)) return p;
  let s = p.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48);
  if (s === '') s = 'ctx';
  let h1 = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) {
    h1 ^= p.charCodeAt(i);
    h1 = Math.imul(h1, 0x01000193);
  }
  let h2 = 0x9dc5811c;
  for (let i = p.length - 1; i >= 0; i--) {
    h2 ^= p.charCodeAt(i);
    h2 = Math.imul(h2, 0x01000193);
  }
  return s + '-' + hex8(h1) + hex8(h2);
}

// LONE_SURROGATE finds a surrogate code unit that is not part of a pair
// (String.prototype.isWellFormed needs Node 20; this works everywhere).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

// check refuses strings that JSON cannot carry to Go intact.
function check(v) {
  if (typeof v === 'string' && LONE_SURROGATE.test(v)) throw new Error('result holds a lone surrogate');
  return v;
}

function run(c) {
  switch (c.op) {
    case 'scan': {
      const occ = scan(c.s);
      for (const o of occ) check(o.label);
      return occ;
    }
    case 'label':
      return check(sanitizeLabel(c.s, c.kind));
    case 'contextId':
      return check(toContextId(c.s));
    case 'stringify':
      // A parse failure is reported as {err}; the caller compares it with
      // the Go error.
      return check(JSON.stringify(JSON.parse(c.raw)));
    case 'trim':
      return check(c.s.trim());
    case 'utf16len':
      return c.s.length;
    case 'encodeURIComponent':
      return check(encodeURIComponent(c.s));
    case 'decodeURIComponent':
      return check(decodeURIComponent(c.s));
    default:
      throw new Error('unknown op ' + c.op);
  }
}

const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
const results = cases.map((c) => {
  try {
    return { v: run(c) };
  } catch (e) {
    return { err: String(e && e.name ? e.name + ': ' + e.message : e) };
  }
});
process.stdout.write(JSON.stringify(results));
