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
      build: z.object({ context: z.string(), dockerfile: z.string().optional() }),
      environment: z.record(z.string(), z.string().nullable()).optional(),
      ports: z.array(portSchema).optional(),
      init: z.boolean().optional(),
      command: z.unknown().optional(),
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

describe('docker-compose.yml', () => {
  test('defines the lab service, built from the repository Dockerfile', () => {
    const config = composeConfig();
    expect(Object.keys(config.services)).toEqual(['lab']);
    const lab = config.services.lab;
    expect(lab?.build.context).toBe(repoRoot);
    expect(lab?.build.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
    // The image's own CMD (the `npm start` path) runs the lab.
    expect(lab?.command).toBeUndefined();
  });

  test('publishes port 3000 and listens on all interfaces inside the container', () => {
    const lab = composeConfig().services.lab;
    expect(publishedPorts(lab?.ports ?? [])).toEqual([{ host: 3000, container: 3000 }]);
    expect(lab?.environment).toMatchObject({ HOST: '0.0.0.0', PORT: '3000' });
  });

  test('runs an init process, so the server is not PID 1 and orphans are reaped', () => {
    expect(composeConfig().services.lab?.init).toBe(true);
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
