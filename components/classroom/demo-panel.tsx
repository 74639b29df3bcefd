'use client';
/**
 * One-click failure demos on the class's lab: the built-in ones first, then
 * each lesson's "Break it" / "Fix it" scenarios. A seed (blank = the demo's
 * own) makes a demo replay exactly; "Replay" runs the last one again with its seed.
 */
import { useId, useState } from 'react';
import type { DemoSummary } from '@/lib/classroom';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { runBusy } from '@/components/lab/run-state';
import { useClassroom, useClassroomClient } from './classroom-provider';
import styles from './classroom.module.css';

const ROLE_WORDS = { break: 'Break it', fix: 'Fix it', explore: 'Explore' } as const;

function demoKey(d: Pick<DemoSummary, 'ref'>): string {
  return 'builtin' in d.ref ? `builtin:${d.ref.builtin}` : `${d.ref.lesson}:${d.ref.scenario}`;
}

function parseSeed(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= 2 ** 32 - 1 ? n : null;
}

export function DemoPanel() {
  const client = useClassroomClient();
  const lab = useLabClient();
  const demos = useClassroom((s) => s.demos);
  const current = useClassroom((s) => s.demo);
  const running = useLabStore((s) => runBusy(s.run));
  const id = useId();
  const [seedText, setSeedText] = useState('');
  const seed = parseSeed(seedText);

  const groups = new Map<string, DemoSummary[]>();
  for (const d of demos ?? []) {
    const group = d.lesson ? d.lesson.title : 'Failure demos';
    groups.set(group, [...(groups.get(group) ?? []), d]);
  }
  const run = (demo: DemoSummary) => {
    if (seed !== null) void client.runDemo(demo, seed);
  };

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <div className={styles.cardHead}>
        <h2 id={`${id}-title`} className={styles.cardTitle}>
          Demos
        </h2>
        <div className={styles.seedField}>
          <label htmlFor={`${id}-seed`}>Random seed</label>
          <input
            id={`${id}-seed`}
            inputMode="numeric"
            value={seedText}
            placeholder="demo's own"
            onChange={(e) => setSeedText(e.target.value)}
            aria-invalid={seed === null || undefined}
            aria-describedby={`${id}-seed-hint`}
          />
          <span id={`${id}-seed-hint`} className={styles.hint}>
            {seed === null ? 'A whole number from 0 to 4294967295.' : 'Same random seed, same schedule.'}
          </span>
        </div>
      </div>
      {current && (
        <div className={styles.row}>
          <p className={styles.muted}>
            Last: <strong>{current.title}</strong>, random seed <code>{current.seed}</code>
          </p>
          <button type="button" className={styles.secondary} onClick={() => void client.runDemo(current, current.seed)}>
            Replay (random seed {current.seed})
          </button>
          {running && (
            <button type="button" className={styles.secondary} onClick={() => void lab.stopRun()}>
              Stop
            </button>
          )}
        </div>
      )}
      {demos === null ? (
        <p className={styles.muted}>Loading the demos…</p>
      ) : (
        <div className={styles.demoGroups}>
          {[...groups].map(([group, list]) => (
            <details key={group} className={styles.demoGroup} open={group === 'Failure demos'}>
              <summary>{group}</summary>
              <ul className={styles.demoList}>
                {list.map((d) => (
                  <li key={demoKey(d)}>
                    <button
                      type="button"
                      className={d.role === 'fix' ? styles.demoFix : styles.demoBreak}
                      aria-label={`Run demo: ${d.title}`}
                      title={d.description}
                      onClick={() => run(d)}
                    >
                      <span className={styles.demoRole}>{d.lesson ? ROLE_WORDS[d.role] : d.role === 'fix' ? 'Fix' : 'Break'}</span>
                      {d.title}
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </div>
      )}
    </section>
  );
}
