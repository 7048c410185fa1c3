import { Box, Text } from 'ink';
import React from 'react';
import type { ToolEnvelope } from '../../tools/envelope.js';
import { bashTail, resultDiff, summarizeCall, summarizeResult } from '../format-tool.js';
import { DiffView } from './diff-view.js';

export interface ToolCallViewProps {
  tool: string;
  input: unknown;
  /** Absent while the tool runs. */
  result?: ToolEnvelope;
  width: number;
}

const GUTTER = '  ⎿  ';

/** `● Read(src/a.ts)` with a `⎿ 120 lines` result line, a diff for edits, the output tail for Bash. */
export function ToolCallView({ tool, input, result, width }: ToolCallViewProps): React.JSX.Element {
  const call = summarizeCall(tool, input, width - 2);
  const bullet = !result ? 'yellow' : result.status === 'error' ? 'red' : 'green';
  const summary = result ? summarizeResult(tool, result) : null;
  const diff = result ? resultDiff(tool, result) : undefined;
  const tail = result && tool === 'Bash' ? bashTail(result) : null;
  const inner = width - GUTTER.length;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color={bullet}>● </Text>
        <Text bold>{call}</Text>
      </Text>
      {summary ? (
        <Box>
          <Text dimColor>{GUTTER}</Text>
          <Box width={inner}>
            <Text
              color={summary.tone === 'error' ? 'red' : undefined}
              dimColor={summary.tone === 'normal'}
              wrap="truncate-end"
            >
              {summary.line}
            </Text>
          </Box>
        </Box>
      ) : (
        <Text dimColor>{GUTTER}running…</Text>
      )}
      {diff ? (
        <Box marginLeft={GUTTER.length}>
          <DiffView diff={diff} width={inner} />
        </Box>
      ) : null}
      {tail && (tail.stdout.length > 0 || tail.stderr.length > 0) ? (
        <Box marginLeft={GUTTER.length} flexDirection="column" width={inner}>
          {tail.stdout.map((line, index) => (
            <Text key={`o${index}`} dimColor wrap="truncate-end">
              {line || ' '}
            </Text>
          ))}
          {tail.stderr.map((line, index) => (
            <Text key={`e${index}`} color="red" wrap="truncate-end">
              {line || ' '}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
