import type { Catalogue } from "./catalogue.js";

/**
 * SAMPLE CATALOGUE. A realistic stand-in built from the workflows reference so that wfkit
 * works out of the box; it is not the service's live catalogue. Point wfkit at your own
 * catalogue file (`--catalogue`, `wfkit.config.json`, or the editor setting) for real checks.
 */
export const defaultCatalogue: Catalogue = {
  catalogueVersion: 1,
  parts: [
    {
      partId: "terminal.profile",
      versions: ["1"],
      title: "Company profile",
      description: "Builds a research profile of each pinned company: business lines, filings and recent signals.",
      requires: [],
      produces: ["terminal.result"],
      unattendedSafe: true,
      terminal: { jobs: [{ id: "profile.company", version: "1" }], minSubjects: 1 },
      cost: { baseMinorUnits: 40, perSubjectMinorUnits: 20 },
    },
    {
      partId: "terminal.compare",
      versions: ["1"],
      title: "Peer comparison",
      description: "Compares pinned companies side by side on margins, pricing and exposure. Needs at least two subjects.",
      requires: [],
      produces: ["terminal.result"],
      unattendedSafe: true,
      terminal: { jobs: [{ id: "compare.peers", version: "1" }], minSubjects: 2 },
      cost: { baseMinorUnits: 100, perSubjectMinorUnits: 50 },
    },
    {
      partId: "terminal.screen",
      versions: ["1", "2"],
      title: "Signal screen",
      description: "Screens pinned companies against the current consumer signals and flags exposure.",
      requires: [],
      produces: ["terminal.result", "terminal.flags"],
      unattendedSafe: true,
      terminal: {
        jobs: [
          { id: "screen.signals", version: "1" },
          { id: "screen.imports", version: "1" },
        ],
        minSubjects: 1,
      },
      cost: { baseMinorUnits: 60, perSubjectMinorUnits: 10 },
    },
    {
      partId: "terminal.deep_dive",
      versions: ["1"],
      title: "Analyst deep dive",
      description: "A long-form investigation of one company. Interactive: an analyst steers it, so it cannot run on a schedule.",
      requires: [],
      produces: ["terminal.result"],
      unattendedSafe: false,
      terminal: { jobs: [{ id: "deep_dive.company", version: "1" }], minSubjects: 1 },
      cost: { baseMinorUnits: 500, perSubjectMinorUnits: 0 },
    },
    {
      partId: "pack",
      versions: ["1"],
      title: "Report pack",
      description: "Assembles terminal results into a report pack for delivery.",
      requires: ["terminal.result"],
      produces: ["pack.report"],
      unattendedSafe: true,
      cost: { baseMinorUnits: 20 },
    },
    {
      partId: "review.analyst",
      versions: ["1"],
      title: "Analyst review",
      description: "Puts a report pack in front of an analyst before it is delivered. Needs a person, so not for scheduled runs.",
      requires: ["pack.report"],
      produces: ["pack.report"],
      unattendedSafe: false,
      cost: { baseMinorUnits: 150 },
    },
  ],
  nodeKinds: { trigger: { produces: [] }, destination: { requires: [] } },
  subjects: [
    { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [{ type: "ticker", value: "TSCO.L" }] },
    { canonicalId: "cmp_sbry", kind: "company", label: "J Sainsbury plc", identifiers: [{ type: "ticker", value: "SBRY.L" }] },
    { canonicalId: "cmp_ocdo", kind: "company", label: "Ocado Group plc", identifiers: [{ type: "ticker", value: "OCDO.L" }] },
    { canonicalId: "cmp_wmt", kind: "company", label: "Walmart Inc.", identifiers: [{ type: "ticker", value: "WMT" }] },
    { canonicalId: "cmp_cost", kind: "company", label: "Costco Wholesale Corporation", identifiers: [{ type: "ticker", value: "COST" }] },
  ],
};
