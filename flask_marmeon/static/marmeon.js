// flask_marmeon's browser module: keeps the head current on every visit.
// The server writes the head and, beside it, the same head as JSON with the
// raw URLs (ARCHITECTURE.md, "The browser data"); this module applies that
// JSON after hydration and after each client-side visit (htmx boosted links,
// Turbo Drive), and exports apply() for any other router. No dependencies.

const doc = document
const head = doc.head
const DATA = "script[data-marmeon-data]"
const MANAGED = '[data-marmeon]:not([name="marmeon:app-url"])'
// The first document's APP_URL origin: visits do not carry the meta.
const appUrl = head.querySelector('meta[name="marmeon:app-url"]')?.content
// The data last applied, kept with htmx's history entries.
let current = null
// Whether that placed elements other than scripts, which Turbo merges.
let merged = false

const warn = (data, message) => data.dev && console.warn("flask_marmeon: " + message)

/**
 * Resolve a head URL as the server does: against `base` (an origin), left
 * out (null) when it does not parse, when its scheme is not http or https,
 * or when a relative value (one that does not parse on its own) lands on
 * another origin, as `//other.example/x` and `/\other.example/x` do.
 */
export function resolveUrl(value, base) {
  let url
  try {
    url = new URL(value, base)
  } catch {
    return null
  }
  if (url.protocol != "http:" && url.protocol != "https:") return null
  if (url.origin != new URL(base).origin) {
    try {
      new URL(value)
    } catch {
      return null
    }
  }
  return url.href
}

// The head data in a document's head (never its body, where no script of
// ours is), or null when the page has none.
const read = (d) => {
  const all = (d.head || d).querySelectorAll(DATA)
  const el = all[all.length - 1]
  try {
    return el && JSON.parse(el.textContent)
  } catch {
    return null
  }
}

// Compare by tag, attributes in order and text; data-marmeon and the nonce
// (which the browser hides) do not count.
const key = (tag, attrs, text) => JSON.stringify([tag, attrs, text || ""])
const keyOf = (el) => {
  const attrs = {}
  for (const a of el.attributes)
    if (a.name != "data-marmeon" && a.name != "nonce") attrs[a.name] = a.value
  return key(el.localName, attrs, el.localName == "meta" || el.localName == "link" ? "" : el.textContent)
}

/**
 * Make the head's managed elements (those with `data-marmeon`) those of a
 * page: `source` is the page's head data (the JSON that `render_head()`
 * writes), a parsed Document or the page's HTML. Elements that the app wrote
 * itself are left alone. Returns whether there was data to apply.
 */
export function apply(source) {
  let data = source
  if (typeof data == "string") data = new DOMParser().parseFromString(data, "text/html")
  if (data instanceof Document) data = read(data)
  if (!data || data.v != 1) return false
  current = data
  const base = appUrl || data.appUrl || location.origin
  const elements = []
  const dropped = new Set()
  data.head.forEach((item, i) => {
    const group = item.group ?? "#" + i
    if (item.url) {
      const raw = item.attrs[item.url]
      const href = resolveUrl(raw, base)
      if (href == null) {
        dropped.add(group)
        warn(data, "left out " + item.field + " " + JSON.stringify(raw) + ": not an http(s) URL on this site")
      }
      item = { ...item, attrs: { ...item.attrs, [item.url]: href } }
    }
    elements.push([group, item])
  })
  const old = [...head.querySelectorAll(MANAGED)]
  const pool = {}
  for (const el of old) (pool[keyOf(el)] ||= []).push(el)
  const nodes = []
  for (const [group, { tag, attrs, text }] of elements) {
    if (dropped.has(group)) continue
    let el = pool[key(tag, attrs, text)]?.shift()
    if (!el) {
      el = doc.createElement(tag)
      for (const name in attrs) el.setAttribute(name, attrs[name])
      el.setAttribute("data-marmeon", "")
      try {
        // Text, never HTML: no parser reads a JSON-LD block. Under Trusted
        // Types ("require-trusted-types-for 'script'") a script refuses it.
        if (text != null) el.textContent = text
      } catch (error) {
        warn(data, "left out a JSON-LD block, which Trusted Types refuse: " + error.message)
        continue
      }
    }
    nodes.push(el)
  }
  // Place the elements in order where the managed head starts, moving only
  // those out of place, then remove what the page no longer has.
  let ref = doc.createTextNode("")
  head.insertBefore(ref, old[0] || head.querySelector(DATA))
  const mark = ref
  for (let i = nodes.length; i--; ref = nodes[i])
    if (nodes[i].nextSibling != ref) head.insertBefore(nodes[i], ref)
  mark.remove()
  for (const el of old) if (!nodes.includes(el)) el.remove()
  merged = nodes.some((el) => el.localName != "script")
  return true
}

// The head data in <head>: the first document's, or the one that Turbo
// copied in from the page it rendered (it appends scripts that are new, and
// never removes one).
const fromHead = () => {
  const all = [...head.querySelectorAll(DATA)]
  const el = all.pop()
  if (!el) return
  if (el.applied && merged && !head.querySelector(MANAGED + ":not(script)")) {
    // No new data, and Turbo took our elements away: the page it rendered
    // has no head of ours. Turbo keeps scripts, so the JSON-LD goes here.
    for (const old of head.querySelectorAll(MANAGED)) old.remove()
    return
  }
  el.applied = true
  for (const other of all) other.remove()
  apply(read(head))
}

// A whole page (it has a <head>) without our data has no head of ours: the
// old page's goes. A fragment of a page leaves the head as it is.
const fromResponse = (html, at) => {
  try {
    at == location.href && (apply(html) || (/<head[\s>]/i.test(html) && apply({ v: 1, head: [] })))
  } catch {
    // Under Trusted Types DOMParser refuses HTML, and htmx itself cannot swap.
  }
}

fromHead()
for (const name of ["turbo:render", "turbo:load"]) doc.addEventListener(name, fromHead)
// htmx 2 swaps the body only: read the new page's head from its response
// (parsed, not run).
doc.addEventListener("htmx:afterSwap", ({ detail: d }) => d.boosted && fromResponse(d.xhr.response, location.href))
doc.addEventListener("htmx:historyItemCreated", ({ detail: d }) => current && (d.item.marmeon = current))
doc.addEventListener("htmx:historyRestore", ({ detail: d }) => {
  const at = location.href
  if (d.item?.marmeon) apply(d.item.marmeon)
  else if (d.serverResponse) fromResponse(d.serverResponse, at)
  else fetch(at).then((r) => r.text()).then((html) => fromResponse(html, at))
})

window.marmeon = { apply, resolveUrl }
