import { Box, Text } from 'ink';
import React from 'react';
import type { ModelPrice } from '../../providers/model-prices.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { costByModel, formatDollars, totalUsage, type UsageByModel } from '../session-cost.js';
import { formatTokens } from '../transcript-state.js';

export interface CostViewProps {
  usage: UsageByModel;
  /** The current model: it prices usage recorded before calls named their model. */
  model: string;
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
  width: number;
}

/**
 * `/cost`: the session's tokens by kind, then one line per model with its calls priced at that model's rates
 * (archived rounds included), and the total.
 */
export function CostView({ usage, model, prices, width }: CostViewProps): React.JSX.Element {
  const all = totalUsage(usage);
  const { lines, total } = costByModel(usage, model, prices);
  const rows: Array<[string, number]> = [
    ['Input', all.inputTokens],
    ['Output', all.outputTokens],
    ['Cache read', all.cacheReadInputTokens],
    ['Cache write', all.cacheCreationInputTokens],
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
      {lines.map((line) => {
        // A model name can come from a project's command file (`model:`): shown, never acted on.
        const name = neutralizeControlSequences(line.model);
        const tokens = line.usage.inputTokens + line.usage.outputTokens;
        return (
          <Text key={line.model} wrap="truncate-end">
            {'  '}
            {line.dollars === undefined ? (
              <Text dimColor>{'no price'.padStart(12)}</Text>
            ) : (
              formatDollars(line.dollars).padStart(12)
            )}{' '}
            {name} · {formatTokens(tokens)} tokens in/out
          </Text>
        );
      })}
      <Text wrap="wrap">
        {'  '}
        {'Total'.padEnd(12)}
        {total === undefined ? (
          <Text dimColor>
            no price known for{' '}
            {lines.map((line) => neutralizeControlSequences(line.model)).join(', ') ||
              neutralizeControlSequences(model)}{' '}
            (tokens only)
          </Text>
        ) : (
          <Text bold>{formatDollars(total).padStart(12)}</Text>
        )}
        {total !== undefined && lines.some((line) => line.dollars === undefined) ? (
          <Text dimColor> (models without a known price not included)</Text>
        ) : null}
      </Text>
    </Box>
  );
}
