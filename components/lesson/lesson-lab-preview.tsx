/**
 * Until the lab workspace (components/workspace) is wired in, a lesson page
 * shows its starter code read-only and the scenarios it will offer.
 * INTEGRATION POINT: replace this with
 *   <Workspace lesson={toWorkspaceLesson(lesson)}>{text}</Workspace>
 * (see lib/lessons/workspace.ts).
 */
import type { LessonScenarioView } from '@/lib/lessons/workspace';
import styles from './lesson.module.css';

export function LessonLabPreview({ starter, scenarios }: { starter: string; scenarios: LessonScenarioView[] }) {
  return (
    <section className={styles.lab} aria-labelledby="lab-title">
      <h2 id="lab-title">Starter code</h2>
      <pre className={styles.code} tabIndex={0} aria-label="Starter code (read-only)">
        <code>{starter}</code>
      </pre>
      <h3>Scenarios</h3>
      <ul className={styles.scenarios}>
        {scenarios.map((s) => (
          <li key={s.id}>
            <span className={styles[s.role]}>{s.role === 'break' ? 'Break it' : s.role === 'fix' ? 'Fix it' : 'Explore'}</span> <strong>{s.title}</strong>
            <p>{s.description}</p>
            <p className={styles.expect}>
              Expected verdict: {s.expect}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
