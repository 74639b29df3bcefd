/**
 * A node whose port was taken between choosing it and binding it: redis-server
 * says so in a line that may arrive after its exit. The start must read that
 * line (so the node retries on another port), not just what came before the exit.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redisConfig } from '@/server/cluster/redis-config';
import { RedisNode } from '@/server/cluster/redis-node';
import { RedisProcess } from '@/server/cluster/redis-process';
import { takeLabUser } from '@/server/cluster/lab-users';

const credentials = { control: { username: 'control', password: 'c-secret' }, learner: { username: 'learner', password: 'l-secret' } } as const;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a redis-server that cannot bind its port', () => {
  it('exits, and its settled log says the address is in use', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as net.AddressInfo).port;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-redis-start-'));
    cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
    // As a lab prepares it: the node's own folder, owned by the node's user when the server drops privileges.
    fs.chmodSync(root, 0o711);
    const user = takeLabUser();
    cleanups.push(() => user.release());
    const dir = new RedisNode(1, path.join(root, 'node-1'), 'aof-always', 'master', credentials, null, user.user).dir;

    const proc = await RedisProcess.start(redisConfig({ port, persistence: 'aof-always', credentials }), dir, user.user);
    cleanups.push(async () => void (await proc.kill()));
    const exit = await proc.exited;
    expect(exit.code).not.toBe(0);
    expect((await proc.settledLog()).join('\n')).toMatch(/Address already in use/i);
  });
});
