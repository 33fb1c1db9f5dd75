import { defineRule } from "./rule.js";
import { nodeName, quoteList } from "./describe.js";

export default defineRule({
  meta: {
    id: "job-unknown",
    severity: "error",
    category: "part",
    title: "A terminal part's job is one that part offers",
    rationale: "Each terminal part offers specific jobs at specific versions; the service cannot run any other.",
    fix: "Use a job id and version the part offers (listed in the message).",
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    const partId = node.partId;
    const jobs = partId === undefined ? undefined : ctx.partOf(node)?.terminal?.jobs;
    const id = node.jobId;
    const version = node.jobVersion;
    if (!jobs || id === undefined || version === undefined) return;
    // A loop rather than `some`: this runs for every terminal part, and a closure per call adds up.
    for (let j = 0; j < jobs.length; j++) if (jobs[j]!.id === id && jobs[j]!.version === version) return;
    const offered = jobs.map((j) => `${j.id}@${j.version}`);
    const sameId = jobs.filter((j) => j.id === id);
    const pointer = `${node.pointer}/terminal/job`;
    if (sameId.length) {
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${pointer}/version`,
        message: `Part ${nodeName(node)} runs job \`${id}\` at version \`${version}\`, but \`${partId}\` offers it only at ${quoteList(sameId.map((j) => j.version))}.`,
        suggestion: sameId[sameId.length - 1]!.version,
      });
      return;
    }
    const suggestion = ctx.suggester.closest(id, jobs.map((j) => j.id)) ?? (jobs.length === 1 ? jobs[0]!.id : undefined);
    ctx.report({
      nodeId: node.id ?? null,
      pointer: `${pointer}/id`,
      message: `Part ${nodeName(node)} runs job \`${id}\`, which \`${partId}\` does not offer (it offers ${quoteList(offered)}).${suggestion ? ` Did you mean \`${suggestion}\`?` : ""}`,
      suggestion,
    });
  },
});
