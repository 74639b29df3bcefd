'use client';
/** The playground: the lab workspace with a Redlock program and no lesson text. */
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { Workspace } from '@/components/workspace/workspace';
import { PLAYGROUND_LESSON, type PlaygroundScenarioId } from './playground-lesson';

export function Playground() {
  const t = useTranslations('playground');
  // The scenarios' titles and descriptions in the page's language; their steps are the same in every language.
  const lesson = useMemo(
    () => ({
      ...PLAYGROUND_LESSON,
      title: t('title'),
      scenarios: PLAYGROUND_LESSON.scenarios.map((s) => ({
        ...s,
        title: t(`scenarios.${s.id as PlaygroundScenarioId}.title`),
        description: t(`scenarios.${s.id as PlaygroundScenarioId}.description`),
      })),
    }),
    [t],
  );
  return <Workspace lesson={lesson} />;
}
