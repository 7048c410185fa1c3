/**
 * The edit tools' working code: reading the target, applying an edit, the diff shown for approval and the atomic
 * write. Edit, MultiEdit and Write import it on their first call, so describing the tools to the model loads none
 * of it (a plain answer never edits).
 */
export { applyEdit, lineCount, unifiedDiff } from './edit-core.js';
export { commitChange, loadTarget } from './file-change.js';
