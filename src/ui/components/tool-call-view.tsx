import { Box, Text } from 'ink';
import React from 'react';
import type { ToolEnvelope } from '../../tools/registry/envelope.js';
import { bashTail, fullOutput, resultDiff, streams, summarizeCall, summarizeResult } from '../format-tool.js';
import { DiffView } from './diff-view.js';
import { subagentStepLines } from '../subagent-steps-view.js';

export interface ToolCallViewProps {
  tool: string;
  input: unknown;
  /** Absent while the tool runs. */
  result?: ToolEnvelope;
  width: number;
  /** The verbose transcript (Ctrl-O): whole outputs and diffs instead of their tails. */
  verbose?: boolean;
  /** Replaces `Tool(arg)`, e.g. `! ls` for a command the user ran. */
  title?: string;
}

const GUTTER = '  ⎿  ';
const TAIL_LINES = 5;
const DIFF_LINES = 12;

function OutputLines({ lines, color }: { lines: string[]; color?: string }): React.JSX.Element {
  return (
    <>
      {lines.map((line, index) => (
        <Text key={index} color={color} dimColor={!color} wrap="wrap">
          {line || ' '}
        </Text>
      ))}
    </>
  );
}

/** `● Read(src/a.ts)` with a `⎿ 120 lines` result line, a diff for edits, the output tail for Bash. */
export function ToolCallView({ tool, input, result, width, verbose, title }: ToolCallViewProps): React.JSX.Element {
  const call = title ?? summarizeCall(tool, input, width - 2);
  const bullet = !result ? 'yellow' : result.status === 'error' ? 'red' : 'green';
  const summary = result ? summarizeResult(tool, result) : null;
  const diff = result ? resultDiff(tool, result) : undefined;
  const tail = result && streams(tool) ? bashTail(result, verbose ? Infinity : TAIL_LINES) : null;
  const text = result && verbose ? fullOutput(tool, result) : '';
  const inner = width - GUTTER.length;
  // An Agent call in the verbose transcript: the subagent's tool calls, one line each, above its answer.
  const steps = result && verbose ? subagentStepLines(tool, result, inner - 2) : undefined;
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
          <DiffView diff={diff} width={inner} maxLines={verbose ? Infinity : DIFF_LINES} />
        </Box>
      ) : null}
      {tail && (tail.stdout.length > 0 || tail.stderr.length > 0) ? (
        <Box marginLeft={GUTTER.length} flexDirection="column" width={inner}>
          {tail.hidden > 0 ? <Text dimColor>… {tail.hidden} earlier lines (Ctrl-O to show all)</Text> : null}
          <OutputLines lines={tail.stdout} />
          <OutputLines lines={tail.stderr} color="red" />
        </Box>
      ) : null}
      {steps ? (
        <Box marginLeft={GUTTER.length} flexDirection="column" width={inner}>
          {steps.map((step, index) => (
            <Text key={index} color={step.failed ? 'red' : undefined} dimColor={!step.failed} wrap="truncate-end">
              {`· ${step.text}`}
            </Text>
          ))}
        </Box>
      ) : null}
      {text ? (
        <Box marginLeft={GUTTER.length} flexDirection="column" width={inner}>
          <OutputLines lines={text.split('\n')} />
        </Box>
      ) : null}
    </Box>
  );
}
