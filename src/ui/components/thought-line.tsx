import { Box, Text } from 'ink';
import React from 'react';

/** The model's Thought: a dim ✻ gutter and italic text, used live while streaming and once it is final. */
export function ThoughtLine({ text, width }: { text: string; width: number }): React.JSX.Element {
  return (
    <Box width={width}>
      <Box width={2} flexShrink={0}>
        <Text dimColor>✻</Text>
      </Box>
      <Box width={width - 2}>
        <Text dimColor italic>
          {text}
        </Text>
      </Box>
    </Box>
  );
}
