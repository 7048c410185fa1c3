/**
 * What the providers read from a response's headers (a subset of the fetch Headers class). Its own file so the
 * error texts (retry-after) and the transport share it without importing each other.
 */
export interface HeaderLookup {
  get(name: string): string | null;
}
