/** Piped input for `-p` (`git diff | mca -p "review"`). A terminal on stdin means nothing was piped. */
export async function readStdinIfPiped(stream: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
  if (stream.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : text;
}
