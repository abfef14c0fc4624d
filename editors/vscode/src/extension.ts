// VS Code client for impactd, the language server that says whether a change breaks the
// hipDNN kernel ingestor at run time. The server does the work; this file starts it, passes
// the settings on, adds the commands "impactd: Run impact…" (the range from a QuickPick,
// rangePick.ts; the report in the Impact view, reportView.ts), "impactd: Run emitter", "impactd:
// Restart server" and "impactd: Show output", and a status bar item with the server's state
// (statusBar.ts). The emitter runs repository code: it is passed as "auto" or "manual" only when
// the workspace is trusted (and the setting impactd.emitter allows it); the server restarts when
// trust is granted.

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
  WorkDoneProgress,
} from 'vscode-languageclient/node';
import { ChosenRange, chooseRange, describeRange } from './rangePick';
import { ImpactRunResult, Refs, RunRange } from './report';
import { OPEN_LOCATION_COMMAND, openLocation, ReportView, VIEW_ID } from './reportView';
import { ServerStatus, SHOW_OUTPUT_COMMAND, StatusBar } from './statusBar';

const SECTION = 'impactd';

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel;
let statusBar: StatusBar;

let extensionContext: vscode.ExtensionContext;
let reportView: ReportView;
let treeView: vscode.TreeView<unknown>;
let lastResult: ImpactRunResult | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionContext = context;
  outputChannel = vscode.window.createOutputChannel('impactd');
  statusBar = new StatusBar();
  reportView = new ReportView();
  treeView = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: reportView, showCollapseAll: true });
  context.subscriptions.push(
    outputChannel,
    statusBar,
    treeView,
    vscode.commands.registerCommand(OPEN_LOCATION_COMMAND, openLocation),
    vscode.commands.registerCommand('impactd.openReportText', openReportText),
    vscode.commands.registerCommand('impactd.openReportJson', openReportJson),
    vscode.commands.registerCommand('impactd.copyReportText', copyReportText),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => outputChannel.show(true)),
    vscode.commands.registerCommand('impactd.run', runImpact),
    vscode.commands.registerCommand('impactd.emit', runEmitter),
    // The builder's code lens "N copies · …": its copies in the peek view.
    vscode.commands.registerCommand('impact.peekCopies', peekCopies),
    // Trust granted: a new server, started with the emitter the setting asks for.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restartServer()),
    vscode.commands.registerCommand('impactd.restart', restartServer),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The target reaches a running server through workspace/didChangeConfiguration;
      // a new binary or new arguments need a new process.
      if (
        e.affectsConfiguration('impactd.path') ||
        e.affectsConfiguration('impactd.arguments') ||
        e.affectsConfiguration('impactd.emitter')
      ) {
        void restartServer();
      }
    }),
  );
  await startServer();
}

export async function deactivate(): Promise<void> {
  await stopServer();
}

/** The settings as the user wrote them, with the defaults of package.json. */
function settings(): { command: string; args: string[]; target: string; emitter: string } {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    command: (config.get<string>('path') ?? '').trim() || 'impactd',
    args: config.get<string[]>('arguments') ?? [],
    target: (config.get<string>('target') ?? '').trim(),
    emitter: config.get<string>('emitter') ?? 'auto',
  };
}

/** The emitter mode passed to the server: "off" unless the workspace is trusted. */
export function emitterMode(trusted: boolean, setting: string): 'auto' | 'manual' | 'off' {
  if (!trusted) {
    return 'off';
  }
  return setting === 'manual' ? 'manual' : setting === 'off' ? 'off' : 'auto';
}

/**
 * Where the binary is: an absolute path (a relative one with a slash is taken from the first
 * workspace folder), or a bare name looked up on PATH. Undefined when there is no such
 * executable file.
 */
function resolveBinary(command: string): string | undefined {
  const isExecutable = (file: string): boolean => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.startsWith('~/') && process.env.HOME) {
    command = path.join(process.env.HOME, command.slice(2));
  }
  if (command.includes('/') || command.includes('\\')) {
    if (path.isAbsolute(command)) {
      return isExecutable(command) ? command : undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const candidate = path.resolve(folder ?? process.cwd(), command);
    return isExecutable(candidate) ? candidate : undefined;
  }
  const extensions =
    process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE').split(';') : [''];
  // PATH first; then where `cmake --install` and the .deb put it, for a VS Code started from a
  // desktop whose PATH lacks ~/.local/bin or /usr/local/bin.
  const installed = process.env.HOME ? [path.join(process.env.HOME, '.local', 'bin')] : [];
  installed.push('/usr/local/bin', '/usr/bin');
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), ...installed]) {
    if (!dir) {
      continue;
    }
    for (const ext of extensions) {
      const candidate = path.join(dir, command + ext);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** impact.peekCopies {uri, position, locations}: the builder's copies in the peek view. */
interface PeekArgument {
  uri: string;
  position: { line: number; character: number };
  locations: { uri: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }[];
}
async function peekCopies(arg: PeekArgument): Promise<void> {
  if (!arg || !Array.isArray(arg.locations)) {
    return;
  }
  const pos = (p: { line: number; character: number }) => new vscode.Position(p.line, p.character);
  const locations = arg.locations.map(
    (l) => new vscode.Location(vscode.Uri.parse(l.uri), new vscode.Range(pos(l.range.start), pos(l.range.end))),
  );
  await vscode.commands.executeCommand(
    'editor.action.peekLocations',
    vscode.Uri.parse(arg.uri),
    pos(arg.position),
    locations,
    'peek',
  );
}

async function reportMissingBinary(command: string): Promise<void> {
  const message =
    `impactd: cannot find the language server '${command}'. ` +
    'Build it (build/bin/impactd) and set "impactd.path" to its full path, or put impactd on PATH.';
  outputChannel.appendLine(message);
  statusBar.error(`cannot find the language server '${command}' (setting "impactd.path")`);
  const choice = await vscode.window.showErrorMessage(message, 'Open Settings');
  if (choice === 'Open Settings') {
    await openPathSetting();
  }
}

/**
 * The settings editor at "impactd.path". In a remote window (code-server, Remote-SSH, a dev
 * container) the setting is the remote machine's: the User tab does not list a
 * machine-overridable setting there, so open the Remote tab.
 */
async function openPathSetting(): Promise<void> {
  if (vscode.env.remoteName) {
    await vscode.commands.executeCommand('workbench.action.openRemoteSettings', {
      query: 'impactd.path',
    });
  } else {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'impactd.path');
  }
}

async function startServer(): Promise<boolean> {
  const { command, args } = settings();
  const binary = resolveBinary(command);
  if (!binary) {
    void reportMissingBinary(command);
    return false;
  }

  const serverOptions: ServerOptions = {
    command: binary,
    args,
    transport: TransportKind.stdio,
    options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: ['python', 'cpp', 'json', 'yaml'].map((language) => ({
      scheme: 'file',
      language,
    })),
    // Read at every (re)start, so a changed target is used by the next server too.
    initializationOptions: () => {
      const { target, emitter } = settings();
      const options: { target?: string; emitter: string } = {
        emitter: emitterMode(vscode.workspace.isTrusted, emitter),
      };
      if (target) {
        options.target = target;
      }
      return options;
    },
    synchronize: { configurationSection: SECTION },
    outputChannel,
  };

  // The id 'impactd' makes the client read the "impactd.trace.server" setting.
  const started = new LanguageClient(SECTION, 'impactd', serverOptions, clientOptions);
  client = started;
  statusBar.starting();
  started.onNotification('impactd/status', (status: ServerStatus) => {
    if (client === started) {
      statusBar.server(status);
    }
  });
  started.onDidChangeState((change) => {
    // A stop asked for by stopServer() clears `client` first; any other stop is a failure.
    if (client === started && change.newState === State.Stopped) {
      statusBar.error('the server stopped (see the output)');
    }
  });
  try {
    await started.start();
    if (client === started) {
      statusBar.running();
    }
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    statusBar.error(`the server failed to start: ${message}`);
    outputChannel.appendLine(`impactd: the server '${binary}' failed to start: ${message}`);
    void vscode.window.showErrorMessage(
      `impactd: the server '${binary}' (setting "impactd.path") failed to start: ${message}`,
    );
    return false;
  }
}

async function stopServer(): Promise<void> {
  const old = client;
  client = undefined;
  if (!old) {
    return;
  }
  try {
    if (old.state !== State.Stopped) {
      await old.stop();
    }
  } catch (error) {
    outputChannel.appendLine(`impactd: stopping the server: ${String(error)}`);
  }
  try {
    await old.dispose();
  } catch {
    // already stopped
  }
}

async function restartServer(): Promise<void> {
  await stopServer();
  if (await startServer()) {
    vscode.window.setStatusBarMessage('impactd: server restarted', 3000);
  }
}

/** A running server, started when there is none; undefined when it cannot start. */
async function runningClient(): Promise<LanguageClient | undefined> {
  if (!client || client.state !== State.Running) {
    await stopServer();
    if (!(await startServer())) {
      return undefined;
    }
  }
  return client;
}

/** impact.refs: the target and the repository's branches and tags (none when it fails). */
async function fetchRefs(running: LanguageClient): Promise<Refs> {
  try {
    const refs = (await running.sendRequest(ExecuteCommandRequest.type, { command: 'impact.refs', arguments: [] })) as Refs;
    return { target: refs.target ?? '', headBranch: refs.headBranch ?? '', branches: refs.branches ?? [],
      remoteBranches: refs.remoteBranches ?? [], tags: refs.tags ?? [] };
  } catch (error) {
    outputChannel.appendLine(`impactd: impact.refs failed: ${String(error)}`);
    return { target: settings().target, headBranch: '', branches: [], remoteBranches: [], tags: [] };
  }
}

/**
 * "impactd: Run impact…": the range from the QuickPick (rangePick.ts), or from the arguments
 * (`impactd.run` with {base, head, targetTip}: no pick, for keybindings and tasks); impact.run
 * with a cancellable progress notification; the report in the Impact view.
 */
async function runImpact(args?: unknown): Promise<void> {
  const running = await runningClient();
  if (!running) {
    return;
  }
  let chosen: ChosenRange | undefined;
  if (args && typeof args === 'object') {
    const range = args as RunRange;
    const given: RunRange = {};
    for (const key of ['base', 'head', 'targetTip'] as const) {
      if (typeof range[key] === 'string' && range[key]) {
        given[key] = range[key];
      }
    }
    chosen = { label: describeRange(given, settings().target), range: given };
  } else {
    chosen = await chooseRange(extensionContext.workspaceState, await fetchRefs(running));
  }
  if (!chosen) {
    return;
  }
  const { label, range } = chosen;
  reportView.showRunning(label);
  treeView.description = reportView.summary();
  void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  let result: ImpactRunResult | null | undefined;
  let cancelled = false;
  try {
    result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `impactd: running impact (${label})`,
        cancellable: true,
      },
      async (progress, cancel) => {
        cancel.onCancellationRequested(() => {
          cancelled = true;
        });
        // The server reports its work-done progress on this token; show it here.
        const token = `impactd.run/${Date.now()}`;
        const listener = running.onProgress(WorkDoneProgress.type, token, (value) => {
          if (value.kind !== 'end' && value.message) {
            progress.report({ message: value.message });
          }
        });
        try {
          return await running.sendRequest(
            ExecuteCommandRequest.type,
            { command: 'impact.run', arguments: [range], workDoneToken: token },
            cancel,
          );
        } finally {
          listener.dispose();
        }
      },
    );
  } catch (error) {
    const message = cancelled ? 'cancelled' : error instanceof Error ? error.message : String(error);
    reportView.showFailed(label, message);
    treeView.description = reportView.summary();
    if (!cancelled) {
      void vscode.window.showErrorMessage(`impactd: impact.run failed: ${message}`);
    }
    return;
  }
  if (cancelled) {
    reportView.showFailed(label, 'cancelled');
  } else if (!result || typeof result.text !== 'string' || !result.report) {
    reportView.showFailed(label, 'the server returned no report');
  } else {
    lastResult = result;
    reportView.showReport(label, result.report);
  }
  treeView.description = reportView.summary();
}

/** The last report, or a message that there is none yet. */
function lastReport(): ImpactRunResult | undefined {
  if (!lastResult) {
    void vscode.window.showInformationMessage('impactd: no report yet; run "impactd: Run impact…" first.');
  }
  return lastResult;
}

/** "Open report as text": the text report in a new untitled document. */
async function openReportText(): Promise<void> {
  const result = lastReport();
  if (result) {
    const document = await vscode.workspace.openTextDocument({ content: result.text, language: 'plaintext' });
    await vscode.window.showTextDocument(document, { preview: false });
  }
}

/** "Open as JSON": the JSON report (with the rows' locations) in a new untitled document. */
async function openReportJson(): Promise<void> {
  const result = lastReport();
  if (result) {
    const content = `${JSON.stringify(result.report, null, 2)}\n`;
    const document = await vscode.workspace.openTextDocument({ content, language: 'json' });
    await vscode.window.showTextDocument(document, { preview: false });
  }
}

/** "Copy as text": the text report on the clipboard. */
async function copyReportText(): Promise<void> {
  const result = lastReport();
  if (result) {
    try {
      await vscode.env.clipboard.writeText(result.text);
      vscode.window.setStatusBarMessage('impactd: report copied', 5000);
    } catch (error) {
      void vscode.window.showErrorMessage(`impactd: cannot write the clipboard: ${String(error)}`);
    }
  }
}

/**
 * "impactd: Run emitter": impact.emit (the server shows its own cancellable progress; the status
 * bar item shows the family builds done). Refused by the server when the emitter is off.
 */
async function runEmitter(): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      'impactd: the emitter runs the repository\'s Python; trust this workspace to run it.',
    );
    return;
  }
  const running = await runningClient();
  if (!running) {
    return;
  }
  try {
    const result = (await running.sendRequest(ExecuteCommandRequest.type, {
      command: 'impact.emit',
      arguments: [],
    })) as { summary?: string } | null;
    vscode.window.setStatusBarMessage(`impactd: ${result?.summary ?? 'emitter done'}`, 5000);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`impactd: ${message}`);
  }
}
