/**
 * A browser buys one identity, once: the page's sockets asking at the same
 * time share one purchase, and the server keeps a cookie that is already good
 * when a second solution arrives (another tab of the browser bought one a
 * moment ago). Two cookies would make a socket that connected with the first
 * come back after a reconnect as another browser, whose lab is not its own.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBrowserIdentity } from '@/components/lab/browser-identity';
import { solveWork } from '@/lib/identity-work';
import type { IdentityAnswer } from '@/lib/protocol';
import { BrowserIdentities } from '@/server/realtime/browser-identity';

let http: HttpServer | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  http = null;
});

async function identityServer(): Promise<{ url: string; requests: string[] }> {
  const identities = new BrowserIdentities({ secret: 'once', workBits: 8 });
  const requests: string[] = [];
  http = createServer((req, res) => {
    requests.push(req.method ?? '?');
    if (!identities.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, requests };
}

async function solution(url: string, cookie?: string): Promise<Response> {
  const answer = (await (await fetch(`${url}/identity`)).json()) as IdentityAnswer;
  if (answer.verified) throw new Error('a request without a cookie was told it has an identity');
  const nonce = await solveWork(answer.challenge, answer.bits);
  return fetch(`${url}/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ challenge: answer.challenge, nonce }),
  });
}

describe('one identity per browser', () => {
  it("the page's sockets asking at once share one purchase", async () => {
    const { url, requests } = await identityServer();
    await Promise.all([ensureBrowserIdentity(url), ensureBrowserIdentity(url), ensureBrowserIdentity(url)]);
    expect(requests).toEqual(['GET', 'POST']);
    // Asked again later (a reconnect), it asks again: the purchase is not kept past its end.
    await ensureBrowserIdentity(url);
    expect(requests).toHaveLength(4);
  });

  it('a second solution from a browser that already has a good cookie keeps that cookie', async () => {
    const { url } = await identityServer();
    const first = await solution(url);
    expect(first.status).toBe(204);
    const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!;
    const second = await solution(url, cookie);
    expect(second.status).toBe(204);
    expect(second.headers.getSetCookie()).toEqual([]);
    // A forged cookie is no identity: that browser is given one.
    const forged = await solution(url, 'locklab_browser=made-up.x');
    expect(forged.headers.getSetCookie()).toHaveLength(1);
  });
});
