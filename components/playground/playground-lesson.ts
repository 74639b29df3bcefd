/**
 * The playground as a "lesson" for the workspace: a Redlock program over
 * five masters, and a few ready-made ways to break it.
 */
import type { Scenario } from '@/lib/scenario';
import type { WorkspaceLesson } from '@/components/workspace/types';

export const PLAYGROUND_STARTER = `// Playground: every client runs this program at the same time.
// Press Run (Ctrl+Enter), then break things: kill a node, pause a client, cut a link.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((n) => new Redis({ host: \`redis-\${n}.internal\`, port: 6379 }));
const redlock = new Redlock(nodes, { retryCount: 40, retryDelay: 100, retryJitter: 50 });

for (let round = 1; round <= 4; round++) {
  const lock = await redlock.acquire(['lock:report'], 1_000);
  try {
    lab.log(\`round \${round}: holding the lock\`);
    await lab.job('report').run(200);
  } finally {
    await lock.release().catch((error) => lab.log(\`release failed: \${error.message}\`));
  }
  await lab.sleep(50);
}
nodes.forEach((node) => node.disconnect());
`;

export type PlaygroundScenarioId = 'kill-two-nodes' | 'gc-pause';

// Written out in full (the schema's output form) so the page needs no zod in the browser.
// The English title and description are also in messages/en/playground.json, which the page shows in its language.
const scenarios: (Scenario & { id: PlaygroundScenarioId })[] = [
  {
    id: 'kill-two-nodes',
    title: 'Kill two nodes mid-run (Redlock keeps a majority)',
    description: 'Node 2 dies at 0.5 s and Node 4 at 1 s; three of five nodes are still a majority.',
    seed: 1,
    clients: 3,
    staggerMs: 0,
    jitterMs: 0,
    steps: [
      { at: 500, action: 'node-kill', node: 2 },
      { at: 1_000, action: 'node-kill', node: 4 },
    ],
  },
  {
    id: 'gc-pause',
    title: 'A long GC pause on Client 1',
    description: 'Client 1 stops for 1.5 s at 0.3 s, longer than its lock lives.',
    seed: 1,
    clients: 3,
    staggerMs: 0,
    jitterMs: 0,
    steps: [{ at: 300, action: 'client-pause', client: 1, durationMs: 1_500 }],
  },
];

export const PLAYGROUND_LESSON: WorkspaceLesson = {
  slug: 'playground',
  title: 'Playground',
  starter: PLAYGROUND_STARTER,
  scenarios,
  defaultScenario: null,
  defaultClients: 3,
  topology: { kind: 'masters', nodes: 5, persistence: 'none' },
  // The Arabic production write-up's experiment, as in lesson 8.
  experiment: true,
};
