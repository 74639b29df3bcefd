'use client';
/**
 * The live roster: each learner, connected or not, with lessons read, quick-check scores and exercises passed, and
 * a button to remove them (a removed learner stays listed, with a button to allow them back).
 */
import { useTranslations } from 'next-intl';
import type { RosterEntry } from '@/lib/classroom';
import { useClassroom, useClassroomClient } from './classroom-provider';
import type { CourseLesson } from './classroom-state';
import styles from './classroom.module.css';

export function Roster({ course }: { course: CourseLesson[] }) {
  const t = useTranslations('classroom');
  const roster = useClassroom((s) => s.roster);
  const seated = roster.filter((e) => !e.removed).length;
  const max = useClassroom((s) => s.info?.maxLearners ?? null);
  const exercises = course.filter((l) => l.hasExercise).length;
  return (
    <section className={styles.card} aria-labelledby="roster-title">
      <h2 id="roster-title" className={styles.cardTitle}>
        {t('roster.title')} <span className={styles.muted}>{t('roster.count', { n: seated, max: max === null ? 'none' : String(max) })}</span>
      </h2>
      {roster.length === 0 ? (
        <p className={styles.muted}>{t('roster.empty')}</p>
      ) : (
        <table className={styles.roster} data-testid="roster">
          <thead>
            <tr>
              <th scope="col">{t('roster.name')}</th>
              <th scope="col">{t('roster.read')}</th>
              <th scope="col">{t('roster.quiz')}</th>
              <th scope="col">{t('roster.exercises')}</th>
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
  const t = useTranslations('classroom');
  const client = useClassroomClient();
  const titleOf = (slug: string) => course.find((l) => l.slug === slug)?.title ?? slug;
  const removed = entry.removed === true;
  const { lessonsRead, quizScores, exercisesPassed } = entry.progress;
  const scores = Object.entries(quizScores);
  const correct = scores.reduce((sum, [, s]) => sum + s.correct, 0);
  const total = scores.reduce((sum, [, s]) => sum + s.total, 0);
  return (
    <tr data-learner={entry.name} data-connected={entry.connected} data-removed={removed}>
      <th scope="row">
        <span className={styles.presence} data-connected={entry.connected} aria-hidden="true" />
        <span className={styles.learnerName}>{entry.name}</span>
        <span className={styles.presenceWords}>{removed ? t('roster.removed') : entry.connected ? t('roster.connected') : t('roster.away')}</span>
        {/* In the name's cell, not a column of its own: the side column of a console has no room for a fifth. */}
        {removed ? (
          <button type="button" className={`${styles.secondary} ${styles.rowAction}`} aria-label={t('roster.allowBackName', { name: entry.name })} onClick={() => void client.readmitLearner(entry.learnerId, entry.name)}>
            {t('roster.allowBack')}
          </button>
        ) : (
          <button type="button" className={`${styles.danger} ${styles.rowAction}`} aria-label={t('roster.removeName', { name: entry.name })} onClick={() => void client.removeLearner(entry.learnerId, entry.name)}>
            {t('roster.remove')}
          </button>
        )}
      </th>
      <td data-testid="lessons-read" title={lessonsRead.map(titleOf).join(', ') || t('roster.noneYet')}>
        {lessonsRead.length}/{course.length}
      </td>
      <td data-testid="quiz-scores" title={scores.map(([slug, s]) => `${titleOf(slug)}: ${s.correct}/${s.total}`).join('\n') || t('roster.noneYet')}>
        {scores.length === 0 ? '–' : t('roster.right', { correct, total })}
      </td>
      <td data-testid="exercises-passed" title={exercisesPassed.map(titleOf).join(', ') || t('roster.noneYet')}>
        {exercisesPassed.length}/{exercises}
      </td>
    </tr>
  );
}
