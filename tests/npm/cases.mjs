// The inputs the npm package is compared with the CLI on: the same fixtures as the Python
// package's tests (tests/python/test_package.py). Paths relative to the repository root, which
// both the CLI and `analyze` are given as the files' names.

const SEED = 'tests/fixtures/seed';
const DEMO = 'public/demo';
const AGENTS = 'crates/toolscope-core/tests/fixtures/formats/claude_code';

/** name → [[flag or null, path], …], options, the CLI's extra flags, its exit code */
export const CASES = {
  seed: {
    files: [['catalog', `${SEED}/tools.json`], ['rules', `${SEED}/rules.json`], ['traces', `${SEED}/calls.json`]],
    exitCode: 1,
  },
  selection: {
    files: [['catalog', `${SEED}/tools.json`], ['traces', `${SEED}/selection_sessions.jsonl`], ['labels', `${SEED}/selection_labels.jsonl`]],
    exitCode: 1,
  },
  demo_subset: {
    files: [['catalog', `${DEMO}/tools.json`], ['rules', `${DEMO}/rules.json`], ['traces', `${DEMO}/sessions.jsonl`], ['labels', `${DEMO}/labels.jsonl`]],
    options: { argsMatch: 'subset', minSupport: 3 },
    flags: ['--args-match', 'subset', '--min-support', '3'],
    exitCode: 1,
  },
  demo_summary: {
    files: [['catalog', `${DEMO}/tools.json`], ['traces', `${DEMO}/sessions.jsonl`], ['labels', `${DEMO}/labels.jsonl`]],
    options: { summary: true },
    flags: ['--summary'],
    exitCode: 1,
  },
  demo_compact: {
    files: [['catalog', `${DEMO}/tools.json`], ['traces', `${DEMO}/sessions.jsonl`], ['labels', `${DEMO}/labels.jsonl`]],
    options: { compact: true },
    flags: ['--compact'],
    exitCode: 1,
  },
  hostile: {
    files: [['catalog', 'tests/fixtures/hostile/markup_tools.json'], ['traces', 'tests/fixtures/hostile/markup.jsonl'], ['labels', 'tests/fixtures/hostile/markup_labels.jsonl']],
  },
  native: {
    files: [['traces', 'tests/fixtures/native/support.jsonl']],
  },
  bad: {
    files: [['traces', 'tests/fixtures/bad/sessions.jsonl'], ['labels', 'tests/fixtures/bad/labels.jsonl']],
    exitCode: 2,
  },
  // A Claude Code session and its subagent's own file: session rows with `parent` links.
  subagents: {
    files: [
      ['traces', `${AGENTS}/showcase.55550000-0000-4000-8000-000000000001.jsonl`],
      ['traces', `${AGENTS}/showcase.agent-showcol1.jsonl`],
    ],
  },
};

const FLAG = { catalog: '--tools', rules: '--rules', labels: '--labels' };

/** `toolscope report --json` arguments for a case. */
export function cliArgs(testCase) {
  const args = ['report', '--json', ...(testCase.flags ?? [])];
  for (const [role, path] of testCase.files) {
    args.push(...(role === 'traces' ? [path] : [FLAG[role], path]));
  }
  return args;
}
