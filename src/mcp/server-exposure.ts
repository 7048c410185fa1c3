/**
 * What a project's MCP server gets if the user says yes, for the trust question and the server approval: the
 * command or URL, and every `env` variable and `headers` entry by name, marked when its value expands a secret of
 * the user's environment, points into the repository or makes the program load code (NODE_OPTIONS=--require …).
 */
import { describeVariable, secretReferences, type TrustItem } from '../permissions/trust-items.js';
import { describeServer, type ServerConfig } from './server-config.js';

/** The detail lines of one server: its env, its headers, and any secret its command line or URL expands. */
export function serverExposure(server: ServerConfig, projectRoot: string): string[] {
  const written = server.written;
  const env = written?.env ?? (server.type === 'stdio' ? server.env : {});
  const headers = written?.headers ?? (server.type === 'stdio' ? {} : server.headers);
  const lines: string[] = [];
  for (const [name, value] of Object.entries(env)) lines.push(`env ${describeVariable(name, value, projectRoot).text}`);
  for (const [name, value] of Object.entries(headers)) {
    const secrets = secretReferences(value);
    lines.push(
      secrets.length > 0
        ? `header ${name}: ${value.length > 80 ? `${value.slice(0, 77)}...` : value}: sends ${secrets.map((secret) => `\${${secret}}`).join(', ')} from your environment to this server`
        : `header ${name}`,
    );
  }
  const rest = secretReferences((written?.rest ?? []).join(' '));
  if (rest.length > 0) {
    const where = server.type === 'stdio' ? 'its command line' : 'its URL';
    lines.push(`${where} expands ${rest.map((secret) => `\${${secret}}`).join(', ')} from your environment`);
  }
  return lines;
}

/** The trust question's item for a project server: always shown (it runs a program or reaches a host). */
export function serverTrustItem(server: ServerConfig, projectRoot: string): TrustItem {
  const what = server.type === 'stdio' ? `runs ${describeServer(server)}` : `connects to ${describeServer(server)}`;
  return {
    group: 'mcp',
    text: `"${server.name}" ${what} (.mcp.json)`,
    danger: true,
    details: serverExposure(server, projectRoot),
  };
}
