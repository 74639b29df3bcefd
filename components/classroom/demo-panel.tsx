'use client';
/**
 * One-click failure demos on the class's lab: the built-in ones first, then
 * each lesson's "Break it" / "Fix it" scenarios. A seed (blank = the demo's
 * own) makes a demo replay exactly; "Replay" runs the last one again with its seed.
 */
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { DemoSummary } from '@/lib/classroom';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { runBusy } from '@/components/lab/run-state';
import { useClassroom, useClassroomClient } from './classroom-provider';
import type { CourseLesson } from './classroom-state';
import { useDemoWords } from './demo-words';
import styles from './classroom.module.css';

/** The built-in demos' group, keyed apart from any lesson's title. */
const BUILTIN = '';

function demoKey(d: Pick<DemoSummary, 'ref'>): string {
  return 'builtin' in d.ref ? `builtin:${d.ref.builtin}` : `${d.ref.lesson}:${d.ref.scenario}`;
}

function parseSeed(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= 2 ** 32 - 1 ? n : null;
}

export function DemoPanel({ course }: { course: CourseLesson[] }) {
  const t = useTranslations('classroom');
  const words = useDemoWords(course);
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
    const group = d.lesson ? words.lesson(d.lesson) : BUILTIN;
    groups.set(group, [...(groups.get(group) ?? []), d]);
  }
  const run = (demo: DemoSummary) => {
    if (seed !== null) void client.runDemo(demo, seed);
  };

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <div className={styles.cardHead}>
        <h2 id={`${id}-title`} className={styles.cardTitle}>
          {t('demos.title')}
        </h2>
        <div className={styles.seedField}>
          <label htmlFor={`${id}-seed`}>{t('demos.seed')}</label>
          <input
            id={`${id}-seed`}
            inputMode="numeric"
            value={seedText}
            placeholder={t('demos.seedPlaceholder')}
            onChange={(e) => setSeedText(e.target.value)}
            aria-invalid={seed === null || undefined}
            aria-describedby={`${id}-seed-hint`}
          />
          <span id={`${id}-seed-hint`} className={styles.hint}>
            {seed === null ? t('demos.seedInvalid') : t('demos.seedHint')}
          </span>
        </div>
      </div>
      {current && (
        <div className={styles.row}>
          <p className={styles.muted}>
            {t.rich('demos.last', { strong: (c) => <strong>{c}</strong>, code: (c) => <code>{c}</code>, title: words.started(current), seed: current.seed })}
          </p>
          <button type="button" className={styles.secondary} onClick={() => void client.runDemo(current, current.seed)}>
            {t('demos.replay', { seed: current.seed })}
          </button>
          {running && (
            <button type="button" className={styles.secondary} onClick={() => void lab.stopRun()}>
              {t('demos.stop')}
            </button>
          )}
        </div>
      )}
      {demos === null ? (
        <p className={styles.muted}>{t('demos.loading')}</p>
      ) : (
        <div className={styles.demoGroups}>
          {[...groups].map(([group, list]) => (
            <details key={group} className={styles.demoGroup} open={group === BUILTIN}>
              <summary>{group === BUILTIN ? t('demos.failureDemos') : group}</summary>
              <ul className={styles.demoList}>
                {list.map((d) => (
                  <li key={demoKey(d)}>
                    <button
                      type="button"
                      className={d.role === 'fix' ? styles.demoFix : styles.demoBreak}
                      aria-label={t('demos.run', { title: words.title(d) })}
                      title={words.description(d)}
                      onClick={() => run(d)}
                    >
                      <span className={styles.demoRole}>{d.lesson ? t(`demos.role.${d.role}`) : t(`demos.builtinRole.${d.role === 'fix' ? 'fix' : 'break'}`)}</span>
                      {words.title(d)}
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
