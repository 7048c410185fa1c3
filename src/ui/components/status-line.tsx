import type { PermissionMode } from '../../config/config.js';
import { Box, Text } from 'ink';
import { homedir } from 'node:os';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { formatDollars } from '../session-cost.js';
import { truncate } from '../text-width.js';

export interface StatusLineProps {
  model: string;
  /** The permission mode; shown unless default, bypass unmistakably. */
  mode?: PermissionMode;
  cwd: string;
  /** Tokens in use, or null before anything is known. */
  contextTokens: number | null;
  contextWindow: number;
  sessionId: string;
  width: number;
  /** A transient hint that replaces the right side, e.g. "Press Ctrl-C again to exit". */
  hint?: string | undefined;
  /** The session's cost so far, once usage is known and the model has a price. */
  dollars?: number | undefined;
  /** The first line of settings `statusLine`'s command: shown instead of the built-in line once it printed. */
  custom?: string | undefined;
}

/** `/home/me/x` → `~/x`; long paths keep their tail. */
export function shortenPath(path: string, width: number, home: string = homedir()): string {
  const tilde = home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
  if (tilde.length <= width) return tilde;
  return `…${tilde.slice(tilde.length - Math.max(1, width - 1))}`;
}

export function contextPercent(tokens: number | null, window: number): number | null {
  if (tokens === null || window <= 0) return null;
  return Math.min(999, Math.round((tokens / window) * 100));
}

/** The permission mode before the status line: plan and accept-edits tagged, bypass in inverse red. */
export function ModeBadge({ mode }: { mode: PermissionMode }): React.JSX.Element | null {
  if (mode === 'default') return null;
  if (mode === 'bypassPermissions') {
    return (
      <Text backgroundColor="red" color="white" bold>
        {' ⚠ BYPASS PERMISSIONS '}
      </Text>
    );
  }
  const label = mode === 'plan' ? '⏸ plan mode' : '⏵⏵ accept edits';
  return (
    <Text color={mode === 'plan' ? 'cyan' : 'magenta'} bold>
      {label} <Text dimColor>(shift+tab) · </Text>
    </Text>
  );
}

/** One line under the input box: model · cwd · context % · cost · session id (or a hint). */
export function StatusLine(props: StatusLineProps): React.JSX.Element {
  const percent = contextPercent(props.contextTokens, props.contextWindow);
  const context = percent === null ? 'ctx –' : `ctx ${percent}%`;
  const cost = props.dollars === undefined ? '' : ` · ${formatDollars(props.dollars)}`;
  const session = props.sessionId.slice(0, 8);
  const model = neutralizeControlSequences(props.model);
  const fixed = `${truncate(model, 30)} ·  · ${context}${cost} · ${session}`;
  const cwd = shortenPath(neutralizeControlSequences(props.cwd), Math.max(8, props.width - fixed.length - 1));
  const color = percent !== null && percent >= 80 ? 'yellow' : undefined;
  if (props.hint) {
    return (
      <Box width={props.width}>
        <Text color="yellow" wrap="truncate-end">
          {props.hint}
        </Text>
      </Box>
    );
  }
  if (props.custom !== undefined) {
    return (
      <Box width={props.width}>
        <ModeBadge mode={props.mode ?? 'default'} />
        <Text wrap="truncate-end">{neutralizeControlSequences(props.custom)}</Text>
      </Box>
    );
  }
  return (
    <Box width={props.width}>
      <ModeBadge mode={props.mode ?? 'default'} />
      <Text dimColor wrap="truncate-end">
        {truncate(model, 30)} · {cwd} · <Text color={color}>{context}</Text>
        {cost} · {session}
      </Text>
    </Box>
  );
}
