/**
 * `/mcp` in the REPL: every configured MCP server with its state (connected, connecting, pending approval,
 * untrusted, disabled, failed with its reason), its tool count and names; then a picker to reconnect, disable,
 * enable or sign in to one. `/mcp reconnect|disable|enable|login <name>` does the same without the picker.
 * Everything a server chose (names, reasons) is neutralised before it reaches the terminal.
 */
import type { McpActionResult, McpManager, ServerStatus } from '../mcp/mcp-manager.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { ChoiceState } from './components/choice-picker.js';

/** What /mcp needs of the runtime's servers (McpManager has it). */
export type McpControl = Pick<McpManager, 'list' | 'reconnect' | 'setEnabled' | 'signIn' | 'canSignIn'>;

/** The REPL's MCP port: the servers for /mcp (`@server:uri` attachments are the session's: open-session.ts). */
export interface ReplMcp {
  control: McpControl;
}

type Tone = 'info' | 'warning' | 'error';

export interface McpViewDeps {
  control?: McpControl | undefined;
  notice(text: string, tone?: Tone): void;
  setChoice(choice: ChoiceState | null): void;
}

/** Tool names shown per server before "and N more". */
const SHOWN_TOOLS = 24;

const STATE_LABEL: Record<ServerStatus['state'], string> = {
  connected: 'connected',
  connecting: 'connecting',
  pending: 'pending approval',
  untrusted: 'untrusted project',
  disabled: 'disabled',
  failed: 'failed',
  'needs-auth': 'needs sign-in',
};

function safe(text: string, max = 200): string {
  const line = neutralizeControlSequences(text.replace(/\s+/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The lines /mcp shows for one server. */
export function serverLines(status: ServerStatus, canSignIn: boolean): string[] {
  const head = `${safe(status.name, 60)}  ${STATE_LABEL[status.state]}`;
  const count = status.state === 'connected' ? ` · ${status.tools.length} tools` : '';
  const lines = [`  ${head}${count}  (${status.scope}: ${safe(status.launch, 80)})`];
  if (status.detail) lines.push(`    ${status.state === 'failed' ? 'reason' : 'why'}: ${safe(status.detail, 300)}`);
  if (status.state === 'failed' && !canSignIn && /\b401\b|unauthori[sz]ed|oauth|sign.?in/i.test(status.detail ?? '')) {
    lines.push(`    sign-in: run \`mca mcp login ${safe(status.name, 60)}\``);
  }
  if (status.tools.length > 0) {
    const prefix = /^mcp__.+?__/;
    const names = status.tools.slice(0, SHOWN_TOOLS).map((tool) => safe(tool.replace(prefix, ''), 64));
    const more = status.tools.length > SHOWN_TOOLS ? ` … and ${status.tools.length - SHOWN_TOOLS} more` : '';
    lines.push(`    tools: ${names.join(', ')}${more}`);
  }
  return lines;
}

type Action = 'reconnect' | 'disable' | 'enable' | 'login';

function actionsFor(status: ServerStatus): Action[] {
  if (status.state === 'untrusted') return [];
  if (status.state === 'disabled' || status.state === 'pending') return ['enable'];
  const base: Action[] = ['reconnect', 'disable'];
  // Sign-in (OAuth) is for remote servers only.
  return /^(http|sse)\b/.test(status.launch) ? [...base, 'login'] : base;
}

const PROGRESS: Record<Action, string> = {
  reconnect: 'reconnecting',
  disable: 'disabling',
  enable: 'enabling',
  login: 'signing in',
};

const ACTION_LABEL: Record<Action, string> = {
  reconnect: 'Reconnect',
  disable: 'Disable',
  enable: 'Enable',
  login: 'Sign in',
};

export function createMcpCommand(deps: McpViewDeps): (args: string) => void {
  const { control, notice, setChoice } = deps;
  const report = (work: Promise<McpActionResult>): void => {
    work.then(
      (result) => notice(safe(result.message, 400), result.ok ? 'info' : 'warning'),
      (error: unknown) => notice(`MCP: ${safe(error instanceof Error ? error.message : String(error))}`, 'error'),
    );
  };
  const run = (action: Action, name: string): void => {
    if (!control) return;
    if (action === 'login' && !control.canSignIn) return notice(`sign-in: run \`mca mcp login ${safe(name, 60)}\``);
    notice(`MCP server "${safe(name, 60)}": ${PROGRESS[action]}…`);
    if (action === 'reconnect') report(control.reconnect(name));
    else if (action === 'login') report(control.signIn(name, (line) => notice(safe(line, 400))));
    else report(control.setEnabled(name, action === 'enable'));
  };
  const pick = (title: string, options: readonly string[], choose: (index: number) => void): void =>
    setChoice({
      title,
      options,
      selected: 0,
      choose: (index) => {
        setChoice(null);
        choose(index);
      },
    });

  return (args) => {
    if (!control) return notice('No MCP servers are configured (see `mca mcp add` or .mcp.json).');
    const servers = control.list();
    const words = args.trim().split(/\s+/).filter(Boolean);
    if (words.length > 0) {
      const [verb, ...rest] = words;
      const name = rest.join(' ');
      const action =
        verb === 'reconnect' || verb === 'disable' || verb === 'enable' || verb === 'login' ? verb : undefined;
      if (!action || !name) return notice('Usage: /mcp, or /mcp reconnect|disable|enable|login <server>', 'warning');
      return run(action, name);
    }
    if (servers.length === 0) return notice('No MCP servers are configured (see `mca mcp add` or .mcp.json).');
    notice(['MCP servers', ...servers.flatMap((status) => serverLines(status, control.canSignIn))].join('\n'));
    const manageable = servers.filter((status) => actionsFor(status).length > 0);
    if (manageable.length === 0) return;
    pick(
      'Manage an MCP server (Esc to close)',
      manageable.map((status) => `${safe(status.name, 60)} (${STATE_LABEL[status.state]})`),
      (index) => {
        const status = manageable[index];
        if (!status) return;
        const actions = actionsFor(status);
        pick(
          `MCP server ${safe(status.name, 60)}`,
          actions.map((action) => ACTION_LABEL[action]),
          (chosen) => {
            const action = actions[chosen];
            if (action) run(action, status.name);
          },
        );
      },
    );
  };
}
