import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { EXIT_PLAN_MODE } from '../../tools/exit-plan-mode.js';
import type { ApprovalRequest } from '../../tools/tool-context.js';
import type { InputState } from '../input-state.js';
import { clampScroll, detailRows, detailWindow } from '../permission-detail.js';
import { InputBox } from './input-box.js';

export type PermissionChoice = 'once' | 'session' | 'always' | 'no' | 'planAcceptEdits' | 'planDefault';

/**
 * The options for one request. "Don't ask again" is offered only when the approver said what it would cover
 * (`request.remember`: a Bash command's prefix, or file edits), and names it; "always" writes that rule to the
 * project's .mca/settings.local.json.
 */
export function permissionOptions(request: ApprovalRequest): Array<{ choice: PermissionChoice; label: string }> {
  if (request.tool === EXIT_PLAN_MODE) {
    return [
      { choice: 'planAcceptEdits', label: 'Yes, and auto-accept edits' },
      { choice: 'planDefault', label: 'Yes, and ask before each edit' },
      { choice: 'no', label: 'No, keep planning (tell mca what to change)' },
    ];
  }
  const options: Array<{ choice: PermissionChoice; label: string }> = [{ choice: 'once', label: 'Yes' }];
  const scope = request.remember;
  if (scope) {
    const label = neutralizeControlSequences(scope.label);
    options.push({ choice: 'session', label: `Yes, and don't ask again for ${label} this session` });
    options.push({
      choice: 'always',
      label: `Yes, and always allow ${neutralizeControlSequences(scope.rule)} here (.mca/settings.local.json)`,
    });
  }
  options.push({ choice: 'no', label: 'No, and tell mca what to do differently' });
  return options;
}

export interface PermissionPromptProps {
  request: ApprovalRequest;
  /** Index into permissionOptions(request), the highlighted option. */
  selected: number;
  /** Set once option 3 was chosen: the one-line reason being typed. */
  reason: InputState | null;
  /** First detail row shown. */
  scroll: number;
  width: number;
  /** Terminal rows: a longer command or diff scrolls inside the prompt. */
  rows: number;
}

/**
 * The approval dialog: title, the whole command or diff (scrolling with PgUp/PgDn when it is taller than the
 * screen allows, with the hidden rows counted), the numbered options (or the reason input after "No").
 */
export function PermissionPrompt({ request, selected, reason, scroll, width, rows }: PermissionPromptProps) {
  const inner = width - 4;
  const all = detailRows(request, inner);
  const window = detailWindow(rows);
  const first = clampScroll(scroll, all.length, window);
  const shown = all.slice(first, first + window);
  const below = all.length - first - shown.length;
  const options = permissionOptions(request);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" width={width} paddingX={1}>
      <Text bold color="yellow" wrap="truncate-end">
        {request.tool === EXIT_PLAN_MODE ? 'Approve this plan?' : `Allow ${neutralizeControlSequences(request.title)}?`}
      </Text>
      {first > 0 ? <Text dimColor>↑ {first} more lines above (PgUp)</Text> : null}
      {shown.map((row, index) => (
        <Text key={index} color={row.color} dimColor={row.dim} wrap="truncate-end">
          {row.text || ' '}
        </Text>
      ))}
      {below > 0 ? (
        <Text color="yellow" bold>
          ↓ {below} more lines below (PgDn to read them before answering)
        </Text>
      ) : null}
      {reason ? (
        <Box flexDirection="column" marginTop={1}>
          <Text wrap="truncate-end">Tell mca what to do differently (Enter to send, Esc to just stop):</Text>
          <InputBox state={reason} width={inner} />
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={all.length > 0 ? 1 : 0}>
          {options.map(({ label }, index) => (
            <Text key={label} color={index === selected ? 'cyan' : undefined} wrap="truncate-end">
              {index === selected ? '❯ ' : '  '}
              {index + 1}. {label}
            </Text>
          ))}
          <Text dimColor wrap="truncate-end">
            1–{options.length} · y/n · ↑↓ Enter · Esc = no, stop the turn
            {all.length > window ? ' · PgUp/PgDn scroll' : ''}
          </Text>
        </Box>
      )}
    </Box>
  );
}
