// flask_marmeon's browser module: keeps the head current on client-side visits.
// The server writes the head once (ARCHITECTURE.md, "The head in the browser"):
// a page's own [data-marmeon] elements are its head, and only without APP_URL
// a small [data-marmeon-data] script lists the elements the server left out for
// a relative URL, each with its place. On every visit (htmx boosted swaps, Turbo
// Drive renders, back and forward) the module reads the incoming document and
// brings the head to it. window.marmeon = {apply, resolveUrl} serves any other
// router. No dependencies.

const doc = document
const MANAGED = ":scope>[data-marmeon]"
const DATA = ":scope>script[data-marmeon-data]"
// The first document's APP_URL origin: visits do not carry it.
const base = doc.head.querySelector('meta[name="marmeon:app-url"]')?.content || location.origin
const dev = !!doc.querySelector("script[data-marmeon-dev]")
const warn = (message) => dev && console.warn("flask_marmeon: " + message)
// The address a page is kept under, as Turbo keys its cache: without the fragment.
const here = () => location.href.split("#")[0]

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

// An element as the module compares and writes it: [tag, attributes in order
// without the nonce (whose value the browser hides), text of a title or script].
const describe = (el) => [
  el.localName,
  [...el.attributes].filter((a) => a.name != "nonce").map((a) => [a.name, a.value]),
  el.localName == "title" || el.localName == "script" ? el.textContent : "",
]
const key = ([tag, attrs, text]) =>
  JSON.stringify([tag, attrs.filter(([name]) => name != "data-marmeon"), text])

// What a page asks for: {lang, head}, its <html lang> and its managed elements
// in order, the left-out ones resolved here and put in their place (dropped
// with their group, an image's size and alt, when this policy leaves them out).
const want = (page) => {
  const h = page.head
  const shown = [...h.querySelectorAll(MANAGED)].map(describe)
  let missing = []
  try {
    const data = JSON.parse(h.querySelector(DATA)?.textContent)
    if (data.v == 2 && Array.isArray(data.missing)) missing = data.missing
  } catch {}
  const dropped = new Set()
  const found = missing.map((item, i) => {
    const group = item.group ?? "#" + i
    let attrs = Object.entries(item.attrs)
    if (item.url) {
      const raw = item.attrs[item.url]
      const href = resolveUrl(raw, base)
      if (href == null) {
        dropped.add(group)
        warn(`left out ${attrs[0].join("=")} ${JSON.stringify(raw)}: not an http(s) URL on this site`)
      }
      attrs = attrs.map(([name, value]) => [name, name == item.url ? href : value])
    }
    return [item.at, group, [item.tag, [...attrs, ["data-marmeon", ""]], ""]]
  })
  // `at` counts the elements written and left out alike.
  const head = []
  let at = 0
  let next = 0
  for (const [place, group, element] of found.sort((a, b) => a[0] - b[0])) {
    for (; at < place && next < shown.length; at++) head.push(shown[next++])
    if (!dropped.has(group)) head.push(element)
    at++
  }
  head.push(...shown.slice(next))
  return { lang: page.documentElement.getAttribute("lang"), head, ours: !!(shown.length || found.length) }
}

// Where the managed elements end: an empty text node, which no router sees
// (Turbo merges elements only), put where the first document's block ended
// (after its last element, else before its data or the module) when first
// needed.
const end = doc.createTextNode("")
let endsAt = []

// The page last applied, and every page's, for Turbo's cached snapshots.
let current
const pages = new Map()
let turn = 0

// Bring the head to `state`: keep each element that is right, write the ones
// missing, put them in order, remove the rest. Elements without data-marmeon
// (the app's own) are left alone.
const put = (state, visit) => {
  turn++
  current = state
  pages.delete(here())
  pages.set(here(), state)
  if (pages.size > 30) pages.delete(pages.keys().next().value)
  const h = doc.head
  const root = doc.documentElement
  if (visit) {
    state.lang == null ? root.removeAttribute("lang") : root.setAttribute("lang", state.lang)
    // A page's data is read once; what Turbo copied in has served.
    for (const el of h.querySelectorAll(DATA)) el.remove()
  }
  const old = [...h.querySelectorAll(MANAGED)]
  const pool = {}
  for (const el of old) (pool[key(describe(el))] ||= []).push(el)
  const nodes = []
  for (const wanted of state.head) {
    let el = pool[key(wanted)]?.shift()
    if (!el) {
      const [tag, attrs, text] = wanted
      el = doc.createElement(tag)
      for (const [name, value] of attrs) el.setAttribute(name, value)
      try {
        // Text, never HTML: no parser reads a JSON-LD block. Under Trusted
        // Types ("require-trusted-types-for 'script'") a script refuses it.
        if (text) el.textContent = text
      } catch (error) {
        warn("left out a JSON-LD block, which Trusted Types refuse: " + error.message)
        continue
      }
    }
    nodes.push(el)
  }
  if (end.parentNode != h) {
    const [node, after] = endsAt
    if (node?.parentNode != h) h.append(end)
    else after ? node.after(end) : node.before(end)
  }
  let ref = end
  for (let i = nodes.length; i--; ref = nodes[i])
    if (nodes[i].nextSibling != ref) h.insertBefore(nodes[i], ref)
  for (const el of old) if (!nodes.includes(el)) el.remove()
}

const parse = (html) => {
  try {
    return new DOMParser().parseFromString(html, "text/html")
  } catch {
    // Under Trusted Types without a default policy, as for the router itself.
    return null
  }
}

/**
 * Make the head that of a page: `page` is its HTML or a parsed Document. The
 * managed elements become the page's, `<html lang>` its lang; a page without
 * a head of ours takes ours away. Elements the app wrote itself stay. Returns
 * whether the page had a head of ours.
 */
export function apply(page) {
  const parsed = typeof page == "string" ? parse(page) : page
  if (!parsed) return false
  const state = want(parsed)
  put(state, true)
  return state.ours
}

// A whole page (it has a <head>) from htmx; a fragment leaves the head as it is.
const fromPage = (html) => /<head[\s>]/i.test(html) && apply(html)

// Turbo merges heads itself, but keeps every script it ever added and
// reorders what it keeps. Its fetched pages are read here from the response
// (the snapshot it renders has lost the elements it moved into the head by
// then), matched by their body; its cached snapshots are the pages as left.
const responses = []
const fromTurbo = async (body) => {
  const mine = ++turn
  let state
  if (body.ownerDocument == doc) state = pages.get(here())
  else
    for (const html of [...responses].reverse()) {
      const page = parse(await html)
      if (page?.body.isEqualNode(body)) {
        state = want(page)
        break
      }
    }
  if (state && mine == turn) put(state, true)
}

if (!window.marmeon) {
  const h = doc.head
  const last = [...h.querySelectorAll(MANAGED)].pop()
  endsAt = last ? [last, 1] : [h.querySelector(DATA) || [...doc.scripts].find((s) => s.src == import.meta.url)]

  current = want(doc)
  // With APP_URL the head is final as the server wrote it: nothing to do.
  if (h.querySelector(DATA)) put(current)
  else pages.set(here(), current)

  doc.addEventListener("turbo:before-fetch-response", ({ target, detail: d }) => {
    if (target.closest?.("turbo-frame")) return
    responses.push(d.fetchResponse.responseHTML.catch(() => ""))
    if (responses.length > 4) responses.shift()
  })
  // Turbo has merged the head; the body is the new page's, not yet in place.
  doc.addEventListener("turbo:before-render", ({ detail: d }) =>
    fromTurbo(d.newBody.ownerDocument == doc ? d.newBody : d.newBody.cloneNode(true)),
  )
  // A visit that was redirected ends at another address than it rendered at.
  doc.addEventListener("turbo:load", () => pages.set(here(), current))

  // htmx 2 swaps the body only: read the new page's head from its response
  // (parsed, not run), and keep each page's head with htmx's history entries.
  doc.addEventListener("htmx:afterSwap", ({ detail: d }) => d.boosted && fromPage(d.xhr.response))
  doc.addEventListener("htmx:historyItemCreated", ({ detail: d }) => (d.item.marmeon = current))
  doc.addEventListener("htmx:historyRestore", ({ detail: d }) => {
    const at = here()
    if (d.item?.marmeon) put(d.item.marmeon, true)
    else if (d.serverResponse) fromPage(d.serverResponse)
    else
      fetch(at)
        .then((r) => r.text())
        .then((html) => at == here() && fromPage(html))
  })

  window.marmeon = { apply, resolveUrl }
}
