import { Box, Text } from 'ink';
import React from 'react';
import { truncate } from '../text-width.js';

export interface Suggestion {
  label: string;
  description?: string;
}

export interface SuggestionsProps {
  items: readonly Suggestion[];
  width: number;
  /** Highlighted entry, if any. */
  selected?: number;
  max?: number;
}

/** Up to `max` completions under the input box (paths or slash commands). */
export function Suggestions({ items, width, selected, max = 8 }: SuggestionsProps): React.JSX.Element | null {
  if (items.length === 0) return null;
  const shown = items.slice(0, max);
  const labelWidth = Math.min(Math.max(...shown.map((item) => item.label.length)) + 2, Math.floor(width / 2));
  return (
    <Box flexDirection="column" width={width} paddingLeft={2}>
      {shown.map((item, index) => (
        <Text key={item.label} color={index === selected ? 'cyan' : undefined} wrap="truncate-end">
          {truncate(item.label, labelWidth - 1).padEnd(labelWidth)}
          {item.description ? <Text dimColor>{item.description}</Text> : null}
        </Text>
      ))}
      {items.length > shown.length ? <Text dimColor>… {items.length - shown.length} more</Text> : null}
    </Box>
  );
}
