import { Box, Text } from 'ink';
import React from 'react';
import type { ContextReport } from '../../loop/controller.js';
import { formatTokens } from '../transcript-state.js';
import { truncate } from '../text-width.js';

export interface ContextViewProps {
  report: ContextReport;
  width: number;
}

const COLORS: Record<string, string> = {
  l1: 'cyan',
  l2: 'blue',
  l3: 'magenta',
  summaries: 'yellow',
  input: 'green',
  scratchpad: 'green',
  todos: 'green',
};

interface Row {
  label: string;
  tokens: number;
  color: string | undefined;
}

export function contextRows(report: ContextReport): Row[] {
  const rows: Row[] = report.parts.map((part) => ({ label: part.label, tokens: part.tokens, color: COLORS[part.id] }));
  const used = rows.reduce((sum, row) => sum + row.tokens, 0);
  rows.push({ label: 'Free', tokens: Math.max(0, report.contextWindow - used), color: undefined });
  return rows;
}

const SETTING_NAMES: Record<string, string> = {
  contextWindow: 'window',
  compressionThreshold: 'threshold',
  minRetainRounds: 'retained rounds',
  maxOutputTokens: 'output limit',
};

/** `Profile: claude (200k) · 10 rounds kept · window, threshold set by config`. */
export function profileLine(report: ContextReport): string | undefined {
  if (report.profile === undefined) return undefined;
  const own = report.profile.overridden.map((key) => SETTING_NAMES[key] ?? key);
  const set = own.length > 0 ? ` · ${own.join(', ')} set by config` : '';
  return `Profile: ${report.profile.name}${set}`;
}

function percentOf(tokens: number, window: number): string {
  if (window <= 0) return '0%';
  const percent = (tokens / window) * 100;
  return percent > 0 && percent < 1 ? '<1%' : `${Math.round(percent)}%`;
}

/** `/context`: one bar per prompt layer with tokens and % of the window, then free space and last usage. */
export function ContextView({ report, width }: ContextViewProps): React.JSX.Element {
  const rows = contextRows(report);
  // Labels end with the layer name ("(L1)"), so they get the room they need, up to 40% of the line.
  const labelWidth = Math.min(Math.max(12, Math.floor(width * 0.4)), Math.max(...rows.map((row) => row.label.length)));
  const numbers = 18; // " 123,456 tok  12%"
  const barWidth = Math.max(6, width - labelWidth - numbers - 2);
  const window = report.contextWindow;
  const threshold = Math.round(report.compressionThreshold * window);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">
        Context · {formatTokens(window)} token window
      </Text>
      {rows.map((row) => {
        const filled = window > 0 ? Math.min(barWidth, Math.round((row.tokens / window) * barWidth)) : 0;
        const bar = '█'.repeat(row.tokens > 0 ? Math.max(1, filled) : 0);
        return (
          <Text key={row.label} wrap="truncate-end">
            {truncate(row.label, labelWidth).padEnd(labelWidth)}{' '}
            <Text color={row.color} dimColor={!row.color}>
              {(row.color ? bar : '░'.repeat(filled)).padEnd(barWidth)}
            </Text>
            {` ${formatTokens(row.tokens).padStart(8)} ${percentOf(row.tokens, window).padStart(4)}`}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        Last real usage: {formatTokens(report.lastUsage)} tokens ({percentOf(report.lastUsage, window)}) · compacts at{' '}
        {formatTokens(threshold)}
      </Text>
      <Text dimColor wrap="truncate-end">
        {report.rounds} {report.rounds === 1 ? 'round' : 'rounds'} · {report.summaries}{' '}
        {report.summaries === 1 ? 'summary' : 'summaries'}
      </Text>
      {report.profile ? (
        <Text dimColor wrap="truncate-end">
          {profileLine(report)}
        </Text>
      ) : null}
    </Box>
  );
}
