/**
 * The task as a person would type it: the recorded first user message without the recording harness's
 * instructions (reply format, command list, workflow tips), which no person types and which cost each recording
 * ~1,860 tokens (BENCHMARKS.md "Workloads").
 *
 * Rule, in order:
 * 1. mini-swe-agent form: the text inside `<pr_description>…</pr_description>` without its lead-in line
 *    "Consider the following PR description:"; the `<instructions>` block that follows is dropped.
 * 2. SWE-agent form: everything from the first line that is exactly `INSTRUCTIONS:` on is dropped, and the
 *    lead-in "We're currently solving the following issue within our repository. Here's the issue text:" plus the
 *    `ISSUE:` line before the issue. (A CTF lead-in, which names the challenge, is kept: a person says that too.)
 * 3. Any other text is kept as it is (trimmed).
 */

const PR_DESCRIPTION = /<pr_description>\s*([\s\S]*?)\s*<\/pr_description>/;
const PR_LEAD_IN = /^Consider the following PR description:\s*\n/;
const INSTRUCTIONS_LINE = /\n[ \t]*INSTRUCTIONS:[ \t]*\n[\s\S]*$/;
const ISSUE_LEAD_IN =
  /^We're currently solving the following issue within our repository\. Here's the issue text:\s*\nISSUE:\s*\n/;

export function personTaskText(recorded: string): string {
  const pr = PR_DESCRIPTION.exec(recorded);
  if (pr !== null) return (pr[1] ?? '').replace(PR_LEAD_IN, '').trim();
  return recorded.replace(INSTRUCTIONS_LINE, '').replace(ISSUE_LEAD_IN, '').trim();
}
