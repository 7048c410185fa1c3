/**
 * A throw-away self-signed certificate for 127.0.0.1, made with openssl for a loopback https server. Returns
 * undefined when openssl is not installed, so the tests that need it can skip (and say so) instead of failing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSignedCert {
  key: Buffer;
  cert: Buffer;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS in a child process. */
  certPath: string;
  /** Deletes the files. */
  remove(): void;
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeSelfSignedCert(): SelfSignedCert {
  const dir = mkdtempSync(join(tmpdir(), 'mca-https-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1'].concat([
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]),
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(keyPath),
    cert: readFileSync(certPath),
    certPath,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
