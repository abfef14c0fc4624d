// The "Impact" view (in the panel beside Problems): the last impact.run as a tree. At the top
// the verdict and the Pack-time line (and the notes), then the rows grouped by status
// (mismatch, changed, inert, outside), each "contract · builder ↔ copy" with its message as the
// description and tooltip. Selecting a row opens the copy at its line; its child opens the
// builder. While a run goes the view says so; a failed run says why.

import * as path from 'path';
import * as vscode from 'vscode';
import { LspLocation, Report, ReportRow, ReportSide, rowLabel, sideName, verdictLine } from './report';

export const VIEW_ID = 'impactd.report';
export const OPEN_LOCATION_COMMAND = 'impactd.openLocation';

type Node =
  | { kind: 'info'; label: string; description?: string; tooltip?: string; icon: string; color?: string; children?: Node[] }
  | { kind: 'group'; status: ReportRow['status']; rows: ReportRow[] }
  | { kind: 'row'; row: ReportRow }
  | { kind: 'side'; role: 'builder' | 'copy'; side: ReportSide };

const GROUPS: ReportRow['status'][] = ['mismatch', 'changed', 'inert', 'outside'];
const GROUP_ICONS: Record<ReportRow['status'], [string, string | undefined]> = {
  mismatch: ['error', 'list.errorForeground'],
  changed: ['warning', 'list.warningForeground'],
  inert: ['pass', undefined],
  outside: ['circle-slash', undefined],
};

type ViewState =
  | { kind: 'empty' }
  | { kind: 'running'; range: string }
  | { kind: 'failed'; range: string; why: string }
  | { kind: 'report'; range: string; report: Report };

/** Opens a location's file with the location's range selected. */
export async function openLocation(location: LspLocation): Promise<void> {
  const { start, end } = location.range;
  const selection = new vscode.Range(start.line, start.character, end.line, end.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(location.uri), { selection, preview: false });
}

export class ReportView implements vscode.TreeDataProvider<Node> {
  private state: ViewState = { kind: 'empty' };
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  showRunning(range: string): void {
    this.set({ kind: 'running', range });
  }

  showFailed(range: string, why: string): void {
    this.set({ kind: 'failed', range, why });
  }

  showReport(range: string, report: Report): void {
    this.set({ kind: 'report', range, report });
  }

  /** The view's one-line summary (its description beside the title). */
  summary(): string {
    switch (this.state.kind) {
      case 'running':
        return `running: ${this.state.range}`;
      case 'failed':
        return `failed: ${this.state.range}`;
      case 'report':
        return this.state.range;
      default:
        return '';
    }
  }

  private set(state: ViewState): void {
    this.state = state;
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      return this.roots();
    }
    switch (node.kind) {
      case 'info':
        return node.children ?? [];
      case 'group':
        return node.rows.map((row) => ({ kind: 'row', row }));
      case 'row': {
        // The copy is the row itself; its child is the builder (when the row has both sides).
        const { python, mirror } = node.row;
        return python && mirror ? [{ kind: 'side', role: 'builder', side: python }] : [];
      }
      default:
        return [];
    }
  }

  private roots(): Node[] {
    const s = this.state;
    if (s.kind === 'empty') {
      return []; // the view's welcome content says how to run
    }
    if (s.kind === 'running') {
      return [{ kind: 'info', label: `Running impact: ${s.range}…`, icon: 'loading~spin' }];
    }
    if (s.kind === 'failed') {
      return [{
        kind: 'info', label: `impact.run failed: ${s.why}`, description: s.range, tooltip: s.why,
        icon: 'error', color: 'list.errorForeground',
      }];
    }
    const { report } = s;
    const verdict = report.rollup.verdict;
    const nodes: Node[] = [{
      kind: 'info',
      label: verdictLine(report),
      description: s.range,
      tooltip: `${verdictLine(report)}\n${s.range}\nmerge base ${report.merge_base.slice(0, 12)}, head ${report.head.slice(0, 12)}`,
      icon: verdict === 'BREAKS' ? 'error' : verdict === 'NEEDS-DEVICE' ? 'warning' : 'pass',
      color: verdict === 'BREAKS' ? 'list.errorForeground' : verdict === 'NEEDS-DEVICE' ? 'list.warningForeground' : undefined,
    }];
    if (report.pack_time) {
      nodes.push({ kind: 'info', label: report.pack_time, icon: 'package' });
    }
    if (report.notes.length) {
      nodes.push({
        kind: 'info', label: `Notes (${report.notes.length})`, icon: 'note',
        children: report.notes.map((n) => ({ kind: 'info', label: n, tooltip: n, icon: 'info' })),
      });
    }
    for (const status of GROUPS) {
      const rows = report.rows.filter((r) => r.status === status);
      if (rows.length) {
        nodes.push({ kind: 'group', status, rows });
      }
    }
    if (!report.rows.length) {
      nodes.push({ kind: 'info', label: 'No rows: nothing in this range touches a contract', icon: 'check' });
    }
    return nodes;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'info': {
        const item = new vscode.TreeItem(node.label, node.children?.length
          ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.description = node.description;
        item.tooltip = node.tooltip ?? node.label;
        item.iconPath = new vscode.ThemeIcon(node.icon, node.color ? new vscode.ThemeColor(node.color) : undefined);
        return item;
      }
      case 'group': {
        const collapsed = node.status === 'inert' || node.status === 'outside';
        const item = new vscode.TreeItem(node.status, collapsed
          ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${node.rows.length}`;
        const [icon, color] = GROUP_ICONS[node.status];
        item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
        item.id = `group:${node.status}`;
        return item;
      }
      case 'row':
        return this.rowItem(node.row);
      case 'side': {
        const item = new vscode.TreeItem(`${node.role}: ${sideName(node.side)}`);
        item.description = `${path.basename(node.side.path)}:${node.side.line}`;
        item.tooltip = `${node.side.path}:${node.side.line}`;
        item.iconPath = new vscode.ThemeIcon(node.role === 'builder' ? 'symbol-method' : 'symbol-array');
        if (node.side.location) {
          item.command = { command: OPEN_LOCATION_COMMAND, title: 'Open', arguments: [node.side.location] };
        }
        return item;
      }
    }
  }

  private rowItem(row: ReportRow): vscode.TreeItem {
    const target = row.mirror ?? row.python;
    const hasBuilderChild = !!(row.python && row.mirror);
    const item = new vscode.TreeItem(rowLabel(row), hasBuilderChild
      ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    const flags = [row.preexisting ? 'pre-existing' : '', row.view ? `${row.view} view` : '', row.label ?? '']
      .filter((f) => f);
    item.description = (flags.length ? `[${flags.join(', ')}] ` : '') + row.message;
    const where = [row.python && `builder ${row.python.path}:${row.python.line}`, row.mirror && `copy ${row.mirror.path}:${row.mirror.line}`]
      .filter((w) => w).join('\n');
    item.tooltip = new vscode.MarkdownString().appendText(`${row.status} ${row.contract}: ${row.message}\n\n${where}`);
    const [icon, color] = GROUP_ICONS[row.status];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    if (target?.location) {
      item.command = { command: OPEN_LOCATION_COMMAND, title: 'Open the copy', arguments: [target.location] };
    }
    return item;
  }
}
