// The VS Code extension's own logic, with the `vscode` API and the language client stood in:
// activation registers "impactd.run" and "impactd.restart", starts the client with the
// settings (path, arguments, target; python/cpp/json/yaml documents), a missing binary is an
// error naming impactd.path, and "Run impact" sends impact.run and opens its text report.
'use strict';
const Module = require('module');
const assert = require('assert');
const path = require('path');

const extensionPath = process.argv[2];
const calls = { commands: {}, errors: [], opened: [], clients: [], requests: [] };
let settings = { path: process.execPath, arguments: ['--log=info'], target: 'origin/develop' };

const disposable = { dispose() {} };
const vscode = {
  window: {
    createOutputChannel: () => ({ appendLine() {}, dispose() {} }),
    showErrorMessage: async (m) => { calls.errors.push(m); return undefined; },
    withProgress: async (_opts, task) => task({ report() {} }, { onCancellationRequested() { return disposable; } }),
    showTextDocument: async () => undefined,
  },
  commands: {
    registerCommand: (name, fn) => { calls.commands[name] = fn; return disposable; },
    executeCommand: async () => undefined,
  },
  workspace: {
    getConfiguration: () => ({ get: (k) => settings[k] }),
    onDidChangeConfiguration: () => disposable,
    workspaceFolders: [{ uri: { fsPath: '/tmp' } }],
    openTextDocument: async (doc) => { calls.opened.push(doc); return doc; },
  },
  ProgressLocation: { Notification: 15 },
};
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions });
    calls.clients.push(this);
  }
  async start() {}
  async stop() {}
  get state() { return 2; }
  onProgress() { return disposable; }
  async sendRequest(type, params) {
    calls.requests.push(params);
    return { text: 'Runtime impact: BREAKS\n', report: { rollup: { verdict: 'BREAKS' } } };
  }
}
const languageclient = {
  LanguageClient, State: { Running: 2, Stopped: 1, Starting: 3 }, TransportKind: { stdio: 0 },
  ExecuteCommandRequest: { type: 'workspace/executeCommand' }, WorkDoneProgress: { type: '$/progress' },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return languageclient;
  return load.call(this, request, parent, isMain);
};

(async () => {
  const ext = require(path.resolve(extensionPath));
  const context = { subscriptions: [] };
  await ext.activate(context);
  assert.ok(calls.commands['impactd.run'], 'impactd.run registered');
  assert.ok(calls.commands['impactd.restart'], 'impactd.restart registered');
  assert.strictEqual(calls.clients.length, 1, 'one client started');
  const c = calls.clients[0];
  assert.strictEqual(c.serverOptions.command, process.execPath);
  assert.deepStrictEqual(c.serverOptions.args, ['--log=info']);
  assert.deepStrictEqual(c.clientOptions.documentSelector.map((d) => d.language), ['python', 'cpp', 'json', 'yaml']);
  const init = typeof c.clientOptions.initializationOptions === 'function'
    ? c.clientOptions.initializationOptions() : c.clientOptions.initializationOptions;
  assert.deepStrictEqual(init, { target: 'origin/develop' });

  await calls.commands['impactd.run']();
  assert.strictEqual(calls.requests.length, 1, 'impact.run sent');
  assert.strictEqual(calls.requests[0].command, 'impact.run');
  assert.strictEqual(calls.opened.length, 1, 'the report opened');
  assert.strictEqual(calls.opened[0].content, 'Runtime impact: BREAKS\n');

  // A binary that is not there: an error naming the setting, no client.
  settings = { path: '/no/such/impactd', arguments: [], target: '' };
  await calls.commands['impactd.restart']();
  assert.ok(calls.errors.some((m) => m.includes('impactd.path')), `an error names impactd.path: ${calls.errors}`);
  assert.strictEqual(calls.clients.length, 1, 'no client for a missing binary');
  console.log('vscode extension: activation, settings, Run impact and a missing binary behave');
})().catch((e) => { console.error(e); process.exit(1); });
