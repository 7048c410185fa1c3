import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/exit-codes.js';
import { parseCliArgs } from '../../src/cli/program.js';

describe('-r / --resume', () => {
  it('takes a session id, or alone asks for the picker', () => {
    expect(parseCliArgs(['-r', 'abc123'])).toMatchObject({ resume: 'abc123', pickSession: false });
    expect(parseCliArgs(['-r'])).toMatchObject({ resume: undefined, pickSession: true });
    expect(parseCliArgs([])).toMatchObject({ resume: undefined, pickSession: false });
  });

  it('refuses -r without an id in print mode, and -r with -c', () => {
    expect(() => parseCliArgs(['-p', 'hi', '-r'])).toThrow(CliError);
    expect(() => parseCliArgs(['-c', '-r'])).toThrow(/either --continue or --resume/);
  });
});

describe('--tool-protocol', () => {
  it('takes native or text and refuses anything else in one line', () => {
    expect(parseCliArgs(['--tool-protocol', 'text', '-p', 'x'])).toMatchObject({ toolProtocol: 'text' });
    expect(parseCliArgs(['-p', 'x'])).toMatchObject({ toolProtocol: undefined });
    expect(() => parseCliArgs(['--tool-protocol', 'json', '-p', 'x'])).toThrow(/native, text/);
  });
});
