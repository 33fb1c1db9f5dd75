/**
 * `wfkit signals list | index | history | briefing`: the Consumer Signals reads a person
 * makes at a terminal, as text fitted to its width (charts in block characters with colour,
 * plain ASCII without), or the service's answer as JSON with `--json`. Text from the service
 * reaches the terminal only through `printable`.
 */
import type { Briefing, CpixResponse, Geography, HistoryResponse, SignalSeverity, SignalsResponse } from "@wfkit/client";
import { parseCommandArgs, stringFlag, type ParsedArgs } from "../args.js";
import { painter, shouldColour, type Painter, type Style } from "../colors.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { append, extremeOf, printJson } from "../remote.js";
import { connectSignals, outputWidth, reportingSignalsRefusals } from "../signals-remote.js";
import { blockChart, resample, sparkline } from "../terminal-chart.js";
import { codePointWidth, sliceColumns } from "../text-width.js";
import { signalsSpec } from "./specs.js";

const ACTIONS = ["list", "index", "history", "briefing"] as const;
type Action = (typeof ACTIONS)[number];

/** Which flags apply to which action (the rest are shared). */
const ACTION_FLAGS: Readonly<Record<string, Action>> = { severity: "list", category: "list", periods: "list", from: "history", to: "history" };

/** Rows of the history chart. */
const CHART_HEIGHT = 8;

/**
 * The most points handed to `blockChart`, which spreads its values into `Math.max` (a
 * RangeError past ~100,000 arguments): a longer history is first averaged down to this many
 * (far more than any terminal has columns, so the bars drawn are the same to the eye).
 */
const MAX_CHART_POINTS = 16_384;

interface View {
  io: Io;
  width: number;
  /** Block characters and colour (a terminal that takes colour), or plain ASCII. */
  rich: boolean;
  paint: Painter;
}

export async function runSignals(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(signalsSpec, argv);
  const [action, ...rest] = args.positionals;
  if (!(ACTIONS as readonly string[]).includes(action ?? "") || rest.length)
    throw new UsageError("say what to read: `signals list`, `signals index`, `signals history` or `signals briefing`", "signals");
  for (const [flag, only] of Object.entries(ACTION_FLAGS))
    if (args.values[flag] !== undefined && only !== action) throw new UsageError(`--${flag} applies to \`signals ${only}\` only`, "signals");
  const width = outputWidth(args, io, "signals");
  const remote = connectSignals(args, io, "signals", "jwt");
  const rich = shouldColour(io.env, io.stdout.isTTY);
  const view: View = { io, width, rich, paint: painter(rich) };
  // Passed on as written: the client checks every parameter, and its refusal names the flag.
  const geography = stringFlag(args, "geography") as Geography | undefined;
  const { client, format } = remote;
  return reportingSignalsRefusals(io, remote, "signals", async () => {
    switch (action as Action) {
      case "list": {
        const answer = await client.signals({ geography, severity: stringFlag(args, "severity") as SignalSeverity | undefined, category: stringFlag(args, "category"), periods: periodsOf(args) });
        if (format === "json") printJson(io, answer);
        else io.stdout.write(renderSignals(answer, geography ?? "US", view));
        break;
      }
      case "index": {
        const answer = await client.cpix({ geography });
        if (format === "json") printJson(io, answer);
        else io.stdout.write(renderIndex(answer, view));
        break;
      }
      case "history": {
        const answer = await client.history({ geography, from: stringFlag(args, "from"), to: stringFlag(args, "to") });
        if (format === "json") printJson(io, answer);
        else io.stdout.write(renderHistory(answer, geography ?? "US", view));
        break;
      }
      case "briefing": {
        const answer = await client.briefing({ geography });
        if (format === "json") printJson(io, answer);
        else io.stdout.write(renderBriefing(answer, geography ?? "US", view));
        break;
      }
    }
    return 0;
  });
}

/** `--periods` as a number when it is one; anything else goes to the client as written, which refuses it. */
function periodsOf(args: ParsedArgs): number | undefined {
  const text = stringFlag(args, "periods");
  if (text === undefined) return undefined;
  return (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text) as number;
}

/** Service text made safe and cut to `columns` display columns (with an ellipsis when cut). */
function fit(text: string, columns: number, rich: boolean): string {
  const safe = printable(text);
  if (displayWidth(safe) <= columns) return safe;
  const ellipsis = rich ? "…" : "...";
  return sliceColumns(safe, 0, Math.max(0, columns - ellipsis.length)) + ellipsis;
}

/**
 * Text wrapped at spaces into lines of at most `columns` (a word longer than a line is cut),
 * the first line indented by `indent` and the rest by `hanging`. Service text is made
 * printable first; its own line breaks start new lines.
 */
function wrap(text: string, columns: number, indent = "  ", hanging = indent): string[] {
  const lines: string[] = [];
  const prefix = () => (lines.length ? hanging : indent);
  for (const paragraph of printable(text).split("\\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const room = Math.max(1, columns - prefix().length);
      if (line && displayWidth(line) + 1 + displayWidth(word) > room) {
        lines.push(prefix() + line);
        line = "";
      }
      line = line ? `${line} ${word}` : sliceColumns(word, 0, room);
    }
    if (line) lines.push(prefix() + line);
  }
  return lines;
}

function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += codePointWidth(char, width);
  return width;
}

const SEVERITY_STYLE: Readonly<Record<string, Style | Style[]>> = { high: ["bold", "red"], medium: "yellow", low: "gray" };
const words = (identifier: string) => printable(identifier.replace(/_/g, " "));
const signed = (value: number, digits = 1) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;

function renderSignals(answer: SignalsResponse, geography: string, { width, rich, paint }: View): string {
  const lines = wrap(`${geography} signals: ${answer.count}, updated ${answer.lastUpdated}`, width, "");
  if (!answer.signals.length) return lines.concat("  (none match)").join("\n") + "\n";
  const categoryWidth = Math.min(14, extremeOf(answer.signals.map((signal) => displayWidth(printable(signal.category)))));
  // Severity, category and confidence in fixed columns; the headline gets what is left.
  const room = Math.max(10, width - (2 + 6 + 2 + categoryWidth + 2 + 4 + 2));
  for (const signal of answer.signals) {
    const severity = printable(signal.severity.toUpperCase()).padEnd(6);
    const category = fit(signal.category, categoryWidth, rich).padEnd(categoryWidth);
    const confidence = `${Math.round(signal.confidence * 100)}%`.padStart(4);
    lines.push(`  ${paint.paint(SEVERITY_STYLE[signal.severity] ?? "bold", severity)}  ${category}  ${confidence}  ${fit(signal.headline, room, rich)}`);
  }
  return lines.join("\n") + "\n";
}

function renderIndex(answer: CpixResponse, { width, rich, paint }: View): string {
  const { summary } = answer;
  const arrow = summary.change > 0 ? (rich ? "▲" : "^") : summary.change < 0 ? (rich ? "▼" : "v") : "=";
  const change = `${arrow} ${signed(summary.change)} (${signed(summary.changePercent)}%)`;
  const headline = `CPIX ${printable(answer.geography)} ${summary.score.toFixed(1)}`;
  const lines =
    headline.length + change.length + words(summary.classification).length + 4 <= width
      ? [`${paint.paint("bold", headline)}  ${paint.paint(summary.change > 0 ? "red" : "green", change)}  ${words(summary.classification)}`]
      : [paint.paint("bold", headline), ...wrap(`${change}, ${summary.classification.replace(/_/g, " ")}`, width)];
  append(lines, wrap(`previous ${summary.previousScore.toFixed(1)}, data to ${summary.latestDataDate}, computed ${summary.computedAt}`, width));
  if (answer.drivers.length) {
    lines.push("Drivers:");
    const nameWidth = Math.min(24, extremeOf(answer.drivers.map((driver) => displayWidth(printable(driver.name)))));
    // Name, value, contribution and direction in fixed columns; the trend gets what is left.
    const trendRoom = Math.min(24, width - (2 + nameWidth + 2 + 14 + 2 + 6 + 2 + 8 + 2));
    for (const driver of answer.drivers) {
      const value = `${driver.value.toFixed(1)} ${printable(driver.unit)}`;
      if (trendRoom < 3) {
        // Too narrow for the table: each driver as wrapped text.
        append(lines, wrap(`${driver.name}: ${driver.value.toFixed(1)} ${driver.unit}, ${signed(driver.contribution, 2)}, ${driver.direction}`, width, "  ", "    "));
        continue;
      }
      const trend = driver.trend.length ? paint.paint("cyan", sparkline(driver.trend, rich, Math.min(trendRoom, driver.trend.length))) : "";
      const line = `  ${fit(driver.name, nameWidth, rich).padEnd(nameWidth)}  ${value.padStart(14)}  ${signed(driver.contribution, 2).padStart(6)}  ${words(driver.direction).padEnd(8)}  ${trend}`;
      lines.push(trend ? line : line.trimEnd());
    }
  }
  return lines.join("\n") + "\n";
}

function renderHistory(answer: HistoryResponse, geography: string, { width, rich, paint }: View): string {
  const lines = wrap(`CPIX ${geography} from ${answer.from} to ${answer.to}: ${answer.count} points`, width, "");
  const values = answer.history.map((point) => point.value);
  if (!values.length) return lines.concat("  (no data in this range)").join("\n") + "\n";
  const first = answer.history[0]!;
  const last = answer.history[answer.history.length - 1]!;
  append(
    lines,
    blockChart(values.length > MAX_CHART_POINTS ? resample(values, MAX_CHART_POINTS) : values, {
      width,
      height: CHART_HEIGHT,
      unicode: rich,
      format: (value) => value.toFixed(1),
      ends: [printable(first.date), printable(last.date)],
      paint: (bars) => paint.paint("cyan", bars),
    }),
  );
  append(lines, wrap(`last ${last.value.toFixed(1)} (${last.date}), low ${extremeOf(values, true).toFixed(1)}, high ${extremeOf(values).toFixed(1)}`, width));
  return lines.join("\n") + "\n";
}

const SECTION_TITLES: readonly [keyof Briefing["sections"], string][] = [
  ["summary", "Summary"],
  ["keySignals", "Key signals"],
  ["historicalContext", "Historical context"],
  ["implications", "Implications"],
  ["contrarianFlags", "Contrarian flags"],
  ["companyExposure", "Company exposure"],
  ["watchlist", "Watchlist"],
  ["keyDates", "Key dates"],
];

function renderBriefing(briefing: Briefing, geography: string, { width, paint }: View): string {
  const percent = (p: number) => `${Math.round(p * 100)}%`;
  const bold = (lines: string[]) => lines.map((line) => paint.paint("bold", line));
  const lines = [
    ...bold(wrap(`Week of ${briefing.weekStart}, ${geography}: ${briefing.headline}`, width, "", "  ")),
    ...wrap(`score ${briefing.score}/100, ${briefing.classification.replace(/_/g, " ")} (${briefing.narrativeSource}, generated ${briefing.generatedAt})`, width),
  ];
  for (const [key, title] of SECTION_TITLES) {
    const text = briefing.sections?.[key];
    if (typeof text === "string" && text.trim()) append(lines, ["", paint.paint("bold", title)].concat(wrap(text, width)));
  }
  const outlook = briefing.consumerOutlook;
  if (outlook)
    append(lines, [
      "",
      ...bold(wrap(`Outlook (${outlook.horizon})`, width, "")),
      ...wrap(`stabilisation ${percent(outlook.stabilisation)}, moderate deterioration ${percent(outlook.moderateDeterioration)}, sharp deterioration ${percent(outlook.sharpDeterioration)}`, width),
    ]);
  if (briefing.signalMomentum?.length) append(lines, wrap(`momentum: ${briefing.signalMomentum.map((m) => `${m.label} ${m.direction}`).join(", ")}`, width));
  const exposure = briefing.companyExposure;
  if (exposure && (exposure.highRisk.length || exposure.defensive.length))
    append(lines, wrap(`high risk: ${exposure.highRisk.join(", ") || "none"}; defensive: ${exposure.defensive.join(", ") || "none"}`, width));
  if (briefing.keyDates?.length) {
    lines.push("", paint.paint("bold", "Dates"));
    for (const date of briefing.keyDates) append(lines, wrap(`${date.date}: ${date.event} (${date.type}, ${date.relevance}${date.confirmed ? ", confirmed" : ", not confirmed"})`, width, "  ", "    "));
  }
  return lines.join("\n") + "\n";
}
