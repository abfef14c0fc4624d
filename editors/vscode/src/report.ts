// What impact.run answers (docs/editors.md, docs/report-json.md): the text report and the JSON
// report, each row's sides with an LSP location (uri + range) the server added.

/** An LSP Location as the server sends it. */
export interface LspLocation {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

export interface ReportSide {
  path: string;
  line: number;
  symbol: string;
  location?: LspLocation;
}

export interface ReportRow {
  contract: string;
  status: 'mismatch' | 'changed' | 'inert' | 'outside';
  preexisting: boolean;
  python: ReportSide | null;
  mirror: ReportSide | null;
  message: string;
  archs: string[];
  label: string | null;
  view: string | null;
}

export interface Report {
  schema: number;
  base: string;
  merge_base: string;
  head: string;
  rollup: { verdict: string; archs: string[]; lanes: string[] };
  rows: ReportRow[];
  notes: string[];
  pack_time?: string;
}

export interface ImpactRunResult {
  text: string;
  report: Report | null;
}

/** What impact.refs answers. */
export interface Refs {
  target: string;
  headBranch: string;
  branches: string[];
  remoteBranches: string[];
  tags: string[];
}

/** impact.run's argument: the range (every field optional; {} is the configured target). */
export interface RunRange {
  base?: string;
  head?: string;
  targetTip?: string;
}

/** The verdict line as the text report writes it ("Runtime impact: NEEDS-DEVICE gfx950"). */
export function verdictLine(report: Report): string {
  const { verdict, archs, lanes } = report.rollup;
  let line = `Runtime impact: ${verdict}`;
  if (verdict === 'NEEDS-DEVICE' && archs.length) {
    line += ` ${archs.join(', ')}`;
  }
  if (lanes.length) {
    line += `; ${lanes.join(', ')} left to ${lanes.length === 1 ? 'its lane' : 'their lanes'}`;
  }
  return line;
}

/** A side's short name: its symbol, else its file name. */
export function sideName(side: ReportSide | null): string {
  if (!side) {
    return '';
  }
  return side.symbol || side.path.slice(side.path.lastIndexOf('/') + 1);
}

/** "kernargs · build_attention_dense ↔ expectedSignature" (one side alone when the row has one). */
export function rowLabel(row: ReportRow): string {
  const sides = [sideName(row.python), sideName(row.mirror)].filter((s) => s);
  return `${row.contract} · ${sides.join(' ↔ ')}`;
}
