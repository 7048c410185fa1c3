import { Box, Text } from 'ink';
import React from 'react';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import type { InputState } from '../input-state.js';

export interface InputBoxProps {
  state: InputState;
  width: number;
  /** Shown dim when the buffer is empty. */
  placeholder?: string;
  /** No cursor and dim text, e.g. while a compaction blocks input. */
  disabled?: boolean;
  /** `!command` mode: a magenta frame and `!` prompt. */
  shell?: boolean;
  /** Ctrl+R's reverse search is open: this line replaces the text. */
  searchLine?: string;
}

function CursorLine({ line, cursor }: { line: string; cursor: number | null }): React.JSX.Element {
  if (cursor === null) return <Text>{line || ' '}</Text>;
  const at = line[cursor] ?? ' ';
  return (
    <Text>
      {line.slice(0, cursor)}
      <Text inverse>{at}</Text>
      {line.slice(cursor + 1)}
    </Text>
  );
}

/**
 * The bordered prompt: `>` on the first line, the cursor drawn inverse, long lines wrapped. In shell mode the `!`
 * the text starts with is the prompt sign, so it is not drawn a second time in the text.
 */
export function InputBox({ state, width, placeholder, disabled, shell, searchLine }: InputBoxProps): React.JSX.Element {
  if (searchLine !== undefined) {
    return (
      <Box borderStyle="round" borderColor="yellow" width={width} paddingX={1}>
        <Text wrap="truncate-end">{neutralizeControlSequences(searchLine)}</Text>
      </Box>
    );
  }
  const hidden = shell && state.text.startsWith('!') ? 1 : 0;
  const shown = state.text.slice(hidden);
  const lines = shown.split('\n');
  const before = shown.slice(0, Math.max(0, state.cursor - hidden)).split('\n');
  const cursorLine = before.length - 1;
  const cursorColumn = (before.at(-1) ?? '').length;
  const empty = state.text.length === 0;

  return (
    <Box
      borderStyle="round"
      borderColor={disabled ? 'gray' : shell ? 'magenta' : 'cyan'}
      width={width}
      paddingX={1}
      flexDirection="column"
    >
      {lines.map((line, index) => (
        <Box key={index}>
          <Box width={2} flexShrink={0}>
            <Text color={shell ? 'magenta' : 'cyan'}>{index === 0 ? (shell ? '!' : '>') : ' '}</Text>
          </Box>
          <Box width={Math.max(1, width - 6)}>
            {empty && placeholder ? (
              <Text dimColor wrap="truncate-end">
                {disabled ? '' : <Text inverse> </Text>}
                {placeholder}
              </Text>
            ) : disabled ? (
              <Text dimColor>{line || ' '}</Text>
            ) : (
              <CursorLine line={line} cursor={index === cursorLine ? cursorColumn : null} />
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
