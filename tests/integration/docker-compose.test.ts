/**
 * docker-compose.yml and the Dockerfile, checked without a Docker engine:
 * Debian's docker-compose (v1) parses, validates and normalises the file with
 * `docker-compose config`; its YAML output is read with the PyYAML that the
 * same Debian package depends on, so no YAML parser is needed in npm.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const portSchema = z.union([
  z.string(),
  z.object({ target: z.number(), published: z.union([z.number(), z.string()]), host_ip: z.string().optional() }),
]);

const composeSchema = z.object({
  services: z.record(
    z.string(),
    z.object({
      build: z.object({ context: z.string(), dockerfile: z.string().optional() }).optional(),
      image: z.string().optional(),
      environment: z.record(z.string(), z.string().nullable()).optional(),
      ports: z.array(portSchema).optional(),
      init: z.boolean().optional(),
      command: z.unknown().optional(),
      volumes: z.array(z.union([z.string(), z.object({ source: z.string().optional(), target: z.string() }).passthrough()])).optional(),
      depends_on: z.union([z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
    }),
  ),
});

type ComposeConfig = z.infer<typeof composeSchema>;

function loadComposeConfig(): ComposeConfig {
  let yaml: string;
  try {
    yaml = execFileSync('docker-compose', ['--project-directory', repoRoot, '-f', path.join(repoRoot, 'docker-compose.yml'), 'config'], {
      encoding: 'utf8',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      'docker-compose is not installed, so docker-compose.yml cannot be validated. ' +
        '`npm test` installs it (Debian package docker-compose); or run `sudo apt-get install docker-compose`.',
    );
  }
  const json = execFileSync('python3', ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
    input: yaml,
    encoding: 'utf8',
  });
  return composeSchema.parse(JSON.parse(json));
}

// `docker-compose config` takes over a second (Python start-up): run it once.
let composeConfigOnce: ComposeConfig | undefined;
function composeConfig(): ComposeConfig {
  composeConfigOnce ??= loadComposeConfig();
  return composeConfigOnce;
}

/** "127.0.0.1:3000:3000/tcp" or the long syntax, as { host, container }. */
function publishedPorts(ports: z.infer<typeof portSchema>[]): { host: number; container: number }[] {
  return ports.map((port) => {
    if (typeof port !== 'string') return { host: Number(port.published), container: port.target };
    const parts = port.replace(/\/(tcp|udp)$/, '').split(':');
    return { host: Number(parts.at(-2)), container: Number(parts.at(-1)) };
  });
}

/** Dockerfile instructions with their arguments, line continuations joined. */
function dockerfileInstructions(): { instruction: string; args: string }[] {
  const text = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [instruction = '', ...rest] = line.split(/\s+/);
      return { instruction: instruction.toUpperCase(), args: rest.join(' ') };
    });
}

const LAB_SERVERS = ['lab-a', 'lab-b'];

/** The host path of a bind mount, in either of compose's two syntaxes. */
const mountSources = (volumes: unknown[] | undefined): { source: string; target: string }[] =>
  (volumes ?? []).map((v) => {
    if (typeof v === 'string') {
      const [source = '', target = ''] = v.split(':');
      return { source, target };
    }
    const long = v as { source?: string; target: string };
    return { source: long.source ?? '', target: long.target };
  });

describe('docker-compose.yml', () => {
  test('defines two lab servers, a coordination Redis, a Postgres and an nginx proxy', () => {
    expect(Object.keys(composeConfig().services).sort()).toEqual(['coordination', 'lab-a', 'lab-b', 'postgres', 'proxy']);
  });

  test('both lab servers keep their store in the one Postgres, which keeps its data in a volume and publishes nothing', () => {
    const postgres = composeConfig().services.postgres;
    expect(postgres?.image).toMatch(/^postgres:\d+/);
    expect(postgres?.ports ?? []).toEqual([]);
    expect(mountSources(postgres?.volumes).map((m) => m.target)).toContain('/var/lib/postgresql/data');
    const { POSTGRES_USER: user, POSTGRES_DB: db, POSTGRES_PASSWORD: password } = postgres?.environment ?? {};
    for (const name of LAB_SERVERS) {
      const lab = composeConfig().services[name];
      expect(lab?.environment?.DATABASE_URL, name).toBe(`postgres://${user}:${password}@postgres:5432/${db}`);
      const dependsOn = lab?.depends_on ?? [];
      expect(Array.isArray(dependsOn) ? dependsOn : Object.keys(dependsOn), name).toContain('postgres');
    }
  });

  test('builds each lab server from the repository Dockerfile, run by the image’s own CMD', () => {
    for (const name of LAB_SERVERS) {
      const lab = composeConfig().services[name];
      expect(lab?.build?.context, name).toBe(repoRoot);
      expect(lab?.build?.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
      // The image's own CMD (the `npm start` path) runs the lab.
      expect(lab?.command).toBeUndefined();
    }
  });

  test('lab servers listen on all interfaces inside their containers, publish nothing, and share the coordination Redis', () => {
    const coordination = composeConfig().services.coordination;
    const portArg = (coordination?.command as string[] | undefined) ?? [];
    const coordinationPort = portArg[portArg.indexOf('--port') + 1];
    for (const name of LAB_SERVERS) {
      const lab = composeConfig().services[name];
      expect(lab?.environment, name).toMatchObject({ HOST: '0.0.0.0', PORT: '3000', LOCKLAB_COORDINATION_URL: `redis://coordination:${coordinationPort}` });
      // Only the proxy is reachable from the host: a browser must go through the sticky sessions.
      expect(lab?.ports ?? [], name).toEqual([]);
    }
  });

  test('the coordination Redis keeps nothing on disk and is reachable only from the lab servers', () => {
    const coordination = composeConfig().services.coordination;
    expect(coordination?.image).toMatch(/^redis:7/);
    expect(coordination?.command).toEqual(expect.arrayContaining(['--save', '', '--appendonly', 'no']));
    expect(coordination?.ports ?? []).toEqual([]);
  });

  test('nginx publishes port 3000 on loopback and balances both servers with sticky sessions and WebSocket upgrades', () => {
    const proxy = composeConfig().services.proxy;
    expect(proxy?.image).toMatch(/^nginx:/);
    expect(publishedPorts(proxy?.ports ?? [])).toEqual([{ host: 3000, container: 80 }]);
    const mount = mountSources(proxy?.volumes).find((m) => m.target === '/etc/nginx/nginx.conf');
    expect(mount?.source).toBe(path.join(repoRoot, 'deploy', 'nginx.conf'));
    const nginx = readFileSync(mount!.source, 'utf8').replace(/#.*$/gm, '');
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(nginx);
    expect(upstream?.[2]).toMatch(/\bip_hash;/);
    expect([...(upstream?.[2] ?? '').matchAll(/server\s+([\w-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual(['lab-a:3000', 'lab-b:3000']);
    expect(nginx).toMatch(new RegExp(`proxy_pass\\s+http://${upstream?.[1]};`));
    expect(nginx).toMatch(/proxy_http_version\s+1\.1;/);
    expect(nginx).toMatch(/proxy_set_header\s+Upgrade\s+\$http_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header\s+Connection\s+\$connection_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header\s+Host\s+\$http_host;/);
  });

  test('runs an init process in each lab server, so the server is not PID 1 and orphans are reaped', () => {
    for (const name of LAB_SERVERS) expect(composeConfig().services[name]?.init, name).toBe(true);
  });
});

describe('Dockerfile', () => {
  const instructions = dockerfileInstructions();
  const args = (name: string) => instructions.filter((i) => i.instruction === name).map((i) => i.args);

  test('is Debian bookworm with Node 20 and Debian redis-server', () => {
    expect(args('FROM')).toEqual(['node:20-bookworm-slim']);
    expect(args('RUN').some((run) => /apt-get install\b.*\bredis-server\b/.test(run))).toBe(true);
  });

  test('builds at image build time and starts the way `npm start` does', () => {
    const packageJson = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')));
    // `exec` lets npm's forwarded SIGTERM reach the script instead of stopping at `sh -c`.
    expect(packageJson.scripts.start).toBe('exec node scripts/locklab.mjs start');
    expect(args('RUN')).toContain('node scripts/locklab.mjs build');
    expect(args('CMD')).toEqual(['["node", "scripts/locklab.mjs", "start"]']);
    expect(args('EXPOSE')).toEqual(['3000']);
    expect(args('ENV').join(' ')).toMatch(/\bHOST=0\.0\.0\.0\b/);
  });
});
