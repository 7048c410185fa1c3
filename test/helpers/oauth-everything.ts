/**
 * server-everything over streamable HTTP behind the loopback OAuth proxy (oauth-protected-mcp.ts), for the e2e
 * tests that sign in to it. `close()` stops the proxy and then the upstream server.
 */
import { startEverythingRemote } from './everything-remote.js';
import { startOAuthProtectedMcp, type OAuthProtectedMcp } from './oauth-protected-mcp.js';

export async function startProtectedEverything(): Promise<OAuthProtectedMcp> {
  const http = await startEverythingRemote('streamableHttp');
  const stopUpstream = () => void http.child.kill('SIGKILL');
  try {
    const remote = await startOAuthProtectedMcp({ http: http.port });
    const closeProxy = remote.close;
    remote.close = () => closeProxy().finally(stopUpstream);
    return remote;
  } catch (error) {
    stopUpstream();
    throw error;
  }
}
