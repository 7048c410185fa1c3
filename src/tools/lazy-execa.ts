/**
 * execa is the heaviest module the tools use (hundreds of ms to load on a busy machine). Loading it on the first
 * Bash or ripgrep call keeps it off `mca -p`'s path to the first model request.
 */
import type * as Execa from 'execa';

let execaModule: Promise<typeof Execa> | undefined;

export function loadExeca(): Promise<typeof Execa> {
  execaModule ??= import('execa');
  return execaModule;
}
