/** The answer's Markdown as the terminal shows it (ink-testing-library frames, colours stripped). */
import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../src/ui/components/markdown-view.js';
import { loadHighlighter } from '../../src/ui/markdown.js';
import { plain } from './ink-helpers.js';

function frame(markdown: string, width = 60): string {
  const { lastFrame, unmount } = render(<Markdown text={markdown} width={width} />);
  const text = plain(lastFrame());
  unmount();
  return text;
}

describe('Markdown answers', () => {
  it('shows headings without their # marks, at every level', () => {
    const text = frame('# Title\n\n## Section\n\n### Detail `x`');
    expect(text).toContain('⏺ Title');
    expect(text).toMatch(/^ {2}Section$/m);
    expect(text).toMatch(/^ {2}Detail x$/m);
    expect(text).not.toContain('#');
  });

  it('shows inline code without backticks in paragraphs, list items, nested items and headings', () => {
    const text = frame('Run `npm test` now.\n\n- use `a()`\n  - then `b()`\n\n## The `c` flag');
    expect(text).toContain('Run npm test now.');
    expect(text).toMatch(/• use a\(\)\n\s+• then b\(\)/);
    expect(text).toContain('The c flag');
    expect(text).not.toContain('`');
  });

  it('indents nested lists under their parent and wraps items with a hanging indent', () => {
    const text = frame(
      '- parent item that is long enough to wrap onto a second line here\n  - child\n    - grandchild\n- next',
      40,
    );
    const lines = text.split('\n');
    const parent = lines.findIndex((line) => line.includes('• parent'));
    expect(lines[parent + 1]).toMatch(/^ {4}\S/);
    expect(text).toMatch(/^ {4}• child$/m);
    expect(text).toMatch(/^ {6}• grandchild$/m);
    expect(text).toMatch(/^ {2}• next$/m);
  });

  it('numbers ordered lists from their start', () => {
    const text = frame('3. three\n4. four');
    expect(text).toMatch(/3\. three\n\s+4\. four/);
  });

  it('shows fenced code without its fences, line for line, keeping indentation', () => {
    const text = frame('Code:\n\n```ts\nfunction f() {\n  return 1;\n}\n```\n\nAfter.');
    expect(text).not.toContain('```');
    expect(text).toMatch(/^ {2}function f\(\) \{\n {4}return 1;\n {2}\}$/m);
    expect(text).toContain('After.');
  });

  it('keeps highlighted code line for line (colours aside) once the highlighter is loaded', async () => {
    await loadHighlighter();
    const text = frame('```python\ndef f(x):\n    return x  # twice\n```');
    expect(text).toBe('⏺ def f(x):\n      return x  # twice');
  });

  it('puts exactly one blank line between blocks and none inside a tight list', () => {
    const text = frame('Intro.\n\n\n\n- a\n- b\n\n\nEnd.');
    expect(text).toBe('⏺ Intro.\n\n  • a\n  • b\n\n  End.');
  });

  it('shows control sequences in model text visibly instead of sending them to the terminal', () => {
    const { lastFrame, unmount } = render(
      <Markdown text={'title \x1b]2;pwned\x07 clip \x1b]52;c;aGk=\x07 hidden \x1b[8mx\x1b[0m'} width={80} />,
    );
    const raw = lastFrame() ?? '';
    unmount();
    expect(raw).not.toContain('\x1b]');
    expect(raw).not.toContain('\x1b[8m');
    expect(plain(raw)).toContain('␛]2;pwned␇');
    expect(plain(raw)).toContain('␛]52;c;aGk=␇');
  });

  it('a wrapped row never starts with the space after a word that filled the row before (issue 41)', () => {
    // The text column is 8 wide (10 minus the gutter): "aaaaaaaa" and "eeeeeeee" fill a row exactly. (Two such
    // words in a row still leave a blank row where the space was: Ink wraps before the row is trimmed.)
    const rows = frame('aaaaaaaa bbbb cc dd **eeeeeeee** ff gg', 10).split('\n');
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row).toMatch(/^(⏺| ) \S/);
  });

  it('a tab in an answer is spaces to the next stop, so rows stay inside the box (issue 41)', () => {
    const text = frame('key\tvalue\tmore words that wrap past the edge of this narrow box', 30);
    expect(text).not.toContain('\t');
    expect(text).toContain('key value   more');
    for (const row of text.split('\n')) expect(row.length).toBeLessThanOrEqual(30);
  });
});
