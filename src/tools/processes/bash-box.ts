/**
 * The sandbox port of Bash (src/sandbox implements it; the runtime hands it to the registry when the `sandbox`
 * settings are on): where a call runs (in the box or outside, and what the decision point should make of that),
 * and the command line that runs it in the box. Bash decides nothing about the box itself: it asks `place` when it
 * prepares the call (for the question) and again when it runs it (the input may have been changed by a hook since).
 */
import type { CallSource } from '../registry/call-source.js';

/** What the sandbox says about a Bash call (ApprovalRequest.sandbox). */
export type SandboxVerdict = 'auto' | 'ask' | { refuse: string };

/** How one boxed command is spawned, and what to do after it. */
export interface BoxedSpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** After the command: cleans up; for a failed command, a note naming what the box blocked, if anything. */
  finish(outcome: { failed: boolean; stdout: string; stderr: string }): Promise<string | undefined>;
}

/**
 * Runs a project's own command (a hook command line, a stdio MCP server) in the box when the sandbox boxes project
 * commands (`sandbox.boxProjectCommands`); undefined: run it as is.
 */
export type ProjectCommandBox = (command: string, env: Record<string, string>) => Promise<BoxedSpawn | undefined>;

export interface BashPlace {
  /** The command runs inside the box. */
  boxed: boolean;
  /** What the decision point makes of it; absent: the normal decision. */
  verdict?: SandboxVerdict;
  /** Shown in the question when the call asks to leave the box. */
  outside?: string;
  /** Added to the result: why a command ran outside the box while the box is on (never silently unsandboxed). */
  note?: string;
  /** For the person (the transcript's summary): `in the sandbox`, or `outside the sandbox (why)`. */
  label?: string;
}

export interface BashBox {
  place(input: { command: string; dangerouslyDisableSandbox?: boolean | undefined }, source: CallSource): BashPlace;
  spawn(command: string, shell: string, env: Record<string, string>): Promise<BoxedSpawn>;
}
