import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';

/** A small list the person picks one line of: `#` (which memory file), `/memory`, `/model`. */
export interface ChoiceState {
  title: string;
  options: readonly string[];
  selected: number;
  /** Called with the chosen index (Enter or its digit); Esc closes without a choice. */
  choose(index: number): void;
}

export function ChoicePicker({ choice, width }: { choice: ChoiceState; width: number }): React.JSX.Element {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={width} paddingX={1}>
      <Text bold>{neutralizeControlSequences(choice.title)}</Text>
      {choice.options.map((option, index) => {
        const active = index === choice.selected;
        return (
          <Text key={index} color={active ? 'cyan' : undefined} wrap="truncate-end">
            {active ? '❯ ' : '  '}
            {index < 9 ? `${index + 1}. ` : '   '}
            {neutralizeControlSequences(option)}
          </Text>
        );
      })}
      <Text dimColor>↑↓ or a number · Enter to choose · Esc to cancel</Text>
    </Box>
  );
}
