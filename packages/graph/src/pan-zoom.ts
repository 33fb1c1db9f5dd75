/**
 * Zoom and pan for a workflow's drawing in a scrolling viewport, shared by the editor preview
 * (packages/vscode/webview) and the playground's graph pane: `@wfkit/graph/pan-zoom`, browser
 * code beside the renderer whose drawings it shows (nothing else in the package touches the DOM).
 *
 * The drawing's labels are 11 units high (edge labels 9): at scale 1 a label is 11 CSS pixels.
 * A drawing is first fitted to the viewport, but never below that readable scale: a drawing
 * too large for it at scale 1 is shown at scale 1 and scrolls. From there the user zooms
 * (Ctrl or Cmd with the wheel, a pinch, `+` and `-`, the page's buttons) and pans (dragging,
 * the wheel, the arrow keys); `0` fits again. A new drawing of the same document keeps the
 * scale and the scroll, so the view stays put while the text is edited.
 */

/** What is kept of a view between drawings (and, in the preview, across a reload of its page). */
export interface GraphView {
  scale: number;
  left: number;
  top: number;
  /** Still as fitted, not zoomed or panned by the user: refitted when the viewport is resized. */
  fitted: boolean;
}

/** The scale at which labels are 11 px high: the least the fit goes to. */
export const READABLE_SCALE = 1;
/** The most the fit enlarges a small drawing. */
export const MAX_FIT_SCALE = 1.5;
export const MIN_SCALE = 0.1;
export const MAX_SCALE = 4;
export const ZOOM_STEP = 1.25;
export const PAN_STEP = 40;
/** Movement, in pixels, past which a press on the drawing is a drag rather than a click. */
const DRAG_THRESHOLD = 4;

export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** The scale that fits a `width` × `height` drawing into the space given, between the readable and the largest fit. */
export function fitScale(width: number, height: number, spaceWidth: number, spaceHeight: number): number {
  if (!(width > 0 && height > 0 && spaceWidth > 0 && spaceHeight > 0)) return READABLE_SCALE;
  return Math.min(MAX_FIT_SCALE, Math.max(READABLE_SCALE, Math.min(spaceWidth / width, spaceHeight / height)));
}

/** The drawing's own size, in its units (Graphviz writes `viewBox="0.00 0.00 W H"`). */
export function drawingSize(svg: SVGSVGElement): { width: number; height: number } {
  const box = (svg.getAttribute("viewBox") ?? "").trim().split(/[\s,]+/).map(Number);
  if (box.length === 4 && box[2]! > 0 && box[3]! > 0) return { width: box[2]!, height: box[3]! };
  const size = (name: string) => Number.parseFloat(svg.getAttribute(name) ?? "") || 0;
  return { width: size("width"), height: size("height") };
}

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export class PanZoom {
  private svg: SVGSVGElement | undefined;
  private size = { width: 0, height: 0 };
  private scale = READABLE_SCALE;
  private fitted = true;
  private shown = false;
  private drag: { x: number; y: number; left: number; top: number; id: number; moved: boolean } | undefined;
  private swallowClick = false;

  /**
   * @param viewport the element that scrolls
   * @param drawing the element the SVG is put in (the viewport itself, or an element inside it)
   * @param changed told of every change of the view (to show the zoom, or keep the view)
   */
  constructor(
    private readonly viewport: HTMLElement,
    private readonly drawing: HTMLElement,
    private readonly changed: (view: GraphView) => void = () => {},
  ) {
    viewport.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    viewport.addEventListener("keydown", (event) => this.key(event));
    viewport.addEventListener("pointerdown", (event) => this.pointerDown(event));
    viewport.addEventListener("pointermove", (event) => this.pointerMove(event));
    viewport.addEventListener("pointerup", (event) => this.pointerUp(event));
    viewport.addEventListener("pointercancel", (event) => this.pointerUp(event));
    // A drag that ends over a node must not also click it.
    viewport.addEventListener(
      "click",
      (event) => {
        if (!this.swallowClick) return;
        this.swallowClick = false;
        event.stopPropagation();
        event.preventDefault();
      },
      true,
    );
    viewport.addEventListener("scroll", () => this.report());
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        if (this.svg && this.fitted) this.fit();
      }).observe(viewport);
    }
  }

  get view(): GraphView {
    return { scale: this.scale, left: this.viewport.scrollLeft, top: this.viewport.scrollTop, fitted: this.fitted };
  }

  /**
   * Shows `svg` in place of the drawing shown. The first drawing is fitted (or shown as
   * `restore` says); later ones keep the scale and the scroll of the one they replace.
   */
  show(svg: SVGSVGElement, restore?: GraphView): void {
    const { scrollLeft, scrollTop } = this.viewport;
    this.size = drawingSize(svg);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.style.display = "block";
    svg.style.maxWidth = "none";
    svg.style.maxHeight = "none";
    this.svg = svg;
    if (restore && Number.isFinite(restore.scale)) {
      this.fitted = restore.fitted;
      this.resize(clampScale(restore.scale));
      this.drawing.replaceChildren(svg);
      this.scrollTo(restore.left, restore.top);
    } else if (this.shown) {
      this.resize(this.scale);
      this.drawing.replaceChildren(svg);
      this.scrollTo(scrollLeft, scrollTop);
    } else {
      this.drawing.replaceChildren(svg);
      this.fit();
    }
    this.shown = true;
    this.report();
  }

  /** Fits the drawing to the viewport, no smaller than the readable scale, scrolled to its start. */
  fit(): void {
    if (!this.svg) return;
    const space = this.space();
    this.fitted = true;
    this.resize(fitScale(this.size.width, this.size.height, space.width, space.height));
    this.scrollTo(0, 0);
    this.report();
  }

  /** Zooms by `factor` around a point of the viewport (its client coordinates; the centre by default). */
  zoomBy(factor: number, around?: { clientX: number; clientY: number }): void {
    if (!this.svg) return;
    const next = clampScale(this.scale * factor);
    if (next === this.scale) return;
    const port = this.viewport.getBoundingClientRect();
    const origin = this.origin();
    const x = around ? around.clientX - port.left - this.viewport.clientLeft : this.viewport.clientWidth / 2;
    const y = around ? around.clientY - port.top - this.viewport.clientTop : this.viewport.clientHeight / 2;
    // The drawing's point under (x, y) stays under it.
    const pointX = (this.viewport.scrollLeft + x - origin.x) / this.scale;
    const pointY = (this.viewport.scrollTop + y - origin.y) / this.scale;
    this.fitted = false;
    this.resize(next);
    this.scrollTo(pointX * next + origin.x - x, pointY * next + origin.y - y);
    this.report();
  }

  panBy(dx: number, dy: number): void {
    this.fitted = false;
    this.scrollTo(this.viewport.scrollLeft + dx, this.viewport.scrollTop + dy);
    this.report();
  }

  private resize(scale: number): void {
    this.scale = scale;
    if (!this.svg) return;
    this.svg.style.width = `${this.size.width * scale}px`;
    this.svg.style.height = `${this.size.height * scale}px`;
  }

  private scrollTo(left: number, top: number): void {
    this.viewport.scrollLeft = Math.max(0, left);
    this.viewport.scrollTop = Math.max(0, top);
  }

  /** Where the drawing starts in the viewport's scrolled content (after its padding and anything above it). */
  private origin(): { x: number; y: number } {
    if (!this.svg?.isConnected) return { x: 0, y: 0 };
    const port = this.viewport.getBoundingClientRect();
    const own = this.svg.getBoundingClientRect();
    return { x: own.left - port.left - this.viewport.clientLeft + this.viewport.scrollLeft, y: own.top - port.top - this.viewport.clientTop + this.viewport.scrollTop };
  }

  /** The room the drawing has without scrolling. */
  private space(): { width: number; height: number } {
    const style = getComputedStyle(this.viewport);
    const origin = this.origin();
    const padRight = Number.parseFloat(style.paddingRight) || 0;
    const padBottom = Number.parseFloat(style.paddingBottom) || 0;
    // A pixel spare, so that rounding never brings a scroll bar.
    return { width: this.viewport.clientWidth - origin.x - padRight - 1, height: this.viewport.clientHeight - origin.y - padBottom - 1 };
  }

  private report(): void {
    if (this.svg) this.changed(this.view);
  }

  private wheel(event: WheelEvent): void {
    // Ctrl or Cmd with the wheel (and a trackpad's pinch, which comes as Ctrl) zooms, as in
    // VS Code's image preview; the wheel alone scrolls.
    if (!(event.ctrlKey || event.metaKey) || !this.svg) return;
    event.preventDefault();
    const lines = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? this.viewport.clientHeight : 1;
    this.zoomBy(Math.exp(-event.deltaY * lines * 0.002), event);
  }

  private key(event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || !this.svg) return;
    const pan: Record<string, [number, number]> = { ArrowLeft: [-PAN_STEP, 0], ArrowRight: [PAN_STEP, 0], ArrowUp: [0, -PAN_STEP], ArrowDown: [0, PAN_STEP] };
    if (event.key === "+" || event.key === "=") this.zoomBy(ZOOM_STEP);
    else if (event.key === "-" || event.key === "_") this.zoomBy(1 / ZOOM_STEP);
    else if (event.key === "0") this.fit();
    else if (pan[event.key]) this.panBy(...pan[event.key]!);
    else return;
    event.preventDefault();
  }

  private pointerDown(event: PointerEvent): void {
    if (event.button !== 0 || !this.svg || !this.svg.contains(event.target as Node)) return;
    this.drag = { x: event.clientX, y: event.clientY, left: this.viewport.scrollLeft, top: this.viewport.scrollTop, id: event.pointerId, moved: false };
  }

  private pointerMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!drag.moved) {
      drag.moved = true;
      this.viewport.classList.add("wf-panning");
      this.viewport.setPointerCapture?.(event.pointerId);
    }
    this.fitted = false;
    this.scrollTo(drag.left - dx, drag.top - dy);
  }

  private pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    this.drag = undefined;
    if (!drag.moved) return;
    this.viewport.classList.remove("wf-panning");
    this.swallowClick = event.type === "pointerup";
    // The click that follows a drag comes at once, if at all.
    setTimeout(() => (this.swallowClick = false), 0);
    this.report();
  }
}
