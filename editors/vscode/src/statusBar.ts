// The status bar item: what the server is doing (starting, analysing, ready, N mismatches,
// error); a click opens the impactd output channel. The server says its state with the
// notification `impactd/status`; until it does (or with a server that never does), the client's
// own events stand in: starting while the client starts, ready once it runs.

import * as vscode from 'vscode';

/** The params of the server's `impactd/status` notification. */
export interface ServerStatus {
  state: 'starting' | 'analysing' | 'ready' | 'error';
  mismatches?: number;
  changed?: number;
  message?: string;
  /** "done/total" family builds while the background emitter runs. */
  emitting?: string;
  /** "done/total" families while the background geometry differential runs. */
  geometry?: string;
}

export const SHOW_OUTPUT_COMMAND = 'impactd.showOutput';

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private fromServer = false;

  constructor() {
    this.item = vscode.window.createStatusBarItem('impactd.status', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'impactd';
    this.item.command = SHOW_OUTPUT_COMMAND;
    this.starting();
    this.item.show();
  }

  /** The client is starting a server: the server's own states count again from here. */
  starting(): void {
    this.fromServer = false;
    this.show({ state: 'starting' });
  }

  /** The client runs; says ready unless the server has already said where it is. */
  running(): void {
    if (!this.fromServer) {
      this.show({ state: 'ready' });
    }
  }

  /** The server's `impactd/status` notification. */
  server(status: ServerStatus): void {
    this.fromServer = true;
    this.show(status);
  }

  /** The client failed or the server cannot be run. */
  error(message: string): void {
    this.fromServer = false;
    this.show({ state: 'error', message });
  }

  dispose(): void {
    this.item.dispose();
  }

  private show(status: ServerStatus): void {
    const mismatches = status.mismatches ?? 0;
    const changed = status.changed ?? 0;
    let icon: string;
    let label: string;
    switch (status.state) {
      case 'starting':
        icon = '$(sync~spin)';
        label = 'starting';
        break;
      case 'analysing':
        icon = '$(sync~spin)';
        label = 'analysing';
        break;
      case 'error':
        icon = '$(error)';
        label = 'error';
        break;
      default:
        icon = mismatches > 0 ? '$(error)' : '$(check)';
        label = mismatches > 0 ? `${mismatches} mismatch${mismatches === 1 ? '' : 'es'}` : 'ready';
    }
    if (status.emitting !== undefined && status.state !== 'error') {
      icon = '$(sync~spin)';
      // "0/0" until the run knows how many family builds it has.
      label += status.emitting.endsWith('/0') ? ' · emitting' : ` · emitting ${status.emitting}`;
    }
    if (status.geometry !== undefined && status.state !== 'error') {
      icon = '$(sync~spin)';
      label += status.geometry.endsWith('/0') ? ' · geometry' : ` · geometry ${status.geometry}`;
    }
    this.item.text = `${icon} impactd: ${label}`;
    this.item.backgroundColor =
      status.state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const lines = [`impactd: ${label}`];
    if (status.state === 'ready') {
      lines.push(`${mismatches} mismatch${mismatches === 1 ? '' : 'es'}, ${changed} changed`);
    }
    if (status.message) {
      lines.push(status.message);
    }
    lines.push('Click to show the impactd output.');
    this.item.tooltip = lines.join('\n');
  }
}
