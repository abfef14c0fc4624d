#!/usr/bin/env node
// Drives impactd through vscode-jsonrpc (the library under vscode-languageclient) in a scripted
// session (ctest: LspClientVscodeJsonrpc): open the builder, edit it to break (a new b.param),
// see an Error appear on the pin test (not open), edit to fix, see it go away; hover; shutdown.
//
//   node tests/clients/vscode-jsonrpc-session.js path/to/impactd
//
// Builds its own fixture with make-fixture.sh --clean. Exits 0, or 1 after a "FAIL" line.
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
let rpc;
try {
  rpc = require('vscode-jsonrpc/node');
} catch (err) {
  console.log('FAIL vscode-jsonrpc is not installed: run `npm ci` in tests/clients (scripts/setup.sh does)');
  process.exit(1);
}

const impactd = path.resolve(process.argv[2] || '');
const here = path.resolve(__dirname, '..', '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'impact-jsonrpc-'));
const repo = path.join(work, 'repo');
const builderPath = 'dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py';
const pinPath =
  'dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/TestGfx950AttentionDenseSignature.cpp';

let server;
function cleanup() {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
}
function fail(why) {
  console.log(`FAIL ${why}`);
  cleanup();
  process.exit(1);
}
const overall = setTimeout(() => fail('the session took more than 30 s'), 30000);

async function main() {
  if (!fs.existsSync(impactd)) fail(`no server at ${impactd}`);
  execFileSync(path.join(here, 'tests/clients/make-fixture.sh'), [repo, '--clean']);
  const uri = (p) => pathToFileURL(path.join(repo, p)).href;
  const builderUri = uri(builderPath), pinUri = uri(pinPath);

  server = spawn(impactd, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout),
                                           new rpc.StreamMessageWriter(server.stdin));

  // The latest diagnostics per URI, and waiters on them.
  const latest = new Map();
  let waiters = [];
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    latest.set(p.uri, p);
    waiters = waiters.filter((w) => !(w.uri === p.uri && w.pred(p) && (w.resolve(p), true)));
  });
  const diagnostics = (uri, pred, what) => new Promise((resolve, reject) => {
    const now = latest.get(uri);
    if (now && pred(now)) return resolve(now);
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; stderr: ${stderr}`)), 10000);
    waiters.push({ uri, pred, resolve: (p) => { clearTimeout(timer); resolve(p); } });
  });
  const errors = (p) => p.diagnostics.filter((d) => d.severity === 1);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/showDocument', () => ({ success: true }));
  conn.onNotification('window/showMessage', (p) => console.log(`showMessage ${p.type} ${p.message}`));
  conn.listen();

  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(repo).href,
    capabilities: { textDocument: { hover: { contentFormat: ['markdown'] } }, window: { workDoneProgress: true } },
    initializationOptions: { target: 'main' },
  });
  if (init.capabilities.textDocumentSync.change !== 2) fail('the server should take incremental changes');
  conn.sendNotification('initialized', {});
  console.log(`OK initialize ${init.serverInfo.name} ${init.serverInfo.version}`);

  const text = fs.readFileSync(path.join(repo, builderPath), 'utf8');
  conn.sendNotification('textDocument/didOpen',
                        { textDocument: { uri: builderUri, languageId: 'python', version: 1, text } });
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes('b.param("seqlen_kv", I32)')) + 1;
  if (at <= 0) fail('the fixture builder has no seqlen_kv');

  // Break: the builder gains an argument the pin does not restate.
  conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: builderUri, version: 2 },
    contentChanges: [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } },
                       text: '    b.param("window_left", I32)\n' }],
  });
  const broken = await diagnostics(pinUri, (p) => errors(p).length > 0, 'an Error on the pin');
  const e = errors(broken)[0];
  if (!/builder has 9/.test(e.message) || e.code !== 'kernargs') fail(`unexpected error: ${JSON.stringify(e)}`);
  const rel = (e.relatedInformation || [])[0];
  if (!rel || rel.location.uri !== builderUri || rel.location.range.start.line !== at)
    fail(`relatedInformation should point at the new b.param: ${JSON.stringify(e)}`);
  console.log(`OK error on the pin at line ${e.range.start.line + 1}: ${e.message}`);
  const onBuilder = await diagnostics(builderUri, (p) => p.version === 2 && errors(p).length > 0,
                                      'an Error on the builder (version 2)');
  console.log(`OK ${onBuilder.diagnostics.length} diagnostics on the builder, version 2`);

  const hover = await conn.sendRequest('textDocument/hover',
                                       { textDocument: { uri: builderUri }, position: { line: at, character: 8 } });
  if (!hover || hover.contents.kind !== 'markdown' || !hover.contents.value.includes('window_left'))
    fail(`hover: ${JSON.stringify(hover)}`);
  console.log('OK hover on the new argument');

  // Fix: take the line out again.
  conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: builderUri, version: 3 },
    contentChanges: [{ range: { start: { line: at, character: 0 }, end: { line: at + 1, character: 0 } }, text: '' }],
  });
  await diagnostics(pinUri, (p) => errors(p).length === 0, 'the Error on the pin to go');
  await diagnostics(builderUri, (p) => p.version === 3 && p.diagnostics.length === 0, 'the builder to clear (version 3)');
  console.log('OK the pin and the builder are clean again');

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const code = await exited;
  if (code !== 0) fail(`exit code ${code}`);
  console.log('OK shutdown, exit 0');
  conn.dispose();
  clearTimeout(overall);
  cleanup();
}

main().catch((err) => fail(err && err.stack ? err.stack.replace(/\n/g, ' | ') : String(err)));
