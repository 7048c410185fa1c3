/**
 * The `data` shape of each built-in tool's envelope. Tools produce these; the ToolResultCompressor and the
 * UI read them. Field names are snake_case because the model sees them as JSON.
 */

export interface LsData {
  path: string;
  /** Entries in the directory (after ignore rules), before offset/limit. */
  total: number;
  /** Names relative to `path`; directories end with "/". */
  entries: string[];
  offset: number;
  truncated: boolean;
}

export interface GlobData {
  pattern: string;
  path: string;
  total: number;
  /** Project-relative paths, newest first. */
  files: string[];
  truncated: boolean;
}

export interface GrepMatch {
  file: string;
  line: number;
  text: string;
}

export interface GrepData {
  pattern: string;
  path: string;
  total: number;
  matches: GrepMatch[];
  truncated: boolean;
  engine: 'ripgrep' | 'js';
}

export interface ReadData {
  path: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  /** Numbered lines, `<n>\t<text>`, one per line. */
  content: string;
  truncated: boolean;
  mtime_ms: number;
  modified_externally?: boolean;
}

export interface WriteData {
  path: string;
  action: 'created' | 'overwritten';
  lines: number;
  bytes: number;
  /** The written text (the compressor keeps the first 30 lines of a new file). */
  content: string;
}

export interface EditData {
  path: string;
  applied: boolean;
  replacements: number;
  /** Unified diff of the change. */
  diff: string;
}

export interface MultiEditData extends EditData {
  edits: number;
}

export interface BashData {
  command: string;
  exit_code: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
  stdout_truncated?: boolean;
  stderr_truncated?: boolean;
  timed_out?: boolean;
  interrupted?: boolean;
  /** Where it ran while a sandbox is on: `in the sandbox`, or `outside the sandbox (why)`; absent without one. */
  sandbox?: string;
}

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

export interface TodoWriteData {
  todos: TodoItem[];
  /** e.g. "[2/5] done · now: write the parser". */
  recap: string;
}
