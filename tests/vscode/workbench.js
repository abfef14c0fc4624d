// What a person does and sees in VS Code's workbench (code-server in chromium, driven by
// puppeteer-core): open a file, run a command, read the editor, the Problems panel, the hover,
// the notifications and the status bar. Selectors are VS Code 1.100's; each wait names what it
// waited for, so a failure says what the page lacked.
'use strict';

const DEFAULT_TIMEOUT = 20000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls fn (run in the page with args) until it returns a truthy value; its value. */
async function waitFor(page, what, fn, args = [], timeout = DEFAULT_TIMEOUT) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await page.evaluate(fn, ...args).catch((e) => {
      last = String(e);
      return undefined;
    });
    if (last) {
      return last;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}`);
    }
    await sleep(150);
  }
}

/** Ready when the explorer lists the folder's entries. */
async function waitForWorkbench(page) {
  await waitFor(page, 'the explorer to list the folder', () =>
    document.querySelector('.explorer-folders-view .monaco-list-row') !== null, [], 60000);
}

/** Text of the element(s) matching selector, spaces as spaces. */
function textOf(page, selector) {
  return page.evaluate((sel) => [...document.querySelectorAll(sel)]
    .map((e) => e.innerText.replace(/\u00a0/g, ' ')).join('\n'), selector);
}

/** Closes whatever widget is open (Escape), so that key chords reach the workbench. */
async function focusWorkbench(page) {
  await page.keyboard.press('Escape');
}

/** Presses a chord such as 'Control+Shift+M'. */
async function chord(page, keys) {
  const parts = keys.split('+');
  for (const k of parts) {
    await page.keyboard.down(k);
  }
  for (const k of parts.reverse()) {
    await page.keyboard.up(k);
  }
}

/** Types into the open quick input and picks the row whose label holds `rowText`. */
async function pickInQuickInput(page, typed, rowText) {
  await waitFor(page, 'the quick input box', () => {
    const box = document.querySelector('.quick-input-widget');
    return box && box.style.display !== 'none';
  });
  await page.keyboard.type(typed, { delay: 5 });
  await waitFor(page, `a quick input row with "${rowText}"`, (t) =>
    [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((r) => r.innerText.replace(/\u00a0/g, ' ').includes(t)), [rowText]);
  // The first row is the best match; pick the matching one explicitly.
  const clicked = await page.evaluate((t) => {
    const row = [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .find((r) => r.innerText.replace(/\u00a0/g, ' ').includes(t));
    if (!row) return false;
    row.click();
    return true;
  }, rowText);
  if (!clicked) {
    throw new Error(`quick input row "${rowText}" vanished`);
  }
}

/** Ctrl+P, the file's path, Enter; waits until its tab is the active one. */
async function openFile(page, relPath) {
  const base = relPath.split('/').pop();
  await focusWorkbench(page);
  await chord(page, 'Control+P');
  await pickInQuickInput(page, relPath, base);
  await waitForActiveTab(page, base);
  await waitFor(page, `the editor of ${base} to show text`, () => {
    const lines = document.querySelector('.editor-group-container.active .monaco-editor .view-lines');
    return lines && lines.innerText.trim().length > 0;
  });
}

async function waitForActiveTab(page, title, timeout = DEFAULT_TIMEOUT) {
  await waitFor(page, `the active tab to be "${title}"`, (t) => {
    const tab = document.querySelector('.editor-group-container.active .tab.active');
    return tab && tab.innerText.includes(t);
  }, [title], timeout);
}

/** F1, the command's title, Enter. */
async function runCommand(page, title) {
  await focusWorkbench(page);
  await chord(page, 'F1');
  await pickInQuickInput(page, title, title);
}

/** The active editor's visible lines, top to bottom (spaces as spaces). */
function editorText(page) {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line')];
    return lines.map((l) => ({ top: parseFloat(l.style.top) || 0, text: l.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top).map((l) => l.text).join('\n');
  });
}

/** The text of the active editor's line under the cursor. */
function currentLineText(page) {
  return page.evaluate(() => {
    const editor = document.querySelector('.editor-group-container.active .monaco-editor');
    const cursor = editor && editor.querySelector('.cursors-layer .cursor');
    if (!cursor) return undefined;
    const top = parseFloat(cursor.style.top);
    const line = [...editor.querySelectorAll('.view-lines .view-line')]
      .find((l) => Math.abs(parseFloat(l.style.top) - top) < 2);
    return line ? line.textContent.replace(/\u00a0/g, ' ') : undefined;
  });
}

/** The centre of the first rendered occurrence of `text` (within one line) in the active editor. */
function textPosition(page, text) {
  return page.evaluate((wanted) => {
    const lines = document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line');
    for (const line of lines) {
      const full = line.textContent.replace(/\u00a0/g, ' ');
      const at = full.indexOf(wanted);
      if (at < 0) continue;
      // The line is split into token spans: find the text node and offset of its middle.
      const middle = at + Math.floor(wanted.length / 2);
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let seen = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (seen + node.length > middle) {
          const range = document.createRange();
          range.setStart(node, middle - seen);
          range.setEnd(node, middle - seen + 1);
          const r = range.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        }
        seen += node.length;
      }
    }
    return undefined;
  }, text);
}

/**
 * The Problems panel's rows in tree order: {text, label, level} (level 1 a file, 2 a problem,
 * 3 its related information). The list is virtualised: scrolls it through to read every row.
 */
async function problems(page) {
  await waitFor(page, 'the Problems panel', () => {
    const panel = document.querySelector('.markers-panel');
    return panel !== null && panel.offsetParent !== null;
  });
  const read = () => page.evaluate(() => [...document.querySelectorAll('.markers-panel .monaco-list-row')]
    .map((r) => ({
      index: Number(r.getAttribute('data-index')),
      text: r.innerText.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim(),
      label: r.getAttribute('aria-label') || '',
      level: Number(r.getAttribute('aria-level') || 0),
    })));
  const scroll = async (deltaY) => {
    const box = await page.evaluate(() => {
      const r = document.querySelector('.markers-panel .monaco-list').getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, height: r.height };
    });
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel({ deltaY: deltaY === 0 ? -100000 : box.height * 0.8 });
    await sleep(250);
  };
  // Maximised, the panel holds some forty rows; the wheel reaches the rest.
  const maximise = (label) => page.evaluate((l) => {
    const button = [...document.querySelectorAll('.panel .title-actions .action-label')]
      .find((b) => (b.getAttribute('aria-label') || '').startsWith(l));
    if (button) button.click();
    return Boolean(button);
  }, label);
  const maximised = await maximise('Maximize');
  if (maximised) await sleep(300);
  const rows = new Map();
  await scroll(0);
  // Smooth scrolling: stop after two reads in a row that add nothing.
  for (let i = 0, idle = 0; i < 60 && idle < 2; i++) {
    const before = rows.size;
    for (const r of await read()) rows.set(r.index, r);
    idle = rows.size === before ? idle + 1 : 0;
    await scroll(1);
  }
  await scroll(0);
  if (maximised) await maximise('Restore');
  return [...rows.values()].sort((a, b) => a.index - b.index)
    .map(({ text, label, level }) => ({ text, label, level }));
}

/** The Problems rows grouped by file: [{file, label, problems: [{severity, text, related: [text]}]}]. */
function problemsByFile(rows) {
  const files = [];
  for (const r of rows) {
    if (r.level === 1) {
      files.push({ file: r.label, problems: [] });
    } else if (r.level === 2 && files.length) {
      const severity = (/^(Error|Warning|Info)/.exec(r.label) || [])[1] || '?';
      files[files.length - 1].problems.push({ severity, text: r.text, related: [] });
    } else if (r.level === 3 && files.length) {
      const ps = files[files.length - 1].problems;
      if (ps.length) ps[ps.length - 1].related.push(r.text);
    }
  }
  return files;
}

async function showProblems(page) {
  await focusWorkbench(page);
  const open = await page.evaluate(() => {
    const p = document.querySelector('.markers-panel');
    return p !== null && p.offsetParent !== null;
  });
  if (!open) {
    await chord(page, 'Control+Shift+M');
  }
  return problems(page);
}

/** The visible notification toasts: their message and buttons. */
function notifications(page) {
  return page.evaluate(() => [...document.querySelectorAll('.notification-toast')]
    .map((t) => ({
      message: (t.querySelector('.notification-list-item-message') || t).innerText.replace(/\s+/g, ' ').trim(),
      buttons: [...t.querySelectorAll('.monaco-button')].map((b) => b.innerText.trim()),
    })));
}

/** The status bar entry whose text starts with "impactd", or undefined. */
function statusBarItem(page, prefix) {
  return page.evaluate((p) => {
    const item = [...document.querySelectorAll('.statusbar-item')]
      .find((e) => e.innerText.replace(/\s+/g, ' ').trim().startsWith(p));
    return item ? item.innerText.replace(/\s+/g, ' ').trim() : undefined;
  }, prefix);
}

module.exports = {
  sleep, waitFor, waitForWorkbench, textOf, focusWorkbench, chord, pickInQuickInput, openFile,
  waitForActiveTab, runCommand, editorText, textPosition, problems,
  problemsByFile, currentLineText, showProblems, notifications, statusBarItem,
};
