'use client';
/** "Follow me": moves every learner's view to a lesson (and one of its scenarios). */
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useClassroom, useClassroomClient } from './classroom-provider';
import type { CourseLesson } from './classroom-state';
import styles from './classroom.module.css';

export function FollowPanel({ course }: { course: CourseLesson[] }) {
  const t = useTranslations('classroom');
  const client = useClassroomClient();
  const follow = useClassroom((s) => s.follow);
  const id = useId();
  const [lesson, setLesson] = useState(course[0]?.slug ?? '');
  const [scenario, setScenario] = useState('');
  const chosen = course.find((l) => l.slug === lesson);
  const following = follow ? course.find((l) => l.slug === follow.lesson) : undefined;

  // The form starts where the class is: after a reload, or when another of the instructor's tabs
  // moves everyone, the selects show the current place rather than the first lesson.
  useEffect(() => {
    if (!follow) return;
    setLesson(follow.lesson);
    setScenario(follow.scenario ?? '');
  }, [follow]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (lesson) void client.follow(lesson, scenario || null);
  };

  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.cardTitle}>
        {t('follow.title')}
      </h2>
      <label htmlFor={`${id}-lesson`}>{t('follow.lesson')}</label>
      <select
        id={`${id}-lesson`}
        value={lesson}
        onChange={(e) => {
          setLesson(e.target.value);
          setScenario('');
        }}
      >
        {course.map((l) => (
          <option key={l.slug} value={l.slug}>
            {l.title}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-scenario`}>{t('follow.scenario')}</label>
      <select id={`${id}-scenario`} value={scenario} onChange={(e) => setScenario(e.target.value)}>
        <option value="">{t('follow.justLesson')}</option>
        {chosen?.scenarios.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
      </select>
      <button type="submit" className={styles.primary}>
        {t('follow.move')}
      </button>
      {follow && (
        <p className={styles.muted} role="status">
          {t.rich('follow.sent', {
            strong: (c) => <strong>{c}</strong>,
            lesson: following?.title ?? follow.lesson,
            scenario: follow.scenario ? (following?.scenarios.find((s) => s.id === follow.scenario)?.title ?? follow.scenario) : 'none',
          })}
        </p>
      )}
    </form>
  );
}
