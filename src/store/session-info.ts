/** One stored session as a picker lists it (the session store's `list()`). */
export interface SessionInfo {
  id: string;
  /** ISO time of the last write. */
  updatedAt: string;
  /** First user message, one line, for pickers. */
  title: string;
  messages: number;
}
