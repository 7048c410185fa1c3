/** One row of a permission request's detail (a command, a diff, a plan), styled, before or after wrapping. */
export interface DetailRow {
  text: string;
  color?: 'green' | 'red' | 'cyan';
  dim?: boolean;
}
