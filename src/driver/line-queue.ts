/**
 * Lines submitted while the driver is busy, each with the images it carries, run in order once it is free; the
 * front may drop the newest (Esc). `texts` is a new array after each change (fronts compare it by identity).
 */
import type { ImagePart } from '../text/image-part.js';

/** The images a line carries (a pasted image, an ACP prompt's image), for its turn. */
export type Images = readonly ImagePart[];

export class LineQueue {
  private entries: Array<{ text: string; images: Images }> = [];
  private textsNow: readonly string[] = [];

  get texts(): readonly string[] {
    return this.textsNow;
  }

  push(text: string, images: Images): void {
    this.entries.push({ text, images });
    this.changed();
  }

  /** Drops the newest line; false when none was queued. */
  dropNewest(): boolean {
    if (this.entries.pop() === undefined) return false;
    this.changed();
    return true;
  }

  /** The oldest line, taken off the queue. */
  shift(): { text: string; images: Images } | undefined {
    const first = this.entries.shift();
    if (first) this.changed();
    return first;
  }

  private changed(): void {
    this.textsNow = this.entries.map((entry) => entry.text);
  }
}
