/**
 * A numbered menu on the terminal before the REPL starts (raw mode, no Ink): the body, the options with the chosen
 * one highlighted (the first at start), Enter takes it, a digit takes that option, arrows move, `d` toggles a
 * fuller body, Esc/Ctrl-C cancel. Redrawn in place. Resolves the option's index, or -1 when cancelled.
 */
import { menuKeys } from './trust-keys.js';

export interface MenuView {
  /** The lines above the options; `full` after `d`. */
  body(full: boolean, width: number): string[];
  options: readonly string[];
  /** Whether `d` means anything here (the hint line says so). */
  toggles: boolean;
}

export async function terminalMenu(view: MenuView): Promise<number> {
  const input = process.stdin;
  let full = false;
  let choice = 0;
  let drawn = 0;
  const draw = (): void => {
    const width = process.stderr.columns || 100;
    const lines = [
      ...view.body(full, width),
      '',
      ...view.options.map((text, index) =>
        index === choice ? `\u001b[36m❯ ${index + 1}. ${text}\u001b[39m` : `  ${index + 1}. ${text}`,
      ),
      '',
      `Enter to confirm · ↑/↓ to choose${view.toggles ? ` · d ${full ? 'for the short list' : 'for the full list'}` : ''} · Esc to exit`,
    ];
    process.stderr.write(`${drawn > 0 ? `\u001b[${drawn}A\r\u001b[J` : ''}${lines.join('\n')}\n`);
    drawn = lines.length;
  };
  input.setRawMode(true);
  input.resume();
  draw();
  const picked = await new Promise<number>((resolve) => {
    const onData = (chunk: Buffer): void => {
      for (const key of menuKeys(chunk.toString('utf8'))) {
        let done: number | undefined;
        if (key === 'up') choice = (choice + view.options.length - 1) % view.options.length;
        else if (key === 'down') choice = (choice + 1) % view.options.length;
        else if (key === 'toggle') full = view.toggles ? !full : full;
        else if (key === 'enter') done = choice;
        else if (key === 'cancel') done = -1;
        else if (key.pick < view.options.length) done = key.pick;
        if (done !== undefined) {
          input.off('data', onData);
          resolve(done);
          return;
        }
        draw();
      }
    };
    input.on('data', onData);
  });
  input.setRawMode(false);
  input.pause();
  return picked;
}
