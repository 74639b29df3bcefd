'use client';
/** The live roster: each learner, connected or not, with lessons read, quick-check scores and exercises passed. */
import type { RosterEntry } from '@/lib/classroom';
import { useClassroom } from './classroom-provider';
import type { CourseLesson } from './classroom-state';
import styles from './classroom.module.css';

export function Roster({ course }: { course: CourseLesson[] }) {
  const roster = useClassroom((s) => s.roster);
  const max = useClassroom((s) => s.info?.maxLearners ?? null);
  const exercises = course.filter((l) => l.hasExercise).length;
  return (
    <section className={styles.card} aria-labelledby="roster-title">
      <h2 id="roster-title" className={styles.cardTitle}>
        Learners{' '}
        <span className={styles.muted}>
          ({roster.length}
          {max !== null ? ` of at most ${max}` : ''})
        </span>
      </h2>
      {roster.length === 0 ? (
        <p className={styles.muted}>Nobody has joined yet. Learners open the join link, or type the code at /classroom, and give a name.</p>
      ) : (
        <table className={styles.roster} data-testid="roster">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Read</th>
              <th scope="col">Quick checks</th>
              <th scope="col">Exercises</th>
            </tr>
          </thead>
          <tbody>
            {roster.map((entry) => (
              <RosterRow key={entry.learnerId} entry={entry} course={course} exercises={exercises} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RosterRow({ entry, course, exercises }: { entry: RosterEntry; course: CourseLesson[]; exercises: number }) {
  const titleOf = (slug: string) => course.find((l) => l.slug === slug)?.title ?? slug;
  const { lessonsRead, quizScores, exercisesPassed } = entry.progress;
  const scores = Object.entries(quizScores);
  const correct = scores.reduce((sum, [, s]) => sum + s.correct, 0);
  const total = scores.reduce((sum, [, s]) => sum + s.total, 0);
  return (
    <tr data-learner={entry.name} data-connected={entry.connected}>
      <th scope="row">
        <span className={styles.presence} data-connected={entry.connected} aria-hidden="true" />
        {entry.name}
        <span className={styles.presenceWords}>{entry.connected ? 'connected' : 'away'}</span>
      </th>
      <td data-testid="lessons-read" title={lessonsRead.map(titleOf).join(', ') || 'none yet'}>
        {lessonsRead.length}/{course.length}
      </td>
      <td data-testid="quiz-scores" title={scores.map(([slug, s]) => `${titleOf(slug)}: ${s.correct}/${s.total}`).join('\n') || 'none yet'}>
        {scores.length === 0 ? '–' : `${correct}/${total} right`}
      </td>
      <td data-testid="exercises-passed" title={exercisesPassed.map(titleOf).join(', ') || 'none yet'}>
        {exercisesPassed.length}/{exercises}
      </td>
    </tr>
  );
}
