/**
 * Markup the page shows from the language server (hover text rendered from Markdown, the
 * graph's SVG) quotes names from the workflow, and a share link opens someone else's
 * workflow. So only an allow-list of elements and attributes is kept, and links only to
 * http(s) pages; the page's Content Security Policy (no inline script) is the second line.
 */
const HTML_ELEMENTS = new Set(["p", "br", "hr", "code", "pre", "em", "strong", "b", "i", "a", "ul", "ol", "li", "span", "div", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "blockquote"]);
const HTML_ATTRIBUTES = new Set(["href", "title", "class"]);

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_ELEMENTS = new Set(["svg", "g", "title", "path", "polygon", "polyline", "ellipse", "circle", "rect", "line", "text", "tspan"]);
const SVG_ATTRIBUTES = new Set([
  "id", "class", "viewBox", "width", "height", "transform", "d", "points", "x", "y", "cx", "cy", "rx", "ry", "x1", "y1", "x2", "y2",
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "opacity",
  "font-family", "font-size", "font-weight", "font-style", "text-anchor", "xml:space",
]);

/** Removes every element not in `elements` (with what it holds) and every attribute not in `attributes`. */
function keepOnly(root: Element, elements: ReadonlySet<string>, attributes: ReadonlySet<string>): void {
  for (const element of Array.from(root.querySelectorAll("*"))) {
    if (!element.isConnected) continue;
    if (!elements.has(element.localName)) {
      element.remove();
      continue;
    }
    for (const attribute of Array.from(element.attributes)) {
      const kept = attributes.has(attribute.name) && (attribute.name !== "href" || /^https?:\/\//i.test(attribute.value));
      if (!kept) element.removeAttribute(attribute.name);
    }
  }
}

/** HTML (lsp-client renders the server's Markdown) with only plain formatting and web links left. */
export function sanitizeHtml(html: string): string {
  const body = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;
  keepOnly(body, HTML_ELEMENTS, HTML_ATTRIBUTES);
  for (const link of Array.from(body.querySelectorAll("a[href]"))) link.setAttribute("rel", "noopener noreferrer");
  return body.innerHTML;
}

/** The drawing as an element of this page, with only shapes, text and their looks kept; undefined when it is not SVG. */
export function importSvg(text: string): SVGSVGElement | undefined {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) return undefined;
  keepOnly(root, SVG_ELEMENTS, SVG_ATTRIBUTES);
  for (const attribute of Array.from(root.attributes)) if (!SVG_ATTRIBUTES.has(attribute.name) && !attribute.name.startsWith("xmlns")) root.removeAttribute(attribute.name);
  return document.importNode(root, true) as unknown as SVGSVGElement;
}
