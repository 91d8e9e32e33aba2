// Types of toolscope's npm package. The report types follow docs/report-json.md; a test
// (tests/npm/report-type.ts) type-checks the CLI's real report against `Report`.

/** What a file is for; detected from its content when left out. */
export type Role = 'traces' | 'catalog' | 'rules' | 'labels' | 'verdicts' | 'human_verdicts';

/** One input file. */
export interface InputFile {
  /** The name the report and its diagnostics use (`file`). */
  name: string;
  /** Its content: bytes, or text (encoded as UTF-8). */
  data: Uint8Array | string;
  /** Its role, as the CLI's flags give it: `--tools` is "catalog", `--labels` "labels", ... */
  role?: Role;
}

/** The options `toolscope report` takes besides files. */
export interface AnalyzeOptions {
  /** `--format`: read every trace file as this format instead of detecting it. */
  format?: string;
  /** `--min-support`: tools with fewer labelled turns are flagged as too few to trust. */
  minSupport?: number;
  /** `--args-match`: how labelled arguments are compared for the per-turn score. */
  argsMatch?: 'exact' | 'subset';
  /** `--summary`: the report without its per-session, per-problem and per-turn lists. */
  summary?: boolean;
  /** `--compact`: the JSON on one line (`analyzeJson`; `analyze` always asks for it). */
  compact?: boolean;
}

/** A rate that shows what it counts; `rate` is null where undefined. */
export interface Rate {
  count: number;
  total: number;
  rate: number | null;
}

export interface InputSummary {
  file: string;
  role: Role | 'baseline';
  format?: string;
  reason?: string;
  counts?: Record<string, number>;
}

export interface ToolErrors {
  results: number;
  errors: number;
  agent: number;
  environment: number;
  unattributed: number;
  inferred: number;
}

export interface Summary {
  sessions: number;
  calls: number;
  turns: number;
  problems: number;
  undecidable_calls: number;
  calls_with_problems: Rate;
  sessions_with_problems: Rate;
  mean_session_problem_rate: number | null;
  by_kind: Record<string, { problems: number; calls: number; sessions: number }>;
  tool_errors: ToolErrors;
  tool_error_rate: Rate;
  sessions_with_tool_errors: Rate;
  sessions_without_catalog: number;
}

export interface Problem {
  session_id: string;
  step: number;
  tool: string;
  kind: string;
  message: string;
  pointer?: string;
  suggestion?: string;
  related_step?: number;
}

export interface SessionSummary {
  session_id: string;
  agent_id?: string;
  /** A subagent's: the session, and the call in it, that started this one. */
  parent?: { session_id: string; call_id?: string };
  origin: { file: string; line?: number };
  calls: number;
  turns: number;
  problems: number;
  calls_with_problems: number;
  problems_by_kind: Record<string, number>;
  tool_errors: ToolErrors;
  is_without_catalog?: boolean;
  task_id?: string;
  trial?: { number?: number; reward: number };
}

export interface ToolUsage {
  tool: string;
  calls: number;
  calls_with_problems: number;
  problems: number;
  errors: number;
  sessions_with_errors: number;
}

export interface PerTool {
  tool: string;
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  support: number;
  precision_ci: [number, number] | null;
  recall_ci: [number, number] | null;
  is_low_support: boolean;
}

export interface Count {
  expected: string;
  actual: string;
  count: number;
}

export interface TurnOutcome {
  session_id: string;
  agent_id?: string;
  turn: number;
  /** The labelled tool, or the set of acceptable ones as a list. */
  expected_tool: string | string[];
  actual_tool: string | null;
  counted_as: string | null;
  is_correct: boolean;
  /** null when the label gives no arguments to compare. */
  args_exact: boolean | null;
  args_subset: boolean | null;
  args_mismatch?: string;
  called: string[];
  steps: number[];
  extra: string[];
  missing: string[];
  should_not_call_violations: string[];
  score: number;
  [key: string]: unknown;
}

export interface Selection {
  turns: number;
  per_tool: PerTool[];
  confusion: {
    labels: string[];
    cells: { expected: number; actual: number; count: number }[];
  };
  confused_pairs: Count[];
  tool_accuracy: Rate;
  args_accuracy_exact: Rate;
  args_accuracy_subset: Rate;
  avg_extra_calls: number | null;
  extra_calls: number;
  missing_calls: number;
  should_not_call_violations: Rate;
  mean_score: number | null;
  task_success: Rate;
  min_support: number;
  args_mode: 'exact' | 'subset';
  outcomes: TurnOutcome[];
  [key: string]: unknown;
}

export interface DriftItem {
  tool: string;
  kind: string;
  detail: string;
  sessions: number;
  example_session?: string;
}

export interface Diagnostic {
  file: string;
  line?: number;
  column?: number;
  severity: 'warning' | 'error';
  message: string;
}

export interface Finding {
  rule: string;
  id: string;
  title: string;
  fix: string;
  fix_detail: string;
  sessions: number;
  occurrences: number;
  agents: string[];
  evidence: string[];
  examples: { session_id: string; step?: number; turn?: number }[];
  [key: string]: unknown;
}

/** The report, as `toolscope report --json` prints it (docs/report-json.md). */
export interface Report {
  toolscope_version: string;
  inputs: InputSummary[];
  summary: Summary;
  problems: Problem[];
  sessions: SessionSummary[];
  tools: ToolUsage[];
  selection: Selection | null;
  tasks: Record<string, unknown> | null;
  drift: DriftItem[];
  diagnostics: Diagnostic[];
  judge?: Record<string, unknown>;
  trials?: Record<string, unknown>;
  findings?: Finding[];
  omitted?: Record<string, number>;
}

/** The report `toolscope report --json` prints for the same files and options. */
export function analyze(files: InputFile[], options?: AnalyzeOptions): Report;

/** The same report as JSON text, byte for byte what the CLI prints. */
export function analyzeJson(files: InputFile[], options?: AnalyzeOptions): string;

/** Whether the CLI would exit with 2 for this report (an input diagnostic of severity error). */
export function hasInputErrors(report: Report): boolean;
