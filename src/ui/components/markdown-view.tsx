import { Box, Text } from 'ink';
import React, { useMemo } from 'react';
import { renderMarkdown } from '../markdown.js';

export interface MarkdownProps {
  text: string;
  width: number;
}

/** The final answer: `⏺` gutter, Markdown rendered for the terminal. */
export function Markdown({ text, width }: MarkdownProps): React.JSX.Element {
  const rendered = useMemo(() => renderMarkdown(text, width - 2), [text, width]);
  return (
    <Box width={width}>
      <Box width={2} flexShrink={0}>
        <Text>⏺</Text>
      </Box>
      <Box width={width - 2} flexDirection="column">
        <Text>{rendered}</Text>
      </Box>
    </Box>
  );
}
