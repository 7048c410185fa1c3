import { Box, Text } from 'ink';
import React from 'react';

export interface DiffViewProps {
  diff: string;
  width: number;
  /** Lines shown before "… N more lines". */
  maxLines?: number;
}

type DiffLine = { kind: 'add' | 'remove' | 'context' | 'hunk'; text: string };

/** Unified diff body lines; file headers (---/+++/Index/===) are dropped. */
export function diffLines(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const line of diff.split('\n')) {
    if (/^(---|\+\+\+|Index:|={5,}|diff --git|\\ No newline)/.test(line)) continue;
    if (line.startsWith('@@')) out.push({ kind: 'hunk', text: line });
    else if (line.startsWith('+')) out.push({ kind: 'add', text: line });
    else if (line.startsWith('-')) out.push({ kind: 'remove', text: line });
    else if (line.length > 0) out.push({ kind: 'context', text: line });
  }
  return out;
}

const COLORS: Record<DiffLine['kind'], string | undefined> = {
  add: 'green',
  remove: 'red',
  context: undefined,
  hunk: 'cyan',
};

/** A coloured diff: green +, red −, dim context, capped with "… N more lines". */
export function DiffView({ diff, width, maxLines = 12 }: DiffViewProps): React.JSX.Element {
  const all = diffLines(diff);
  const shown = all.slice(0, maxLines);
  const hidden = all.length - shown.length;
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((line, index) => (
        <Text
          key={index}
          color={COLORS[line.kind]}
          dimColor={line.kind === 'context' || line.kind === 'hunk'}
          wrap="truncate-end"
        >
          {line.kind === 'remove' ? `−${line.text.slice(1)}` : line.text}
        </Text>
      ))}
      {hidden > 0 ? <Text dimColor>… {hidden} more lines (Ctrl-O to show all)</Text> : null}
    </Box>
  );
}
