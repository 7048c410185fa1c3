import { StringDecoder } from 'node:string_decoder';

export const BASH_MAX_OUTPUT_CHARS = 30_000;

/**
 * Collects a stream's text in bounded memory: the first half of the cap and a rolling tail of the other half.
 * The rendered text keeps head and tail with a `… [N chars truncated] …` marker between them.
 */
export class CappedOutput {
  private readonly decoder = new StringDecoder('utf8');
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly cap = BASH_MAX_OUTPUT_CHARS) {}

  push(chunk: Buffer | string): void {
    this.append(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
  }

  end(): void {
    this.append(this.decoder.end());
  }

  private append(text: string): void {
    if (text === '') return;
    this.total += text.length;
    const headRoom = Math.ceil(this.cap / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += text.slice(0, headRoom);
      text = text.slice(headRoom);
    }
    if (text === '') return;
    this.tail += text;
    if (this.tail.length > this.cap * 2) this.tail = this.tail.slice(-this.cap);
  }

  get truncated(): boolean {
    return this.total > this.cap;
  }

  text(): string {
    if (!this.truncated) return this.head + this.tail;
    const keepTail = this.cap - this.head.length;
    return `${this.head}\n… [${this.total - this.cap} chars truncated] …\n${this.tail.slice(-keepTail)}`;
  }
}
