import { Box, Text } from 'ink';
import React from 'react';
import type { ModelPrice } from '../../providers/model-prices.js';
import type { Usage } from '../../providers/types.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { dollarsOf, formatDollars } from '../session-cost.js';
import { formatTokens } from '../transcript-reducer.js';

export interface CostViewProps {
  usage: Usage;
  model: string;
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
  width: number;
}

/** `/cost`: the session's tokens by kind and their price at the current model's rates. */
export function CostView({ usage, model: raw, prices, width }: CostViewProps): React.JSX.Element {
  const dollars = dollarsOf(usage, raw, prices);
  // A model name can come from a project's command file (`model:`): shown, never acted on.
  const model = neutralizeControlSequences(raw);
  const rows: Array<[string, number]> = [
    ['Input', usage.inputTokens],
    ['Output', usage.outputTokens],
    ['Cache read', usage.cacheReadInputTokens],
    ['Cache write', usage.cacheCreationInputTokens],
  ];
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Session cost</Text>
      {rows.map(([label, tokens]) => (
        <Text key={label}>
          {'  '}
          {label.padEnd(12)}
          {formatTokens(tokens).padStart(12)} tokens
        </Text>
      ))}
      <Text wrap="wrap">
        {'  '}
        {'Total'.padEnd(12)}
        {dollars === undefined ? (
          <Text dimColor>no price known for {model} (tokens only)</Text>
        ) : (
          <Text bold>{formatDollars(dollars).padStart(12)}</Text>
        )}
        {dollars === undefined ? null : <Text dimColor> at {model} prices</Text>}
      </Text>
    </Box>
  );
}
