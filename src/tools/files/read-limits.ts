/** Read's output bounds (also Recall's, which shows a stored result the way Read shows a file). */
export const READ_MAX_LINE_CHARS = 2000;
/**
 * One Read returns at most this much text (≈ 33k tokens), whatever the line limit: 2,000 lines of 2,000
 * characters would otherwise fill a whole context window. The footer says where to continue.
 */
export const READ_MAX_OUTPUT_CHARS = 100_000;
/** Above this size the line count is not computed (that would mean reading the whole file). */
export const READ_FULL_SCAN_BYTES = 10 * 1024 * 1024;
