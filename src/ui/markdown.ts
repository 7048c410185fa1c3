/** Renders the final answer's Markdown for the terminal (marked + marked-terminal), fitted to a width. */
import { Marked, type MarkedExtension } from 'marked';
import { markedTerminal } from 'marked-terminal';

const renderers = new Map<number, Marked>();

function rendererFor(width: number): Marked {
  let marked = renderers.get(width);
  if (!marked) {
    // The published types declare a renderer class, but the function returns a marked extension.
    // No reflow here: Ink word-wraps to the box width, which also keeps list items intact.
    const extension = markedTerminal({ width, reflowText: false, tab: 2 }) as unknown as MarkedExtension;
    marked = new Marked(extension);
    renderers.set(width, marked);
  }
  return marked;
}

/** Terminal text for `markdown`; falls back to the source if rendering fails. Trailing blank lines are dropped. */
export function renderMarkdown(markdown: string, width: number): string {
  try {
    const out = rendererFor(Math.max(20, width)).parse(markdown, { async: false });
    return out.replace(/\s+$/, '');
  } catch {
    return markdown.trim();
  }
}
