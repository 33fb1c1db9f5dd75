/**
 * Small charts for a terminal: a one-line sparkline and a block chart a few rows high, both
 * fitted to a width in columns. With `unicode` they draw with block elements (eighths of a
 * cell); without it, with plain ASCII, for logs, pipes, `TERM=dumb` and `NO_COLOR` (the
 * caller decides, with the colour decision of colors.ts).
 */

const SPARK_UNICODE = "▁▂▃▄▅▆▇█";
const SPARK_ASCII = "_.-^";
/** Partial cells from one eighth to seven eighths; a full cell is "█". */
const EIGHTHS = "▁▂▃▄▅▆▇";

/**
 * `values` fitted into at most `columns` values: unchanged when they fit, else each column the
 * mean of its share of the values (in order), so the shape survives and nothing is dropped.
 */
export function resample(values: readonly number[], columns: number): number[] {
  if (values.length <= columns) return [...values];
  const out: number[] = [];
  for (let column = 0; column < columns; column++) {
    const from = Math.floor((column * values.length) / columns);
    const to = Math.floor(((column + 1) * values.length) / columns);
    let sum = 0;
    for (let i = from; i < to; i++) sum += values[i]!;
    out.push(sum / (to - from));
  }
  return out;
}

/**
 * The lowest and highest of `values`, by a loop: spread into `Math.min`/`Math.max`, a list of
 * more than about 100,000 values overflows the call stack (a RangeError).
 */
export function rangeOf(values: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { min, max };
}

/** Where `value` falls between `min` and `max`, as a step in [0, steps - 1] (the middle when they are equal). */
function step(value: number, min: number, max: number, steps: number): number {
  if (max === min) return Math.floor((steps - 1) / 2);
  return Math.round(((value - min) / (max - min)) * (steps - 1));
}

/** One character per value (resampled to `width`), low to high. */
export function sparkline(values: readonly number[], unicode: boolean, width = values.length): string {
  const ramp = unicode ? SPARK_UNICODE : SPARK_ASCII;
  const fitted = resample(values, Math.max(1, width));
  const { min, max } = rangeOf(fitted);
  return fitted.map((value) => ramp[step(value, min, max, ramp.length)]).join("");
}

export interface BlockChartOptions {
  /** Columns for the whole chart, labels included. */
  width: number;
  /** Rows of bars. */
  height: number;
  unicode: boolean;
  /** How the axis labels (the lowest and highest value) are written. */
  format: (value: number) => string;
  /** Under the chart: the first and the last point's labels (dates), at its two ends, where they fit. */
  ends?: [string, string];
  /** Applied to the bars (a colour), not to the labels. */
  paint?: (bars: string) => string;
}

/**
 * A bar per column, from the lowest value at the bottom row to the highest at the top, with
 * the highest and lowest values labelled on the left: lines ready to print.
 */
export function blockChart(values: readonly number[], options: BlockChartOptions): string[] {
  if (!values.length) return [];
  const height = Math.max(1, options.height);
  const all = rangeOf(values);
  const top = options.format(all.max);
  const bottom = options.format(all.min);
  const labelWidth = Math.max(top.length, bottom.length);
  const plotWidth = Math.max(1, options.width - labelWidth - 2);
  const columns = resample(values, plotWidth);
  const { min, max } = rangeOf(columns);
  // Each row holds eighths of a cell (unicode) or halves (ASCII); every bar shows at least one.
  const perRow = options.unicode ? 8 : 2;
  const levels = columns.map((value) => 1 + step(value, min, max, height * perRow));
  const paint = options.paint ?? ((bars: string) => bars);
  const lines: string[] = [];
  for (let row = 0; row < height; row++) {
    const base = (height - 1 - row) * perRow;
    const cells = levels.map((level) => {
      const fill = Math.min(perRow, Math.max(0, level - base));
      if (fill === 0) return " ";
      if (fill === perRow) return options.unicode ? "█" : "#";
      return options.unicode ? EIGHTHS[fill - 1]! : ".";
    });
    const label = row === 0 ? top : row === height - 1 ? bottom : "";
    const axis = label ? (options.unicode ? "┤" : "+") : options.unicode ? "│" : "|";
    lines.push(`${label.padStart(labelWidth)} ${axis}${paint(cells.join("").trimEnd())}`);
  }
  if (options.ends) {
    const [first, last] = options.ends;
    const gap = columns.length - first.length - last.length;
    // Both ends when they fit under the bars, else the first alone, else none.
    const under = gap >= 1 ? `${first}${" ".repeat(gap)}${last}` : first.length <= columns.length ? first : "";
    if (under) lines.push(`${" ".repeat(labelWidth + 2)}${under}`);
  }
  return lines;
}
