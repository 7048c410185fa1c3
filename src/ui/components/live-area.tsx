import { Box } from 'ink';
import React from 'react';
import type { LiveState } from '../transcript-reducer.js';
import { formatTokens, visibleThought } from '../transcript-reducer.js';
import { Spinner } from './spinner.js';
import { ThoughtLine } from './thought-line.js';
import { ToolCallView } from './tool-call-view.js';

export interface LiveAreaProps {
  live: LiveState;
  width: number;
  /** When the current wait started (turn or compaction). */
  startedAt: number;
  now?: () => number;
}

/** Lines kept of the streaming thought so the live area stays small (no flicker on long replies). */
const STREAM_TAIL_LINES = 6;

/** The redrawn part: streaming thought tail, the running tool, the spinner or compaction progress. */
export function LiveArea({ live, width, startedAt, now }: LiveAreaProps): React.JSX.Element | null {
  if (live.compacting) {
    const { tokensBefore, roundsToArchive } = live.compacting;
    return (
      <Box width={width}>
        <Spinner
          label={`Compacting conversation (${formatTokens(tokensBefore)} tokens, archiving ${roundsToArchive} rounds)…`}
          startedAt={startedAt}
          hint="input paused"
          now={now}
        />
      </Box>
    );
  }
  if (!live.running) return null;
  const thought = visibleThought(live.streamText);
  const tail = thought.split('\n').slice(-STREAM_TAIL_LINES).join('\n');
  return (
    <Box flexDirection="column" width={width} marginTop={1}>
      {tail ? <ThoughtLine text={tail} width={width} /> : null}
      {live.tool ? <ToolCallView tool={live.tool.tool} input={live.tool.input} width={width} /> : null}
      <Spinner
        label={live.tool ? `Running ${live.tool.tool}…` : 'Thinking…'}
        startedAt={startedAt}
        tokens={live.turnTokens + Math.ceil(live.streamText.length / 4)}
        hint="Ctrl-C to interrupt"
        now={now}
      />
    </Box>
  );
}
