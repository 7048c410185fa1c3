import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptItemView } from '../../src/ui/components/transcript-item-view.js';

afterEach(() => cleanup());

describe('a notice in the transcript', () => {
  it("shows a server's escape sequences as visible characters instead of passing them to the terminal", () => {
    const text = 'MCP server "evil\u001b]0;pwned\u0007" failed: \u001b[8mhidden\u001b[0m';
    const view = render(
      <TranscriptItemView item={{ id: 1, kind: 'notice', tone: 'warning', text }} width={100} verbose={false} />,
    );
    const frame = view.lastFrame() ?? '';
    expect(frame).not.toContain('\u001b]0;');
    expect(frame).not.toContain('\u001b[8m');
    expect(frame).toContain('␛]0;pwned␇');
    expect(frame).toContain('␛[8mhidden');
  });
});
