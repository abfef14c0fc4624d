// "impactd: Run impact…": the QuickPick of the range to report on. The configured target first
// (the default), the target tip's merged view, the last commit, the uncommitted changes only
// (HEAD as base), a commit range (two refs, picked one after the other), then every other branch
// and tag of the repository (impact.refs; searchable, and any revision can be typed). The choice
// is remembered (workspace state) and offered as the active item next time.

import * as vscode from 'vscode';
import { Refs, RunRange } from './report';

/** A chosen range: what impact.run takes, and how the view names it. */
export interface ChosenRange {
  label: string;
  range: RunRange;
}

const MEMORY_KEY = 'impactd.lastRange';

interface RangeItem extends vscode.QuickPickItem {
  choice?: ChosenRange;
  /** "a commit range…": two more picks. */
  twoRefs?: boolean;
}

/** How the view names a range given as arguments (impactd.run with arguments). */
export function describeRange(range: RunRange, target: string): string {
  const t = target || 'the server\'s target';
  if (range.base && range.head) {
    return `${range.base}..${range.head}`;
  }
  if (range.base === 'HEAD' && !range.head) {
    return 'uncommitted changes (HEAD..working tree)';
  }
  const base = range.base ? `${range.base}..working tree` : `target ${t}`;
  return range.targetTip ? `${base}, merged into ${range.targetTip}` : base;
}

function fixedItems(target: string): RangeItem[] {
  const t = target || '(the server\'s default)';
  return [
    { label: `$(target) Target: ${t}`, description: 'the working tree against the merge base with the target',
      choice: { label: `target ${t}`, range: {} } },
    { label: '$(git-merge) Target, with its tip\'s merged view', description: 'also the change merged into the target\'s tip',
      choice: { label: `target ${t}, merged into its tip`, range: target ? { targetTip: target } : {} } },
    { label: '$(git-commit) The last commit', description: 'HEAD~1..HEAD',
      choice: { label: 'HEAD~1..HEAD', range: { base: 'HEAD~1', head: 'HEAD' } } },
    { label: '$(diff) Uncommitted changes only', description: 'HEAD as the base',
      choice: { label: 'uncommitted changes (HEAD..working tree)', range: { base: 'HEAD' } } },
    { label: '$(git-compare) A commit range…', description: 'two refs: from, then to', twoRefs: true },
  ];
}

function refItems(refs: Refs, exclude: string[]): RangeItem[] {
  const items: RangeItem[] = [];
  const add = (kind: string, icon: string, names: string[]) => {
    const shown = names.filter((n) => !exclude.includes(n));
    if (!shown.length) {
      return;
    }
    items.push({ label: kind, kind: vscode.QuickPickItemKind.Separator });
    for (const name of shown) {
      items.push({ label: `$(${icon}) ${name}`, description: kind === 'tags' ? 'tag' : 'branch',
        choice: { label: `${name}..working tree`, range: { base: name } } });
    }
  };
  add('branches', 'git-branch', refs.branches);
  add('remote branches', 'cloud', refs.remoteBranches);
  add('tags', 'tag', refs.tags);
  return items;
}

/** One QuickPick; what the user typed becomes an item of its own ("a revision"). */
function pick(title: string, placeholder: string, items: RangeItem[], active: string | undefined,
  typed: (value: string) => RangeItem): Promise<RangeItem | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<RangeItem>();
    qp.title = title;
    qp.placeholder = placeholder;
    qp.matchOnDescription = true;
    qp.items = items;
    const remembered = active === undefined ? undefined : items.find((i) => i.choice?.label === active);
    if (remembered) {
      qp.activeItems = [remembered];
    }
    qp.onDidChangeValue((value) => {
      const v = value.trim();
      const exact = items.some((i) => i.label.replace(/^\$\([^)]*\) /, '') === v);
      qp.items = v && !exact ? [...items, typed(v)] : items;
    });
    let done = false;
    qp.onDidAccept(() => {
      done = true;
      resolve(qp.selectedItems[0] ?? qp.activeItems[0]);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) {
        resolve(undefined);
      }
      qp.dispose();
    });
    qp.show();
  });
}

async function pickRef(refs: Refs, title: string): Promise<string | undefined> {
  const items: RangeItem[] = [
    { label: '$(git-commit) HEAD', description: 'the checked-out commit', choice: { label: 'HEAD', range: {} } },
    ...refItems(refs, []),
  ].map((i) => (i.choice ? { ...i, choice: { label: i.label.replace(/^\$\([^)]*\) /, ''), range: {} } } : i));
  const chosen = await pick(title, 'a branch, a tag, or type any revision', items, undefined,
    (v) => ({ label: v, description: 'a revision', choice: { label: v, range: {} } }));
  return chosen?.choice?.label;
}

/** The QuickPick; undefined when dismissed. The choice is remembered for the next run. */
export async function chooseRange(memory: vscode.Memento, refs: Refs): Promise<ChosenRange | undefined> {
  const items = [...fixedItems(refs.target), ...refItems(refs, [refs.headBranch])];
  const last = memory.get<ChosenRange>(MEMORY_KEY);
  const chosen = await pick('impactd: Run impact for…', 'the range to report on (type to search branches and tags)',
    items, last?.label,
    (v) => ({ label: `$(git-branch) ${v}`, description: 'a revision', choice: { label: `${v}..working tree`, range: { base: v } } }));
  if (!chosen) {
    return undefined;
  }
  let result = chosen.choice;
  if (chosen.twoRefs) {
    const from = await pickRef(refs, 'impactd: a commit range — from (the base)');
    const to = from && (await pickRef(refs, `impactd: a commit range — from ${from} to`));
    if (!from || !to) {
      return undefined;
    }
    result = { label: `${from}..${to}`, range: { base: from, head: to } };
  }
  if (result) {
    await memory.update(MEMORY_KEY, result);
  }
  return result;
}
