import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { helpColumn, helpFooter, helpPages, type HelpEntry } from '../help-pages.js';
import type { SlashCommandEntry } from '../slash-commands.js';

function EntryRows({ entry, column }: { entry: HelpEntry; column: number }): React.JSX.Element {
  const left = neutralizeControlSequences(entry.left);
  const right = neutralizeControlSequences(entry.right);
  // Two spaces at least between the columns; a left text too long for its column gets its own line.
  if ([...left].length + 2 > column) {
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          {'  '}
          {left}
        </Text>
        <Text wrap="truncate-end">
          {'  '}
          {' '.repeat(column)}
          <Text dimColor>{right}</Text>
        </Text>
      </Box>
    );
  }
  return (
    <Text wrap="truncate-end">
      {'  '}
      {left.padEnd(column)}
      <Text dimColor>{right}</Text>
    </Text>
  );
}

/** `/help`: one page of commands or keys (help-pages.ts), sized for a 24-row terminal. */
export function HelpView({
  width,
  custom = [],
  page = 0,
}: {
  width: number;
  /** Custom commands (project and user command directories), listed after the built-in ones. */
  custom?: readonly SlashCommandEntry[];
  /** Which page (0-based). */
  page?: number;
}): React.JSX.Element {
  const pages = helpPages(custom);
  const index = Math.min(Math.max(0, page), pages.length - 1);
  const shown = pages[index];
  if (!shown) return <Text>No help.</Text>;
  const column = helpColumn(shown.entries, width - 2);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{shown.title}</Text>
      {shown.entries.map((entry) => (
        <EntryRows key={entry.left} entry={entry} column={column} />
      ))}
      <Text dimColor wrap="truncate-end">
        {helpFooter(pages, index)}
      </Text>
    </Box>
  );
}
