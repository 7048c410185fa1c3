/**
 * What an untrusted project holds back, said once: every "… the project is not trusted" line of the start becomes one
 * line that names the kinds of parts held back, `mca trust`, and the scripts' opt-in (MCA_TRUST_PROJECT=1).
 */

/** The kinds of held-back parts the one line names, by what their own lines said. */
const HELD_KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/allow rule|\bpermissions\b/i, 'allow rules'],
  [/\bhooks?\b/i, 'hooks'],
  [/\benv\b/, 'env'],
  [/\bMCP\b/, 'MCP servers'],
  [/\bsandbox\b/, 'sandbox widening'],
  [/defaultMode|statusLine|apiKeyHelper/, 'settings that run or widen'],
];

/** What every "… is not trusted" line says, once; the details are the trust question's (`mca trust`). */
const UNTRUSTED = /\b(the|this) project is not trusted\b/;

/**
 * An untrusted project's held-back parts (allow rules, env, hooks, MCP servers) as one line naming `mca trust`
 * and the scripts' opt-in, instead of a line each.
 */
export function untrustedInOneLine(notices: readonly string[]): string[] {
  const held = notices.filter((line) => UNTRUSTED.test(line));
  if (held.length === 0) return [...notices];
  const kinds = HELD_KINDS.filter(([pattern]) => held.some((entry) => pattern.test(entry))).map(([, kind]) => kind);
  const line =
    `this project is not trusted: ${held.length} part(s) of its settings and .mcp.json are off ` +
    `(${kinds.length > 0 ? kinds.join(', ') : 'settings'}). Run \`mca trust\` to read and trust it, or set ` +
    'MCA_TRUST_PROJECT=1 for one run (scripts on a checkout you trust; see docs/security.md)';
  const first = notices.findIndex((entry) => UNTRUSTED.test(entry));
  return [
    ...notices.slice(0, first),
    line,
    ...notices.filter((entry, index) => index > first && !UNTRUSTED.test(entry)),
  ];
}
