/**
 * What a stored user message says in the user's own words: mca appends `<system-reminder>` blocks (mentions, plan
 * mode, hook context) and puts a `!` command the user ran before their next message as a `<user-shell-command>`
 * note (src/driver/shell-lines.ts writes it). Everything that shows a prompt back to a person (the REPL replay,
 * ACP history, the rewind list, `/export`) reads it through here, so none shows mca's own text as the user's.
 */

const REMINDER = /\n*<system-reminder>[\s\S]*?<\/system-reminder>\s*/g;
const SHELL_NOTE = /<user-shell-command>\n[\s\S]*?\n<\/user-shell-command>\n*/g;

/** A stored user message without the shell notes it carried. */
export function withoutShellNotes(text: string): string {
  return text.replace(SHELL_NOTE, '');
}

/** A stored user message without mca's reminders. */
export function withoutReminders(text: string): string {
  return text.replace(REMINDER, '\n');
}

/** The commands of the shell notes a stored user message carries (`$ command` lines), in order. */
export function shellCommandsOf(text: string): string[] {
  return [...text.matchAll(SHELL_NOTE)].flatMap((note) => {
    const command = /^\$ (.*)$/m.exec(note[0])?.[1];
    return command ? [command] : [];
  });
}

/** The user's own words: no reminders, no shell notes, trimmed. */
export function userWords(text: string): string {
  return withoutShellNotes(withoutReminders(text)).trim();
}

/** A prompt as a one-line label: the user's words, or `! command` when the message held only shell notes. */
export function promptLabel(text: string): string {
  const words = userWords(text);
  if (words !== '') return words;
  return shellCommandsOf(text)
    .map((command) => `! ${command}`)
    .join(' · ');
}
