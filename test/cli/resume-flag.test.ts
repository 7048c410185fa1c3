import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/exit-codes.js';
import { parseCliArgs } from '../../src/cli/program.js';

describe('-r / --resume', () => {
  it('takes a session id, or alone asks for the picker', () => {
    expect(parseCliArgs(['-r', 'abc123'], '0.0.0')).toMatchObject({ resume: 'abc123', pickSession: false });
    expect(parseCliArgs(['-r'], '0.0.0')).toMatchObject({ resume: undefined, pickSession: true });
    expect(parseCliArgs([], '0.0.0')).toMatchObject({ resume: undefined, pickSession: false });
  });

  it('refuses -r without an id in print mode, and -r with -c', () => {
    expect(() => parseCliArgs(['-p', 'hi', '-r'], '0.0.0')).toThrow(CliError);
    expect(() => parseCliArgs(['-c', '-r'], '0.0.0')).toThrow(/either --continue or --resume/);
  });
});

describe('--tool-protocol', () => {
  it('takes native or text and refuses anything else in one line', () => {
    expect(parseCliArgs(['--tool-protocol', 'text', '-p', 'x'], '0.0.0')).toMatchObject({ toolProtocol: 'text' });
    expect(parseCliArgs(['-p', 'x'], '0.0.0')).toMatchObject({ toolProtocol: undefined });
    expect(() => parseCliArgs(['--tool-protocol', 'json', '-p', 'x'], '0.0.0')).toThrow(/native, text/);
  });
});
