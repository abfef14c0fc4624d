// The workspace-trust checks of the real-editor test (real-vscode-test.sh, second code-server,
// started WITHOUT --disable-workspace-trust on the emitter's repository: examples/rocke-platform
// committed on main, the branch feature/refactor at main). The emitter runs the repository's own
// Python, so the extension passes it to the server only in a trusted workspace:
//   1. the folder opens in Restricted Mode; a refactor of build_scale, typed into scale.py and
//      saved, shows the changed builder's warning, and it stays (no emitter runs);
//   2. trust granted through "Workspaces: Manage Workspace Trust" and its Trust button: the
//      extension restarts the server with the emitter on "auto";
//   3. a further refactor of the loop, typed and saved: the emitter builds the shipped variants
//      at the base and the working tree, finds them equal, and the warnings leave Problems.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const wb = require('./workbench');

const SCALE = 'scale.py';
const scaleRel = 'dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/scale.py';

// The loop of build_scale at the base, and two refactors of it that emit the same kernel
// (the first is examples/emitter-refactor.patch).
const BASE_LOOP = [
  '    for t in range(tiles(spec.n, spec.block)):',
  '        value = scaled_load(b, x, t * spec.block, alpha)',
  '        b.store(out, t * spec.block, value)',
];
const REFACTOR_1 = [
  '    count = tiles(spec.n, spec.block)',
  '    for tile in range(count):',
  '        offset = tile * spec.block',
  '        b.store(out, offset, scaled_load(b, x, offset, alpha))',
];
const REFACTOR_2 = [
  '    count = tiles(spec.n, spec.block)',
  '    for tile in range(count):',
  '        start = tile * spec.block',
  '        b.store(out, start, scaled_load(b, x, start, alpha))',
];

const warnings = (files) => {
  const g = files.find((f) => f.file.includes(` ${SCALE} `));
  return g ? g.problems.filter((p) => p.severity === 'Warning') : [];
};

/** The banner and the status bar entry VS Code shows in Restricted Mode. */
function restricted(page) {
  return page.evaluate(() => {
    const banner = document.querySelector('.part.banner');
    const inBanner = banner && banner.offsetParent !== null && banner.innerText.includes('Restricted Mode');
    const inStatus = [...document.querySelectorAll('.statusbar-item')].some((e) => e.innerText.includes('Restricted Mode'));
    return Boolean(inBanner || inStatus);
  });
}

/**
 * Replaces `from` (whole lines of the open editor) by `to`, as a person would: Go to Line on the
 * first, Ctrl+L per line (whole lines selected), the new text typed; then Ctrl+S. Checks the file on disk holds the new lines.
 */
async function retypeAndSave(page, file, from, to) {
  const before = fs.readFileSync(file, 'utf8');
  assert(before.includes(`${from.join('\n')}\n`), `${file} holds the lines to replace:\n${from.join('\n')}`);
  // "Go to Line/Column..." (Ctrl+G belongs to the browser): the first line to replace, column 1.
  const line = before.slice(0, before.indexOf(`${from.join('\n')}\n`)).split('\n').length;
  await wb.runCommand(page, 'Go to Line/Column...');
  await wb.waitFor(page, 'the Go to Line box', () => {
    const box = document.querySelector('.quick-input-widget');
    const input = box && box.style.display !== 'none' && box.querySelector('input');
    return input && input.value.startsWith(':');
  });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await wb.waitFor(page, `the cursor at line ${line}, column 1`, (l) => {
    const s = document.querySelector('#status\\.editor\\.selection');
    return s && s.innerText.includes(`Ln ${l}, Col 1`);
  }, [line]);
  for (let i = 0; i < from.length; i++) await wb.chord(page, 'Control+L');
  for (const text of to) {
    // One insertText per line (no auto-closing, no suggestion), then a line break.
    await page.keyboard.sendCharacter(text);
    await page.keyboard.press('Enter'); // editor.autoIndent is "none" in the test's settings
  }
  await wb.chord(page, 'Control+S');
  const want = before.replace(`${from.join('\n')}\n`, `${to.join('\n')}\n`);
  const deadline = Date.now() + 10000;
  while (fs.readFileSync(file, 'utf8') !== want) {
    if (Date.now() > deadline) {
      throw new Error(`the saved ${file} is not the refactor typed:\n${fs.readFileSync(file, 'utf8')}`);
    }
    await wb.sleep(200);
  }
}

async function runTrust(page, { args, step, waitForServer, waitForProblems }) {
  const scale = path.join(args.repo, scaleRel);

  await step(page, 'trust-restricted', async () => {
    await waitForServer(args.url);
    await page.goto(args.url, { waitUntil: 'domcontentloaded' });
    await wb.waitForWorkbench(page);
    await wb.waitFor(page, 'the Restricted Mode banner', () => {
      const banner = document.querySelector('.part.banner');
      return banner && banner.offsetParent !== null && banner.innerText.includes('Restricted Mode');
    }, [], 30000);
    await wb.openFile(page, scaleRel);
    await wb.waitFor(page, 'the impactd status bar item to be ready', () =>
      [...document.querySelectorAll('.statusbar-item')].some((e) => /^impactd: ready/.test(e.innerText.trim())), [], 60000);
    await retypeAndSave(page, scale, BASE_LOOP, REFACTOR_1);
    const files = await waitForProblems(page, `a warning on ${SCALE} for the changed builder`,
      (f) => warnings(f).length > 0, 60000);
    // The server's emitter debounce is 3 s and a run here takes under 10 s (step trust-emitter):
    // for 15 s the status bar never says "emitting" and the warning stays.
    const until = Date.now() + 15000;
    while (Date.now() < until) {
      const status = await wb.statusBarItem(page, 'impactd');
      assert(!/emitting/.test(status), `in Restricted Mode no emitter runs: the status bar says ${status}`);
      await wb.sleep(500);
    }
    const after = wb.problemsByFile(await wb.showProblems(page));
    assert(warnings(after).length > 0, `in Restricted Mode the warning stays: ${JSON.stringify(after)}`);
    assert(await restricted(page), 'the window is still in Restricted Mode');
    console.log(`     Restricted Mode; after the refactor save ${SCALE} keeps: ${warnings(files)[0].text.slice(0, 100)}…`);
  });

  await step(page, 'trust-grant', async () => {
    await wb.runCommand(page, 'Workspaces: Manage Workspace Trust');
    const label = await wb.waitFor(page, 'the Trust button of the Workspace Trust editor', () => {
      const b = [...document.querySelectorAll('.workspace-trust-editor .monaco-button')]
        .find((e) => e.offsetParent !== null && /^Trust/.test(e.innerText.trim()));
      if (!b) return undefined;
      b.click();
      return b.innerText.trim();
    });
    await wb.waitFor(page, 'Restricted Mode to end', () => {
      const banner = document.querySelector('.part.banner');
      const inBanner = banner && banner.offsetParent !== null && banner.innerText.includes('Restricted Mode');
      const inStatus = [...document.querySelectorAll('.statusbar-item')].some((e) => e.innerText.includes('Restricted Mode'));
      return !inBanner && !inStatus;
    }, [], 20000);
    console.log(`     clicked "${label}" in the Workspace Trust editor; Restricted Mode ended`);
  });

  await step(page, 'trust-emitter', async () => {
    await wb.chord(page, 'Control+W'); // the Workspace Trust editor
    await wb.openFile(page, scaleRel);
    // The restarted server (emitter "auto") publishes the working tree's warning again first.
    await waitForProblems(page, `the warning on ${SCALE} from the restarted server`, (f) => warnings(f).length > 0, 60000);
    const started = Date.now();
    await retypeAndSave(page, scale, REFACTOR_1.slice(2), REFACTOR_2.slice(2));
    const emitting = await wb.waitFor(page, 'the status bar item to say "emitting"', () => {
      const item = [...document.querySelectorAll('.statusbar-item')].find((e) => e.innerText.trim().startsWith('impactd:'));
      return item && item.innerText.includes('emitting') && item.innerText.replace(/\s+/g, ' ').trim();
    }, [], 30000);
    const files = await waitForProblems(page, `the emitter to fold the warnings of ${SCALE}`,
      (f) => warnings(f).length === 0, 90000);
    const left = files.reduce((n, f) => n + f.problems.filter((p) => p.severity === 'Warning').length, 0);
    assert.strictEqual(left, 0, `no warning is left in Problems: ${JSON.stringify(files)}`);
    console.log(`     status bar: ${emitting}; after the refactor save the emitter folded the warnings in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

module.exports = { runTrust };
