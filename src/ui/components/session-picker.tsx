import { Box, Text } from 'ink';
import React from 'react';
import type { SessionInfo } from '../../loop/controller.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';

export interface SessionPickerProps {
  sessions: readonly SessionInfo[] | null;
  selected: number;
  width: number;
  /** Rows shown around the selection. */
  visible?: number;
}

function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** `/resume`: past sessions, newest first; ↑/↓ to move, Enter to resume, Esc to cancel. */
export function SessionPicker({ sessions, selected, width, visible = 10 }: SessionPickerProps): React.JSX.Element {
  if (sessions === null) return <Text dimColor>Loading sessions…</Text>;
  if (sessions.length === 0) return <Text dimColor>No past sessions in this project. (Esc)</Text>;
  const first = Math.max(0, Math.min(selected - Math.floor(visible / 2), sessions.length - visible));
  const rows = sessions.slice(first, first + visible);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
      <Text bold>Resume a session (↑↓ Enter · Esc cancels)</Text>
      {rows.map((session, offset) => {
        const index = first + offset;
        const active = index === selected;
        return (
          <Text key={session.id} color={active ? 'cyan' : undefined} wrap="truncate-end">
            {active ? '❯ ' : '  '}
            {when(session.updatedAt)} · {session.id.slice(0, 8)} · {session.messages} msgs ·{' '}
            {neutralizeControlSequences(session.title) || '(empty)'}
          </Text>
        );
      })}
    </Box>
  );
}
