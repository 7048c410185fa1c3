import { Box, Text } from 'ink';
import React from 'react';
import type { ApprovalRequest } from '../../tools/tool-context.js';
import type { InputState } from '../input-state.js';
import { DiffView } from './diff-view.js';
import { InputBox } from './input-box.js';

export const PERMISSION_OPTIONS = [
  'Yes',
  "Yes, and don't ask again this session",
  'No, and tell mca what to do differently',
] as const;

export interface PermissionPromptProps {
  request: ApprovalRequest;
  /** 0..2, the highlighted option. */
  selected: number;
  /** Set once option 3 was chosen: the one-line reason being typed. */
  reason: InputState | null;
  width: number;
}

function looksLikeDiff(detail: string): boolean {
  return /^(@@|---|\+\+\+)/m.test(detail);
}

/** The approval dialog: title, the diff or command, options 1/2/3 (or the reason input after 3). */
export function PermissionPrompt({ request, selected, reason, width }: PermissionPromptProps): React.JSX.Element {
  const inner = width - 4;
  const detail = request.detail?.trim();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" width={width} paddingX={1}>
      <Text bold color="yellow" wrap="truncate-end">
        Allow {request.title}?
      </Text>
      {detail ? (
        looksLikeDiff(detail) ? (
          <DiffView diff={detail} width={inner} maxLines={16} />
        ) : (
          <Box flexDirection="column" width={inner}>
            {detail
              .split('\n')
              .slice(0, 8)
              .map((line, index) => (
                <Text key={index} wrap="truncate-end">
                  {line || ' '}
                </Text>
              ))}
          </Box>
        )
      ) : null}
      {reason ? (
        <Box flexDirection="column">
          <Text wrap="truncate-end">Tell mca what to do differently (Enter to send, Esc to just deny):</Text>
          <InputBox state={reason} width={inner} />
        </Box>
      ) : (
        <Box flexDirection="column">
          {PERMISSION_OPTIONS.map((label, index) => (
            <Text key={label} color={index === selected ? 'cyan' : undefined} wrap="truncate-end">
              {index === selected ? '❯ ' : '  '}
              {index + 1}. {label}
            </Text>
          ))}
          <Text dimColor wrap="truncate-end">
            1/2/3 · y/n · ↑↓ Enter · Esc = no
          </Text>
        </Box>
      )}
    </Box>
  );
}
