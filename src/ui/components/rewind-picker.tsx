import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { REWIND_CHOICES, type RewindState } from '../rewind-dialog.js';

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 19).replace('T', ' ');
}

function oneLine(text: string): string {
  return neutralizeControlSequences((text.split('\n').find((line) => line.trim() !== '') ?? '').trim()) || '(empty)';
}

/** `/rewind`: the list of prompts (↑↓ Enter, Esc closes), then the three choices with the files they change. */
export function RewindPicker({ state, width, visible = 10 }: { state: RewindState; width: number; visible?: number }) {
  if (state.stage === 'list') {
    const { checkpoints, selected } = state;
    if (checkpoints === null) return <Text dimColor>Loading checkpoints…</Text>;
    if (checkpoints.length === 0) return <Text dimColor>Nothing to rewind in this session yet. (Esc)</Text>;
    const first = Math.max(0, Math.min(selected - Math.floor(visible / 2), checkpoints.length - visible));
    return (
      <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
        <Text bold>Rewind to before a prompt (↑↓ Enter · Esc cancels)</Text>
        {checkpoints.slice(first, first + visible).map((checkpoint, offset) => {
          const active = first + offset === selected;
          const files = `${checkpoint.files.length} file${checkpoint.files.length === 1 ? '' : 's'}`;
          return (
            <Text key={checkpoint.id} color={active ? 'cyan' : undefined} wrap="truncate-end">
              {active ? '❯ ' : '  '}
              {when(checkpoint.ts)} · {files} · {oneLine(checkpoint.text)}
            </Text>
          );
        })}
      </Box>
    );
  }
  const { checkpoint, selected, preview } = state;
  const choice = REWIND_CHOICES[selected];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
      <Text bold wrap="truncate-end">
        Rewind to before: {oneLine(checkpoint.text)} ({when(checkpoint.ts)})
      </Text>
      {REWIND_CHOICES.map((option, index) => (
        <Text key={option.label} color={index === selected ? 'cyan' : undefined}>
          {index === selected ? '❯ ' : '  '}
          {index + 1}. {option.label}
        </Text>
      ))}
      {choice?.code ? (
        preview === null ? (
          <Text dimColor>Looking at the files…</Text>
        ) : (
          <Box flexDirection="column">
            <Text dimColor>
              {preview.items.length === 0
                ? 'No file changes.'
                : `${preview.items.length} file${preview.items.length === 1 ? '' : 's'} will change:`}
            </Text>
            {preview.items.slice(0, 8).map((item) => (
              <Text key={item.path} wrap="truncate-end" color={item.conflict ? 'yellow' : undefined}>
                {'  '}
                {item.target.kind === 'absent' ? 'delete ' : 'restore'} {neutralizeControlSequences(item.path)}
                {item.conflict ? '  (changed outside mca: will be overwritten)' : ''}
              </Text>
            ))}
            {preview.items.length > 8 ? <Text dimColor>{`  … and ${preview.items.length - 8} more`}</Text> : null}
            {preview.notRestorable.map((item) => (
              <Text key={`x${item.path}`} color="red" wrap="truncate-end">
                {'  '}cannot restore {neutralizeControlSequences(item.path)}: {neutralizeControlSequences(item.reason)}
              </Text>
            ))}
          </Box>
        )
      ) : (
        <Text dimColor>Files stay as they are.</Text>
      )}
      <Text dimColor>Enter chooses · Esc goes back</Text>
    </Box>
  );
}
