/**
 * Starts throwaway `redis-server` processes for integration tests: free
 * loopback ports (never 6379), no persistence, and an ACL `learner` user like
 * the lab's. Stop them with `stop()` in afterAll; it kills by PID only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const LEARNER = { username: 'learner', password: 'learner-secret' } as const;

export interface TestRedis {
  port: number;
  pid: number;
  process: ChildProcess;
}

export interface TestRedisCluster {
  nodes: TestRedis[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port && port !== 6379 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

async function startOne(): Promise<TestRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port', String(port),
      '--bind', '127.0.0.1',
      '--save', '',
      '--appendonly', 'no',
      '--user', LEARNER.username, 'on', `>${LEARNER.password}`, '~*', '&*', '+@all', '-@admin', '-@dangerous', '+info',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server on ${port} exited with ${code}: ${out}`)));
  });
  child.stdout?.resume();
  child.stderr?.resume();
  if (child.pid === undefined) throw new Error('redis-server has no pid');
  return { port, pid: child.pid, process: child };
}

export async function startRedisServers(count: number): Promise<TestRedisCluster> {
  const nodes: TestRedis[] = [];
  const stop = async () => {
    await Promise.all(
      nodes.map(
        (n) =>
          new Promise<void>((resolve) => {
            if (n.process.exitCode !== null || n.process.signalCode !== null) return resolve();
            n.process.once('exit', () => resolve());
            // A SIGSTOPped node (a black-hole test) must be continued before it can exit.
            process.kill(n.pid, 'SIGCONT');
            process.kill(n.pid, 'SIGKILL');
          }),
      ),
    );
  };
  try {
    for (let i = 0; i < count; i++) nodes.push(await startOne());
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes, stop };
}
