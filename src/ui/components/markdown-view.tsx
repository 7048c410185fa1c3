import { Box, Text } from 'ink';
import React, { useMemo } from 'react';
import { Blocks, markdownBlocks } from '../markdown.js';

export interface MarkdownProps {
  text: string;
  width: number;
  /** The `⏺` gutter of an answer's first part; a streamed answer's later parts continue without it. */
  gutter?: boolean;
}

/** The final answer: `⏺` gutter, Markdown rendered for the terminal. */
export function Markdown({ text, width, gutter = true }: MarkdownProps): React.JSX.Element {
  const tokens = useMemo(() => markdownBlocks(text), [text]);
  return (
    <Box width={width}>
      <Box width={2} flexShrink={0}>
        <Text>{gutter ? '⏺' : ' '}</Text>
      </Box>
      <Blocks tokens={tokens} width={width - 2} />
    </Box>
  );
}
