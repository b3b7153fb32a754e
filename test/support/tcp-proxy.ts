/**
 * A TCP relay on 127.0.0.1 in front of a server (e.g. the test run's PostgreSQL), which a test can cut and restore
 * to play "the database became unreachable" and "it is back" without touching the server itself.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The relay's port (stays the same across cut/restore). */
  port: number;
  /** Closes every relayed connection and stops listening: new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const makeServer = () =>
    createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  const listen = (srv: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const addr = srv.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  let server: Server | undefined = makeServer();
  const port = await listen(server, 0);
  const stop = async () => {
    const srv = server;
    server = undefined;
    for (const s of sockets) s.destroy();
    if (srv) await new Promise<void>((resolve) => srv.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    restore: async () => {
      if (server) return;
      server = makeServer();
      await listen(server, port);
    },
    close: stop,
  };
}
