import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { EXIT_PLAN_MODE } from '../../tools/planning/exit-plan-mode.js';
import type { ApprovalRequest } from '../../tools/registry/tool-context.js';
import type { InputState } from '../input-state.js';
import { clampScroll, detailRows, detailWindow } from '../permission-detail.js';
import { InputBox } from './input-box.js';
import { LOCAL_SETTINGS_FILE } from '../../permissions/settings-writer.js';

export type PermissionChoice = 'once' | 'session' | 'always' | 'no' | 'planAcceptEdits' | 'planDefault';

export interface PermissionOption {
  choice: PermissionChoice;
  label: string;
  /** The digit that picks it: stable, whatever else is offered (1 yes, 2 don't ask again, 3 no, 4 always). */
  key: number;
  /** Shown but not selectable: "don't ask again" for a command no prefix rule would cover. */
  disabled?: boolean;
}

/**
 * The options for one request, numbered as Claude Code numbers them so muscle memory never grants: 1 yes,
 * 2 yes and don't ask again (this session; shown disabled, never renumbered, when the approver gave no scope, as
 * for a compound command), 3 no and say what to do differently. A permanent rule is option 4, below "No", and
 * only after a confirmation key (`y`): never one keypress away from a decline. It writes the project's
 * .claude/settings.local.json.
 */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  if (request.tool === EXIT_PLAN_MODE) {
    return [
      { choice: 'planAcceptEdits', label: 'Yes, and auto-accept edits', key: 1 },
      { choice: 'planDefault', label: 'Yes, and ask before each edit', key: 2 },
      { choice: 'no', label: 'No, keep planning (tell mca what to change)', key: 3 },
    ];
  }
  const scope = request.remember;
  const options: PermissionOption[] = [{ choice: 'once', label: 'Yes', key: 1 }];
  options.push(
    scope
      ? {
          choice: 'session',
          label: `Yes, and don't ask again for ${neutralizeControlSequences(scope.label)} this session`,
          key: 2,
        }
      : {
          choice: 'session',
          label: `Yes, and don't ask again (not offered: ${neutralizeControlSequences(
            request.askedBy ?? 'no one rule would cover this whole call',
          )})`,
          key: 2,
          disabled: true,
        },
  );
  options.push({ choice: 'no', label: 'No, and tell mca what to do differently (esc)', key: 3 });
  if (scope) {
    options.push({
      choice: 'always',
      label: `Always allow ${neutralizeControlSequences(scope.rule)} here (${LOCAL_SETTINGS_FILE}; then y)`,
      key: 4,
    });
  }
  return options;
}

export interface PermissionPromptProps {
  request: ApprovalRequest;
  /** Index into permissionOptions(request), the highlighted option. */
  selected: number;
  /** Set once option 3 was chosen: the one-line reason being typed. */
  reason: InputState | null;
  /** Option 4 was chosen: waiting for `y` to save the rule permanently. */
  confirmAlways?: boolean;
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
export function PermissionPrompt({
  request,
  selected,
  reason,
  confirmAlways,
  scroll,
  width,
  rows,
}: PermissionPromptProps) {
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
      ) : confirmAlways && request.remember ? (
        <Box flexDirection="column" marginTop={1}>
          <Text color="yellow" wrap="truncate-end">
            Save {neutralizeControlSequences(request.remember.rule)} to {LOCAL_SETTINGS_FILE} for every later session
            here?
          </Text>
          <Text dimColor wrap="truncate-end">
            y = save and run · any other key = back to the options · Esc = no, stop the turn
          </Text>
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={all.length > 0 ? 1 : 0}>
          {options.map(({ label, key, disabled }, index) => (
            <Text
              key={key}
              color={index === selected ? 'cyan' : undefined}
              dimColor={disabled === true}
              wrap="truncate-end"
            >
              {index === selected ? '❯ ' : '  '}
              {key}. {label}
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
