/**
 * Images attached to submitted prompts, kept for ↑/↓ recall within one REPL session: recalling a prompt that was
 * sent with `[Image #N]` brings the image back with it, so sending it again sends the image block again.
 *
 * Contract:
 * - Keyed by the history entry's text (the newest submission of a text wins), for the newest
 *   MAX_ENTRIES_WITH_IMAGES entries that had images: each image can be megabytes, so older ones are let go.
 * - Never written to the history file: it holds text only (a 0600 file rewritten on every submit; screenshots may
 *   be large and private), so after a restart, or once an entry's images were let go, a recalled `[Image #N]`
 *   reads `[Image #N (no longer attached)]` instead of silently sending the text without the image.
 */
/** Entries whose images are kept for recall (each image is at most 5 MB). */
export const MAX_ENTRIES_WITH_IMAGES = 10;

/** What is kept of an image paste (input-state.ts's PastedBlock; structural, so this file imports nothing). */
interface ImageBlock {
  placeholder: string;
  image?: unknown;
}

export type HistoryImages<Block extends ImageBlock = ImageBlock> = ReadonlyMap<string, readonly Block[]>;

const PLACEHOLDER = /\[Image #(\d+)\]/g;

/** The images still referenced by `text` (one whose placeholder was deleted is not kept). */
function imagesIn<Block extends ImageBlock>(text: string, pastes: readonly Block[]): Block[] {
  return pastes.filter((paste) => paste.image !== undefined && text.includes(paste.placeholder));
}

/** `images` after `entry` was submitted with `pastes`: its images kept (newest last), the oldest let go. */
export function rememberImages<Block extends ImageBlock>(
  images: HistoryImages<Block>,
  entry: string,
  pastes: readonly Block[],
): HistoryImages<Block> {
  const kept = imagesIn(entry, pastes);
  const next = new Map(images);
  next.delete(entry);
  if (kept.length > 0) next.set(entry, kept);
  while (next.size > MAX_ENTRIES_WITH_IMAGES) next.delete(next.keys().next().value ?? '');
  return next;
}

/**
 * A history entry as the input box shows it on recall: with the images it was sent with, or, for a placeholder
 * whose image is not kept, a text that says so.
 */
export function recallEntry<Block extends ImageBlock>(
  images: HistoryImages<Block>,
  entry: string,
): { text: string; pastes: Block[] } {
  const pastes = [...(images.get(entry) ?? [])];
  const attached = new Set(pastes.map((paste) => paste.placeholder));
  const text = entry.replace(PLACEHOLDER, (placeholder: string, ordinal: string) =>
    attached.has(placeholder) ? placeholder : `[Image #${ordinal} (no longer attached)]`,
  );
  return { text, pastes };
}
