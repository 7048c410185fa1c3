/**
 * The question about a new `.mcp.json` server of a trusted project, as Claude Code asks it: the server with what it
 * would get (its env and headers, marked when they expand secrets or point into the repository), then "1. Use this
 * and all future MCP servers in this project", "2. Use this MCP server", "3. Continue without using this MCP
 * server" (Esc too). Asked by the REPL at start and by `mca trust`; the runtime records the answer.
 */
import type { TrustItem } from '../permissions/trust-items.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { terminalMenu } from './terminal-menu.js';
import { wrap } from './modes/trust-question.js';

const ANSWERS = ['all', 'this', 'skip'] as const;

export async function askMcpApprovalOnce(server: TrustItem): Promise<'all' | 'this' | 'skip'> {
  const picked = await terminalMenu({
    body: (_full, width) => [
      'New MCP server found in .mcp.json:',
      '',
      ...wrap(neutralizeControlSequences(server.text), '  ', width),
      ...(server.details ?? []).flatMap((line) => wrap(neutralizeControlSequences(line), '      ', width)),
      '',
      ...wrap('An MCP server runs code or reaches a host the project chose, with what is listed above.', '', width),
    ],
    options: [
      'Use this and all future MCP servers in this project',
      'Use this MCP server',
      'Continue without using this MCP server',
    ],
    toggles: false,
  });
  return picked === -1 ? 'skip' : (ANSWERS[picked] ?? 'skip');
}
